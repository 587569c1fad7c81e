#!/usr/bin/env python3
"""Exact ILP benchmark of issue 3: one row per (instance, back-end, formulation[, start]).

Runs `bnsl learn FILE --method ilp --backend B --formulation F --time-limit T --json`
under GNU time on the GOBNILP score files (jkl/gobnilp_bdeu) and the MINOBS ones
(jkl/minobs_anc_bdeu) of ../shared/instances, and prints a markdown table: status, time
to proven optimum (bnsl's own time_s), nodes, cuts, LP rounds, peak resident memory, the
score against the known optimum of ground_truth/optima.csv, and GOBNILP's reference time
(issue 3: C on SCIP 6.0.1, defaults, one thread, a machine of this kind) with the ratio
of bnsl's wall time (process start to exit: reading the file included) to it.

Usage: scripts/bench/ilp.py BIN
Environment:
  BACKENDS      comma list (default scip,highs,cbc)
  FORMULATIONS  comma list (default family,ordering)
  TIME_LIMIT    seconds per run (default 300)
  ONLY          comma list of substrings: run only instances whose file name has one
  WARM          "1": add a row per run warm-started with --warm-start asobs:$WARM_S
                (default 1 s), for issue 4's cold/warm comparison; its start column gives
                the heuristic's score and time, and excess = warm solve s - heuristic s -
                cold solve s (> 0: the start made the exact solve slower)
  WARM_RESTARTS N: the warm start stops ASOBS after N restarts instead of WARM_S
                seconds (--warm-start asobs --restarts N): the same start DAG on every run
  WARM_LOCAL_SEARCH swap|insertion: the warm start's local search (--local-search)
  EXTRA         extra arguments for every run (split on spaces)
  LOG_DIR       a folder: each run gets --log-progress and its stderr is saved there as
                INSTANCE.BACKEND.FORMULATION[.warm].log, to read a slow row round by round
"""
import csv
import glob
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "instances"))

# Issue 3's GOBNILP reference times in seconds (None: not solved in 300 s).
GOBNILP_S = {
    "alarm1000": 5.97, "hailfinder500": 2.69, "insurance1000": 1.13, "water1000": 0.54,
    "barley1000": 0.26, "carpo500": 60.9, "carpo100": None, "child_500_1": 8.5,
    "insurance_500_1": 36.5,
}


def instances():
    files = sorted(glob.glob(os.path.join(SHARED, "jkl", "gobnilp_bdeu", "*.jkl")))
    files += sorted(glob.glob(os.path.join(SHARED, "jkl", "minobs_anc_bdeu", "*.jkl")))
    only = [s for s in os.environ.get("ONLY", "").split(",") if s]
    return [f for f in files if not only or any(s in os.path.basename(f) for s in only)]


def known_optima():
    optima = {}
    with open(os.path.join(SHARED, "ground_truth", "optima.csv")) as f:
        for row in csv.DictReader(f):
            try:
                optima[os.path.normpath(os.path.join(SHARED, row["instance"]))] = float(row["optimum"])
            except ValueError:
                pass
    return optima


def short(path):
    name = os.path.basename(path)
    return re.sub(r"\.(BDeu1\.palim3|BDeu)\.jkl$", "", name)


def run(bin_, path, backend, formulation, limit, warm):
    args = [bin_, "learn", path, "--method", "ilp", "--backend", backend,
            "--formulation", formulation, "--time-limit", str(limit), "--json"]
    if warm:
        args += warm["args"]
    args += os.environ.get("EXTRA", "").split()
    log_dir = os.environ.get("LOG_DIR")
    if log_dir:
        args.append("--log-progress")
    timed = ["/usr/bin/time", "-f", "%e %M"] + args
    out = subprocess.run(timed, capture_output=True, text=True, timeout=limit * 3 + 120)
    if log_dir:
        os.makedirs(log_dir, exist_ok=True)
        name = f"{short(path)}.{backend}.{formulation}{'.warm' if warm else ''}.log"
        with open(os.path.join(log_dir, name), "w") as log:
            log.write(out.stderr)
    wall, peak_kb = out.stderr.strip().splitlines()[-1].split()
    measured = {"wall_s": float(wall), "peak_mb": int(peak_kb) / 1024}
    if out.returncode not in (0, 1) or not out.stdout.strip():
        return {"status": "error", "error": out.stderr.strip().splitlines()[-2:], **measured}
    report = json.loads(out.stdout)
    report.update(measured)
    return report


def warm_start():
    """The warm start's arguments and label, from WARM_RESTARTS or WARM_S and
    WARM_LOCAL_SEARCH."""
    local = os.environ.get("WARM_LOCAL_SEARCH")
    extra = ["--local-search", local] if local else []
    suffix = f", {local}" if local else ""
    restarts = os.environ.get("WARM_RESTARTS")
    if restarts:
        return {"args": ["--warm-start", "asobs", "--restarts", restarts] + extra,
                "label": f"asobs {restarts} restarts{suffix}"}
    seconds = os.environ.get("WARM_S", "1")
    return {"args": ["--warm-start", f"asobs:{seconds}"] + extra,
            "label": f"asobs {seconds}s{suffix}"}


def fmt(x, spec):
    return "-" if x is None else format(x, spec)


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    bin_ = sys.argv[1]
    backends = os.environ.get("BACKENDS", "scip,highs,cbc").split(",")
    formulations = os.environ.get("FORMULATIONS", "family,ordering").split(",")
    limit = float(os.environ.get("TIME_LIMIT", "300"))
    warms = [None] + ([warm_start()] if os.environ.get("WARM") == "1" else [])
    optima = known_optima()
    print(f"time limit {limit:g} s; solve s = bnsl's time_s (the warm start's time included), "
          "wall s = the whole process\n")
    print("| instance | back-end | formulation | start | status | solve s | wall s | nodes | cuts "
          "| rounds | peak MB | score | known optimum | GOBNILP s | wall/GOBNILP |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for path in instances():
        name = short(path)
        optimum = optima.get(os.path.normpath(path))
        for backend in backends:
            for formulation in formulations:
                cold_t = None
                for warm in warms:
                    r = run(bin_, path, backend, formulation, limit, warm)
                    t = r.get("time_s")
                    if not warm:
                        cold_t = t
                    ref = GOBNILP_S.get(name)
                    solved = r.get("status") == "optimal"
                    ratio = fmt(r["wall_s"] / ref, ".2f") if solved and ref else "-"
                    score = r.get("score")
                    check = ""
                    if solved and optimum is not None:
                        check = " ✓" if abs(score - optimum) <= 1e-6 * abs(optimum) + 1e-6 else " ✗"
                    start = "cold"
                    if warm:
                        heur = r.get("warm_start_time_s")
                        excess = t - heur - cold_t if None not in (t, heur, cold_t) else None
                        start = (f"{warm['label']} ({fmt(r.get('warm_start_score'), '.3f')}, "
                                 f"{fmt(heur, '.3f')} s; excess {fmt(excess, '+.3f')})")
                    print(f"| {name} | {backend} | {formulation} | {start} | {r.get('status')} "
                          f"| {fmt(t, '.3f')} | {r['wall_s']:.2f} | {r.get('nodes', '-')} | {r.get('cuts', '-')} "
                          f"| {r.get('rounds') if r.get('rounds') is not None else '-'} "
                          f"| {r['peak_mb']:.0f} | {fmt(score, '.6f')}{check} "
                          f"| {fmt(optimum, '.6f')} | {fmt(ref, '.2f')} | {ratio} |", flush=True)
                    if r.get("status") == "error":
                        print(f"<!-- {name} {backend} {formulation}: {r['error']} -->", flush=True)


if __name__ == "__main__":
    main()
