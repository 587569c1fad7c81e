#!/usr/bin/env python3
"""Cutting-planes proofs of optimality (`bnsl learn --proof DIR --proof-format veripb`) on the
score files of ../shared/instances/ground_truth/optima.csv with at most 40 variables, each
checked by bnsl's own checker (`bnsl verify --proof`) and by VeriPB, one process at a time.

For each file: `bnsl learn FILE --proof DIR --proof-format veripb --json --time-limit BUDGET`
(the exact solve, then the certification pass and the proof), `bnsl verify --scores FILE
--dag ANSWER --proof DIR`, and `veripb --arbitraryPrecision DIR/bound.opb DIR/bound.pbp`.
Prints one markdown row per file: the optimum, the learn run's seconds, the certificate's
leaves, the proof's steps and size, each checker's seconds (or what it said), and whether
the answer is the known optimum (within 1e-6).

Usage: scripts/bench/pb_proofs.py BIN [VERIPB]
  VERIPB: the checker (default `veripb` on PATH; `-` for no VeriPB column).
Environment: BUDGET (seconds for learn and for each check, default 300), FILES (comma list
             of paths under ../shared/instances, default every such file).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

from maxsat import SHARED, files, timed


def learn(binary, path, proof, dag, budget):
    out, secs = timed([binary, "learn", path, "--proof", proof, "--proof-format", "veripb",
                       "--json", "--time-limit", str(budget), "-o", dag], budget)
    if out is None:
        return None, secs, f">{budget}"
    if out.returncode != 0:
        return None, secs, out.stderr.strip().splitlines()[-1][:80]
    return json.loads(out.stdout), secs, "ok"


def check(cmd, budget, accepted):
    out, secs = timed(cmd, budget)
    if out is None:
        return f">{budget}"
    text = out.stdout + out.stderr
    return f"{secs:.2f}" if out.returncode == 0 and accepted in text else "rejected"


def main():
    binary = sys.argv[1]
    veripb = sys.argv[2] if len(sys.argv) > 2 else shutil.which("veripb") or "-"
    budget = float(os.environ.get("BUDGET", "300"))
    print("| file | n | optimum | learn + proof (s) | leaves | steps | proof (MB) "
          "| bnsl verify (s) | VeriPB (s) | known optimum |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for rel, n, optimum in files():
        path = os.path.join(SHARED, rel)
        with tempfile.TemporaryDirectory() as tmp:
            proof, dag = os.path.join(tmp, "proof"), os.path.join(tmp, "dag.txt")
            report, secs, why = learn(binary, path, proof, dag, budget)
            if report is None:
                print(f"| {os.path.basename(rel)} | {n} | {optimum:.6f} | {why} | | | | | | |")
                continue
            size = sum(os.path.getsize(os.path.join(proof, f)) for f in os.listdir(proof))
            mine = check([binary, "verify", "--scores", path, "--dag", dag, "--proof", proof],
                         budget, "proof checked")
            theirs = "-" if veripb == "-" else check(
                [veripb, "--arbitraryPrecision", os.path.join(proof, "bound.opb"),
                 os.path.join(proof, "bound.pbp")], budget, "Verification succeeded")
            same = "yes" if abs(report["score"] - optimum) <= 1e-6 else f"NO ({report['score']})"
            leaves = report["proof"]["leaves"]
            print(f"| {os.path.basename(rel)} | {n} | {optimum:.6f} | {secs:.2f} | "
                  f"{leaves} | {report['proof']['steps']} | {size / 1e6:.1f} | {mine} | "
                  f"{theirs} | {same} |", flush=True)


if __name__ == "__main__":
    main()
