#!/usr/bin/env bash
# The README's table "bounded treewidth: MILP against MaxSAT": for each file and width,
# `bnsl learn F --treewidth W --method ilp|maxsat --time-limit LIMIT --json`, one process
# at a time, printing status, seconds, score, bound and gap.
#
# Usage: scripts/bench/maxsat_treewidth.sh BIN [LIMIT]
#   The tic-tac-toe and voting score files are made first (BDeu, ess 1, at most 3
#   parents) from ../shared/instances/data/ebnsl_csv into a temporary folder.
set -euo pipefail
BIN=$1
LIMIT=${2:-120}
SHARED="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)/shared/instances"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
for name in tic-tac-toe voting; do
    "$BIN" score "$SHARED/data/ebnsl_csv/$name.csv" --score bdeu --ess 1 --max-parents 3 \
        -o "$TMP/$name.jkl" 2>/dev/null
done
for spec in "$SHARED/jkl/ebnsl/wine.BIC.3.jkl 2" "$SHARED/jkl/ebnsl/wine.BIC.3.jkl 3" \
    "$TMP/tic-tac-toe.jkl 2" "$TMP/tic-tac-toe.jkl 3" "$TMP/voting.jkl 2" "$TMP/voting.jkl 3"; do
    set -- $spec
    for method in ilp maxsat; do
        result=$("$BIN" learn "$1" --treewidth "$2" --method "$method" --time-limit "$LIMIT" \
            --json 2>/dev/null | python3 -c 'import json, sys
d = json.load(sys.stdin)
print(d["status"], round(d["time_s"], 2), d["score"], d.get("bound"), d.get("gap"))')
        echo "$(basename "$1") W=$2 $method: $result"
    done
done
