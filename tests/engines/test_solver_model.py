"""The CP-SAT model's shape where it decides the speed (engines/constraints, compiler/fill_terms):
a cell's number is an integer where a sum reads it, an `all different` of such cells is said of
the integers too, and an `or` whose `some` was split on a cell's values is clauses, not a
reified `and`. The answers are the plain solvers' (tests/specs, tests/engines/test_fillings)."""

from __future__ import annotations

import importlib.util
import itertools

import pytest
from puzint.compiler.families.fill import FillFamily, rule_cuts
from puzint.compiler.fill_terms import And, Lit, Or, Terms
from puzint.engines import RunOptions
from puzint.runner import load
from puzint.search import Limits
from puzint.solutions import enumerate_solutions

from tests.conftest import SPECS, compiled_from
from tests.plain import number_paths

SOLVER = pytest.mark.skipif(importlib.util.find_spec("ortools") is None, reason="OR-tools is not installed")


def _stats(spec: str) -> dict[str, str]:
    from puzint.engines.constraints import built

    lines = built(load(SPECS / spec)).model.model_stats().splitlines()
    return dict(line.split(": ", 1) for line in lines if line.startswith("#k"))


@SOLVER
def test_the_kakuro_s_runs_are_all_different_integers() -> None:
    # 54 runs across and 54 down (tests/plain/kakuro.py reads as many from the grid)
    assert _stats("kakuro.puz")["#kAllDiff"] == "108"


@SOLVER
def test_a_latin_square_has_no_integers_to_say_different() -> None:
    assert "#kAllDiff" not in _stats("latin_square.puz")


def test_a_number_path_rule_is_clauses_on_the_cells_values() -> None:
    """Each cell's "40, or a neighbour holds the next number": one clause for each value of an
    open cell (it is not that value, or a neighbour holds the next), a clause for a given."""
    compiled = load(SPECS / "hidato.puz")
    decoded = compiled.layout.decode(compiled.start)
    family = compiled.filling
    assert isinstance(family, FillFamily)
    terms = Terms(compiled.puzzle, family, decoded.cells, decoded.counters)
    clauses = 0
    for expr, bound in list(rule_cuts(compiled.puzzle))[1:]:  # after the `all different`
        found = terms.condition(expr, bound)
        parts = found.parts if isinstance(found, And) else (found,)
        assert all(isinstance(part, (Or, Lit, bool)) for part in parts)
        assert all(isinstance(p, Lit) for part in parts if isinstance(part, Or) for p in part.parts)
        clauses += len(parts)
    assert clauses > 40 * 20  # the open cells' (most of 40 values each), not one a cell


@SOLVER
@pytest.mark.parametrize("engine", ["cpsat", "python"])
def test_a_small_board_s_paths_are_the_plain_count(engine: str) -> None:
    board = ["1 _ _", "_ _ _", "_ _ 9"]
    text = (
        'puzzle "p"\nboard grid 3 x 3\npieces 1..9 "numbers"\nstart:\n'
        + "".join(f"    {line}\n" for line in board)
        + "fill cells with 1..9\nrule:\n    all different(cells)\n"
        + "    every c in cells: c.value == 9 or some x in neighbours(c, king): x.value == c.value + 1\n"
    )
    report = enumerate_solutions(compiled_from(text), Limits(), keep=False, options=RunOptions(engine))
    assert report.count == number_paths.count(board, diagonal=True) == 30


@SOLVER
@pytest.mark.parametrize("engine", ["cpsat", "python"])
def test_a_cell_named_by_its_row_and_column_the_rule_fixes(engine: str) -> None:
    """`cell(a.row, j)` for a row `a` and a column number `j` is a cell known before the
    search: no two rows of a 3 x 3 grid of 0 and 1 alike. Plain count: 8 * 7 * 6 rows."""
    text = (
        'puzzle "p"\nboard grid 3 x 3\npieces 0..1 "digits"\nstart _*9\nfill cells with 0..1\nrule:\n'
        "    every a in rows: every b in rows: a.row >= b.row or "
        "some j in 1..3: cell(a.row, j).value != cell(b.row, j).value\n"
    )
    report = enumerate_solutions(compiled_from(text), Limits(), keep=False, options=RunOptions(engine))
    plain = sum(1 for grid in itertools.product(itertools.product((0, 1), repeat=3), repeat=3) if len(set(grid)) == 3)
    assert report.count == plain == 8 * 7 * 6
