"""Lines read as their runs (`runs(l, K) == clues[l.row]`, lists of lists indexed by a
quantifier's variable) and cages read by product, min and max, on every engine that answers
fillings, against the plain solvers of tests/plain (nonogram.py, kenken.py)."""

from __future__ import annotations

import pytest
from puzint.engines import Query, registry
from puzint.errors import SpecError
from puzint.runner import load

from tests.conftest import SPECS, compiled_from
from tests.engines.test_fillings import ENGINE_NAMES, KERNEL, SOLVER, boards
from tests.plain import kakuro, kenken, killer_sudoku, nonogram

ACROSS = [[1], [3], [1, 1, 1], [3, 1], [1, 1]]
DOWN = [[3], [2, 2], [3], [], [3]]
NONOGRAM = """
param across = [[1], [3], [1, 1, 1], [3, 1], [1, 1]]
param down = [[3], [2, 2], [3], [], [3]]
board grid len(across) x len(down)
piece X black
fill cells with X or empty
rule:
    every l in rows: runs(l, black) == across[l.row]
    every l in columns: runs(l, black) == down[l.col]
"""

KENKEN_PICTURE = ["aabc", "debc", "deff", "gghh"]
KENKEN_CLUES = {"a": ("*", 4), "b": ("/", 2), "c": ("-", 2), "d": ("+", 7), "e": ("*", 2), "f": ("-", 1)}
KENKEN_CLUES |= {"g": ("+", 5), "h": ("*", 4)}
KENKEN = """
board grid 4 x 4
pieces 1..4 "numbers"
regions:
    a a b c
    d e b c
    d e f f
    g g h h
fill cells with 1..4
rule:
    every l in rows, columns: all different(l)
    product(c.value for c in region(a)) == 4
    max(c.value for c in region(b)) == 2 * min(c.value for c in region(b))
    max(c.value for c in region(c)) - min(c.value for c in region(c)) == 2
    sum(c.value for c in region(d)) == 7
    product(c.value for c in region(e)) == 2
    abs(max(c.value for c in region(f)) - min(c.value for c in region(f))) == 1
    sum(c.value for c in region(g)) == 5
    product(c.value for c in region(h)) == 4
"""


KAKURO_CSV = "\\,4\\,6\\\n\\3,,\n\\7,,\n"
KAKURO = """
param across = [[0, 0, 0], [3, 0, 0], [7, 0, 0]]
param down = [[0, 4, 6], [0, 0, 0], [0, 0, 0]]
board:
    . . .
    . _ _
    . _ _
pieces 1..9 "digits"
fill cells with 1..9
rule:
    every l in rows: all different(l) and sum(c.value for c in l) == across[l.row][l.col - 1]
    every l in columns: all different(l) and sum(c.value for c in l) == down[l.row - 1][l.col]
"""


@pytest.mark.parametrize("engine", ENGINE_NAMES)
def test_a_kakuro_s_runs_read_their_clues_at_their_heads(engine: str) -> None:
    """Each run is a row or column of the picture between squares with no cell; its clue sits in
    the table of the board's shape at the square before it."""
    assert boards(compiled_from(KAKURO), engine) == set(kakuro.solutions(KAKURO_CSV, 10)) == {"1234"}


@pytest.mark.parametrize("engine", ["python", pytest.param("compiled", marks=KERNEL)])
def test_the_catalogue_kakuro_has_the_plain_model_s_one_solution(engine: str) -> None:
    expected = kakuro.solutions(kakuro.SUMAS_93)
    assert boards(load(SPECS / "kakuro.puz"), engine) == set(expected)
    assert len(expected) == 1


@pytest.mark.parametrize("engine", ENGINE_NAMES)
def test_a_nonogram_read_as_its_clues_has_the_plain_solver_s_grids(engine: str) -> None:
    found = boards(compiled_from(NONOGRAM), engine)
    assert found == {grid.replace("#", "X").replace(".", "_") for grid in nonogram.solutions(ACROSS, DOWN, 10)}
    assert len(found) == 1


@pytest.mark.parametrize("engine", ENGINE_NAMES)
def test_a_kenken_of_products_differences_and_quotients_has_the_plain_solver_s_squares(engine: str) -> None:
    expected = kenken.solutions(4, kenken.from_picture(KENKEN_PICTURE, KENKEN_CLUES), 100)
    assert boards(compiled_from(KENKEN), engine) == set(expected)


@pytest.mark.parametrize("engine", ENGINE_NAMES)
def test_the_catalogue_kenken_has_the_plain_solver_s_one_square(engine: str) -> None:
    expected = kenken.solutions(6, kenken.from_picture(kenken.NYT_PICTURE, kenken.NYT_CLUES))
    assert boards(load(SPECS / "kenken.puz"), engine) == set(expected) == {"352641534216643125125364216453461532"}


@SOLVER
@pytest.mark.parametrize("engine", ENGINE_NAMES)
def test_the_catalogue_killer_sudoku_has_the_plain_model_s_one_solution(engine: str) -> None:
    expected = killer_sudoku.solutions(killer_sudoku.WIKIPEDIA, killer_sudoku.WIKIPEDIA_SUMS)
    assert boards(load(SPECS / "killer_sudoku.puz"), engine) == set(expected)
    assert len(expected) == 1


@SOLVER
def test_the_catalogue_nonogram_has_the_plain_solver_s_one_grid() -> None:
    """tests/plain/nonogram.py takes half a minute on it: its grid is written here."""
    grid = (
        ".....#####.....|....##...##....|....#.....#....|....#.....#....|.####.....####.|##..##...#...##|"
        "#.....###.....#|#.....#.#.....#|##..#######..##|.####..#.#####.|..##...#....#..|..#....#....##.|"
        "..#....#.....#.|..##.#####..##.|...###...####.."
    ).replace("|", "")
    assert boards(load(SPECS / "nonogram.puz"), "cpsat") == {grid.replace("#", "X").replace(".", "_")}


def test_the_kernel_refuses_a_line_too_long_to_tabulate_with_its_place() -> None:
    compiled = load(SPECS / "nonogram.puz")
    assert registry.engine("compiled").why_not(compiled, Query.of(compiled)) == (
        "the kernel's fill search cannot say this condition over 15 things (32,768 combinations, more than 4,096): "
        "`runs(l, black) == across[l.row]` (line 13, column 22)"
    )


@SOLVER
def test_the_solver_refuses_runs_under_or_with_its_place() -> None:
    compiled = compiled_from(NONOGRAM + "    runs(cells, black) == [1] or runs(cells, black) != [2]\n")
    assert registry.engine("cpsat").why_not(compiled, Query.of(compiled)) == (
        "the constraint solver cannot say runs() under `or`, `not`, `!=` or `some` (its automaton is not reified): "
        "`runs` (line 10, column 5)"
    )


def test_a_list_of_lists_may_be_given_on_the_command_line() -> None:
    found = boards(compiled_from(NONOGRAM, across="1;3;1,1,1;3,1;1,1"), "python")
    assert len(found) == 1
    assert compiled_from(NONOGRAM, across="[[1], [3], [1, 1, 1], [3, 1], [1, 1]]").puzzle.params["across"] == (
        (1,),
        (3,),
        (1, 1, 1),
        (3, 1),
        (1, 1),
    )


@pytest.mark.parametrize(
    ("rule", "message"),
    [
        (
            "every l in rows: runs(l, black) == across[r1c1.row + count(c in l if c is black)]",
            "a list's index must be known before the search",
        ),
        ("every l in rows: l.value == 1", "a line has a row and a col (its first cell's), not 'value'"),
        ("runs(r1c1, 3) == [1]", "runs() takes a line of cells and a kind of piece"),
        ("product(c for c in rows) == 1", "expected a number here, got a line of cells"),
    ],
)
def test_mistakes_are_refused_at_their_place(rule: str, message: str) -> None:
    with pytest.raises(SpecError, match=message.replace("(", r"\(").replace(")", r"\)")):
        compiled_from(NONOGRAM + f"    {rule}\n")


def test_a_list_of_lists_holds_lists_alone() -> None:
    with pytest.raises(SpecError, match="a list of lists holds lists, got a number"):
        compiled_from(NONOGRAM.replace("[[3], [2, 2],", "[[3], 2,"))
