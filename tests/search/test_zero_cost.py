"""Moves of cost 0: a cheapest solution is a path of the least cost to a goal that never
repeats a state (and stops at the first goal it meets). Counts (both engines), `--all` and
`--distinct trajectories` agree with that definition, checked against every such path
walked one by one."""

from __future__ import annotations

import pytest
from puzint.compiler import CompiledPuzzle
from puzint.engines import RunOptions
from puzint.questions import Question, ask
from puzint.runner import search, solve
from puzint.search import Limits
from puzint.solutions import enumerate_shortest

from tests.conftest import compiled_from

TURNS = """
puzzle "zero cost turns"
counter X = 0 in 0..2
counter Z = 0 in 0..{top}
goal when Z == {top}
move turn: set X = (X + 1) % 3 cost 0
move inc: set Z = Z + 1 cost 1
search cheapest
"""

# free moves on a board: A may take a free step before B pays for its own (2 solutions)
WALK = """
puzzle "free walk"
board ring 4
piece A a
piece B b
start A _ B _
goal ? ? ? B
move walk: step A along clockwise cost 0
move pay: step B along clockwise cost 2
search cheapest
"""

# free moves and paid ones in any order, no loop (C(4, 2) = 6 solutions): a count that adds
# a state's paths once it is settled misses those that reach it for free afterwards
LADDER = """
puzzle "free ladder"
counter A = 0 in 0..2
counter B = 0 in 0..2
goal when A == 2 and B == 2
move a: set A = A + 1 cost 0
move b: set B = B + 1 cost 1
search cheapest
"""


def cheapest_paths(compiled: CompiledPuzzle) -> tuple[int, list[list[bytes]]]:
    """Every path from the start that never repeats a state and stops at its first goal, of
    the least cost: walked one by one (small puzzles only)."""
    found: list[tuple[int, list[bytes]]] = []
    stack = [(compiled.start, 0, [compiled.start])]
    while stack:
        state, cost, path = stack.pop()
        if compiled.is_goal(state):
            found.append((cost, path))
            continue
        for child, _, step in compiled.expand_costed(state):
            if child not in path:
                stack.append((child, cost + step, [*path, child]))
    best = min(cost for cost, _ in found)
    unique = {tuple(path) for cost, path in found if cost == best}
    return best, [list(p) for p in sorted(unique)]


@pytest.mark.parametrize(
    ("text", "expected"), [(TURNS.format(top=2), 9), (TURNS.format(top=3), 27), (WALK, 2), (LADDER, 6)]
)
def test_the_cheapest_solutions_are_the_paths_that_never_repeat_a_state(text: str, expected: int) -> None:
    compiled = compiled_from(text)
    best, paths = cheapest_paths(compiled)
    assert len(paths) == expected
    for engine in ("python", "auto", "compiled"):
        result = search(compiled, count=True, limits=Limits(), engine=engine)
        assert (result.cost, result.count) == (best, expected), engine
    listed = enumerate_shortest(compiled, Limits())
    assert listed.total == listed.in_all == expected and listed.cost == best
    assert sorted([compiled.start, *(s for _, s in p)] for p in listed.solutions) == paths


def test_trajectories_of_a_cheapest_spec_group_the_cheapest_solutions() -> None:
    compiled = compiled_from(WALK)
    solved = solve(compiled, ask(compiled, Question(distinct="trajectories"), RunOptions()), Limits(), "walk.puz")
    assert solved.trajectories is not None
    assert solved.trajectories.solutions == 2
    assert solved.trajectories.classes == 2  # A stays, or A steps to 2 first


# A walks round a loop of three cells for free while B pays for two steps on its own track
LOOP = """
puzzle "free loop"
board graph a1, a2, a3, b1, b2, b3
link a1 -> a2, a2 -> a3, a3 -> a1, b1 -> b2, b2 -> b3
piece A a
piece B b
start A _ _ B _ _
goal ? ? ? _ _ B
move walk: step A along link cost 0
move pay: step B along link cost 1
search cheapest
"""


def test_trajectories_where_free_moves_form_a_loop() -> None:
    compiled = compiled_from(LOOP)
    _, paths = cheapest_paths(compiled)
    # at each of B's two first cells A takes 0, 1 or 2 steps (a third would come back)
    assert len(paths) == 9
    assert search(compiled, count=True, limits=Limits()).count == 9
    solved = solve(compiled, ask(compiled, Question(distinct="trajectories"), RunOptions()), Limits(), "loop.puz")
    assert solved.trajectories is not None and solved.trajectories.solutions == 9
    # A's own track is fixed by how many steps it takes in all (0 to 4): five trajectories
    assert solved.trajectories.classes == 5
