"""OR-tools' CP-SAT module imported without pandas (engines/solver_import), in a fresh
interpreter (this one may have imported pandas already): pandas is not imported by it, and the
module's pandas-indexed helpers still work, pandas being imported on their first use."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

SOLVER = pytest.mark.skipif(importlib.util.find_spec("ortools") is None, reason="OR-tools is not installed")

PROGRAM = """
import sys
from puzint.engines.solver_import import import_cp_model
cp_model = import_cp_model()
model = cp_model.CpModel()
x = model.new_int_var(0, 3, "x")
model.add(x >= 2)
solver = cp_model.CpSolver()
print(solver.solve(model) == cp_model.OPTIMAL, solver.value(x), "pandas" in sys.modules)
import pandas
series = model.new_int_var_series("y", pandas.Index(range(3)), 0, 5)
print(len(series), type(series).__name__)
"""


@SOLVER
def test_cp_sat_solves_without_pandas_and_its_pandas_helpers_still_work() -> None:
    done = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines() == ["True 2 False", "3 Series"]
