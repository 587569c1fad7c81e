#!/usr/bin/env bash
# Scoring throughput: bnsl against pygobnilp on the same data, printed as a markdown table.
#
# Usage: scripts/bench/scoring.sh BIN [DATA]
#   BIN   path of the bnsl binary (build with `cargo build --release` for a fair comparison)
#   DATA  CSV with header or GOBNILP .dat
#         (default ../shared/instances/data/minobs_anc_csv/water_1000_1.csv, relative to the repo)
# Environment: SCORE (bdeu|bic, default bdeu), ESS (default 1), K (parent limit, default 3),
#              LIMIT (seconds after which the python peer stops early, default 600).
#
# Both tools score every family (each child x each parent set of <= K other variables), with
# no pruning, and print one JSON line {"tool":...,"families":F,"seconds":S,"families_per_s":R}.
# Needs python3 with pygobnilp 1.0 (see scripts/bench/pygobnilp_scoring.py).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"

if [[ $# -lt 1 || $# -gt 2 ]]; then
    sed -n '2,13p' "${BASH_SOURCE[0]}" >&2
    exit 2
fi
bin="$1"
data="${2:-$repo/../shared/instances/data/minobs_anc_csv/water_1000_1.csv}"
score="${SCORE:-bdeu}"
ess="${ESS:-1}"
k="${K:-3}"
limit="${LIMIT:-600}"

[[ -x "$bin" ]] || { echo "scoring.sh: $bin: not an executable" >&2; exit 2; }
[[ -r "$data" ]] || { echo "scoring.sh: $data: cannot read" >&2; exit 2; }

bnsl_json="$("$bin" score "$data" --score "$score" --ess "$ess" --max-parents "$k" --no-prune \
    --stats-json -o /dev/null | tail -n 1)"
peer_json="$(python3 "$here/pygobnilp_scoring.py" "$data" --score "$score" --ess "$ess" \
    --max-parents "$k" --limit-seconds "$limit" | tail -n 1)"

python3 - "$data" "$score" "$ess" "$k" "$bnsl_json" "$peer_json" <<'EOF'
import json
import sys

data, score, ess, k, bnsl_line, peer_line = sys.argv[1:]
rows = [json.loads(bnsl_line), json.loads(peer_line)]
label = f"{score}, ess {ess}" if score == "bdeu" else score
print(f"Scoring throughput on `{data}` ({label}, parent limit {k}, no pruning)\n")
print("| tool | families | seconds | families/s |")
print("|---|---:|---:|---:|")
for row in rows:
    note = "" if row.get("complete", True) else " (stopped early)"
    print(f"| {row['tool']}{note} | {row['families']} | {row['seconds']:.3f} | {row['families_per_s']:.0f} |")
ratio = rows[0]["families_per_s"] / rows[1]["families_per_s"]
print(f"\nbnsl / pygobnilp rate ratio: {ratio:.2f}")
if all(row.get("complete", True) for row in rows) and rows[0]["families"] != rows[1]["families"]:
    print("\nwarning: the two tools scored different numbers of families")
EOF
