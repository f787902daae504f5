"""Blocks on the kernel's machine (pieces of several cells that move as one) give the Python
engine's answers: every slide mode, a condition, a slide followed by actions, counts,
reachable states and `search any`; rewrites and symmetries on a board with blocks stay with
Python, and say so."""

from __future__ import annotations

import pytest
from puzint.compiler import CompiledPuzzle
from puzint.kernel import installed
from puzint.runner import kernel_unfit, search
from puzint.search import Limits
from puzint.search.result import NO_SOLUTION, SOLVED, SearchResult

from tests.conftest import SPECS, compiled_from

pytestmark = pytest.mark.skipif(not installed(), reason="numba is not installed")

TRAYS = """
puzzle "a tray of dominoes"
board grid 4 x 4
piece A a block 2 x 1
piece B b block 1 x 2
piece C c
start:
    A B B _
    A C _ _
    _ _ _ A
    C _ _ A
goal:
    ? ? ? ?
    ? ? ? ?
    ? ? A ?
    ? ? A ?
move move: MODE ?p along orthogonal
"""


def answer(result: SearchResult) -> tuple[object, ...]:
    return result.status, result.states, result.length, result.count, result.reachable, result.path


def both(compiled: CompiledPuzzle, count: bool = False, reach: bool = False, mode: str | None = None) -> SearchResult:
    assert kernel_unfit(compiled, count, reach, "auto", mode) is None
    python = search(compiled, count=count, reach=reach, mode=mode, engine="python", limits=Limits())
    kernel = search(compiled, count=count, reach=reach, mode=mode, engine="compiled", limits=Limits())
    assert kernel.method == python.method + ", compiled"
    assert answer(kernel) == answer(python)
    return kernel


@pytest.mark.parametrize("slide", ["step", "slide", "slide ... until blocked", "slide ... until blocked by pieces"])
@pytest.mark.parametrize(("count", "reach", "mode"), [(False, False, None), (True, False, None), (False, True, None)])
def test_blocks_slide_alike(slide: str, count: bool, reach: bool, mode: str | None) -> None:
    form = slide.replace("...", "?p along orthogonal") if "..." in slide else f"{slide} ?p along orthogonal"
    text = TRAYS.replace("MODE ?p along orthogonal", form)
    result = both(compiled_from(text), count, reach, mode)
    # stopped only by pieces, the tray reaches 12 arrangements, none the goal (a plain
    # breadth-first search of the same slides says the same)
    assert result.status == (NO_SOLUTION if "by pieces" in slide else SOLVED)


def test_rush_hour_any_solution() -> None:
    compiled = compiled_from((SPECS / "rush_hour.puz").read_text())
    assert both(compiled, mode="any").status == SOLVED


def test_a_slide_of_blocks_with_an_action_after_it() -> None:
    moves = "counter moves = 0 in 0..99\nmove move: slide ?p along orthogonal, add 1 to moves if ?p.height == 2"
    text = TRAYS.replace("move move: MODE ?p along orthogonal", moves)
    assert both(compiled_from(text), count=True).status == SOLVED


def test_rewrites_and_symmetries_with_blocks_stay_with_python() -> None:
    rewrite = TRAYS.replace("move move: MODE ?p along orthogonal", "move move: C _ -> _ C along right")
    assert kernel_unfit(compiled_from(rewrite), False, True, "auto", None) == "rewrites on a board with blocks"
    symmetric = TRAYS.replace("MODE", "slide").replace("? ? A ?\n    ? ? A ?", "? ? ? ?\n    ? ? ? ?")
    unfit = kernel_unfit(compiled_from(symmetric + "symmetry flip\n"), False, True, "auto", None)
    assert unfit is not None and "blocks" in unfit
