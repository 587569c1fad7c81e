#!/usr/bin/env bash
# A bnsl study as a Slurm job array: one array task per run of the plan, each on a node
# of its own, then one merge. bnsl schedules nothing itself; Slurm does.
#
#   PLAN=scripts/bench/plans/exact-ilp.toml OUT=$PWD/exact-ilp-results
#   N=$(bnsl bench "$PLAN" --list | wc -l)
#   sbatch --array=0-$((N - 1)) --export=ALL,PLAN="$PLAN",OUT="$OUT" scripts/bench/slurm-array.sh
#   # when the array has finished:
#   bnsl bench merge "$OUT"/jobs/* --out "$OUT"/merged
#   bnsl bench report "$OUT"/merged
#
# Give each task the plan's kill_after plus a margin as its time, and its memory_limit
# plus a margin as its memory: bnsl kills a run at those limits itself and records it,
# while a task Slurm kills leaves no record (run the array again: finished runs are
# skipped).
#SBATCH --job-name=bnsl-bench
#SBATCH --cpus-per-task=1
#SBATCH --time=00:30:00
#SBATCH --mem=20G
#SBATCH --output=bnsl-bench-%A_%a.log
set -euo pipefail
: "${PLAN:?set PLAN to the plan file}"
: "${OUT:?set OUT to the result folder}"
BNSL="${BNSL:-bnsl}"
exec "$BNSL" bench "$PLAN" --job "$SLURM_ARRAY_TASK_ID" --out "$OUT/jobs/$SLURM_ARRAY_TASK_ID"
