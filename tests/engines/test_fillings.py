"""Fillings (logic puzzles) on every engine that answers them: the fill search, the CP-SAT
solver and the state-space walk of the same spec find the same solutions, which are the
independent plain solvers' (tests/plain/, written without reading puzint's code)."""

from __future__ import annotations

import importlib.util

import pytest
from puzint import kernel
from puzint.compiler import CompiledPuzzle
from puzint.engines import Query, RunOptions, registry
from puzint.runner import load, search
from puzint.search import Limits
from puzint.search.depth import all_goal_states
from puzint.solutions import enumerate_solutions

from tests.conftest import SPECS, compiled_from
from tests.plain import cryptarithm, latin_square, sudoku

SOLVER = pytest.mark.skipif(importlib.util.find_spec("ortools") is None, reason="OR-tools is not installed")
KERNEL = pytest.mark.skipif(not kernel.installed() or kernel.jit_disabled(), reason="the kernel cannot run here")
ENGINE_NAMES = ["python", pytest.param("cpsat", marks=SOLVER), pytest.param("compiled", marks=KERNEL)]


def boards(compiled: CompiledPuzzle, engine: str) -> set[str]:
    """Every solution as its cells' symbols read row by row (counters: name=value)."""
    report = enumerate_solutions(compiled, Limits(), options=RunOptions(engine))
    assert report.status in ("solved", "no-solution") and report.engine == engine
    return {_text(compiled, path[-1][1] if path else compiled.start) for path in report.solutions}


def _text(compiled: CompiledPuzzle, state: bytes) -> str:
    decoded = compiled.layout.decode(state)
    if compiled.puzzle.board is not None:
        return "".join(compiled.puzzle.symbol(code) for code in decoded.cells)
    return " ".join(
        f"{c.name}={v}" for c, v in zip(compiled.puzzle.counters, decoded.counters, strict=True) if c.role == "number"
    )


@pytest.mark.parametrize("engine", ENGINE_NAMES)
def test_the_sudoku_has_the_plain_solver_s_one_solution(engine: str) -> None:
    compiled = load(SPECS / "sudoku.puz")
    given = "".join(str(code) if code else "0" for code in compiled.start[:81])
    assert boards(compiled, engine) == set(sudoku.solutions(given))


@pytest.mark.parametrize("engine", ENGINE_NAMES)
def test_search_any_says_the_sudoku_solution_is_the_only_one(engine: str) -> None:
    compiled = compiled_from((SPECS / "sudoku.puz").read_text() + "search any\n")
    result = search(compiled, engine=engine)
    assert result.status == "solved" and result.unique is True
    assert _text(compiled, result.path[-1][1]) == sudoku.solutions("".join(str(c) for c in compiled.start[:81]))[0]


@pytest.mark.parametrize("engine", ENGINE_NAMES)
def test_search_any_says_when_a_solution_is_not_the_only_one(engine: str) -> None:
    compiled = compiled_from((SPECS / "shidoku.puz").read_text() + "search any\n")
    result = search(compiled, engine=engine)
    assert result.status == "solved" and result.unique is False


@pytest.mark.parametrize("engine", ENGINE_NAMES)
def test_shidoku_and_latin_squares_are_counted_as_the_plain_solvers_count_them(engine: str) -> None:
    shidoku = load(SPECS / "shidoku.puz")
    assert len(boards(shidoku, engine)) == sudoku.count("0" * 16, size=4, box=(2, 2)) == 288
    for n in (3, 4):
        latin = load(SPECS / "latin_square.puz", {"n": str(n)})
        report = enumerate_solutions(latin, Limits(), keep=False, options=RunOptions(engine))
        assert report.count == latin_square.count(n)


@pytest.mark.parametrize("engine", [pytest.param("cpsat", marks=SOLVER), pytest.param("compiled", marks=KERNEL)])
def test_send_more_money(engine: str) -> None:
    """(The Python fill search takes several seconds over its 10^8 fillings: it answers the
    smaller cryptarithm below.)"""
    (plain,) = cryptarithm.solutions(["SEND", "MORE"], "MONEY")
    expected = " ".join(f"{letter}={plain[letter]}" for letter in "SENDMORY")
    assert boards(load(SPECS / "send_more_money.puz"), engine) == {expected}


TO_GO = """
puzzle "TO + GO = OUT"
fill T, O, G, U with 0..9
rule:
    all different(T, O, G, U)
    T != 0 and G != 0 and O != 0
    10*T + O + 10*G + O == 100*O + 10*U + T
"""


@pytest.mark.parametrize("engine", ENGINE_NAMES)
def test_a_cryptarithm(engine: str) -> None:
    (plain,) = cryptarithm.solutions(["TO", "GO"], "OUT")
    assert boards(compiled_from(TO_GO), engine) == {" ".join(f"{x}={plain[x]}" for x in "TOGU")}


def test_the_state_space_walk_finds_the_same_fillings() -> None:
    """The filling as moves (the next open cell in reading order), walked depth first as any
    puzzle of moves is: the fill search's solutions, and the plain solver's count."""
    compiled = load(SPECS / "shidoku.puz")
    walked = {_text(compiled, path[-1][1]) for path in all_goal_states(compiled, Limits(), [0])}
    assert walked == boards(compiled, "python")
    assert len(walked) == 288


QUEENS = """
puzzle "Queens"
param n = 6
board grid n x n
piece Q queen
fill cells with queen or empty
rule:
    every l in rows: count(c in l if c is queen) == 1
    no queen q: some d in king: first(q, d) is queen
symmetry mirror, rotate
"""


QUEENS_BY_LINES = """
puzzle "Queens"
param n = 6
board grid n x n
piece Q queen
fill cells with queen or empty
rule:
    every l in rows, columns: count(c in l if c is queen) == 1
    every l in diagonals: count(c in l if c is queen) <= 1
symmetry mirror, rotate
"""


@pytest.mark.parametrize("engine", ENGINE_NAMES)
@pytest.mark.parametrize(("n", "solutions", "classes"), [(4, 2, 1), (5, 10, 2), (6, 4, 1)])
def test_queens_as_a_filling_with_its_symmetries(engine: str, n: int, solutions: int, classes: int) -> None:
    from tests.plain import queens

    compiled = compiled_from(QUEENS, n=n)
    report = enumerate_solutions(compiled, Limits(), options=RunOptions(engine))
    assert (report.in_all, report.count) == (solutions, classes)
    assert report.in_all == queens.count(n)


@pytest.mark.parametrize("engine", ENGINE_NAMES)
@pytest.mark.parametrize(("n", "solutions", "classes"), [(1, 1, 1), (3, 0, 0), (5, 10, 2), (6, 4, 1), (7, 40, 6)])
def test_queens_by_their_lines(engine: str, n: int, solutions: int, classes: int) -> None:
    """One queen on each row and column, at most one on each diagonal: counts linear in the
    cells, which every filling engine says."""
    from tests.plain import queens

    compiled = compiled_from(QUEENS_BY_LINES, n=n)
    report = enumerate_solutions(compiled, Limits(), options=RunOptions(engine))
    assert (report.in_all, report.count) == (solutions, classes)
    assert report.in_all == queens.count(n)


def test_every_engine_says_whether_it_answers_a_filling() -> None:
    compiled = load(SPECS / "sudoku.puz")
    question = Query.of(compiled)
    assert registry.engine("python").why_not(compiled, question) is None
    reach = Query.of(compiled, reach=True)
    assert registry.engine("compiled").why_not(compiled, reach) == (
        "the partial fillings are counted by the state-space searches, in Python"
    )
    assert (
        registry.engine("cpsat").why_not(compiled, reach)
        == "the partial fillings are counted by the state-space searches"
    )


@SOLVER
def test_the_solver_refuses_a_rule_it_cannot_say_with_its_place() -> None:
    text = """
puzzle "cursor"
board line 3
pieces 1..3 "numbers"
fill cells with 1..3
rule: cell(1 + cell(1) % 3) == 2
"""
    compiled = compiled_from(text)
    why = registry.engine("cpsat").why_not(compiled, Query.of(compiled))
    assert (
        why == "the constraint solver cannot say a cell that is only known during the search: `cell` (line 6, column 7)"
    )
    why = registry.engine("compiled").why_not(compiled, Query.of(compiled))
    assert why == (
        "the kernel's fill search cannot say a rule that may read anything of the filling: "
        "`cell(1 + cell(1) % 3) == 2` (line 6, column 7)"
    )
    assert enumerate_solutions(compiled, Limits()).engine == "python"  # auto: the engine that can
