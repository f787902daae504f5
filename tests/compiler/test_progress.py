"""Which puzzles can never come back to a state (`compiler.progress`): where the compiler says
so, the puzzle's own graph of reachable states must have no cycle, and the moves that can
undo each other must keep the answer no."""

from __future__ import annotations

import pytest
from puzint.compiler import CompiledPuzzle
from puzint.runner import load

from tests.conftest import SPECS, compiled_from


def has_cycle(compiled: CompiledPuzzle, most: int = 200_000) -> bool:
    """Whether some reachable state leads back to itself (depth first, three colours)."""
    on_path, done = set(), set()
    stack = [(compiled.start, iter(compiled.expand(compiled.start)))]
    on_path.add(compiled.start)
    while stack:
        state, children = stack[-1]
        child = next(children, None)
        if child is None:
            stack.pop()
            on_path.discard(state)
            done.add(state)
            continue
        after = child[0]
        if after in on_path:
            return True
        if after not in done:
            assert len(done) < most, "too large for this test"
            on_path.add(after)
            stack.append((after, iter(compiled.expand(after))))
    return False


SMALL = [
    ("queens", {"n": "5"}),
    ("queens_moves", {"n": "5"}),
    ("magic_square", {"n": "3"}),
    ("number_circle", {"n": "8"}),
    ("permutations", {"m": "5"}),
    ("peg_triangle", {"rows": "4"}),
    ("frog", {"n": "2"}),
    ("farmer", {}),
    ("hanoi", {"discs": "3"}),
    ("water_jugs", {}),
    ("lights_out", {"n": "2"}),
    ("eight_puzzle", {}),
]


@pytest.mark.parametrize(("spec", "params"), SMALL, ids=[s for s, _ in SMALL])
def test_a_puzzle_said_to_never_come_back_has_no_cycle(spec: str, params: dict[str, str]) -> None:
    compiled = load(SPECS / f"{spec}.puz", params)
    if compiled.acyclic:
        assert not has_cycle(compiled)


def test_the_placements_and_peg_solitaire_are_found_to_never_come_back() -> None:
    found = {spec for spec, params in SMALL if load(SPECS / f"{spec}.puz", params).acyclic}
    assert found == {"queens", "queens_moves", "magic_square", "number_circle", "permutations", "peg_triangle"}


FILL = """
puzzle "fill"
board line 3
piece X x
start _ _ _
goal X X X
move fill: put X at ?c
"""

ONE_WAY = """
puzzle "one way"
board line 4
piece X x
start X _ _ _
goal _ _ _ X
move go: X _ -> _ X along right
"""


@pytest.mark.parametrize(
    ("text", "acyclic"),
    [
        (FILL, True),
        (FILL + "move clear: X -> _\n", False),  # a piece put can be taken away again
        (FILL.replace("put X at ?c", "toggle X _ in cell") + "shape cell = (0, 0)\n", False),
        (FILL.replace("start _ _ _", "start _ _ X") + "move rub: X X -> _ _ along right\n", False),
        # moves that change nothing on the cells: not said, whatever the graph (it has no cycle)
        (ONE_WAY, False),
    ],
)
def test_moves_are_read_for_what_they_add_and_take(text: str, acyclic: bool) -> None:
    compiled = compiled_from(text)
    assert compiled.acyclic is acyclic
    if acyclic:
        assert not has_cycle(compiled)


def test_a_walk_that_keeps_no_path_finds_the_same_goal_states() -> None:
    from puzint.search import Limits
    from puzint.search.depth import all_goal_states

    compiled = load(SPECS / "number_circle.puz", {"n": "8"})
    assert compiled.acyclic
    kept: list[int] = [0]
    found = {path[-1][1] for path in all_goal_states(compiled, Limits(), kept)}
    compiled.acyclic = False  # the same walk, keeping the path's states
    every: list[int] = [0]
    assert {path[-1][1] for path in all_goal_states(compiled, Limits(), every)} == found
    assert kept == every and len(found) == 24
