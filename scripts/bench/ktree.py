#!/usr/bin/env python3
"""Seed 003's heuristic tables (3 and 4): k-tree sampling against the MILP's incumbent.

For each data set (a name of ../shared/instances/data/ebnsl_csv, or a path under
../shared/instances/data such as twilp_format/netflix_100.data), scores it once (BDeu
ess 1, parent limit 3), then for each W and each version runs `bnsl learn --method ktree
--ktree-version V --treewidth W` for SEEDS seeds with a time limit of BUDGET seconds (min /
median / max score), and `bnsl learn --method ilp --treewidth W` with the same limit (its
incumbent and bound). Version 1 is skipped above W = 6, which it refuses. Every answer is
checked by `bnsl verify --treewidth W --decomposition`.

Usage: scripts/bench/ktree.py BIN
Environment: DATA (comma list, default the paper's and the issue's sets), WIDTHS
             (default 4,10), VERSIONS (default 1,2), SEEDS (default 10), BUDGET (seconds,
             default 60), CLIMB (steps of each restart's climb, `--ktree-climb`; default
             bnsl's), START (`--ktree-start`; default bnsl's, asobs). CLIMB=0 START=none
             is the paper's sampling alone. FIRST_SEED (default 1) runs seeds FIRST_SEED
             to FIRST_SEED + SEEDS - 1, so a long protocol can be split over runs;
             MILP=0 leaves out the MILP's runs (its columns then print `-`).
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "..", "shared", "instances", "data")
DEFAULT = ("adult,letter,mushroom,wdbc,zoo,spectf,sponge,hailfinder500,lung-cancer,alarm,"
           "twilp_format/netflix_100.data")
VERSION_1_MAX_WIDTH = 6


def data_path(name):
    if "/" in name:
        return os.path.join(DATA, name)
    return os.path.join(DATA, "ebnsl_csv", f"{name}.csv")


def summary(found):
    fmt = lambda x: f"{x:.2f}"
    if not found:
        return "- | - | -"
    return f"{fmt(min(found))} | {fmt(statistics.median(found))} | {fmt(max(found))}"


def env_list(name, default):
    return [x for x in os.environ.get(name, default).split(",") if x]


def run(binary, scores, w, extra):
    out = subprocess.run([binary, "learn", scores, "--treewidth", str(w), "--json"] + extra,
                         capture_output=True, text=True)
    if out.returncode != 0:
        return None
    r = json.loads(out.stdout)
    if r.get("parents") is not None:
        fd, path = tempfile.mkstemp(suffix=".json")
        os.write(fd, out.stdout.encode())
        os.close(fd)
        ok = subprocess.run([binary, "verify", "--scores", scores, "--dag", path, "--treewidth",
                             str(w), "--decomposition", path], capture_output=True)
        os.unlink(path)
        if ok.returncode != 0:
            r["status"] = "UNVERIFIED"
    return r


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    binary = sys.argv[1]
    budget = os.environ.get("BUDGET", "60")
    seeds = int(os.environ.get("SEEDS", "10"))
    first_seed = int(os.environ.get("FIRST_SEED", "1"))
    with_milp = os.environ.get("MILP", "1") != "0"
    work = tempfile.mkdtemp(prefix="bnsl_ktree_")
    versions = env_list("VERSIONS", "1,2")
    climb = ["--ktree-climb", os.environ["CLIMB"]] if os.environ.get("CLIMB") else []
    climb += ["--ktree-start", os.environ["START"]] if os.environ.get("START") else []
    head = "".join(f" V{v} min | V{v} median | V{v} max |" for v in versions)
    print(f"| data | n | W |{head} MILP incumbent | MILP bound |")
    print("|---|---|---|" + "---|" * (3 * len(versions)) + "---|---|")
    for name in env_list("DATA", DEFAULT):
        label = os.path.basename(name).split(".")[0]
        scores = os.path.join(work, f"{label}.jkl")
        subprocess.run([binary, "score", data_path(name), "--score", "bdeu",
                        "--ess", "1", "--max-parents", "3", "-o", scores],
                       check=True, capture_output=True)
        n = int(open(scores).readline())
        for w in [int(x) for x in env_list("WIDTHS", "4,10")]:
            cells = []
            for v in versions:
                if v == "1" and w > VERSION_1_MAX_WIDTH:
                    cells.append("n/a | n/a | n/a")
                    continue
                found = []
                for seed in range(first_seed, first_seed + seeds):
                    r = run(binary, scores, w, ["--method", "ktree", "--ktree-version", v,
                                                "--time-limit", budget, "--seed", str(seed)]
                                 + climb)
                    if r and r.get("score") is not None and r["status"] != "UNVERIFIED":
                        found.append(r["score"])
                cells.append(summary(found))
            milp = (run(binary, scores, w, ["--method", "ilp", "--time-limit", budget])
                    if with_milp else None)
            fmt = lambda x: "-" if x is None else f"{x:.2f}"
            inc = milp.get("score") if milp and milp["status"] != "UNVERIFIED" else None
            bound = milp.get("bound") if milp else None
            print(f"| {label} | {n} | {w} | {' | '.join(cells)} | {fmt(inc)} | {fmt(bound)} |",
                  flush=True)


if __name__ == "__main__":
    main()
