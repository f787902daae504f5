"""The parity every move keeps (`heuristics.parity`), checked against the plain truth: every
arrangement a breadth-first walk from the goal reaches, on small boards of sliding tiles and
of three-cycles, with every move's permutation read from the spec, never from the puzzle's
name. Where the start is reachable nothing is said; where it is not, the reason is given."""

from __future__ import annotations

import random
from collections import deque
from math import factorial

import pytest
from puzint.heuristics.parity import unreachable
from puzint.runner import search

from tests.conftest import compiled_from

SLIDING = """\
board grid {rows} x {cols}
pieces "{pieces}"
start:
{start}
goal:
{goal}
move slide: ?t _ -> _ ?t along orthogonal
"""

ROTATING = """\
board grid 1 x 5
pieces "ABCDE"
start:
    {start}
goal:
    A B C D E
move turn: ?a ?b ?c -> ?c ?a ?b along right
"""


def picture(cells: str, cols: int) -> str:
    return "\n".join("    " + " ".join(cells[r : r + cols]) for r in range(0, len(cells), cols))


def reachable_from(goal: str, neighbours) -> set[str]:  # type: ignore[no-untyped-def]
    """Every arrangement a plain breadth-first walk from the goal reaches (the moves undo)."""
    seen, queue = {goal}, deque([goal])
    while queue:
        here = queue.popleft()
        for there in neighbours(here):
            if there not in seen:
                seen.add(there)
                queue.append(there)
    return seen


def slides(rows: int, cols: int):  # type: ignore[no-untyped-def]
    def neighbours(state: str):  # type: ignore[no-untyped-def]
        hole = state.index("_")
        r, c = divmod(hole, cols)
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            if 0 <= r + dr < rows and 0 <= c + dc < cols:
                other = (r + dr) * cols + c + dc
                cells = list(state)
                cells[hole], cells[other] = cells[other], cells[hole]
                yield "".join(cells)

    return neighbours


def turns(state: str):  # type: ignore[no-untyped-def]
    for i in range(len(state) - 2):
        yield state[:i] + state[i + 2] + state[i : i + 2] + state[i + 3 :]


@pytest.mark.parametrize(("rows", "cols"), [(2, 3), (3, 3)])
def test_sliding_tiles_split_in_two_halves_as_the_walk_finds(rows: int, cols: int) -> None:
    pieces = "12345678"[: rows * cols - 1]
    goal = pieces + "_"
    reached = reachable_from(goal, slides(rows, cols))
    assert len(reached) * 2 == factorial(rows * cols)  # half of the arrangements, as the walk finds
    randomly = random.Random(rows * cols)
    for _ in range(24):
        cells = list(goal)
        randomly.shuffle(cells)
        start = "".join(cells)
        text = SLIDING.format(rows=rows, cols=cols, pieces=pieces, start=picture(start, cols), goal=picture(goal, cols))
        said = unreachable(compiled_from(text))
        assert (said is None) == (start in reached), start
        if said is not None:
            assert "when it moves the empty cell between cells of two colours" in said


def test_three_cycles_reach_the_even_arrangements_only() -> None:
    goal = "ABCDE"
    reached = reachable_from(goal, turns)
    assert len(reached) == 60  # the even permutations of five
    for start in ("BACDE", "ACBDE", "EDCBA", "BCADE", "CABED", "BADCE"):
        said = unreachable(compiled_from(ROTATING.format(start=" ".join(start))))
        assert (said is None) == (start in reached), start
        if said is not None:
            assert said == "every move is an even permutation of the pieces, and the start is an odd one of the goal's"


def test_two_pieces_alike_have_no_parity() -> None:
    text = SLIDING.format(rows=2, cols=2, pieces="AB", start=picture("AA_B", 2), goal=picture("BAA_", 2))
    assert unreachable(compiled_from(text)) is None


def test_a_search_of_an_unreachable_start_is_answered_by_the_proof() -> None:
    text = SLIDING.format(
        rows=3, cols=3, pieces="12345678", start=picture("21345678_", 3), goal=picture("12345678_", 3)
    )
    result = search(compiled_from(text))
    assert (result.status, result.method, result.states, result.length) == ("no-solution", "invariant", 0, None)
    assert result.proof is not None and result.proof.startswith("every move changes the parity")
    solvable = SLIDING.format(
        rows=3, cols=3, pieces="12345678", start=picture("1234567_8", 3), goal=picture("12345678_", 3)
    )
    assert (search(compiled_from(solvable)).length, search(compiled_from(solvable)).proof) == (1, None)
