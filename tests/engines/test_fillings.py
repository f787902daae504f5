"""Fillings (logic puzzles) on every engine that answers them: the fill search, the CP-SAT
solver and the state-space walk of the same spec find the same solutions, which are the
independent plain solvers' (tests/plain/, written without reading puzint's code)."""

from __future__ import annotations

import importlib.util

import pytest
from puzint import kernel
from puzint.compiler import CompiledPuzzle
from puzint.engines import Query, RunOptions, registry
from puzint.engines.python import fill_model
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


@pytest.mark.parametrize("engine", ENGINE_NAMES)
def test_send_more_money(engine: str) -> None:
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


DIVIDED = """
puzzle "divided"
fill a, b, c with -7..25
rule:
    a / 10 == b % 10 + 1
    b / 10 != c / 10
    c % 7 == a % 3
    (a + 30) / 4 < c
"""


@pytest.mark.parametrize("engine", ENGINE_NAMES)
def test_division_and_remainder_of_one_thing_are_said_by_every_engine(engine: str) -> None:
    """`x / d` and `x % d` of a number that reads one thing, by a known divisor, are that thing's
    values divided (floor division, the remainder of its sign, as the search reads them): every
    engine says them, and finds the fillings a plain enumeration finds."""
    values = range(-7, 26)
    plain = {
        f"a={a} b={b} c={c}"
        for a in values
        for b in values
        for c in values
        if a // 10 == b % 10 + 1 and b // 10 != c // 10 and c % 7 == a % 3 and (a + 30) // 4 < c
    }
    compiled = compiled_from(DIVIDED)
    assert registry.engine(engine).why_not(compiled, Query.of(compiled)) is None
    assert boards(compiled, engine) == plain and len(plain) > 20


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


@pytest.mark.parametrize("symmetric", [True, False])
def test_queens_ten_are_counted_by_python_as_the_plain_solver_counts_them(symmetric: bool) -> None:
    """The Python engine propagates the counts of each line (search/propagation.py): queens
    n = 10, which the fill search of forward checking did not count in minutes. With the
    symmetries the solutions are walked (one of each class listed); without, only counted."""
    from tests.plain import queens

    spec = (SPECS / "queens.puz").read_text()
    compiled = compiled_from(spec if symmetric else spec.replace("symmetry mirror, rotate", ""), n=10)
    assert fill_model(compiled) is not None
    report = enumerate_solutions(compiled, Limits(), keep=False, options=RunOptions("python"))
    assert report.status == "solved" and report.engine == "python"
    assert report.in_all == queens.count(10) == 724
    if symmetric:
        assert report.count == queens.count_up_to_symmetry(10) == 92


@pytest.mark.parametrize("symmetric", [True, False])
def test_a_state_limit_stops_the_python_fill_search(symmetric: bool) -> None:
    """--max-states bounds the decisions; the count stops with its reason."""
    spec = (SPECS / "queens.puz").read_text()
    compiled = compiled_from(spec if symmetric else spec.replace("symmetry mirror, rotate", ""), n=10)
    report = enumerate_solutions(compiled, Limits(max_states=300), keep=False, options=RunOptions("python"))
    assert (report.status, report.limit_reason) == ("limit", "state limit of 300 reached")
    assert report.states == 300 and report.in_all < 724
    result = search(compiled_from(spec + "search any\n", n=10), engine="python", limits=Limits(max_states=2))
    assert (result.status, result.limit_reason) == ("limit", "state limit of 2 reached")


CURSOR = """
puzzle "cursor"
board line 3
pieces 1..3 "numbers"
fill cells with 1..3
rule:
    cell(1 + cell(1) % 3) == 2
    cell(2) + cell(3) != 4
"""


def test_python_answers_a_filling_the_model_cannot_say_by_forward_checking() -> None:
    """A rule that reads a cell known only during the search: the kernel's model cannot say
    it, and the fill search of forward checking answers, as the plain walk of every filling."""
    from itertools import product

    compiled = compiled_from(CURSOR)
    assert fill_model(compiled) is None
    plain = {
        "".join(map(str, cells))
        for cells in product(range(1, 4), repeat=3)
        if cells[cells[0] % 3] == 2 and cells[1] + cells[2] != 4
    }
    assert boards(compiled, "python") == plain and plain
    result = search(compiled_from(CURSOR + "search any\n"), engine="python")
    assert result.status == "solved" and result.unique is (len(plain) == 1)


SAFE_FILLING = """
puzzle "safe"
board grid 1 x 3
pieces 1..3 "numbers"
fill cells with 1..3
safe: r1c1 is empty or r1c1.value != 1
rule: every l in rows: all different(l)
"""


@pytest.mark.parametrize(
    ("safe", "expected"),
    [
        ("r1c1 is empty or r1c1.value != 1", {"213", "231", "312", "321"}),
        ("r1c2 is empty or r1c3 is not empty", set()),  # broken by the partial filling of two cells
        ("count(x in cells if x is empty) != 1 or r1c1.value != 1", {"213", "231", "312", "321"}),
    ],
)
def test_a_filling_with_safety_rules_keeps_them_on_every_partial_filling(safe: str, expected: set[str]) -> None:
    """A safety rule holds of every partial filling, in reading order: the state-space walk
    keeps it, and so does the Python engine's fill search, which then decides the cells in
    that order (the kernel and CP-SAT refuse such a filling). The second and third rules hold
    of every complete filling but not of some partial one on the way to it."""
    compiled = compiled_from(SAFE_FILLING.replace("r1c1 is empty or r1c1.value != 1", safe))
    walked = {_text(compiled, path[-1][1]) for path in all_goal_states(compiled, Limits(), [0])}
    assert walked == expected
    assert boards(compiled, "python") == walked
    counted = enumerate_solutions(compiled, Limits(), keep=False, options=RunOptions("python"))
    assert counted.count == len(expected)
    result = search(compiled_from(SAFE_FILLING.replace("r1c1 is empty or r1c1.value != 1", safe) + "search any\n"))
    assert result.status == ("solved" if expected else "no-solution") and result.unique is (False if expected else None)


SOLVED_SHIDOKU = """
board grid 4 x 4
pieces 1..4 "digits"
boxes 2 x 2
start:
    1 2 3 4
    3 4 1 2
    2 1 4 3
    4 3 2 1
fill cells with 1..4
rule: every l in rows, columns, boxes: all different(l)
"""


@pytest.mark.parametrize("engine", ENGINE_NAMES)
def test_a_filling_with_nothing_open_is_checked(engine: str) -> None:
    assert boards(compiled_from(SOLVED_SHIDOKU), engine) == {"1234341221434321"}
    broken = SOLVED_SHIDOKU.replace("4 3 2 1\n", "4 3 1 2\n")
    assert boards(compiled_from(broken), engine) == set()


@SOLVER
def test_cp_sat_tells_the_progress_line_its_solutions_and_branches() -> None:
    told: list[tuple[int, str]] = []
    limits = Limits()
    limits.progress = lambda states, at, engine: told.append((states, at))
    report = enumerate_solutions(
        compiled_from(SOLVED_SHIDOKU.replace("4 3 2 1", "_ _ _ _")), limits, options=RunOptions("cpsat")
    )
    assert report.engine == "cpsat" and report.count == 1
    assert told and told[0][1] == "1 solution found" and all(states >= 0 for states, _ in told)


@pytest.mark.parametrize("engine", [pytest.param("cpsat", marks=SOLVER), pytest.param("compiled", marks=KERNEL)])
def test_a_walk_without_moves_gives_each_goal_state_as_one_step(engine: str) -> None:
    """What a listing held for a race's end keeps: a 30 x 30 filling's path of moves is a
    megabyte, its last step a kilobyte. The same goal states either way."""
    compiled = load(SPECS / "queens.puz", {"n": "6"})
    walker = registry.engine(engine)
    with_moves = list(walker.goal_states(compiled, Limits(), [0], True))
    last_steps = list(walker.goal_states(compiled, Limits(), [0], False))
    assert [len(path) for path in with_moves] == [36] * 4  # a step a cell
    assert [len(path) for path in last_steps] == [1] * 4
    assert [path[-1][1] for path in last_steps] == [path[-1][1] for path in with_moves]
