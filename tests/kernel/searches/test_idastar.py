"""IDA* on the kernel gives the Python engine's answers: the same states visited, the same
bounds, the same solution move by move, the same stop at a state limit; on puzzles that keep
a set of the states on the path and on puzzles that cannot come back to a state."""

from __future__ import annotations

import pytest
from puzint.compiler import CompiledPuzzle
from puzint.kernel import installed
from puzint.runner import kernel_unfit, search
from puzint.search import Limits
from puzint.search.result import LIMIT, NO_SOLUTION, SOLVED, SearchResult

from tests.conftest import SPECS, compiled_from

pytestmark = pytest.mark.skipif(not installed(), reason="numba is not installed")

EIGHT = (SPECS / "eight_puzzle.puz").read_text()
FIFTEEN = """
puzzle "fifteen, sixty random moves out"
board grid 4 x 4
pieces "123456789ABCDEF" "tiles"
start:
    1 C 4 6
    E _ 3 8
    2 A B 7
    9 5 D F
goal:
    1 2 3 4
    5 6 7 8
    9 A B C
    D E F _
move slide: ?t _ -> _ ?t along orthogonal
heuristic displacement()
"""
PEGS = """
puzzle "pegs in a row"
board line 7
piece P peg
start P P _ P P _ P
goal when count(peg) == 1
move jump: P P _ -> _ _ P along any
heuristic count(peg) - 1
"""


def answer(result: SearchResult) -> tuple[object, ...]:
    return result.status, result.states, result.length, result.path, result.limit_reason


def both(compiled: CompiledPuzzle, most: int | None = None) -> SearchResult:
    assert kernel_unfit(compiled, False, False, "idastar", None) is None
    python = search(compiled, method="idastar", limits=Limits(max_states=most), engine="python")
    kernel = search(compiled, method="idastar", limits=Limits(max_states=most), engine="compiled")
    assert kernel.method == python.method + ", compiled"
    assert answer(kernel) == answer(python)
    return kernel


def test_the_hardest_eight_puzzle() -> None:
    result = both(compiled_from(EIGHT))
    assert result.status == SOLVED and result.length == 31


def test_a_fifteen_puzzle_of_64_bits_a_state() -> None:
    compiled = compiled_from(FIFTEEN)
    result = both(compiled)
    assert result.status == SOLVED and result.length == 38


def test_pegs_that_never_come_back_keep_no_path_set() -> None:
    compiled = compiled_from(PEGS)
    assert compiled.acyclic
    result = both(compiled)
    assert result.status == NO_SOLUTION


@pytest.mark.parametrize("limit", [1, 50, 5_000])
def test_a_state_limit_stops_both_alike(limit: int) -> None:
    result = both(compiled_from(EIGHT), most=limit)
    assert result.status == LIMIT and result.states == limit
