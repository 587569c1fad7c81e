#!/usr/bin/env python3
"""Scoring-throughput peer: how fast pygobnilp computes local scores.

Scores ALL families (every child x every parent set of at most k other variables) of a data
set with pygobnilp 1.0's scorer, in the order and with the caches pygobnilp itself uses when
it generates unpruned local scores (`Gobnilp._return_unpruned_local_scores`: variables in
sorted order, parent sets by size, one `BDeu(...).bdeu_score` or `DiscreteBIC(...).score`
object for the whole run, so BDeu reuses its cache of count components across children).

Only the scoring is timed: building the scorer object (part of pygobnilp's score generation)
plus the loop over families.  File loading is not timed, and numba's one-off JIT compilation
is paid beforehand on a throwaway scorer, whose caches are discarded.

Arities are what pygobnilp infers: for a GOBNILP `.dat` file the declared ones (line 2, read
by pygobnilp's own reader); for a CSV file (passed as a DataFrame of categorical columns) the
number of distinct observed values.

Output: one JSON line
    {"tool":"pygobnilp","families":F,"seconds":S,"families_per_s":R,"complete":B,"arities":A}
where `complete` is false when `--limit-seconds` stopped the run early (the rate is then over
the families done).

Usage:
    python3 scripts/bench/pygobnilp_scoring.py DATA [--score bdeu|bic] [--ess 1] [--max-parents 3]
        [--no-header] [--limit-seconds S]
"""

from __future__ import annotations

import argparse
import json
import time
from itertools import combinations

import pandas as pd
from pygobnilp import scoring as gob

CHECK_EVERY = 256  # families between two looks at the clock when a limit is set


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", help="CSV (header, string or integer states) or GOBNILP .dat file")
    parser.add_argument("--score", choices=["bdeu", "bic"], default="bdeu")
    parser.add_argument("--ess", type=float, default=1.0, help="BDeu equivalent sample size")
    parser.add_argument("--max-parents", type=int, default=3, help="largest parent set scored")
    parser.add_argument("--no-header", action="store_true", help="CSV without header (columns named 0, 1, ...)")
    parser.add_argument("--limit-seconds", type=float, default=None, help="stop scoring after this long")
    return parser.parse_args()


def load(path: str, no_header: bool) -> tuple[gob.DiscreteData, str]:
    """pygobnilp's data object and the arity convention it applies."""
    if path.endswith(".dat"):
        return gob.DiscreteData(path), "declared"
    frame = pd.read_csv(path, header=None if no_header else 0, dtype=str, keep_default_na=False, na_filter=False)
    frame.columns = [str(c) for c in frame.columns]
    return gob.DiscreteData(frame.astype("category")), "observed"


def make_scorer(data: gob.DiscreteData, score: str, ess: float):
    """pygobnilp's local score function: (child, parents tuple) -> (score, bound)."""
    if score == "bdeu":
        return gob.BDeu(data, alpha=ess).bdeu_score
    return gob.DiscreteBIC(data).score


def warm_up(data: gob.DiscreteData, score: str, ess: float, k: int) -> None:
    """Trigger numba's compilation on a throwaway scorer (its caches are discarded)."""
    variables = sorted(data.variables())
    fn = make_scorer(data, score, ess)
    for size in range(min(k, len(variables) - 1) + 1):
        fn(variables[0], tuple(variables[1 : 1 + size]))


def score_all(data: gob.DiscreteData, score: str, ess: float, k: int, limit: float | None) -> tuple[int, float, bool]:
    """Score every family as pygobnilp does; returns (families, seconds, complete)."""
    start = time.perf_counter()
    fn = make_scorer(data, score, ess)
    variables = sorted(data.variables())
    everyone = frozenset(variables)
    palim = min(k, len(variables) - 1)
    scores: dict[str, dict[frozenset, float]] = {}
    done = 0
    for child in variables:
        child_scores = scores.setdefault(child, {})
        for size in range(palim + 1):
            for parents in combinations(everyone - {child}, size):
                child_scores[frozenset(parents)] = fn(child, parents)[0]
                done += 1
                if limit is not None and done % CHECK_EVERY == 0 and time.perf_counter() - start > limit:
                    return done, time.perf_counter() - start, False
    return done, time.perf_counter() - start, True


def main() -> None:
    args = parse_args()
    data, arities = load(args.data, args.no_header)
    warm_up(data, args.score, args.ess, args.max_parents)
    families, seconds, complete = score_all(data, args.score, args.ess, args.max_parents, args.limit_seconds)
    print(
        json.dumps(
            {
                "tool": "pygobnilp",
                "families": families,
                "seconds": seconds,
                "families_per_s": families / max(seconds, 1e-9),
                "complete": complete,
                "arities": arities,
            }
        )
    )


if __name__ == "__main__":
    main()
