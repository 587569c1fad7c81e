#!/usr/bin/env python3
"""Seed 002 Table 1 (BIC, no parent limit beyond pruning) by `bnsl learn --collect`.

For each data set of ../shared/instances/data/ebnsl_csv and each Bayes factor, runs
`bnsl learn DATA --score bic --max-parents 100 --collect --bayes-factor BF --json`
(the pruning gap is set from BF) and prints bnsl's |G| (networks), its seed-002
grouping |M| (collider_classes), the Markov equivalence classes, the networks admitted
by the tolerance, status and time, beside the paper's |G| / |M| / T.

Usage: scripts/bench/collection.py BIN
Environment: DATA (comma list of data set names, default the paper's sets up to 25
             variables), BF (comma list, default 3,20,150), TIME_LIMIT (seconds per run,
             default 600).
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.join(HERE, "..", "..", "..", "shared", "instances", "data", "ebnsl_csv")

# Seed 002, Table 1: (|G|, |M|, T s) per data set and Bayes factor; None: the limit.
PAPER = {
    "tic-tac-toe": {3: (192, 64, 1.9), 20: (192, 64, 2.0), 150: (544, 160, 3.3)},
    "wine": {3: (308, 51, 4.1), 20: (3449, 576, 24.9), 150: (26197, 4497, 143.7)},
    "adult": {3: (324, 162, 17.5), 20: (1140, 570, 45.1), 150: (2281, 1137, 55.7)},
    "nltcs": {3: (240, 120, 53.8), 20: (1200, 600, 201.7), 150: (4606, 2303, 1005.1)},
    "voting": {3: (27, 2, 1.3), 20: (441, 33, 4.0), 150: (2222, 170, 14.3)},
    "zoo": {3: (49, 13, 8.1), 20: (1111, 270, 21.9), 150: (21683, 5392, 299.3)},
    "hepatitis": {3: (580, 105, 7.1), 20: (87169, 15358, 513.3), 150: None},
}


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    bin_ = sys.argv[1]
    names = os.environ.get("DATA", ",".join(PAPER)).split(",")
    bfs = [int(b) for b in os.environ.get("BF", "3,20,150").split(",")]
    limit = os.environ.get("TIME_LIMIT", "600")
    print("| data | BF | paper \\|G\\| / \\|M\\| / T s | bnsl \\|G\\| | collider classes | Markov classes | in tolerance | status | time s | G, M as paper |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name in names:
        path = os.path.join(SHARED, f"{name}.csv")
        for bf in bfs:
            out = subprocess.run(
                [bin_, "learn", path, "--score", "bic", "--max-parents", "100", "--collect",
                 "--bayes-factor", str(bf), "--time-limit", limit, "--json"],
                capture_output=True, text=True)
            if out.returncode not in (0, 130):
                print(f"| {name} | {bf} | | error: {out.stderr.strip()[:120]} |||||||")
                continue
            r = json.loads(out.stdout)
            paper = PAPER.get(name, {}).get(bf)
            shown = "150,000 (limit)" if paper is None else f"{paper[0]:,} / {paper[1]:,} / {paper[2]}"
            same = "" if paper is None else ("yes" if (r["networks"], r["collider_classes"]) == paper[:2] else "no")
            print(f"| {name} | {bf} | {shown} | {r['networks']:,} | {r['collider_classes']:,} | "
                  f"{r['classes']:,} | {r['in_tolerance']} | {r['status']} | {r['time_s']:.3f} | {same} |")


if __name__ == "__main__":
    main()
