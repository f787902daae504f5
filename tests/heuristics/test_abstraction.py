"""Which puzzles have an abstraction for pattern databases, and why the others have none."""

from __future__ import annotations

import pytest
from puzint.heuristics.abstraction import abstraction
from puzint.heuristics.patterns import choose
from puzint.runner import load

from tests.conftest import SPECS, compiled_from


def test_the_eight_puzzle_moves_one_piece_at_a_time() -> None:
    found = abstraction(load(SPECS / "eight_puzzle.puz"))
    assert not isinstance(found, str)
    assert (found.single_piece, len(found.candidates), found.empties) == (True, 8, 1)
    assert len(found.reversed_moves) == 24  # 12 neighbouring pairs, a slide each way


def test_sokoban_pushes_two_pieces_and_has_no_piece_to_keep() -> None:
    """The worker and a box move together, and the boxes are alike (none is on the board once)."""
    found = abstraction(load(SPECS / "sokoban.puz"))
    assert not isinstance(found, str) and not found.single_piece
    assert choose(found).why_none == "no piece is on the board once and placed by the goal on one cell"


@pytest.mark.parametrize(
    ("spec", "why"),
    [
        ("sudoku", "a filling is searched by its rules, not by moves"),
        ("hanoi", "pattern databases abstract pieces on a board, and this puzzle has places or counters"),
        (
            "klotski",
            "pattern databases need every move to be a plain rewrite (a pattern -> pattern, with no condition, "
            "action or cost), and 'shift' is a slide",
        ),
        (
            "pancakes",
            "pattern databases need every move to be a plain rewrite (a pattern -> pattern, with no condition, "
            "action or cost), and 'flip' is a permutation of cells (cycle, rotate or reverse)",
        ),
        ("knights", "the spec's symmetries join states, and the tables are not checked against them"),
        ("knights_tour", "pattern databases need a goal that places pieces on cells"),
    ],
)
def test_a_puzzle_with_no_abstraction_says_why(spec: str, why: str) -> None:
    assert abstraction(load(SPECS / f"{spec}.puz")) == why


def test_a_move_that_turns_one_piece_into_another_is_not_abstracted() -> None:
    text = """
board grid 1 x 3
pieces "AB"
start:
    A _ B
goal:
    B _ A
move turn: A _ -> B _ along orthogonal
move slide: ?t _ -> _ ?t along orthogonal
"""
    assert abstraction(compiled_from(text)) == "the move turn does not only move pieces among its cells"


def test_a_pattern_larger_than_the_memory_allowed_is_refused_with_its_size() -> None:
    found = abstraction(load(SPECS / "eight_puzzle.puz"))
    assert not isinstance(found, str)
    assert choose(found, most_states=50).why_none == "a pattern of one piece has 72 states, more than 50"


def test_tables_that_would_take_too_long_to_build_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from puzint.heuristics import patterns

    found = abstraction(load(SPECS / "eight_puzzle.puz"))
    assert not isinstance(found, str)
    monkeypatch.setattr(patterns, "ALL_STATES", 1000)
    assert choose(found, most_states=2000).why_none == (
        "the tables would search 2,016 states to be built, more than 1,000"  # four groups of two: 4 x 72 x 7
    )
