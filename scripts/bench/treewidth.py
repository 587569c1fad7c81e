#!/usr/bin/env python3
"""Seed 003's exact table: the best DAG of treewidth at most W by `bnsl learn --treewidth W`.

For each data set of ../shared/instances/data/ebnsl_csv, scores it once (BDeu ess 1,
parent limit 3, `bnsl score`), then for each W and each back-end runs
`bnsl learn SCORES --treewidth W --backend B --time-limit T --json` and prints the
status, score, bound, gap, the answer's treewidth and the wall time, one row per cell.
Every answer is checked with `bnsl verify --treewidth W --decomposition` on the JSON the
run wrote.

Usage: scripts/bench/treewidth.py BIN
Environment: DATA (comma list, default tic-tac-toe,wine,adult,nltcs,voting,zoo), WIDTHS
             (default 2,3,4,5), BACKENDS (default scip; `dp` runs `--method dp`, the
             branch and bound on the DP, instead of the MILP), TIME_LIMIT (seconds per run,
             default 600), EXTRA (more flags for every learn run, e.g.
             "--treewidth-form paper --no-root-cuts").
"""
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.join(HERE, "..", "..", "..", "shared", "instances", "data", "ebnsl_csv")


def env_list(name, default):
    return [x for x in os.environ.get(name, default).split(",") if x]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    binary = sys.argv[1]
    data = env_list("DATA", "tic-tac-toe,wine,adult,nltcs,voting,zoo")
    widths = [int(w) for w in env_list("WIDTHS", "2,3,4,5")]
    backends = env_list("BACKENDS", "scip")
    limit = os.environ.get("TIME_LIMIT", "600")
    extra = os.environ.get("EXTRA", "").split()
    work = tempfile.mkdtemp(prefix="bnsl_tw_")
    print(f"| data | n | W | back-end | status | score | bound | gap % | treewidth | wall s |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name in data:
        scores = os.path.join(work, f"{name}.jkl")
        subprocess.run(
            [binary, "score", os.path.join(SHARED, f"{name}.csv"), "--score", "bdeu",
             "--ess", "1", "--max-parents", "3", "-o", scores],
            check=True, capture_output=True)
        n = int(open(scores).readline())
        for w in widths:
            for backend in backends:
                out = os.path.join(work, f"{name}_{w}_{backend}.json")
                began = time.time()
                how = ["--method", "dp"] if backend == "dp" else ["--backend", backend]
                run = subprocess.run(
                    [binary, "learn", scores, "--treewidth", str(w), "--time-limit", limit,
                     "--json"] + how + extra,
                    capture_output=True, text=True)
                wall = time.time() - began
                if run.returncode != 0:
                    print(f"| {name} | {n} | {w} | {backend} | error: {run.stderr.strip()[-120:]} |")
                    continue
                r = json.loads(run.stdout)
                open(out, "w").write(run.stdout)
                status = r["status"]
                if r.get("parents") is not None:
                    verified = subprocess.run(
                        [binary, "verify", "--scores", scores, "--dag", out, "--treewidth",
                         str(w), "--decomposition", out], capture_output=True, text=True)
                    status = status if verified.returncode == 0 else "UNVERIFIED"
                gap = r.get("gap")
                gap = "-" if gap is None else f"{100 * gap:.3f}"
                fmt = lambda x: "-" if x is None else f"{x:.2f}"
                print(f"| {name} | {n} | {w} | {backend} | {status} | {fmt(r['score'])} | "
                      f"{fmt(r['bound'])} | {gap} | {r.get('treewidth', '-')} | {wall:.1f} |",
                      flush=True)


if __name__ == "__main__":
    main()
