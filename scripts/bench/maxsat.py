#!/usr/bin/env python3
"""Issue 30's table: the built-in MaxSAT solver against RC2 and the MILP on the score files
of ../shared/instances/ground_truth/optima.csv with at most 40 variables.

For each file: `bnsl export FILE -o F.wcnf` (the WCNF every solver gets), then in turn
  - bnsl's default exact method (DP up to 20 variables, else the family ILP),
  - `bnsl learn FILE --method maxsat --maxsat-algorithm A` for each A in ALGORITHMS,
  - RC2 on F.wcnf, with PySAT's defaults (`RC2`) and stratified (`RC2Stratified`),
each with a limit of BUDGET seconds (RC2 killed past it). bnsl's answers are its verified
scores; RC2's cost is decoded by `bnsl decode` into a verified DAG. Prints one markdown
row per file: the optimum, then each solver's time (or `>BUDGET`), and flags any answer
that disagrees with the optimum.

Usage: scripts/bench/maxsat.py BIN [RC2_SCRIPT]
  RC2_SCRIPT (default scripts/bench/rc2_solve.py, which needs `pip install python-sat`)
  takes MODE WCNF and prints a solver's `s`, `o`, `v` lines.
Environment: BUDGET (seconds, default 60), ALGORITHMS (default oll,lsu,ihs; `ihs+seeded` and
             `ihs+unseeded` add `--ihs-seeding on|off`, `ihs@scip` adds `--backend scip`), RC2_MODES
             (default default,strat; empty for no RC2 columns), FILES (comma list of
             paths under ../shared/instances, default every such file).
"""
import csv
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.join(HERE, "..", "..", "..", "shared", "instances")


def files():
    wanted = [f for f in os.environ.get("FILES", "").split(",") if f]
    seen, out = set(), []
    with open(os.path.join(SHARED, "ground_truth", "optima.csv")) as f:
        for row in csv.DictReader(f):
            path = row["instance"]
            if not path.startswith("jkl/") or path in seen or path.endswith(".pss"):
                continue
            seen.add(path)
            try:
                optimum = float(row["optimum"])
            except ValueError:
                continue
            with open(os.path.join(SHARED, path)) as g:
                n = int(g.readline().split()[0])
            if n <= 40:
                out.append((path, n, optimum))
    if wanted:
        out = [f for f in out if f[0] in wanted]
    return out


def timed(cmd, budget):
    start = time.time()
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=budget + 5)
    except subprocess.TimeoutExpired:
        return None, budget
    return out, time.time() - start


def bnsl_learn(binary, path, extra, budget):
    out, secs = timed([binary, "learn", path, "--json", "--time-limit", str(budget)] + extra,
                      budget)
    if out is None or out.returncode != 0:
        return None, secs, "error"
    report = json.loads(out.stdout)
    return report.get("score"), report.get("time_s", secs), report["status"]


def rc2(binary, script, mode, path, wcnf, budget, tmp):
    out, secs = timed(["python3", script, mode, wcnf], budget)
    if out is None:
        return None, budget, "time"
    if not any(line.startswith("v ") for line in out.stdout.splitlines()):
        return None, secs, "no model"
    solution = os.path.join(tmp, "rc2.sol")
    with open(solution, "w") as f:
        f.write(out.stdout)
    decoded = subprocess.run([binary, "decode", wcnf, solution, "--scores", path, "--json"],
                             capture_output=True, text=True)
    if decoded.returncode != 0:
        return None, secs, "error: " + decoded.stderr.strip()[:80]
    return json.loads(decoded.stdout)["score"], secs, "optimal"


def cell(score, secs, status, optimum, budget):
    if score is None or status != "optimal":
        return f">{budget:.0f}" if status in ("time", "feasible", "unknown") else status
    mark = "" if abs(score - optimum) <= 1e-6 * max(1.0, abs(optimum)) else " WRONG"
    return f"{secs:.2f}{mark}"


def algorithm_args(entry):
    """The `learn` flags of an ALGORITHMS entry: `A`, `ihs+seeded` / `ihs+unseeded`, each
    with an optional `@BACKEND` (the hitting-set back-end: `ihs@scip`)."""
    entry, _, backend = entry.partition("@")
    algorithm, _, seeding = entry.partition("+")
    args = ["--method", "maxsat", "--maxsat-algorithm", algorithm]
    if seeding:
        args += ["--ihs-seeding", {"seeded": "on", "unseeded": "off"}[seeding]]
    if backend:
        args += ["--backend", backend]
    return args


def main():
    binary = sys.argv[1]
    script = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "rc2_solve.py")
    budget = float(os.environ.get("BUDGET", "60"))
    algorithms = os.environ.get("ALGORITHMS", "oll,lsu,ihs").split(",")
    modes = [m for m in os.environ.get("RC2_MODES", "default,strat").split(",") if m]
    head = ["file", "n", "optimum", "MILP/DP"] + [f"maxsat {a}" for a in algorithms] + [
        {"default": "RC2", "strat": "RC2 stratified"}[m] for m in modes]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    with tempfile.TemporaryDirectory() as tmp:
        for rel, n, optimum in files():
            path = os.path.join(SHARED, rel)
            wcnf = os.path.join(tmp, "model.wcnf")
            subprocess.run([binary, "export", path, "-o", wcnf], check=True,
                           capture_output=True)
            row = [os.path.basename(rel), str(n), f"{optimum:.6f}"]
            row.append(cell(*bnsl_learn(binary, path, [], budget), optimum, budget))
            for a in algorithms:
                found = bnsl_learn(binary, path, algorithm_args(a), budget)
                row.append(cell(*found, optimum, budget))
            for mode in modes:
                row.append(cell(*rc2(binary, script, mode, path, wcnf, budget, tmp), optimum,
                                budget))
            print("| " + " | ".join(row) + " |", flush=True)


if __name__ == "__main__":
    main()
