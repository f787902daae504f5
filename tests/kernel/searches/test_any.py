"""`search any` on the kernel gives the Python engine's answers: the same states met, in the
same reading order, the same solution move by move, with and without symmetries, for moves of
every kind, and the same stop at a state limit."""

from __future__ import annotations

import pytest
from puzint.compiler import CompiledPuzzle
from puzint.kernel import installed
from puzint.runner import kernel_unfit, load, search
from puzint.search import Limits
from puzint.search.result import LIMIT, NO_SOLUTION, SOLVED, SearchResult

from tests.conftest import SPECS, compiled_from

pytestmark = pytest.mark.skipif(not installed(), reason="numba is not installed")


def answer(result: SearchResult) -> tuple[object, ...]:
    return result.status, result.states, result.length, result.reachable, result.path, result.limit_reason


def both(compiled: CompiledPuzzle, most: int | None = None) -> SearchResult:
    assert kernel_unfit(compiled, False, False, "auto", "any") is None
    python = search(compiled, mode="any", limits=Limits(max_states=most), engine="python")
    kernel = search(compiled, mode="any", limits=Limits(max_states=most), engine="compiled")
    assert kernel.method == python.method + ", compiled"
    assert answer(kernel) == answer(python)
    return kernel


def test_english_peg_solitaire_up_to_its_symmetries() -> None:
    compiled = load(SPECS / "peg_english.puz")
    assert compiled.symmetry is not None and compiled.symmetry.checked
    result = both(compiled)
    assert result.status == SOLVED and result.length == 31


@pytest.mark.parametrize(
    ("spec", "params"),
    [
        ("peg_triangle", {"rows": "5"}),  # plain rewrites
        ("bishops", {}),  # slides with a safety rule
        ("lights_out", {"n": "3"}),  # toggles: by their anchor
        ("queens_moves", {"n": "6"}),  # placements: no cell to start from
        ("jealous_husbands", {}),  # carries
        ("hanoi", {"discs": "8"}),  # stacks, two words a state
        ("water_jugs", {}),  # counters
    ],
)
def test_moves_of_every_kind_are_tried_in_the_same_order(spec: str, params: dict[str, str]) -> None:
    assert both(load(SPECS / f"{spec}.puz", params)).status == SOLVED


def test_moves_of_several_statements_from_one_cell_keep_the_spec_order() -> None:
    text = """
puzzle "two ways from each cell"
board line 6
piece A a
start A _ _ _ _ _
goal _ _ _ _ _ A
move far: A _ _ -> _ _ A along right
move near: step A along right
"""
    result = both(compiled_from(text))
    assert result.status == SOLVED and result.length == 3  # far, far, then near... as the spec orders them


@pytest.mark.parametrize("limit", [1, 10, 1_000])
def test_a_state_limit_stops_both_alike(limit: int) -> None:
    result = both(load(SPECS / "peg_english.puz"), most=limit)
    assert result.status == LIMIT


def test_no_solution_after_every_state_met() -> None:
    result = both(load(SPECS / "peg_triangle.puz", {"rows": "4"}))
    assert result.status == NO_SOLUTION and result.reachable == result.states
