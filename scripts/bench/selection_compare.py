#!/usr/bin/env python3
"""Parent-set identification compared in the manner of seed 001 Table 2.

For every data set, each strategy (independence, greedy, sequential selection) explores
parent sets with the same time budget per variable and the same parent limit, then ASOBS
learns a network from each candidate table with the same time limit and seed. The table
reports the network BIC of each strategy and dBIC = BIC(IS) - BIC(other), binned as in
seed 001 (|dBIC| > 10 very, 6..10 strongly, 2..6 positive/negative, else neutral), and a
one-sided sign test of IS against each alternative (ties dropped). It also reports, per
strategy, the sum over variables of the best local score found (an upper bound on any
network's score from that table, and the direct measure of "higher-scoring parent sets"),
and the same dBIC bins and sign test on that sum.

Usage: scripts/bench/selection_compare.py BIN [DATA ...]
  BIN    the bnsl binary (cargo build --release)
  DATA   data sets (default: every ../shared/instances/data/ebnsl_csv/*.csv and
         data/twilp_format/netflix_100.data)
Environment: TIME_PER_VAR (seconds, default 0.1), MAX_PARENTS (default 6), DP_MAX (default 20),
             ASOBS_TIME (seconds, default 5), SCORE (bic|bdeu, default bic),
             STRATEGIES (default "independence greedy sequential").
"""
import glob
import json
import math
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SHARED = os.path.join(REPO, "..", "shared", "instances", "data")


def run_json(cmd):
    out = subprocess.run(cmd, check=True, capture_output=True, text=True)
    return out


def best_sum(jkl):
    """Sum over the variables of the best local score in a jkl file."""
    with open(jkl) as f:
        lines = [l.split() for l in f if l.strip() and not l.startswith("#")]
    n, i, total = int(lines[0][0]), 1, 0.0
    for _ in range(n):
        k = int(lines[i][1])
        total += max(float(t[0]) for t in lines[i + 1:i + 1 + k])
        i += 1 + k
    return total


def n_vars(path):
    """Number of variables: TWILP files start with n, CSV files have n columns."""
    with open(path) as f:
        first = f.readline()
    return int(first) if first.strip().isdigit() else len(first.split(","))


def learn(bin_, data, search, args, tmp):
    jkl = os.path.join(tmp, f"{search}.jkl")
    t0 = time.time()
    out = run_json([bin_, "score", data, "--score", args["score"], "--search", search,
                    "--max-parents", str(args["k"]), "--time-per-var", str(args["t"]),
                    "-o", jkl])
    score_s = time.time() - t0
    kept = out.stderr.split(" kept")[0].rsplit(", ", 1)[-1]
    if n_vars(data) <= args["dp_max"]:
        cmd = [bin_, "learn", jkl, "--method", "dp", "--json"]
    else:
        cmd = [bin_, "learn", jkl, "--method", "asobs", "--time-limit", str(args["asobs"]),
               "--seed", "1", "--json"]
    rep = json.loads(run_json(cmd).stdout)
    return rep["score"], best_sum(jkl), kept


def bin_delta(d):
    a = abs(d)
    if a <= 2:
        return "neutral"
    word = "very" if a > 10 else "strongly" if a > 6 else ""
    return f"{word} {'positive' if d > 0 else 'negative'}".strip()


def sign_test(wins, losses):
    """One-sided p-value of at least `wins` successes in wins+losses fair coin flips."""
    n = wins + losses
    if n == 0:
        return 1.0
    return sum(math.comb(n, i) for i in range(wins, n + 1)) / 2 ** n


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    bin_ = sys.argv[1]
    data = sys.argv[2:] or sorted(glob.glob(os.path.join(SHARED, "ebnsl_csv", "*.csv"))) + [
        os.path.join(SHARED, "twilp_format", "netflix_100.data")]
    args = {"t": float(os.environ.get("TIME_PER_VAR", "0.1")),
            "k": int(os.environ.get("MAX_PARENTS", "6")),
            "asobs": float(os.environ.get("ASOBS_TIME", "5")),
            "score": os.environ.get("SCORE", "bic"),
            "dp_max": int(os.environ.get("DP_MAX", "20"))}
    strategies = os.environ.get("STRATEGIES", "independence greedy sequential").split()
    others = [s for s in strategies if s != "independence"]
    print(f"Network {args['score'].upper()}: exact (DP) for n <= {args['dp_max']}, else ASOBS "
          f"({args['asobs']} s, seed 1); parent sets: "
          f"{args['t']} s per variable, parent limit {args['k']}\n")
    head = "| data | n | " + " | ".join(f"{s} network" for s in strategies) + " | " + " | ".join(
        f"dBIC IS-{s[:3].upper()}" for s in others) + " | " + " | ".join(
        f"{s} best sum" for s in strategies) + " | " + " | ".join(
        f"dSum IS-{s[:3].upper()}" for s in others) + " |"
    print(head)
    print("|" + "---|" * (2 + 2 * len(strategies) + 2 * len(others)))
    deltas = {s: [] for s in others}
    sums = {s: [] for s in others}
    for d in data:
        name = os.path.basename(d).rsplit(".", 1)[0]
        try:
            with tempfile.TemporaryDirectory() as tmp:
                res = {s: learn(bin_, d, s, args, tmp) for s in strategies}
        except subprocess.CalledProcessError as e:
            print(f"| {name} | skipped: {e.stderr.strip().splitlines()[-1]} |", flush=True)
            continue
        n = n_vars(d)
        cells = [f"{res[s][0]:.2f}" for s in strategies]
        ds, ss = [], []
        for s in others:
            delta = res["independence"][0] - res[s][0]
            deltas[s].append(delta)
            ds.append(f"{delta:+.2f}")
            dsum = res["independence"][1] - res[s][1]
            sums[s].append(dsum)
            ss.append(f"{dsum:+.2f}")
        best = [f"{res[s][1]:.2f}" for s in strategies]
        print(f"| {name} | {n} | " + " | ".join(cells + ds + best + ss) + " |", flush=True)
    print()
    for what, table in [("network BIC", deltas), ("sum of best local scores", sums)]:
        for s in others:
            report(what, s, table[s])


def report(what, other, ds):
    """Prints the dBIC bins and the sign test of IS against `other`."""
    wins = sum(1 for x in ds if x > 2)
    losses = sum(1 for x in ds if x < -2)
    bins = {}
    for x in ds:
        bins[bin_delta(x)] = bins.get(bin_delta(x), 0) + 1
    print(f"{what}, IS vs {other}: {dict(sorted(bins.items()))}; sign test (|dBIC| > 2 counted, "
          f"{wins} for IS, {losses} against): one-sided p = {sign_test(wins, losses):.3g}")

if __name__ == "__main__":
    main()
