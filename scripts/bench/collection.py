#!/usr/bin/env python3
"""Seed 002 Table 1 (BIC, no parent limit beyond pruning) by `bnsl learn --collect`.

For each data set of ../shared/instances/data/ebnsl_csv and each Bayes factor, runs
`bnsl learn DATA --score bic --max-parents 100 --collect --bayes-factor BF --json`
(the pruning gap is set from BF) and prints bnsl's |G| (networks), its seed-002
grouping |M| (collider_classes), the Markov equivalence classes, the networks admitted
by the tolerance, status and time, beside the paper's |G| / |M| / T.

With COMPARE set to a comma list of back-ends (e.g. scip,highs,cbc), the script instead
compares collections: for each cell, the enumeration's networks (`--method dp`) against
each back-end's (`--backend B`), set for set through `--collect-out`, with each run's
time.

With GOBNILP_DEV set to the binary of seed 002's modified GOBNILP (built outside the
repository, ../shared/PEERS.md), every cell also runs it the way the eBNSL scripts do, on
the score file bnsl writes for the cell (gap ln BF + 1e-4, `#` lines stripped): one run
for the optimum, one with `gobnilp/countsols` and `gobnilp/objlimit = OPT - ln BF`
(strict, no tolerance). The table then gives both wall times, bnsl's reading the score
file and collecting from it against GOBNILP_dev's two runs, and their ratio.

Usage: scripts/bench/collection.py BIN
Environment: DATA (comma list of data set names, default the paper's sets up to 25
             variables; the others of Table 1 are insurance1000, mildew1000, alarm1000,
             barley1000, sponge), BF (comma list, default 3,20,150), TIME_LIMIT
             (seconds per run, default 600), SCORE (bic or bdeu, default bic), BACKEND
             (collect on the family ILP of this back-end, e.g. scip; default: bnsl's
             choice, the enumeration up to 25 variables, the ILP beyond), GOBNILP_DEV
             (see above).
"""
import json
import math
import os
import subprocess
import sys
import tempfile
import time

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
    "insurance1000": {3: (8226, 2062, 49.8), 20: (104870, 25580, 244.9), 150: (148925, 36072, 414.5)},
    "mildew1000": {3: (1026, 2, 1.2), 20: (1026, 2, 1.2), 150: (2052, 4, 2.1)},
    "alarm1000": {3: (1508, 122, 6.3), 20: (123352, 9323, 684.2), 150: None},
    "barley1000": {3: (182, 1, 0.8), 20: (364, 2, 0.8), 150: (1274, 5, 1.3)},
    "sponge": {3: (1102, 65, 16.8), 20: (146097, 7905, 1301.0), 150: None},
}

# The paper's data sets up to 25 variables (the enumeration's), the default of DATA.
SMALL = ["tic-tac-toe", "wine", "adult", "nltcs", "voting", "zoo", "hepatitis"]


def timed(cmd, timeout):
    """The completed process of `cmd` and its wall seconds."""
    start = time.monotonic()
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    return out, time.monotonic() - start


def gobnilp_dev(binary, jkl, bf, work, timeout):
    """(networks, wall s) of GOBNILP_dev's two runs on `jkl`, as the eBNSL scripts make them."""
    plain = os.path.join(work, "plain.jkl")
    with open(jkl) as src, open(plain, "w") as dst:
        dst.writelines(l for l in src if not l.startswith("#"))
    opt_file = os.path.join(work, "opt.sol")
    with open(os.path.join(work, "opt.set"), "w") as f:
        f.write(f'gobnilp/outputfile/solution = "{opt_file}"\n')
    _, t1 = timed([binary, "-f=jkl", "-g=" + os.path.join(work, "opt.set"), plain], timeout)
    with open(opt_file) as f:
        opt = float(f.read().strip().splitlines()[-1].split()[3])
    with open(os.path.join(work, "count.set"), "w") as f:
        f.write("gobnilp/countsols = TRUE\ngobnilp/countsols/collect = TRUE\n"
                "gobnilp/countsols/sollimit = 150000\n"
                f"gobnilp/objlimit = {opt - math.log(bf):.12f}\n"
                f'gobnilp/outputfile/countsols = "{os.path.join(work, "nets")}"\n')
    out, t2 = timed([binary, "-g=" + os.path.join(work, "count.set"), "-f=jkl", plain], timeout)
    found = [l for l in out.stdout.splitlines() if "Found this many solutions" in l]
    count = int(found[-1].split(":")[1]) if found else None
    return count, t1 + t2


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    bin_ = sys.argv[1]
    names = os.environ.get("DATA", ",".join(SMALL)).split(",")
    bfs = [int(b) for b in os.environ.get("BF", "3,20,150").split(",")]
    limit = os.environ.get("TIME_LIMIT", "600")
    score = os.environ.get("SCORE", "bic")
    peer = os.environ.get("GOBNILP_DEV")
    backend = os.environ.get("BACKEND")
    engine = ["--backend", backend] if backend else []
    work = tempfile.mkdtemp()
    compare = os.environ.get("COMPARE")
    if compare:
        compare_sets(bin_, names, bfs, score, limit, compare.split(","), work)
        return
    extra = " bnsl wall s (score file) | GOBNILP_dev \\|G\\| | GOBNILP_dev wall s | bnsl / GOBNILP_dev |" if peer else ""
    print(f"| data | BF | paper \\|G\\| / \\|M\\| / T s | bnsl \\|G\\| | collider classes | Markov classes | in tolerance | status | time s | G, M as paper |{extra}")
    print("|---|---|---|---|---|---|---|---|---|---|" + ("---|" * 4 if peer else ""))
    for name in names:
        path = os.path.join(SHARED, f"{name}.csv")
        for bf in bfs:
            out = subprocess.run(
                [bin_, "learn", path, "--score", score, "--max-parents", "100", "--collect",
                 "--bayes-factor", str(bf), "--time-limit", limit, "--json"] + engine,
                capture_output=True, text=True)
            if out.returncode not in (0, 130):
                print(f"| {name} | {bf} | | error: {out.stderr.strip()[:120]} |||||||")
                continue
            r = json.loads(out.stdout)
            paper = PAPER.get(name, {}).get(bf)
            shown = "150,000 (limit)" if paper is None else f"{paper[0]:,} / {paper[1]:,} / {paper[2]}"
            same = "" if paper is None else ("yes" if (r["networks"], r["collider_classes"]) == paper[:2] else "no")
            row = (f"| {name} | {bf} | {shown} | {r['networks']:,} | {r['collider_classes']:,} | "
                   f"{r['classes']:,} | {r['in_tolerance']} | {r['status']} | {r['time_s']:.3f} | {same} |")
            if peer:
                row += peer_cells(bin_, peer, path, score, bf, work, float(limit), engine)
            print(row, flush=True)


def network_set(bin_, data, score, bf, limit, flags, work):
    """(sorted network lines, summary, wall s) of one collection with `flags`."""
    nets = os.path.join(work, "nets.jsonl")
    out, wall = timed([bin_, "learn", data, "--score", score, "--max-parents", "100",
                       "--collect", "--bayes-factor", str(bf), "--time-limit", limit,
                       "--json", "--collect-out", nets] + flags, float(limit) + 60)
    if out.returncode != 0:
        return None, {"status": "error: " + out.stderr.strip()[-80:]}, wall
    with open(nets) as f:
        lines = []
        for line in f:
            net = json.loads(line)
            lines.append(f'{json.dumps(net["parents"], sort_keys=True)} {net["score"]:.6f}')
    return sorted(lines), json.loads(out.stdout), wall


def compare_sets(bin_, names, bfs, score, limit, backends, work):
    """The enumeration's collection against each back-end's, set for set."""
    cells = " | ".join(f"{b} \\|G\\| | {b} same set | {b} wall s" for b in backends)
    print(f"| data | BF | enumeration \\|G\\| | enumeration wall s | {cells} |")
    print("|---|---|---|---|" + "---|" * (3 * len(backends)))
    for name in names:
        path = os.path.join(SHARED, f"{name}.csv")
        for bf in bfs:
            want, r, wall = network_set(bin_, path, score, bf, limit, ["--method", "dp"], work)
            row = f"| {name} | {bf} | {len(want or []):,} ({r['status']}) | {wall:.2f} |"
            for backend in backends:
                got, g, t = network_set(bin_, path, score, bf, limit, ["--backend", backend], work)
                same = "yes" if got is not None and got == want else "no"
                row += f" {len(got or []):,} ({g['status']}) | {same} | {t:.2f} |"
            print(row, flush=True)


def peer_cells(bin_, peer, data, score, bf, work, limit, engine):
    """The GOBNILP_dev columns of a cell: both collect from the score file bnsl writes."""
    jkl = os.path.join(work, "cell.jkl")
    gap = math.log(bf) + 1e-4
    subprocess.run([bin_, "score", data, "--score", score, "--max-parents", "100",
                    "--prune-gap", repr(gap), "-o", jkl], capture_output=True, check=True)
    _, ours = timed([bin_, "learn", jkl, "--collect", "--bayes-factor", str(bf), "--json",
                     "--time-limit", repr(limit)] + engine, limit + 60)
    try:
        count, theirs = gobnilp_dev(peer, jkl, bf, work, limit)
    except subprocess.TimeoutExpired:
        return f" {ours:.2f} | timeout | > {limit:.0f} | < {ours / limit:.4f} |"
    shown = "?" if count is None else f"{count:,}"
    return f" {ours:.2f} | {shown} | {theirs:.2f} | {ours / theirs:.4f} |"


if __name__ == "__main__":
    main()
