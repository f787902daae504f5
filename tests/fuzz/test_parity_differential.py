"""Differential fuzzing of the parity proof (`heuristics.parity`): small random puzzles of
distinct pieces (with or without one empty cell) moved by permutations of a few cells (slides,
jumps, swaps, three- and four-cycles, moves that name a piece by its symbol), a random start
and goal. Where the proof says the start can never reach the goal, a plain walk of every
state the puzzle's own moves reach from the start must not meet the goal; the proof may say
nothing where the goal is out of reach for another reason.

A fixed set of seeds runs by default; `pytest -m fuzz tests/fuzz/test_parity_differential.py`
(PUZINT_FUZZ_EXAMPLES=N, 1,000 by default) draws more.
"""

from __future__ import annotations

import os
import random
from collections import deque

import pytest
from puzint.errors import SpecError
from puzint.heuristics.parity import unreachable

from tests.conftest import compiled_from

MOVES = (
    "move slide: ?t _ -> _ ?t along orthogonal",
    "move swap: ?a ?b -> ?b ?a along right",
    "move turn: ?a ?b ?c -> ?c ?a ?b along right",
    "move hop: ?t ?u _ -> _ ?u ?t along orthogonal",
    "move diagonal: ?t _ -> _ ?t along diagonal",
    "move back: _ ?t -> ?t _ along right",
    "move wheel: ?a ?b ?c ?d -> ?d ?a ?b ?c along down",
    "move a_walks: A _ -> _ A along orthogonal",
    "move a_and_b: A B -> B A along right",
)


def check(seed: int) -> bool | None:
    """One puzzle: None where the spec drawn is refused, else whether the proof spoke (and
    then the walk agreed)."""
    rng = random.Random(seed)
    rows, cols = rng.choice([(1, 4), (1, 5), (2, 2), (2, 3), (3, 2), (2, 4), (3, 3)])
    empty = rng.random() < 0.7
    symbols = "ABCDEFGHI"[: rows * cols - empty]
    goal = [*symbols, *("_" * empty)]
    rng.shuffle(goal)
    start = goal[:]
    rng.shuffle(start)

    def picture(cells: list[str]) -> str:
        return "\n".join("    " + " ".join(cells[r * cols : (r + 1) * cols]) for r in range(rows))

    moves = "\n".join(rng.sample(MOVES, rng.randint(1, 3)))
    text = (
        f'board grid {rows} x {cols}\npieces "{symbols}"\nstart:\n{picture(start)}\ngoal:\n{picture(goal)}\n{moves}\n'
    )
    try:
        compiled = compiled_from(text)
    except SpecError:
        return None
    said = unreachable(compiled)
    if said is None:
        return False
    seen, queue = {compiled.start}, deque([compiled.start])
    while queue:
        state = queue.popleft()
        assert not compiled.is_goal(state), f"the proof said {said!r}, and the walk reached the goal of\n{text}"
        for child, _ in compiled.expand(state):
            if bytes(child) not in seen:
                seen.add(bytes(child))
                queue.append(bytes(child))
    return True


@pytest.mark.parametrize("seed", range(0, 240, 10))
def test_a_start_the_parity_rules_out_never_reaches_the_goal(seed: int) -> None:
    for k in range(10):
        check(seed + k)


def test_the_seeds_prove_something() -> None:
    """Not a vacuous check: the default seeds' puzzles include starts the proof rules out."""
    assert sum(bool(check(seed)) for seed in range(60)) >= 5


@pytest.mark.fuzz
def test_a_start_the_parity_rules_out_never_reaches_the_goal_for_many_seeds() -> None:
    base = random.randrange(1 << 30)
    for k in range(int(os.environ.get("PUZINT_FUZZ_EXAMPLES", "1000"))):
        check(base + k)
