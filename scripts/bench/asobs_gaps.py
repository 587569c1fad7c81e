#!/usr/bin/env python3
"""ASOBS against the known optima of ../shared/instances/ground_truth/optima.csv.

For every score file (rows under jkl/ with a numeric optimum), runs
`bnsl learn FILE --method asobs --time-limit T --seed 1 --json` and prints a markdown table:
optimum, ASOBS score, gap in score units (optimum - score, >= 0), relative gap, when the
best DAG was found, and restarts. With OBS=1 it adds Theorem 3 of seed 001 on the same
orders: OBS and ASOBS, both without local search, on the same R restarts (same seed, so the
same random orders); ASOBS's best can never be below OBS's.

Usage: scripts/bench/asobs_gaps.py BIN
Environment: TIME (seconds per run, default 10), OBS (1: add the OBS/ASOBS columns),
             R (restarts of that comparison, default 1000), LOCAL_SEARCH (insertion,
             bnsl's default, or swap: the local search of the timed runs).
"""
import csv
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.join(HERE, "..", "..", "..", "shared", "instances")


def learn(bin_, path, method, limit):
    out = subprocess.run([bin_, "learn", path, "--method", method, "--seed", "1", "--json"]
                         + limit, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"{path}: {out.stderr.strip()}")
    return json.loads(out.stdout)


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    bin_ = sys.argv[1]
    t = float(os.environ.get("TIME", "10"))
    with_obs = os.environ.get("OBS") == "1"
    local_search = os.environ.get("LOCAL_SEARCH", "insertion")
    rows = []
    with open(os.path.join(SHARED, "ground_truth", "optima.csv")) as f:
        for r in csv.DictReader(f):
            try:
                opt = float(r["optimum"])
            except ValueError:
                continue
            if r["instance"].startswith("jkl/"):
                rows.append((r["instance"], opt))
    print(f"ASOBS, {t} s, seed 1, all threads, {local_search} local search\n")
    head = "| score file | n | optimum | ASOBS | gap | rel. gap | found at s | restarts |"
    if with_obs:
        r = int(os.environ.get("R", "1000"))
        head += f" OBS, {r} orders | ASOBS, same orders | ASOBS - OBS |"
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    for inst, opt in rows:
        rep = learn(bin_, os.path.join(SHARED, inst), "asobs",
                    ["--time-limit", str(t), "--local-search", local_search])
        n = len(rep["parents"])
        s = rep["score"]
        line = (f"| {inst} | {n} | {opt:.6f} | {s:.6f} | {opt - s:.6f} | "
                f"{(opt - s) / abs(opt):.2e} | {rep['found_at_s']:.3f} | {rep['restarts']} |")
        if with_obs:
            same = ["--restarts", str(r), "--no-local-search"]
            o = learn(bin_, os.path.join(SHARED, inst), "obs", same)["score"]
            a = learn(bin_, os.path.join(SHARED, inst), "asobs", same)["score"]
            line += f" {o:.6f} | {a:.6f} | {a - o:+.6f} |"
        print(line, flush=True)


if __name__ == "__main__":
    main()
