#!/usr/bin/env bash
# The protocol of seed 000 §5.1: for each network, 10 data sets of 1,000 and 10 of 5,000
# rows (bnsl sample, seeds 1..10), every variable as a target, BAMB and IAMB with G² tests
# at alpha 0.01 (a variable constant in a sample, e.g. insurance's Theft in 1,000 rows,
# is accepted with --allow-constant: its blanket is empty, and it counts as missed in the
# blankets of its neighbours). Prints a markdown table of mean F1, precision, recall, CI tests and time
# per target (mean ± standard deviation over the 10 data sets), beside seed 000's Tables 4
# (1,000 rows) and 5 (5,000 rows).
#
# Usage: scripts/bench/mb_protocol.sh [NETWORK ...]   (default: child insurance alarm)
# Environment: SEEDS (default 10), SIZES (default "1000 5000"), BNSL (default
# target/release/bnsl), BIF_DIR (default ../shared/instances/bif/bnlearn_pgmpy),
# EXTRA (extra options for bnsl mb), ALGS (default "bamb iamb"; add hiton for HITON-MB, whose
# paper figures are not tabulated here).
set -euo pipefail
cd "$(dirname "$0")/../.."
BNSL=${BNSL:-target/release/bnsl}
BIF_DIR=${BIF_DIR:-../shared/instances/bif/bnlearn_pgmpy}
SEEDS=${SEEDS:-10}
SIZES=${SIZES:-1000 5000}
EXTRA=${EXTRA:-}
ALGS=${ALGS:-bamb iamb}
NETS=("$@")
[ ${#NETS[@]} -gt 0 ] || NETS=(child insurance alarm)
[ -x "$BNSL" ] || cargo build --release --quiet
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

for net in "${NETS[@]}"; do
  for n in $SIZES; do
    for seed in $(seq 1 "$SEEDS"); do
      data="$WORK/${net}_${n}_${seed}.csv"
      "$BNSL" sample "$BIF_DIR/$net.bif" -n "$n" --seed "$seed" -o "$data" 2>/dev/null
      for alg in $ALGS; do
        # shellcheck disable=SC2086
        "$BNSL" mb "$data" --all --algorithm "$alg" --truth "$BIF_DIR/$net.bif" --json --allow-constant $EXTRA \
          > "$WORK/${net}_${n}_${seed}.${alg}.json"
      done
    done
  done
done

ALGS="$ALGS" python3 - "$WORK" "${NETS[@]}" <<'PY'
import json, os, statistics, sys
from pathlib import Path
work, nets = Path(sys.argv[1]), sys.argv[2:]
# Seed 000, Table 4 (1,000 rows) and Table 5 (5,000 rows): F1, precision, recall,
# CI tests and time (s) per target, means over 10 data sets.
PAPER = {
    ("child", 1000, "bamb"): (0.85, 0.84, 0.91, 441, 0.11),
    ("child", 1000, "iamb"): (0.82, 0.94, 0.76, 54, 0.02),
    ("insurance", 1000, "bamb"): (0.69, 0.76, 0.68, 404, 0.12),
    ("insurance", 1000, "iamb"): (0.66, 0.92, 0.56, 86, 0.02),
    ("alarm", 1000, "bamb"): (0.86, 0.91, 0.86, 280, 0.11),
    ("alarm", 1000, "iamb"): (0.81, 0.93, 0.76, 120, 0.04),
    ("child", 5000, "bamb"): (0.95, 0.93, 0.98, 376, 0.40),
    ("child", 5000, "iamb"): (0.90, 0.95, 0.88, 63, 0.06),
    ("insurance", 5000, "bamb"): (0.80, 0.89, 0.77, 619, 0.92),
    ("insurance", 5000, "iamb"): (0.76, 0.94, 0.67, 104, 0.13),
    ("alarm", 5000, "bamb"): (0.94, 0.96, 0.95, 351, 0.51),
    ("alarm", 5000, "iamb"): (0.90, 0.94, 0.89, 142, 0.19),
}
def ms(xs, fmt):
    sd = statistics.stdev(xs) if len(xs) > 1 else 0.0
    return f"{fmt.format(statistics.mean(xs))} ± {fmt.format(sd)}"
print("| network | rows | algorithm | F1 | precision | recall | CI tests / target | time / target (s) "
      "| paper F1 | paper precision | paper recall | paper CI tests | paper time (s) |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for net in nets:
    sizes = sorted({int(p.name.split("_")[1]) for p in work.glob(f"{net}_*.json")})
    for n in sizes:
        for alg in os.environ["ALGS"].split():
            runs = [json.loads(p.read_text()) for p in sorted(work.glob(f"{net}_{n}_*.{alg}.json"))]
            k = [len(r["targets"]) for r in runs]
            f1 = [r["mean_f1"] for r in runs]
            pr = [r["mean_precision"] for r in runs]
            rc = [r["mean_recall"] for r in runs]
            ci = [r["ci_tests"] / t for r, t in zip(runs, k)]
            tm = [sum(x["time_s"] for x in r["targets"]) / t for r, t in zip(runs, k)]
            paper = PAPER.get((net, n, alg))
            ref = ("| " + " | ".join(str(v) for v in paper)) if paper else "| – | – | – | – | –"
            name = "HITON-MB" if alg == "hiton" else alg.upper()
            print(f"| {net} | {n} | {name} | {ms(f1, '{:.3f}')} | {ms(pr, '{:.3f}')} | "
                  f"{ms(rc, '{:.3f}')} | {ms(ci, '{:.0f}')} | {ms(tm, '{:.4f}')} {ref} |")
PY
