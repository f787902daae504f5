"""The shortest solutions counted from both ends (`search.bidirectional.count`, and the
kernel's): the same length and count as the layers from the start, on the catalogue's puzzles
whose goal is one state and on puzzles made to test the count's rules."""

from __future__ import annotations

import math

import pytest
from puzint.kernel import installed
from puzint.runner import load, search
from puzint.search import Limits

from tests.conftest import SPECS, compiled_from

ENGINES = ["python", "compiled"] if installed() else ["python"]

CASES = [
    ("eight_puzzle", {}),
    ("frog", {"n": "4"}),
    ("pancakes", {"sizes": "[4, 2, 5, 1, 3, 6, 8, 7]"}),
    ("top_spin", {"perm": "[4, 3, 2, 1, 8, 7, 6, 5, 9]", "k": "6"}),
    ("oshidori", {}),
]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("name", "params"), CASES, ids=[name for name, _ in CASES])
def test_both_ends_count_what_the_layers_from_the_start_count(name: str, params: dict[str, str], engine: str) -> None:
    compiled = load(SPECS / f"{name}.puz", params)
    layered = search(compiled, count=True, method="bfs", engine="python", limits=Limits())
    both = search(compiled, count=True, engine=engine, limits=Limits())
    assert both.method.startswith("bidirectional with path counts") or engine == "compiled"
    assert (both.status, both.length, both.count) == (layered.status, layered.length, layered.count)


# each of n cells turns from a to b once, in any order: n! shortest solutions of n moves
TURNS = """
board line {n}
piece A a
piece B b
start A*{n}
goal B*{n}
move turn: A -> B
"""


@pytest.mark.parametrize("engine", ENGINES)
def test_every_order_of_independent_moves_is_counted(engine: str) -> None:
    result = search(compiled_from(TURNS.format(n=8)), count=True, engine=engine, limits=Limits())
    assert (result.length, result.count) == (8, math.factorial(8))
    assert result.method.startswith("bidirectional with path counts")


def test_two_moves_to_one_state_are_one_solution() -> None:
    """Solutions are sequences of states, as the layers count them: a move written twice
    (the same change under two names) adds no solution."""
    twice = compiled_from(TURNS.format(n=3) + "move again: A -> B\n")
    both = search(twice, count=True, engine="python")
    layered = search(twice, count=True, method="bfs", engine="python")
    assert (both.count, layered.count) == (6, 6)


def test_no_solution_the_start_as_goal_and_a_symmetry() -> None:
    never = compiled_from(TURNS.format(n=3).replace("goal B*3", "goal B B _"))
    result = search(never, count=True, engine="python")
    assert (result.status, result.count, result.method) == ("no-solution", None, "bidirectional with path counts")
    done = compiled_from(TURNS.format(n=2).replace("start A*2", "start A B").replace("goal B*2", "goal A B"))
    result = search(done, count=True, engine="python")
    assert (result.length, result.count) == (0, 1)
    # counted up to a symmetry, the solutions need the layers from the start
    mirrored = compiled_from(TURNS.format(n=4) + "symmetry mirror\n")
    result = search(mirrored, count=True, engine="python")
    assert result.method.startswith("layered") and result.count == math.factorial(4)
