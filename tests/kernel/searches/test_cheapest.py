"""`search cheapest` on the kernel gives the Python engine's answers: the same states stored,
the same cost, count and solution, move by move, with costs from every kind of move (a
slide's piece, a let, a rewrite with a condition, a carry's load), with and without a
heuristic, and the same stop at a state limit."""

from __future__ import annotations

import pytest
from puzint.compiler import CompiledPuzzle
from puzint.kernel import installed
from puzint.runner import kernel_unfit, search
from puzint.search import Limits
from puzint.search.result import LIMIT, NO_SOLUTION, SOLVED, SearchResult

from tests.conftest import SPECS, compiled_from

pytestmark = pytest.mark.skipif(not installed(), reason="numba is not installed")

SLIDES = """
puzzle "weighted slides"
board grid 3 x 3
pieces 1..3 "blocks"
start:
    1 2 3
    _ _ _
    _ _ _
goal:
    _ _ _
    _ _ _
    3 2 1
move go: step ?b along orthogonal cost ?b.value
search cheapest
"""

JUGS = """
puzzle "jugs by the litre"
counter A = 0 in 0..7 "small jug"
counter B = 0 in 0..11 "big jug"
goal when B == 1
move fill: set ?j = ?j.max cost ?j.max - ?j + 1
move empty: set ?j = 0 cost 1
move pour: let k = min(?a, ?b.max - ?b), set ?a = ?a - k, set ?b = ?b + k cost k + 1
search cheapest
"""

HOPS = """
puzzle "hops"
board line 7
piece A a
piece B b
start A A A _ B B B
goal B B B _ A A A
move walk: A _ -> _ A along right cost 1
move back: _ B -> B _ along right cost 1
move jump: A ?x _ -> _ ?x A along right if ?x is b cost 3
move leap: _ ?x B -> B ?x _ along right cost 3
heuristic count(a) - 3
search cheapest
"""

BRIDGE = (SPECS / "bridge_torch.puz").read_text()


def answer(result: SearchResult) -> tuple[object, ...]:
    return (
        result.status,
        result.states,
        result.length,
        result.cost,
        result.count,
        result.reachable,
        result.path,
        result.limit_reason,
    )


def both(compiled: CompiledPuzzle, count: bool, method: str = "auto", most: int | None = None) -> SearchResult:
    assert kernel_unfit(compiled, count, False, method, None) is None
    python = search(compiled, count=count, method=method, limits=Limits(max_states=most), engine="python")
    kernel = search(compiled, count=count, method=method, limits=Limits(max_states=most), engine="compiled")
    assert kernel.method == python.method + ", compiled"
    assert answer(kernel) == answer(python)
    return kernel


@pytest.mark.parametrize(
    ("text", "params"),
    [(SLIDES, {}), (JUGS, {}), (HOPS, {}), (BRIDGE, {"times": [1, 2, 5, 10, 12, 15, 20]})],
    ids=["slide", "let", "rewrite", "carry"],
)
@pytest.mark.parametrize("count", [False, True])
@pytest.mark.parametrize("method", ["auto", "bfs"])
def test_the_cheapest_solution_is_the_same(text: str, params: dict[str, object], count: bool, method: str) -> None:
    result = both(compiled_from(text, **params), count, method)
    assert result.status == SOLVED and result.cost is not None


def test_the_costs_are_the_moves_own() -> None:
    result = both(compiled_from(SLIDES), count=False)
    # block k steps k times its number; blocks 1 and 3 go 4 steps each (corner to corner),
    # block 2 goes 2 steps: 4 * 1 + 2 * 2 + 4 * 3
    assert result.cost == 20 and result.length == 10
    assert result.bytes_per_state > 0


@pytest.mark.parametrize("limit", [1, 10, 100])
def test_a_state_limit_stops_both_alike(limit: int) -> None:
    result = both(compiled_from(BRIDGE, times=[1, 2, 5, 10, 12, 15, 20]), False, most=limit)
    assert result.status == LIMIT and result.states >= limit  # checked after an expansion, in both


def test_no_solution_counts_every_state_reached() -> None:
    text = JUGS.replace("goal when B == 1", "goal when B == 12").replace("0..11", "0..12")
    result = both(compiled_from(text.replace("B == 12", "B == 12 and A == 7 and B == 0")), count=False)
    assert result.status == NO_SOLUTION and result.reachable == result.states
