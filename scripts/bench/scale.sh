#!/usr/bin/env bash
# Scale runs of issue 4: data sampled from the large bnlearn networks, independence
# selection with a budget per variable, then ASOBS; per network the time and peak memory
# of each phase and the final score, beside the score of the true network on the same
# sample, as a markdown table.
#
# Usage: scripts/bench/scale.sh BIN [NETWORK ...]
#   BIN      the bnsl binary (cargo build --release)
#   NETWORK  names under ../shared/instances/bif/bnlearn_pgmpy (default: diabetes pigs link munin)
# Environment: ROWS (sample size, default 5000), TIME_PER_VAR (seconds, default 0.2),
#              ASOBS_TIME (seconds, default 30), SCORE (bic|bdeu, default bic),
#              OUT (directory for data, score files and logs, default a temporary one).
# Needs GNU time (/usr/bin/time -v) for the peak resident memory.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
if [[ $# -lt 1 ]]; then
    sed -n '2,13p' "${BASH_SOURCE[0]}" >&2
    exit 2
fi
bin="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
shift
nets=("$@")
[[ $# -eq 0 ]] && nets=(diabetes pigs link munin)
rows="${ROWS:-5000}"
tpv="${TIME_PER_VAR:-0.2}"
asobs="${ASOBS_TIME:-30}"
score="${SCORE:-bic}"
out="${OUT:-$(mktemp -d)}"
mkdir -p "$out"
bifdir="$repo/../shared/instances/bif/bnlearn_pgmpy"

# wall seconds and peak RSS (MiB) from a GNU time -v log
wall() { awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,a,":"); s=0; for(i=1;i<=n;i++) s=s*60+a[i]; print s}' "$1"; }
peak() { awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2/1024}' "$1"; }

echo "Independence selection (${tpv} s per variable, $score, $(nproc) cores) then ASOBS (${asobs} s, seed 1), ${rows} rows"
echo
echo "| network | n | sample s | selection s | selection peak MiB | families kept | largest parent set | ASOBS s | ASOBS peak MiB | score | found at s | restarts | true network score |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for net in "${nets[@]}"; do
    bif="$bifdir/$net.bif"
    [[ -f "$bif" ]] || bif="$bif.gz"
    csv="$out/$net.csv" jkl="$out/$net.$score.is.jkl"
    /usr/bin/time -v "$bin" sample "$bif" -n "$rows" --seed 1 -o "$csv" 2> "$out/$net.sample.log"
    /usr/bin/time -v "$bin" score "$csv" --network "$bif" --score "$score" --search independence \
        --time-per-var "$tpv" -o "$jkl" 2> "$out/$net.score.log"
    /usr/bin/time -v "$bin" learn "$jkl" --method asobs --time-limit "$asobs" --seed 1 --json \
        > "$out/$net.asobs.json" 2> "$out/$net.learn.log"
    truth=$("$bin" verify --data "$csv" --network "$bif" --dag "$bif" --score "$score" \
        | sed -n 's/.*score \(-\?[0-9.e+-]*\)$/\1/p')
    read -r n kept largest < <(sed -n 's/.*: \([0-9]*\) variables, [0-9]* families scored, \([0-9]*\) kept (largest parent set \([0-9]*\)).*/\1 \2 \3/p' "$out/$net.score.log")
    read -r sc found restarts < <(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["score"], d["found_at_s"], d["restarts"])' "$out/$net.asobs.json")
    echo "| $net | $n | $(wall "$out/$net.sample.log") | $(wall "$out/$net.score.log") | $(peak "$out/$net.score.log") | $kept | $largest | $(wall "$out/$net.learn.log") | $(peak "$out/$net.learn.log") | $sc | $found | $restarts | $truth |"
done
echo
echo "Files and logs: $out"
