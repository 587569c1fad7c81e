#!/usr/bin/env python3
"""Reference local scores from pgmpy and pygobnilp, written as test fixtures for bnsl.

For every data set listed in ``DATASETS`` this script scores a fixed selection of families
(child, parent set) with BOTH libraries, checks that they agree to ``TOLERANCE``, and writes
one TSV file per (data set, score) to ``tests/fixtures/reference/``:

    # source: <path relative to the repo> score=<bdeu|bic> ess=<a|none> arities=<declared|observed> pgmpy=<v> pygobnilp=<v>
    child<TAB>parent1,parent2<TAB>score_pgmpy<TAB>score_pygobnilp

Variables are written by name: `.dat` line 1 and CSV headers give names; the columns of a
headerless CSV are named by their 0-based index ("0", "1", ...).  An empty parent set is an
empty field.  Floats are printed with ``repr`` (shortest text that reads back to the same double).

Conventions (SPEC section 3): natural log; BIC = LL - (ln N / 2)(r - 1) q; BDeu with
equivalent sample size a.  Arities are the declared ones for `.dat` files (line 2) and the
number of distinct observed values for CSV files.  How each library is told the arities:

* pygobnilp: `.dat` files are read by pygobnilp's own reader (`DiscreteData(path)`, declared
  arities, states coded by order of first appearance); CSV files are passed as a pandas
  DataFrame of categorical columns (`DiscreteData(df)`, arity = number of categories =
  distinct observed values).  (Given a bare integer array instead, pygobnilp would use
  max + 1, which differs for e.g. ebnsl_csv/water1000.csv where codes do not start at 0.)
* pgmpy: a DataFrame of strings; for `.dat` files `state_names` lists the observed states
  padded with placeholder states up to the declared arity; for CSV files pgmpy's default
  (observed states).

Known pgmpy defect (1.1.2): its BDeu counts with `get_state_counts(..., reindex=False)`,
which drops the rows of child states that never occur, and then subtracts lnGamma(a/(rq))
for all r*q cells; so when the child has declared-but-unobserved states (and at least one
parent) pgmpy's BDeu is wrong (Water_1000.dat: e.g. One | Two gives -30.707 instead of
-8.726).  For declared arities this script therefore runs pgmpy's own BDeu on pgmpy's full
count table (`reindex=True`), and checks that the raw pgmpy values differ only for such
families.  Observed arities never trigger the defect.

Families: every family with at most one parent, plus a seeded random sample of
``SAMPLE_SIZE`` distinct families with 2 or 3 parents (all of them when there are fewer).
The generator seed is derived from the data set key with CRC-32, so runs are reproducible.

The script also writes ``tests/fixtures/reference/random_small.csv`` (6 variables with
2-4 string states, 500 rows, generated from a small random network with a fixed numpy seed)
so that the fixtures of that data set need nothing outside the repository.

Finally, where a published BDeu(1) score file of a data set is present (GOBNILP's
`jkl/gobnilp_bdeu/*.jkl` and `jkl/ebnsl/asia_10000.dat.3.jkl`, MINOBS-anc's
`jkl/minobs_anc_bdeu/*.jkl`; 8 decimals), pygobnilp's BDeu(1) is compared with every score
in it, which checks the arity convention against the tools that wrote those files.

Usage:  python3 scripts/reference/make_score_fixtures.py
Needs:  pgmpy, pygobnilp==1.0 (installed with --no-deps; only `pygobnilp.scoring` is used,
        which needs numba, scipy, scikit-learn, pandas, numpy; no Gurobi).
"""

from __future__ import annotations

import itertools
import math
import sys
import zlib
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from unittest import mock

import numpy as np
import pandas as pd
import pgmpy.structure_score.bdeu as pgmpy_bdeu_module
from pgmpy.structure_score import BIC as PgmpyBic
from pgmpy.structure_score import BDeu as PgmpyBdeu
from pygobnilp import scoring as gob

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared" / "instances"
OUT_DIR = REPO / "tests" / "fixtures" / "reference"
TOLERANCE = 1e-6
SAMPLE_SIZE = 150
BASE_SEED = 20240601


@dataclass(frozen=True)
class Dataset:
    """One data set to score.

    key:      fixture file stem.
    path:     absolute path of the data file.
    kind:     "dat" (GOBNILP .dat), "csv" (with header) or "csv-noheader".
    bdeu_ess: the BDeu equivalent sample sizes to write fixtures for.
    jkl:      a published BDeu(1) score file of the same data, if one exists.
    """

    key: str
    path: Path
    kind: str
    bdeu_ess: tuple[float, ...] = (1.0,)
    jkl: Path | None = None

    def relative_path(self) -> str:
        """The path as the repository refers to it (`../shared/...` for shared files)."""
        try:
            return str(self.path.relative_to(REPO))
        except ValueError:
            return "../shared/instances/" + str(self.path.relative_to(SHARED))


DATASETS = [
    Dataset("discrete", SHARED / "data/gobnilp_dat/discrete.dat", "dat", (1.0, 10.0)),
    Dataset(
        "asia_10000",
        SHARED / "data/gobnilp_dat/asia_10000.dat",
        "dat",
        jkl=SHARED / "jkl/ebnsl/asia_10000.dat.3.jkl",
    ),
    Dataset("Water_1000", SHARED / "data/gobnilp_dat/Water_1000.dat", "dat"),
    Dataset(
        "alarm1000",
        SHARED / "data/ebnsl_csv/alarm1000.csv",
        "csv-noheader",
        jkl=SHARED / "jkl/gobnilp_bdeu/alarm1000.BDeu1.palim3.jkl",
    ),
    Dataset(
        "water1000",
        SHARED / "data/ebnsl_csv/water1000.csv",
        "csv-noheader",
        jkl=SHARED / "jkl/gobnilp_bdeu/water1000.BDeu1.palim3.jkl",
    ),
    Dataset(
        "sachs_1000_1",
        SHARED / "data/minobs_anc_csv/sachs_1000_1.csv",
        "csv",
        jkl=SHARED / "jkl/minobs_anc_bdeu/sachs_1000_1.BDeu.jkl",
    ),
    Dataset("random_small", OUT_DIR / "random_small.csv", "csv"),
]


@dataclass
class Loaded:
    """A data set as each library sees it."""

    names: list[str]
    frame: pd.DataFrame  # string values, one column per variable
    state_names: dict[str, list[str]] | None  # declared states for pgmpy, None = observed
    gob_data: gob.DiscreteData

    def arity_convention(self) -> str:
        """"declared" (.dat line 2) or "observed" (distinct values in the data)."""
        return "observed" if self.state_names is None else "declared"


# ---------------------------------------------------------------- generated data set


def write_random_small(path: Path) -> None:
    """Write the generated data set: a random network A->B, A->C, {B,C}->D, D->E, E->F.

    Conditional distributions are 30% uniform + 70% Dirichlet(1) draws, so every state
    occurs in 500 rows while the arcs still carry clear dependence.
    """
    rng = np.random.default_rng(BASE_SEED)
    arity = {"A": 2, "B": 3, "C": 4, "D": 3, "E": 2, "F": 4}
    parents = {"A": [], "B": ["A"], "C": ["A"], "D": ["B", "C"], "E": ["D"], "F": ["E"]}
    rows = 500
    codes: dict[str, np.ndarray] = {}
    for var in arity:  # insertion order is topological
        pa = parents[var]
        q = math.prod(arity[p] for p in pa)
        cpt = 0.3 / arity[var] + 0.7 * rng.dirichlet(np.ones(arity[var]), size=q)
        config = np.zeros(rows, dtype=np.int64)
        for p in pa:
            config = config * arity[p] + codes[p]
        u = rng.random(rows)
        cdf = np.cumsum(cpt[config], axis=1)
        codes[var] = np.minimum((u[:, None] > cdf).sum(axis=1), arity[var] - 1)
    for var, r in arity.items():
        if len(np.unique(codes[var])) != r:
            raise AssertionError(f"random_small: variable {var} misses a state")
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="\n") as out:
        out.write(",".join(arity) + "\n")
        for i in range(rows):
            out.write(",".join(f"{var.lower()}{codes[var][i]}" for var in arity) + "\n")


# ---------------------------------------------------------------- loading


def read_dat(path: Path) -> tuple[list[str], list[int], pd.DataFrame]:
    """Parse a GOBNILP `.dat` file: names, declared arities, string values."""
    lines = [ln.split() for ln in path.read_text().splitlines() if ln.strip() and not ln.startswith("#")]
    names, arities = lines[0], [int(a) for a in lines[1]]
    frame = pd.DataFrame(lines[2:], columns=names, dtype=str)
    return names, arities, frame


def declared_states(frame: pd.DataFrame, arities: list[int]) -> dict[str, list[str]]:
    """Observed states of each column, padded with placeholders up to the declared arity."""
    states = {}
    for name, r in zip(frame.columns, arities):
        seen = sorted(frame[name].unique())
        if len(seen) > r:
            raise AssertionError(f"{name}: {len(seen)} observed states exceed declared arity {r}")
        states[name] = seen + [f"<unobserved {k}>" for k in range(r - len(seen))]
    return states


def load(ds: Dataset) -> Loaded:
    """Load a data set for both libraries (each with its own reader where it has one)."""
    if ds.kind == "dat":
        names, arities, frame = read_dat(ds.path)
        gob_data = gob.DiscreteData(str(ds.path))
        if list(gob_data.variables()) != names or list(gob_data.arities()) != arities:
            raise AssertionError(f"{ds.key}: pygobnilp read different names or arities")
        return Loaded(names, frame, declared_states(frame, arities), gob_data)
    header = 0 if ds.kind == "csv" else None
    frame = pd.read_csv(ds.path, header=header, dtype=str, keep_default_na=False, na_filter=False)
    frame.columns = [str(c) for c in frame.columns]
    gob_data = gob.DiscreteData(frame.astype("category"))
    return Loaded(list(frame.columns), frame, None, gob_data)


# ---------------------------------------------------------------- families


def select_families(ds: Dataset, names: list[str]) -> list[tuple[str, tuple[str, ...]]]:
    """All families with <= 1 parent, then a seeded sample of 2- and 3-parent families.

    Parents are listed in column order.
    """
    n = len(names)
    families = [(names[c], ()) for c in range(n)]
    families += [(names[c], (names[p],)) for c in range(n) for p in range(n) if p != c]
    larger = [
        (c, pa)
        for c in range(n)
        for size in (2, 3)
        for pa in itertools.combinations([p for p in range(n) if p != c], size)
    ]
    if len(larger) > SAMPLE_SIZE:
        rng = np.random.default_rng(BASE_SEED + zlib.crc32(ds.key.encode()))
        picked = rng.choice(len(larger), size=SAMPLE_SIZE, replace=False)
        larger = [larger[i] for i in sorted(picked)]
    families += [(names[c], tuple(names[p] for p in pa)) for c, pa in larger]
    return families


# ---------------------------------------------------------------- scoring


PGMPY_STATE_COUNTS = pgmpy_bdeu_module.get_state_counts


def full_table_counts(*args, **kwargs):
    """pgmpy's `get_state_counts` with every state combination kept (`reindex=True`)."""
    return PGMPY_STATE_COUNTS(*args, **{**kwargs, "reindex": True})


def pgmpy_scorer(data: Loaded, score: str, ess: float | None, full_table: bool = False):
    """pgmpy's local score function for `score` (uses `state_names` for declared arities).

    With `full_table`, pgmpy's BDeu counts over the full table (see the module docstring).
    """
    if score == "bic":
        scorer = PgmpyBic(data.frame, state_names=data.state_names)
        return lambda child, parents: float(scorer.local_score(child, tuple(parents)))
    scorer = PgmpyBdeu(data.frame, equivalent_sample_size=ess, state_names=data.state_names)
    if not full_table:
        return lambda child, parents: float(scorer.local_score(child, tuple(parents)))

    def local(child, parents):
        with mock.patch.object(pgmpy_bdeu_module, "get_state_counts", full_table_counts):
            return float(scorer.local_score(child, tuple(parents)))

    return local


def has_unobserved_states(data: Loaded, child: str) -> bool:
    """Whether `child` has declared states that never occur in the data."""
    return data.state_names is not None and data.frame[child].nunique() < len(data.state_names[child])


def pygobnilp_scorer(data: Loaded, score: str, ess: float | None):
    """pygobnilp's local score function for `score` (first element of its (score, bound) pair)."""
    if score == "bdeu":
        fn = gob.BDeu(data.gob_data, alpha=ess).bdeu_score
    else:
        fn = gob.DiscreteBIC(data.gob_data).score
    return lambda child, parents: float(fn(child, tuple(parents))[0])


def score_kinds(ds: Dataset) -> list[tuple[str, str, float | None]]:
    """(file tag, score name, ess) for every fixture of the data set."""
    kinds = [(f"bdeu{ess:g}" if len(ds.bdeu_ess) > 1 else "bdeu", "bdeu", ess) for ess in ds.bdeu_ess]
    return kinds + [("bic", "bic", None)]


def write_fixture(ds: Dataset, data: Loaded, tag: str, score: str, ess: float | None) -> tuple[int, float]:
    """Score the families with both libraries, check agreement, write the TSV.

    Returns the number of families and the largest absolute disagreement.
    """
    families = select_families(ds, data.names)
    declared_bdeu = score == "bdeu" and data.state_names is not None
    by_pgmpy = pgmpy_scorer(data, score, ess, full_table=declared_bdeu)
    by_pgmpy_raw = pgmpy_scorer(data, score, ess)
    by_gob = pygobnilp_scorer(data, score, ess)
    header = (
        f"# source: {ds.relative_path()} score={score} ess={'none' if ess is None else f'{ess:g}'}"
        f" arities={data.arity_convention()} pgmpy={version('pgmpy')} pygobnilp={version('pygobnilp')}\n"
    )
    lines = [header]
    worst = 0.0
    disagreements = []
    raw_defects = 0
    for child, parents in families:
        a, b = by_pgmpy(child, parents), by_gob(child, parents)
        diff = abs(a - b)
        worst = max(worst, diff)
        if not diff <= TOLERANCE:
            disagreements.append(f"  {child} | {','.join(parents)}: pgmpy {a!r} pygobnilp {b!r}")
        if declared_bdeu and not abs(by_pgmpy_raw(child, parents) - b) <= TOLERANCE:
            raw_defects += 1
            if not (parents and has_unobserved_states(data, child)):
                disagreements.append(f"  {child} | {','.join(parents)}: raw pgmpy differs for another cause")
        lines.append(f"{child}\t{','.join(parents)}\t{a!r}\t{b!r}\n")
    if disagreements:
        sys.exit(f"{ds.key}.{tag}: pgmpy and pygobnilp disagree beyond {TOLERANCE}:\n" + "\n".join(disagreements))
    if raw_defects:
        print(f"  {ds.key}.{tag}: raw pgmpy BDeu wrong on {raw_defects} families (child with unobserved states)")
    (OUT_DIR / f"{ds.key}.{tag}.tsv").write_text("".join(lines))
    return len(families), worst


# ---------------------------------------------------------------- published score files


def read_jkl(path: Path, names: list[str]) -> dict[tuple[str, frozenset[str]], float]:
    """Read a jkl file (variables as 0-based indices or as names) into {(child, parents): score}."""
    tokens = [ln.split() for ln in path.read_text().splitlines() if ln.strip()]

    def name(token: str) -> str:
        return names[int(token)] if token.isdigit() else token

    n, pos, scores = int(tokens[0][0]), 1, {}
    for _ in range(n):
        child, k = name(tokens[pos][0]), int(tokens[pos][1])
        for row in tokens[pos + 1 : pos + 1 + k]:
            scores[(child, frozenset(name(p) for p in row[2:]))] = float(row[0])
        pos += 1 + k
    return scores


def cross_check_jkl(ds: Dataset, data: Loaded) -> tuple[int, float]:
    """Number of published BDeu(1) scores and their largest difference from pygobnilp's."""
    fn = gob.BDeu(data.gob_data, alpha=1.0).bdeu_score
    worst = 0.0
    published = read_jkl(ds.jkl, data.names)
    for (child, parents), value in published.items():
        worst = max(worst, abs(fn(child, tuple(parents))[0] - value))
    return len(published), worst


def main() -> None:
    write_random_small(OUT_DIR / "random_small.csv")
    print(f"pgmpy {version('pgmpy')}, pygobnilp {version('pygobnilp')}, tolerance {TOLERANCE}")
    for ds in DATASETS:
        data = load(ds)
        for tag, score, ess in score_kinds(ds):
            count, worst = write_fixture(ds, data, tag, score, ess)
            print(f"{ds.key}.{tag}.tsv: {count} families, arities {data.arity_convention()}, max |diff| {worst:.3g}")
        if ds.jkl is not None and ds.jkl.exists():
            count, worst = cross_check_jkl(ds, data)
            print(f"{ds.key}: pygobnilp vs {ds.jkl.name}: {count} sets, max |diff| {worst:.3g}")
            if worst > 1e-6:
                sys.exit(f"{ds.key}: observed-arity BDeu(1) does not reproduce {ds.jkl.name}")


if __name__ == "__main__":
    main()
