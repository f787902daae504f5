"""A neighbour's value (`neighbours(c, king)`, `next(c, d)`) and the cell holding a number
(`holding(v)`, `adjacent(a, b)`) in fill rules, on every engine: the same fillings as a plain
brute force over every arrangement, both ways of writing a path of numbers, and the cell
holding a number where the rules do not keep it to one cell (left to the fill search)."""

from __future__ import annotations

import itertools

import pytest
from puzint.engines import Query, RunOptions
from puzint.errors import SpecError
from puzint.plan.table import plan

from tests.conftest import SPECS, compiled_from
from tests.engines.test_fillings import ENGINE_NAMES, KERNEL, SOLVER, boards
from tests.plain import number_paths

HEAD = 'puzzle "path"\nboard grid 2 x 3\npieces 1..6 "numbers"\nstart:\n    1 _ _\n    _ _ _\nfill cells with 1..6\n'

KING = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]
ROOK = [(dr, dc) for dr, dc in KING if dr == 0 or dc == 0]


def brute(holds: object) -> set[str]:
    """Every arrangement of 1..6 on the 2 x 3 grid with 1 in the corner that `holds` keeps."""
    out = set()
    for rest in itertools.permutations(range(2, 7)):
        grid = (1, *rest)
        if holds(grid):  # type: ignore[operator]
            out.add("".join(str(v) for v in grid))
    return out


def near(a: int, b: int, steps: list[tuple[int, int]]) -> bool:
    return (b // 3 - a // 3, b % 3 - a % 3) in steps


def path(grid: tuple[int, ...], steps: list[tuple[int, int]]) -> bool:
    where = {v: i for i, v in enumerate(grid)}
    return all(near(where[k], where[k + 1], steps) for k in range(1, 6))


FORMS = [
    ("every c in cells: c.value == 6 or some x in neighbours(c, king): x.value == c.value + 1", KING),
    ("every c in cells: c.value == 6 or some x in neighbours(c): x.value == c.value + 1", ROOK),
    ("every k in 1..5: adjacent(holding(k), holding(k + 1), king)", KING),
    ("every k in 1..5: adjacent(holding(k), holding(k + 1))", ROOK),
    (
        "every c in cells: c.value == 6 or c.col < 3 and next(c, right).value == c.value + 1 "
        "or c.col > 1 and next(c, left).value == c.value + 1 or c.row < 2 and next(c, down).value == c.value + 1 "
        "or c.row > 1 and next(c, up).value == c.value + 1 or some d in diagonal: next(c, d) is not empty and "
        "next(c, d) is not empty and false",
        ROOK,
    ),
]


@pytest.mark.parametrize("engine", ENGINE_NAMES)
@pytest.mark.parametrize(("rule", "steps"), FORMS)
def test_a_path_of_numbers_has_the_brute_force_s_fillings(engine: str, rule: str, steps: list[tuple[int, int]]) -> None:
    compiled = compiled_from(HEAD + f"rule:\n    all different(cells)\n    {rule}\n")
    expected = brute(lambda grid: path(grid, steps))
    assert boards(compiled, engine) == expected and expected


@pytest.mark.parametrize("engine", ENGINE_NAMES)
def test_holding_a_number_no_cell_holds_is_no_cell(engine: str) -> None:
    # 6 is never written (the cells take 1..5, some twice): holding(6) is no cell, and no cell is next to it
    text = (
        'puzzle "p"\nboard grid 1 x 3\npieces 1..6 "numbers"\nfill cells with 1..5\n'
        "rule:\n    all different(cells)\n"
        "    not adjacent(holding(2), holding(6)) and adjacent(holding(1), holding(2))\n"
    )
    expected = {
        "".join(map(str, p))
        for p in itertools.permutations(range(1, 6), 3)
        if 1 in p and 2 in p and abs(p.index(1) - p.index(2)) == 1
    }
    assert boards(compiled_from(text), engine) == expected


SHARED = (
    'puzzle "p"\nboard grid 1 x 3\npieces 1..2 "numbers"\nfill cells with 1..2\n'
    "rule: adjacent(holding(1), holding(2))\n"
)


@pytest.mark.parametrize("engine", [pytest.param("python"), pytest.param("compiled", marks=KERNEL)])
def test_holding_a_number_several_cells_hold_is_the_first_in_reading_order(engine: str) -> None:
    # no `all different`: holding(1) is the first cell holding 1 (plain: the first index)
    expected = {
        "".join(map(str, grid))
        for grid in itertools.product((1, 2), repeat=3)
        if 1 in grid and 2 in grid and abs(grid.index(1) - grid.index(2)) == 1
    }
    assert boards(compiled_from(SHARED), engine) == expected == {"121", "122", "211", "212"}


@SOLVER
def test_holding_a_number_the_rules_do_not_keep_to_one_cell_is_refused_by_the_solver_with_the_reason() -> None:
    # the kernel's fill search tabulates it (three cells, 8 combinations), the evaluator's reading
    compiled = compiled_from(SHARED)
    with pytest.raises(SpecError) as caught:
        plan(compiled, Query.of(compiled), RunOptions("cpsat"))
    assert "holding(1) where no `all different` of the cells keeps 1 to one" in caught.value.diagnostics[0].message


@pytest.mark.parametrize("engine", ENGINE_NAMES)
@pytest.mark.parametrize("name", ["hidato", "numbrix"])
def test_the_catalogue_s_number_paths_have_the_plain_solver_s_one_solution(engine: str, name: str) -> None:
    board, diagonal = (number_paths.HIDATO, True) if name == "hidato" else (number_paths.NUMBRIX, False)
    if engine != "cpsat" and name == "numbrix":
        pytest.skip("81 values a cell: the kernel refuses it (checked below), Python's fill search takes minutes")
    (solution,) = number_paths.solutions(board, diagonal)
    compiled = compiled_from((SPECS / f"{name}.puz").read_text())
    found = boards(compiled, engine)
    symbol = compiled.puzzle.symbol
    expected = "".join(symbol(n) for row in solution for n in row if n is not None)
    assert found == {expected}


@KERNEL
def test_the_kernel_refuses_the_numbrix_with_the_reason() -> None:
    compiled = compiled_from((SPECS / "numbrix.puz").read_text())
    with pytest.raises(SpecError) as caught:
        plan(compiled, Query.of(compiled), RunOptions("compiled"))
    assert "a thing of more than 62 values" in caught.value.diagnostics[0].message
