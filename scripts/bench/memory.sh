#!/usr/bin/env bash
# Memory and time at scale (issue 27, item 6): synthetic score files of many variables
# (`verify` with the empty DAG, and `learn --method asobs`) and data sets of many columns
# and 2 rows (`score --max-parents 1`), peak RSS and wall time of each binary given, side
# by side, as a markdown table.
#
# Usage: scripts/bench/memory.sh BIN [BIN ...]
# Environment: SIZES (score-file variable counts, default "10000 50000 100000 300000"),
#              COLUMNS (data column counts, default "10000 100000"),
#              ASOBS_TIME (seconds, default 10), MEM_LIMIT_KB (ulimit -v per run, default
#              8388608 = 8 GiB), TIMEOUT (seconds per run, default 300); a run that fails,
#              goes over either limit or errs shows as "failed (exit code)",
#              OUT (directory for the generated files, default a temporary one).
# Each score-file variable has 4 candidate parent sets: {}, two single parents and one pair,
# drawn at random (seed 1). Needs GNU time (/usr/bin/time -v).
set -euo pipefail

if [[ $# -lt 1 ]]; then
    sed -n '2,15p' "${BASH_SOURCE[0]}" >&2
    exit 2
fi
bins=()
for b in "$@"; do bins+=("$(cd "$(dirname "$b")" && pwd)/$(basename "$b")"); done
sizes="${SIZES:-10000 50000 100000 300000}"
columns="${COLUMNS:-10000 100000}"
asobs="${ASOBS_TIME:-10}"
limit="${MEM_LIMIT_KB:-8388608}"
timeout="${TIMEOUT:-300}"
out="${OUT:-$(mktemp -d)}"
mkdir -p "$out"

gen_scores() { # n jkl dag
    python3 - "$1" "$2" "$3" <<'PY'
import random, sys
n, jkl, dag = int(sys.argv[1]), sys.argv[2], sys.argv[3]
rng = random.Random(1)
with open(jkl, "w") as f, open(dag, "w") as d:
    f.write(f"{n}\n")
    for v in range(n):
        others = set()
        while len(others) < 2:
            u = rng.randrange(n)
            if u != v:
                others.add(u)
        a, b = sorted(others)
        f.write(f"v{v} 4\n-100.5 0\n-98.25 1 v{a}\n-99.0 1 v{b}\n-97.125 2 v{a} v{b}\n")
        d.write(f"v{v} <-\n")
PY
}

gen_data() { # columns csv
    python3 - "$1" "$2" <<'PY'
import random, sys
m, csv = int(sys.argv[1]), sys.argv[2]
rng = random.Random(1)
with open(csv, "w") as f:
    f.write(",".join(f"c{j}" for j in range(m)) + "\n")
    for _ in range(2):
        f.write(",".join(str(rng.randrange(2)) for _ in range(m)) + "\n")
PY
}

# "seconds / MiB" of a GNU time -v log, or "failed (code) after …" when the run failed
measure() { # log status
    if [[ $2 -ne 0 ]]; then
        echo "failed ($2) after $(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,a,":"); s=0; for(i=1;i<=n;i++) s=s*60+a[i]; printf "%.1f s", s}
                                              /Maximum resident set size/ {printf " / %.0f MiB", $2/1024}' "$1")"
        return
    fi
    awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,a,":"); s=0; for(i=1;i<=n;i++) s=s*60+a[i]; t=s}
                /Maximum resident set size/ {m=$2/1024}
                END {printf "%.2f s / %.0f MiB", t, m}' "$1"
}

run() { # log cmd...
    local log="$1"; shift
    set +e
    ( ulimit -v "$limit"; /usr/bin/time -v timeout "$timeout" "$@" > /dev/null 2> "$log" )
    local status=$?
    set -e
    measure "$log" "$status"
}

header="| input | command |"
rule="|---|---|"
for b in "${bins[@]}"; do header+=" $(basename "$b") |"; rule+="---|"; done
echo "Peak RSS and wall time, $(nproc) cores, ulimit -v ${limit} KiB, timeout ${timeout} s"
echo
echo "$header"
echo "$rule"
for n in $sizes; do
    jkl="$out/scores$n.jkl" dag="$out/empty$n.dag"
    [[ -f "$jkl" ]] || gen_scores "$n" "$jkl" "$dag"
    for cmd in verify asobs; do
        row="| $n variables | $cmd |"
        i=0
        for b in "${bins[@]}"; do
            i=$((i + 1))
            log="$out/$cmd$n.$i.log"
            if [[ $cmd == verify ]]; then
                row+=" $(run "$log" "$b" verify --scores "$jkl" --dag "$dag") |"
            else
                row+=" $(run "$log" "$b" learn "$jkl" --method asobs --time-limit "$asobs" --seed 1) |"
            fi
        done
        echo "$row"
    done
done
for m in $columns; do
    csv="$out/data$m.csv"
    [[ -f "$csv" ]] || gen_data "$m" "$csv"
    row="| $m columns, 2 rows | score --max-parents 1 |"
    i=0
    for b in "${bins[@]}"; do
        i=$((i + 1))
        row+=" $(run "$out/score$m.$i.log" "$b" score "$csv" --max-parents 1 -o "$out/data$m.$i.jkl") |"
    done
    echo "$row"
done
echo
echo "Files and logs: $out"
