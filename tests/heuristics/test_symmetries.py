"""The symmetries pattern databases are read through: found only where the moves and the goal
are kept by the map (checked on the puzzle, never assumed from the board), and the estimate
seen through them still never more than the exact distance."""

from __future__ import annotations

import pytest
from puzint.heuristics import Derived, derive
from puzint.heuristics.abstraction import abstraction
from puzint.heuristics.symmetries import symmetries
from puzint.search import Limits

from tests.conftest import SPECS, compiled_from
from tests.heuristics.test_patterns import exact_distances

EIGHT = (SPECS / "eight_puzzle.puz").read_text()


def found(text: str) -> tuple:
    compiled = compiled_from(text)
    made = abstraction(compiled)
    assert not isinstance(made, str)
    return symmetries(compiled, made)


def test_the_eight_puzzle_is_read_through_its_main_diagonal() -> None:
    """Its goal (blank bottom right) is kept by the reflection about the main diagonal and by
    nothing else of the square's: tile 2 on r1c2 is seen as the tile the goal puts on r2c1."""
    (diagonal,) = found(EIGHT)
    assert diagonal.reads == (0, 3, 6, 1, 4, 7, 2, 5, 8)
    renamed = {chr(ord("0") + a): chr(ord("0") + b) for a, b in enumerate(diagonal.codes[:9]) if a != b}
    assert renamed == {"2": "4", "4": "2", "3": "7", "7": "3", "6": "8", "8": "6"}


def test_a_goal_with_the_blank_in_the_centre_is_read_through_all_eight() -> None:
    centred = EIGHT.replace("    1 2 3\n    4 5 6\n    7 8 _", "    1 2 3\n    4 _ 5\n    6 7 8")
    compiled = compiled_from(centred)
    assert len(found(centred)) == 7
    made = derive(compiled, Limits(), 2000)
    assert isinstance(made, Derived)
    assert made.about.endswith("also read through 7 symmetries of the board")
    estimate = made.compiled.estimate
    patterns = made.compiled.puzzle.patterns
    assert estimate is not None and patterns is not None
    distances = exact_distances(compiled)
    assert all(patterns.seen(state) <= estimate(state) <= far for state, far in distances.items())
    assert sum(map(estimate, distances)) > sum(map(patterns.seen, distances))  # and they pay


@pytest.mark.parametrize(
    ("directions", "count"),
    [
        ("orthogonal", 1),
        ("right, down", 1),  # the diagonal takes right to down: still a symmetry
        ("right", 0),  # nothing of the square's keeps a move to the right alone
    ],
)
def test_only_maps_that_keep_the_moves_are_symmetries(directions: str, count: int) -> None:
    text = EIGHT.replace("along orthogonal", f"along {directions}").replace("heuristic displacement()\n", "")
    assert len(found(text)) == count


def test_a_renaming_that_would_make_two_pieces_of_one_is_refused() -> None:
    """With two 1s placed on r1c1 and r1c2, the diagonal would have to call a 1 both 1 and 4."""
    text = (
        EIGHT.replace('pieces "12345678"', 'pieces "1234567"')
        .replace("    8 6 7\n    2 5 4\n    3 _ 1", "    1 6 7\n    2 5 4\n    3 _ 1")
        .replace("    1 2 3\n    4 5 6\n    7 8 _", "    1 1 3\n    4 5 6\n    7 2 _")
        .replace("heuristic displacement()\n", "")
    )
    assert found(text) == ()
