#!/usr/bin/env python3
"""Seed 003's heuristic tables (3 and 4): k-tree sampling against the MILP's incumbent.

For each data set of ../shared/instances/data/ebnsl_csv, scores it once (BDeu ess 1,
parent limit 3), then for each W runs `bnsl learn --method ktree --treewidth W` for
SEEDS seeds with a time limit of BUDGET seconds (min / median / max score), and
`bnsl learn --method ilp --treewidth W` with the same limit (its incumbent and bound).
Every answer is checked by `bnsl verify --treewidth W --decomposition`.

Usage: scripts/bench/ktree.py BIN
Environment: DATA (comma list, default the paper's and the issue's sets), WIDTHS
             (default 4,10), SEEDS (default 10), BUDGET (seconds, default 60).
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.join(HERE, "..", "..", "..", "shared", "instances", "data", "ebnsl_csv")
DEFAULT = "adult,letter,mushroom,wdbc,zoo,spectf,sponge,hailfinder500,lung-cancer,alarm"


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
    work = tempfile.mkdtemp(prefix="bnsl_ktree_")
    print(f"| data | n | W | ktree min | ktree median | ktree max | MILP incumbent | MILP bound |")
    print("|---|---|---|---|---|---|---|---|")
    for name in env_list("DATA", DEFAULT):
        scores = os.path.join(work, f"{name}.jkl")
        subprocess.run([binary, "score", os.path.join(SHARED, f"{name}.csv"), "--score", "bdeu",
                        "--ess", "1", "--max-parents", "3", "-o", scores],
                       check=True, capture_output=True)
        n = int(open(scores).readline())
        for w in [int(x) for x in env_list("WIDTHS", "4,10")]:
            found = []
            for seed in range(1, seeds + 1):
                r = run(binary, scores, w, ["--method", "ktree", "--time-limit", budget,
                                            "--seed", str(seed)])
                if r and r.get("score") is not None and r["status"] != "UNVERIFIED":
                    found.append(r["score"])
            milp = run(binary, scores, w, ["--method", "ilp", "--time-limit", budget])
            fmt = lambda x: "-" if x is None else f"{x:.2f}"
            inc = milp.get("score") if milp and milp["status"] != "UNVERIFIED" else None
            bound = milp.get("bound") if milp else None
            if found:
                row = f"{fmt(min(found))} | {fmt(statistics.median(found))} | {fmt(max(found))}"
            else:
                row = "- | - | -"
            print(f"| {name} | {n} | {w} | {row} | {fmt(inc)} | {fmt(bound)} |", flush=True)


if __name__ == "__main__":
    main()
