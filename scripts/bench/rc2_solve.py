#!/usr/bin/env python3
"""RC2 (PyPI `python-sat`), the MaxSAT peer of scripts/bench/maxsat.py, on a WCNF file in
either layout (2022 `h` lines or `p wcnf` with a top weight).

Usage: rc2_solve.py MODE WCNF
  MODE: `default` (RC2 with PySAT's defaults) or `strat` (RC2Stratified).
Prints `s OPTIMUM FOUND` or `s UNSATISFIABLE`, `o COST` and `v` with signed literals,
the lines `bnsl decode` reads.
"""
import sys

from pysat.examples.rc2 import RC2, RC2Stratified
from pysat.formula import WCNF


def main():
    mode, path = sys.argv[1], sys.argv[2]
    formula = WCNF(from_file=path)
    solver_class = {"default": RC2, "strat": RC2Stratified}[mode]
    with solver_class(formula) as solver:
        model = solver.compute()
        if model is None:
            print("s UNSATISFIABLE")
            return
        print("s OPTIMUM FOUND")
        print(f"o {solver.cost}")
        print("v " + " ".join(str(lit) for lit in model))


if __name__ == "__main__":
    main()
