#!/usr/bin/env bash
# Fuzzes bnsl's input parsers with cargo-fuzz (libFuzzer), one target at a time.
#
#   scripts/fuzz.sh                 every target, FUZZ_SECONDS of CPU time each
#   scripts/fuzz.sh jkl bif         only these targets
#   scripts/fuzz.sh --list          the targets
#
# Environment (defaults in brackets):
#   FUZZ_SECONDS   CPU seconds of fuzzing per target [1200]; on a loaded machine the
#                  fuzzer is restarted (its corpus kept) until it has had that much
#   FUZZ_RSS_MB    libFuzzer -rss_limit_mb (also its malloc limit) [2048]
#   FUZZ_MAX_LEN   libFuzzer -max_len, bytes per input [65536]
#   FUZZ_TIMEOUT   seconds one input may take before it counts as a hang [10]
#
# Before each target its corpus fuzz/corpus/<target> is seeded from the project's own
# files (instances/, tests/fixtures/) and, for formats the project ships no file of,
# from small examples written below; the seeds are regenerated on every run, so the
# corpus need not be committed (inputs libFuzzer adds are kept). Crashes, hangs and
# allocations beyond the limit are written to fuzz/artifacts/<target>/, and the log of
# each run to fuzz/artifacts/<target>.log. Needs nightly Rust (`rustup toolchain
# install nightly`); cargo-fuzz is installed when missing. On a shared machine run it
# under `nice -n 19`.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

TARGETS=(jkl pss constraints data_csv data_dat data_twilp bif dag_file dag_alone
    decomposition certificate wcnf_family_map wcnf_solution cnf plan)
SECONDS_PER_TARGET=${FUZZ_SECONDS:-1200}
RSS_MB=${FUZZ_RSS_MB:-2048}
MAX_LEN=${FUZZ_MAX_LEN:-65536}
TIMEOUT=${FUZZ_TIMEOUT:-10}

if [[ ${1:-} == --list ]]; then
    printf '%s\n' "${TARGETS[@]}"
    exit 0
fi
selected=("$@")
if ((${#selected[@]} == 0)); then
    selected=("${TARGETS[@]}")
fi
for t in "${selected[@]}"; do
    if [[ ! " ${TARGETS[*]} " == *" $t "* ]]; then
        echo "unknown target \`$t\` (scripts/fuzz.sh --list names them)" >&2
        exit 2
    fi
done

if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "installing cargo-fuzz" >&2
    cargo install cargo-fuzz
fi

# ---------------------------------------------------------------- seeds

scores=(instances/scores/*.jkl)
networks=(instances/networks/*.bif)
datasets=(instances/data/*.csv tests/fixtures/reference/*.csv)
ROWS=200 # data rows kept in a data seed

# The first $ROWS rows of a CSV file, header included.
csv_head() { head -n $((ROWS + 1)) "$1"; }

# A CSV file as a GOBNILP .dat (names, arities, rows); with "blip" BLIP's older form
# (n, names, arities, N, rows); with "twilp" TWILP's (n, arities, N, rows of codes).
csv_to_dat() {
    csv_head "$1" | awk -F, -v layout="$2" '
        NR == 1 { n = NF; for (j = 1; j <= NF; j++) name[j] = $j; next }
        {
            rows++
            for (j = 1; j <= n; j++) {
                if (!(j SUBSEP $j in code)) code[j SUBSEP $j] = arity[j]++
                cell[rows, j] = (layout == "twilp") ? code[j SUBSEP $j] : $j
            }
        }
        END {
            line = ""; for (j = 1; j <= n; j++) line = line (j > 1 ? " " : "") name[j]
            names = line
            line = ""; for (j = 1; j <= n; j++) line = line (j > 1 ? " " : "") arity[j]
            arities = line
            if (layout != "gobnilp") print n
            if (layout != "twilp") print names
            print arities
            if (layout != "gobnilp") print rows
            for (i = 1; i <= rows; i++) {
                line = ""; for (j = 1; j <= n; j++) line = line (j > 1 ? " " : "") cell[i, j]
                print line
            }
        }'
}

# A jkl score file in URLearning's .pss form.
jkl_to_pss() {
    awk '
        /^#/ || NF == 0 { next }
        !n { n = $1; print "META pss_version = 0.1"; print "META num_variables=" n; next }
        left == 0 { print "VAR " $1; print "META arity=2"; left = $2; next }
        { line = $1; for (j = 3; j <= NF; j++) line = line " " $j; print line; left-- }
    ' "$1"
}

# The variable names (block headers) of a jkl score file, on one line.
jkl_names() {
    awk '
        /^#/ || NF == 0 { next }
        !n { n = $1; next }
        left == 0 { printf "%s%s", (seen++ ? " " : ""), $1; left = $2; next }
        { left-- }
        END { print "" }
    ' "$1"
}

# The graph of a BIF network as parent lists (`X <- A, B`).
bif_parent_lists() {
    sed -n 's/^probability *( *\([^ |)]*\) *|* *\([^)]*\)).*/\1 <- \2/p' "$1" | sed 's/ *$//'
}

# The same graph as a model string `[X|A:B][Y]`.
bif_model_string() {
    bif_parent_lists "$1" | awk -F' <- ' '{
        gsub(/, */, ":", $2); printf "[%s%s%s]", $1, ($2 == "" ? "" : "|"), $2 }
        END { print "" }'
}

# The same graph as JSON `{"parents": {"X": ["A", "B"]}}`.
bif_json() {
    bif_parent_lists "$1" | awk -F' <- ' '
        BEGIN { printf "{\"parents\": {" }
        {
            printf "%s\n  \"%s\": [", (NR > 1 ? "," : ""), $1
            k = split($2, p, /, */)
            for (i = 1; i <= k; i++) printf "%s\"%s\"", (i > 1 ? ", " : ""), p[i]
            printf "]"
        }
        END { print "\n}}" }'
}

# The variable names of a BIF network, on one line.
bif_names() {
    sed -n 's/^variable *\([^ {]*\).*/\1/p' "$1" | paste -sd' ' -
}

# One seed: the standard input written to $dir/seed-$1.
seed() { cat >"$dir/seed-$1"; }

# One seed prefixed with the selector byte $2 (targets whose first byte picks a mode).
seed_with() { { printf "\\x$(printf '%02x' "$2")"; cat; } >"$dir/seed-$1"; }

seed_target() {
    local t=$1 f b i sep n
    dir=fuzz/corpus/$t
    mkdir -p "$dir"
    rm -f "$dir"/seed-*
    case $t in
    jkl)
        for f in "${scores[@]}"; do seed "$(basename "$f")" <"$f"; done
        printf '# a comment\n3\n\n2 1\n-3 0\n0 2\n-1.5 1 2\n-2 0\n1 1\n-4 2 0 2\n1\n0 1\n' | seed index
        ;;
    pss)
        for f in "${scores[@]}"; do jkl_to_pss "$f" | seed "$(basename "$f" .jkl).pss"; done
        ;;
    constraints)
        for f in "${scores[@]}"; do
            read -r -a n <<<"$(jkl_names "$f")"
            printf '%s\n# constraints\nrequire %s -> %s\nforbid %s -> %s  # no\nmax-parents 2\nmax-parents %s 1\n' \
                "${n[*]}" "${n[0]}" "${n[1]}" "${n[2]}" "${n[0]}" "${n[1]}" | seed "$(basename "$f" .jkl)"
        done
        ;;
    data_csv)
        for f in "${datasets[@]}"; do
            for b in 0 1 2 3; do csv_head "$f" | seed_with "$(basename "$f")-$b" "$b"; done
        done
        printf 'a,b\n2,3\n0,2\n1,1\n' | seed_with arities 0
        printf 'b,a\nhi,no\nlo,yes\n' | seed_with declared 4
        printf 'x,y\n"p, q",1\n"r",0\n' | seed_with quoted 0
        ;;
    data_dat)
        for f in "${datasets[@]}"; do
            csv_to_dat "$f" gobnilp | seed_with "$(basename "$f" .csv).dat" 0
            csv_to_dat "$f" blip | seed_with "$(basename "$f" .csv).blip.dat" 0
            csv_to_dat "$f" blip | seed_with "$(basename "$f" .csv).blip2.dat" 2
        done
        printf 'a b\n2 3\nyes lo\nno hi\n' | seed_with declared 3
        ;;
    data_twilp)
        for f in "${datasets[@]}"; do
            csv_to_dat "$f" twilp | seed_with "$(basename "$f" .csv).twilp" 0
        done
        printf '2\n2 3\n2\n0 1\n1 2\n' | seed_with declared 1
        ;;
    bif)
        for f in "${networks[@]}"; do seed "$(basename "$f")" <"$f"; done
        ;;
    dag_file)
        for f in "${networks[@]}"; do
            b=$(basename "$f" .bif)
            { bif_names "$f"; bif_parent_lists "$f"; } | seed_with "$b.txt" 0
            { bif_names "$f"; bif_model_string "$f"; } | seed_with "$b.model" 0
            { bif_names "$f"; bif_json "$f"; } | seed_with "$b.json" 0
            { bif_names "$f"; cat "$f"; } | seed_with "$b.bif" 1
        done
        ;;
    dag_alone)
        for f in "${networks[@]}"; do
            b=$(basename "$f" .bif)
            bif_parent_lists "$f" | seed_with "$b.txt" 0
            bif_model_string "$f" | seed_with "$b.model" 0
            bif_json "$f" | seed_with "$b.json" 0
            seed_with "$b.bif" 1 <"$f"
        done
        ;;
    decomposition)
        for f in "${networks[@]}"; do
            read -r -a n <<<"$(bif_names "$f")"
            # One bag per pair of neighbours in name order (the chain the target
            # checks against), in a path.
            {
                echo "${n[*]}"
                printf '{"decomposition": {"bags": ['
                sep=''
                for ((i = 1; i < ${#n[@]}; i++)); do
                    printf '%s["%s", "%s"]' "$sep" "${n[i - 1]}" "${n[i]}"
                    sep=', '
                done
                printf '], "edges": ['
                sep=''
                for ((i = 2; i < ${#n[@]}; i++)); do
                    printf '%s[%d, %d]' "$sep" $((i - 2)) $((i - 1))
                    sep=', '
                done
                printf ']}, "width": 1}\n'
            } | seed "$(basename "$f" .bif)"
        done
        printf 'a b c\n{"bags": [["a", "b", "c"]], "edges": []}\n' | seed one-bag
        ;;
    certificate)
        # For the target's table: a (b: -1.5, none: -2.25), b (a c: -3, c: -3.5,
        # none: -4), c (none: -1); its best network a <- b <- c scores -6.
        cat <<'EOF' | seed leaf
{
  "format": "bnsl-family-ilp-certificate/1",
  "scores": "fuzz.jkl",
  "variables": ["a", "b", "c"],
  "dag": {"a": ["b"], "b": ["c"], "c": []},
  "score": -6.0,
  "bound": "-6",
  "tolerance": "0.000001",
  "tree": [
    {"leaf": {"bound": "-6", "u": ["-1.5", "-3", "-1"],
              "clusters": [{"nodes": ["a", "b"], "lambda": "0.5"}],
              "packings": [{"nodes": ["b", "c"], "mu": "0"}]}}
  ]
}
EOF
        cat <<'EOF' | seed branch
{
  "format": "bnsl-family-ilp-certificate/1",
  "scores": "fuzz.jkl",
  "variables": ["a", "b", "c"],
  "dag": {"a": ["b"], "b": ["c"], "c": []},
  "score": -6.0,
  "bound": "-6",
  "tolerance": "0.000001",
  "tree": [
    {"branch": {"node": "a", "parent": "b"}},
    {"leaf": {"bound": "-6", "u": ["-1.5", "-3.5", "-1"], "clusters": [], "packings": []}},
    {"leaf": {"bound": "-6.25", "u": ["-2.25", "-3.0", "-1.000000000001"],
              "clusters": [{"nodes": ["a", "b", "c"], "lambda": "0.000000000001"}],
              "packings": []}}
  ]
}
EOF
        ;;
    wcnf_family_map | wcnf_solution)
        # What `bnsl export` writes for a 2-node table, in both WCNF forms.
        local model_new model_old
        model_new='c bnsl MaxSAT encoding of structure learning: 2 nodes, 3 candidate parent sets
c bnsl weights: (best score of the node - score) * 10^6, rounded; a network scores about -3.5 - cost * 10^-6
c bnsl node 0 a
c bnsl node 1 b
c bnsl family 1 0 -1.5 1
c bnsl family 2 0 -2.0
c bnsl family 3 1 -2.0
h 1 2 0
h 3 0
h -1 -3 0
500000 -2 0'
        model_old="c bnsl node 0 a
c bnsl node 1 b
c bnsl family 1 0 -1.5 1
c bnsl family 2 0 -2.0
c bnsl family 3 1 -2.0
p wcnf 3 4 500001
500001 1 2 0
500001 3 0
500001 -1 -3 0
500000 -2 0"
        if [[ $t == wcnf_family_map ]]; then
            printf '%s\n' "$model_new" | seed current
            printf '%s\n' "$model_old" | seed old
        else
            printf '%s\n\0s OPTIMUM FOUND\no 0\nv -1 2 3\n' "$model_new" | seed literals
            printf '%s\n\0s OPTIMUM FOUND\nv 011\n' "$model_old" | seed bits
        fi
        ;;
    cnf)
        printf 'c a proof formula\np cnf 4 3\n1 -2 0\n2 3 -4 0\n-1 0\n' | seed small
        printf 'p cnf 0 1\n0\n' | seed empty-clause
        ;;
    plan)
        # The shipped plans with their paths cut to the fuzz folder's files.
        for f in scripts/bench/plans/*.toml; do
            sed -e '/^#/d' -e 's#"[^"]*/\([^"/]*\)"#"\1"#g' "$f" | seed "$(basename "$f")"
        done
        printf 'name = "s"\ntime_limit = 5\nseeds = [1, 2]\n[[instances]]\nfiles = ["*.jkl"]\n[[methods]]\nname = "m-{v}"\nargs = ["{v}"]\nmatrix = { v = [1, 2] }\n[[methods]]\nname = "p"\ncommand = ["x", "{instance}"]\nscore = "s (\\\\S+)"\n' | seed small
        ;;
    esac
}

# ---------------------------------------------------------------- runs

# Built once, then each target's binary is run directly (`cargo fuzz run` would check
# the build again before every target).
echo "building the fuzz targets (nightly, release with debug assertions)" >&2
cargo +nightly fuzz build -O --debug-assertions 2>&1 | tail -n 20 >&2
triple=$(rustc +nightly -vV | sed -n 's/^host: //p')

summary=()
failed=0
for t in "${selected[@]}"; do
    seed_target "$t"
    mkdir -p "fuzz/artifacts/$t"
    log=fuzz/artifacts/$t.log
    echo "== $t: ${SECONDS_PER_TARGET} s, corpus fuzz/corpus/$t ($(ls "fuzz/corpus/$t" | wc -l) inputs), log $log" >&2
    status=0
    start=$SECONDS
    : >"$log"
    cpu_ms=0
    runs=0
    while ((status == 0 && cpu_ms < SECONDS_PER_TARGET * 1000)); do
        remaining=$(((SECONDS_PER_TARGET * 1000 - cpu_ms + 999) / 1000))
        /usr/bin/time -f '%U %S' -o "$log.cpu" \
            "fuzz/target/$triple/release/$t" -artifact_prefix="fuzz/artifacts/$t/" \
            -max_total_time="$remaining" -rss_limit_mb="$RSS_MB" \
            -malloc_limit_mb="$RSS_MB" -max_len="$MAX_LEN" -timeout="$TIMEOUT" \
            -print_final_stats=1 "fuzz/corpus/$t" >>"$log" 2>&1 || status=$?
        cpu_ms=$((cpu_ms + $(awk '/^[0-9.]+ [0-9.]+$/ { printf "%d", ($1 + $2) * 1000 }' "$log.cpu")))
        chunk=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
        runs=$((runs + ${chunk:-0}))
        # a chunk that stopped early (a crash) is not counted twice
        sed -i 's/^stat::number_of_executed_units:/stat::counted_executed_units:/' "$log"
    done
    rm -f "$log.cpu"
    line=$(printf '%-16s %12s inputs  %6s CPU s  %6s s' "$t" "$runs" $((cpu_ms / 1000)) \
        $((SECONDS - start)))
    if ((status != 0)); then
        failed=1
        cause=$(grep -m1 -E '^==[0-9]+== ?ERROR|panicked at|^SUMMARY' "$log" || true)
        artifact=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -n 1)
        line="$line  CRASH (exit $status): ${cause:-see $log}; input ${artifact:-none}"
    else
        line="$line  ok"
    fi
    echo "$line" >&2
    summary+=("$line")
done

echo
echo "target               inputs tried  CPU time  wall time  result"
printf '%s\n' "${summary[@]}"
exit "$failed"
