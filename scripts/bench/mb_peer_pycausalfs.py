#!/usr/bin/env python3
"""A peer for the Markov-blanket protocol (issue 5, seed 000 §5.1): the BAMB, IAMB and
HITON-MB of pyCausalFS (PyPI `pycausalfs` 0.23, the Python MB toolbox of Kui Yu's
group, the BAMB authors' group) on exactly the samples that scripts/bench/mb_protocol.sh
gives bnsl (`bnsl sample NET.bif -n N --seed S`, S = 1..SEEDS), scored the same way:
per target precision, recall and F1 against the true blanket of the network (an empty
answer has precision 1), averaged over the targets of a sample, then mean ± sd over
the samples.

The package is called as shipped: its G² test counts tables row by row in Python, so a
whole run takes about half an hour per algorithm on 2 cores (alarm at 5,000 rows:
about 1.7 s per target). Its columns are integer codes: each column's states, sorted
as text, become 0..k-1.

Usage: scripts/bench/mb_peer_pycausalfs.py [NETWORK ...]   (default: child insurance alarm)
Environment: SEEDS (default 10), SIZES (default "1000 5000"), ALGS (default "BAMB IAMB
HITON-MB"), BNSL (default target/release/bnsl), BIF_DIR (default
../shared/instances/bif/bnlearn_pgmpy), VENV (default /tmp/bnsl-pycausalfs-venv).
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SHARED = os.path.normpath(os.path.join(ROOT, "..", "shared", "instances"))
TRUTH = os.path.join(SHARED, "ground_truth", "markov_blankets", "bnlearn_markov_blankets.json")
PACKAGE = "pycausalfs==0.23"
ALPHA = 0.01


def in_venv():
    """Re-runs this script inside a venv holding the package (made on first use)."""
    venv = os.environ.get("VENV", "/tmp/bnsl-pycausalfs-venv")
    python = os.path.join(venv, "bin", "python")
    if os.path.realpath(sys.prefix) == os.path.realpath(venv):
        return
    if not os.path.exists(python):
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
        subprocess.run([python, "-m", "pip", "install", "--quiet", PACKAGE], check=True)
    os.execv(python, [python] + sys.argv)


def encoded(path):
    """The sample at `path` as the package wants it: integer-coded columns 0..n-1."""
    import pandas as pd

    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    codes = {i: pd.factorize(frame[c], sort=True)[0] for i, c in enumerate(frame.columns)}
    return pd.DataFrame(codes), list(frame.columns)


def scores(found, true):
    """Precision, recall and F1 of one blanket (an empty answer has precision 1)."""
    hits = len(found & true)
    precision = hits / len(found) if found else 1.0
    recall = hits / len(true) if true else 1.0
    f1 = 2 * precision * recall / (precision + recall) if hits else float(not true and not found)
    return precision, recall, f1


def run_sample(algorithm, path, truth):
    """Mean precision, recall, F1, CI tests and seconds per target over every target."""
    data, names = encoded(path)
    rows = []
    for t, name in enumerate(names):
        began = time.perf_counter()
        mb, ci_tests = algorithm(data, t, ALPHA, True)
        seconds = time.perf_counter() - began
        found = {names[i] for i in mb}
        rows.append(scores(found, set(truth[name]["markov_blanket"])) + (ci_tests, seconds))
    return [statistics.mean(column) for column in zip(*rows)]


def main():
    in_venv()
    from pyCausalFS.CBD.MBs.BAMB import BAMB
    from pyCausalFS.CBD.MBs.HITON.HITON_MB import HITON_MB
    from pyCausalFS.CBD.MBs.IAMB import IAMB

    algorithms = {"BAMB": BAMB, "IAMB": IAMB, "HITON-MB": HITON_MB}
    nets = sys.argv[1:] or ["child", "insurance", "alarm"]
    seeds = int(os.environ.get("SEEDS", "10"))
    sizes = [int(s) for s in os.environ.get("SIZES", "1000 5000").split()]
    chosen = os.environ.get("ALGS", "BAMB IAMB HITON-MB").split()
    bnsl = os.environ.get("BNSL", os.path.join(ROOT, "target", "release", "bnsl"))
    bif_dir = os.environ.get("BIF_DIR", os.path.join(SHARED, "bif", "bnlearn_pgmpy"))
    truth = json.load(open(TRUTH))
    print("| network | rows | algorithm | F1 | precision | recall | CI tests / target | s / target |")
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as work:
        for net in nets:
            for n in sizes:
                paths = []
                for seed in range(1, seeds + 1):
                    path = os.path.join(work, f"{net}_{n}_{seed}.csv")
                    subprocess.run([bnsl, "sample", os.path.join(bif_dir, f"{net}.bif"),
                                    "-n", str(n), "--seed", str(seed), "-o", path],
                                   check=True, stderr=subprocess.DEVNULL)
                    paths.append(path)
                for name in chosen:
                    per_sample = [run_sample(algorithms[name], p, truth[net]["nodes"]) for p in paths]
                    p, r, f1, ci, s = zip(*per_sample)
                    sd = statistics.stdev(f1) if len(f1) > 1 else 0.0
                    print(f"| {net} | {n} | {name} | {statistics.mean(f1):.3f} ± {sd:.3f} "
                          f"| {statistics.mean(p):.3f} | {statistics.mean(r):.3f} "
                          f"| {statistics.mean(ci):.0f} | {statistics.mean(s):.3f} |", flush=True)


if __name__ == "__main__":
    main()
