"""`connected(c for c in COLLECTION if COND)`: the cells chosen form one group, joined by steps
along the board's default directions. Checked once every cell it reads is decided, and by the
fill search on partial fillings where its condition reads the member's cell alone; the kernel's
fill model takes it as a table where its cells have few combinations of values, and refuses it
beyond (CP-SAT always), with its place."""

from __future__ import annotations

from itertools import product

import pytest
from puzint.engines import Query, registry
from puzint.errors import SpecError
from puzint.runner import search

from tests.conftest import compiled_from
from tests.engines.test_fillings import KERNEL, boards

GROUPS = """
puzzle "groups"
board grid 3 x 3
piece X shaded
piece o open
fill cells with X, o
rule: connected(c for c in cells if c is o)
"""


def _plain_connected(cells: set[tuple[int, int]]) -> bool:
    if len(cells) < 2:
        return True
    first = next(iter(cells))
    seen, frontier = {first}, [first]
    while frontier:
        r, c = frontier.pop()
        for step in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if step in cells and step not in seen:
                seen.add(step)
                frontier.append(step)
    return len(seen) == len(cells)


def _plain_boards(keep: object = None, n: int = 3) -> set[str]:
    found = set()
    for shading in product("Xo", repeat=n * n):
        opened = {(i // n, i % n) for i, v in enumerate(shading) if v == "o"}
        if _plain_connected(opened) and (keep is None or keep(shading)):  # type: ignore[operator]
            found.add("".join(shading))
    return found


@pytest.mark.parametrize("engine", ["python", pytest.param("compiled", marks=KERNEL)])
def test_the_fillings_whose_open_cells_are_one_group_are_those_a_plain_walk_finds(engine: str) -> None:
    plain = _plain_boards()
    assert len(plain) == 219  # of 512 subsets of a 3 x 3 grid, these are connected (the empty one too)
    assert boards(compiled_from(GROUPS), engine) == plain


def test_a_partial_filling_whose_open_cells_can_no_longer_join_is_given_up_soundly() -> None:
    """On 4 x 4 (more combinations than the kernel's table holds) the fill search decides the
    cells one by one, and gives up a partial filling once its open cells cannot join those
    chosen: the same fillings as a plain walk, far fewer partial ones."""
    plain = _plain_boards(n=4)
    compiled = compiled_from(GROUPS.replace("3 x 3", "4 x 4"))
    assert boards(compiled, "python") == plain and len(plain) == 11507
    beside = compiled_from(GROUPS.replace("3 x 3", "4 x 4").replace("c is o)", "c is o and c.row + c.col >= 0)"))
    assert boards(beside, "python") == plain


def test_a_condition_of_the_chosen_cells_and_a_second_group() -> None:
    spec = GROUPS + "rule: connected(c for c in cells if c is X and c.row >= 2)\n"
    spec += "rule: count(c in cells if c is X) == 3\n"

    def keep(shading: tuple[str, ...]) -> bool:
        low = {(i // 3, i % 3) for i, v in enumerate(shading) if v == "X" and i >= 3}
        return shading.count("X") == 3 and _plain_connected(low)

    plain = _plain_boards(keep)
    assert plain and boards(compiled_from(spec), "python") == plain


@KERNEL
def test_the_kernel_past_its_table_and_the_solver_refuse_it_with_its_place() -> None:
    compiled = compiled_from(GROUPS.replace("3 x 3", "5 x 5"))
    question = Query.of(compiled)
    assert "`connected` (line 7, column 7)" in (registry.engine("compiled").why_not(compiled, question) or "")
    assert "`connected` (line 7, column 7)" in (registry.engine("cpsat").why_not(compiled, question) or "")


@pytest.mark.parametrize(
    ("rule", "said"),
    [
        ("connected(c for c in cells)", None),
        ("connected(c.row for c in cells if c is o)", "expected a cell"),
        ("connected(x for x in 1..3)", "expected a cell"),
    ],
)
def test_what_connected_takes(rule: str, said: str | None) -> None:
    text = GROUPS.replace("rule: connected(c for c in cells if c is o)", f"rule: {rule}")
    if said is None:
        assert search(compiled_from(text), count=True).count == 512  # every cell chosen: one group
        return
    with pytest.raises(SpecError) as err:
        compiled_from(text)
    assert said in str(err.value.diagnostics[0])
