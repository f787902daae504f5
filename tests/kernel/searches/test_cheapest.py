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
from tests.plain import sokoban
from tests.search.test_costs import WALK_OR_JUMP

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


# costs of several parts (kernel.machine.cost_parts): Sokoban's fewest pushes, then fewest moves
PUSHES_THEN_MOVES = """
puzzle "pushes, then moves"
piece M worker drawn "@"
piece B box drawn "$"
legend:
    "#" = .
    " " = _ ?
    "." = _ B
    "$" = B ?
    "*" = B B
    "@" = M ?
    "+" = M B
level:
ROOM
search cheapest
move walk: M _ -> _ M along orthogonal cost 0, 1
move push: M B _ -> _ M B along orthogonal cost 1, 1
"""


def pushes_then_moves(room: list[str]) -> CompiledPuzzle:
    return compiled_from(PUSHES_THEN_MOVES.replace("ROOM", "\n".join("    " + row for row in room)))


@pytest.mark.parametrize("level", [1, 2, 3])
@pytest.mark.parametrize("count", [False, True])
def test_the_fewest_pushes_then_moves_are_the_plain_solver_s(level: int, count: bool) -> None:
    room = sokoban.MICROBAN[level]
    result = both(pushes_then_moves(room), count)
    assert tuple(result.cost) == sokoban.fewest_pushes_then_moves(room)  # type: ignore[arg-type]


def test_three_parts_are_compared_in_order() -> None:
    """Five walks cost (0, 5, 10), one jump (1, 0, 0): the walks are cheaper."""
    text = WALK_OR_JUMP.replace("cost 0, 1", "cost 0, 1, 2").replace("cost 1, 1", "cost 1, 0, 0")
    result = both(compiled_from(text), count=True)
    assert (tuple(result.cost), result.length, result.count) == ((0, 5, 10), 5, 1)  # type: ignore[arg-type]


def test_a_part_past_its_field_hands_the_search_to_python() -> None:
    """Each walk's second part fits the field; two of them do not (2**30 and more)."""
    compiled = compiled_from(WALK_OR_JUMP.replace("cost 0, 1", "cost 0, 600000000"))
    result = search(compiled, engine="compiled")
    assert (result.engine, result.tried_first) == ("python", "compiled")
    assert result.tried_first_stopped == "a part of a path's cost past its field of the kernel's word (30 bits)"
    assert tuple(result.cost) == (0, 5 * 600000000)  # type: ignore[arg-type]


def test_a_part_that_may_be_below_0_is_left_to_python() -> None:
    compiled = compiled_from(WALK_OR_JUMP.replace("cost 1, 1", "cost 1, -4"))
    assert kernel_unfit(compiled, False, False, "auto", None) == (
        "part 2 of a move's cost may be below 0 (-4), which the kernel does not pack (Python does)"
    )
    assert tuple(search(compiled).cost) == (0, 5)  # type: ignore[arg-type]
