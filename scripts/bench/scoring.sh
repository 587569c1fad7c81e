#!/usr/bin/env bash
# Scoring throughput: bnsl against pygobnilp on the same data, printed as a markdown table.
#
# Usage: scripts/bench/scoring.sh BIN [DATA]
#   BIN   path of the bnsl binary (build with `cargo build --release` for a fair comparison)
#   DATA  CSV with header or GOBNILP .dat
#         (default ../shared/instances/data/minobs_anc_csv/water_1000_1.csv, relative to the repo)
# Environment: SCORE (bdeu|bic, default bdeu), ESS (default 1), K (parent limit, default 3),
#              LIMIT (seconds after which the python peer stops early, default 600),
#              REPEAT (runs of each tool, alternating; the fastest of each is reported, default 3).
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
repeat="${REPEAT:-3}"

[[ -x "$bin" ]] || { echo "scoring.sh: $bin: not an executable" >&2; exit 2; }
[[ -r "$data" ]] || { echo "scoring.sh: $data: cannot read" >&2; exit 2; }

# Alternate the two tools so both see the same machine load; keep each one's fastest run.
fastest() { python3 -c 'import json,sys; rows=[json.loads(l) for l in sys.stdin if l.strip()]; print(json.dumps(max(rows, key=lambda r: r["families_per_s"])))'; }
bnsl_runs=""
peer_runs=""
for _ in $(seq "$repeat"); do
    bnsl_runs+="$("$bin" score "$data" --score "$score" --ess "$ess" --max-parents "$k" --no-prune \
        --stats-json 2>/dev/null | tail -n 1)"$'\n'
    peer_runs+="$(python3 "$here/pygobnilp_scoring.py" "$data" --score "$score" --ess "$ess" \
        --max-parents "$k" --limit-seconds "$limit" | tail -n 1)"$'\n'
done
bnsl_json="$(printf '%s' "$bnsl_runs" | fastest)"
peer_json="$(printf '%s' "$peer_runs" | fastest)"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), load $(cut -d' ' -f1-3 /proc/loadavg)"

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
