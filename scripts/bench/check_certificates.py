#!/usr/bin/env python3
"""Checks every certificate of a `bnsl bench` result folder twice: with `bnsl verify
--certificate` (exact integer arithmetic) and with scripts/check_certificate.py (Python
fractions), and prints one markdown row per optimal run: instance, leaves of the
certificate's tree, its size, and both verdicts. Exit code 1 if any optimal run has no
certificate or a certificate either checker rejects.

Usage: scripts/bench/check_certificates.py RESULT_DIR [BNSL]  (BNSL default: the bnsl
the study ran, the first word of each run's command line)
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKER = os.path.join(HERE, "..", "check_certificate.py")


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    results = sys.argv[1]
    failed = 0
    print("| instance | status | leaves | certificate (kB) | bnsl verify | check_certificate.py |")
    print("|---|---|---|---|---|---|")
    with open(os.path.join(results, "results.jsonl")) as f:
        records = [json.loads(line) for line in f if line.strip()]
    for r in records:
        if r["status"] != "optimal":
            print(f"| {r['instance']} | {r['status']} | - | - | - | - |")
            continue
        command = r["command"]
        bnsl = sys.argv[2] if len(sys.argv) == 3 else command[0]
        scores = command[2]
        cert = command[command.index("--certificate") + 1]
        if not os.path.exists(cert):
            print(f"| {r['instance']} | optimal | no certificate | | | |")
            failed += 1
            continue
        with open(cert) as c:
            leaves = sum(1 for item in json.load(c)["tree"] if "leaf" in item)
        size = os.path.getsize(cert) / 1000
        ours = subprocess.run([bnsl, "verify", "--scores", scores, "--certificate", cert],
                              capture_output=True, text=True)
        theirs = subprocess.run([sys.executable, CHECKER, scores, cert],
                                capture_output=True, text=True)
        verdict = lambda p: "accepted" if p.returncode == 0 else "REJECTED"
        failed += (ours.returncode != 0) + (theirs.returncode != 0)
        print(f"| {r['instance']} | optimal | {leaves} | {size:.0f} | {verdict(ours)} | {verdict(theirs)} |")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
