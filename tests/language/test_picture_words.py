"""How a picture's words become cells: with pieces whose symbols have several characters
(`pieces 1..25`), each word is one cell and a word that is no piece is refused, never split
into its characters (`26` is a typo, not 2 and 6); with one-character symbols a word is
still read a cell per character."""

from __future__ import annotations

import pytest
from puzint.errors import SpecError

from tests.conftest import puzzle_from

NUMBERS = """puzzle "numbers"
board grid 2 x 3
pieces 1..12 "numbers"
start:
    {row1}
    {row2}
fill cells with 1..12 or empty
rule:
    true
"""
DIGITS = NUMBERS.replace("1..12", "1..9")


def _start(text: str, row1: str, row2: str = "_ _ _") -> tuple[int, ...]:
    return puzzle_from(text.format(row1=row1, row2=row2)).start.cells


def _error(text: str, row1: str, row2: str = "_ _ _") -> str:
    with pytest.raises(SpecError) as err:
        puzzle_from(text.format(row1=row1, row2=row2))
    return str(err.value)


def test_a_word_that_is_a_piece_is_one_cell() -> None:
    assert _start(NUMBERS, "10 _ 12") == (10, 0, 12, 0, 0, 0)


def test_a_number_that_is_no_piece_is_refused_not_split_in_a_full_row() -> None:
    message = _error(NUMBERS, "1 _ 13")
    assert (
        "'13' is not a piece (1..12); where a piece's symbol has several characters, each word is one cell" in message
    )
    assert "has 4 cells" not in message


def test_a_number_that_is_no_piece_is_refused_where_its_digits_would_fill_the_row() -> None:
    """`_ 45` on a row of 3 once read as _, 4, 5 and solved: a silent misreading."""
    assert "'45' is not a piece (1..12)" in _error(NUMBERS, "_ 45")


def test_a_run_of_empties_stays_one_cell_each() -> None:
    assert _start(NUMBERS, "__ 3", "___") == (0, 0, 3, 0, 0, 0)


def test_with_one_character_symbols_a_word_is_a_cell_per_character() -> None:
    assert _start(DIGITS, "12 3", "4_5") == (1, 2, 3, 4, 0, 5)


def test_the_known_pieces_are_listed_with_runs_shortened() -> None:
    text = NUMBERS.replace("pieces 1..12", "pieces [1, 2, 3, 5, 6, 10, 11, 12]")
    assert "'15' is not a piece (1..3, 5, 6, 10..12)" in _error(text, "_ 15")


def test_a_word_with_a_character_no_piece_has_is_refused_as_that_piece() -> None:
    assert "unknown piece 'x'" in _error(NUMBERS, "_ 1x")


BOARD_PICTURE = """puzzle "numbers on a drawn board"
pieces 1..12 "numbers"
board:
    .  1  _
    {row}
fill cells with 1..12
rule:
    true
"""


def test_a_board_picture_reads_a_number_a_word_and_refuses_one_no_piece_has() -> None:
    assert puzzle_from(BOARD_PICTURE.format(row="12 _ .")).start.cells == (1, 0, 12, 0)
    with pytest.raises(SpecError) as err:
        puzzle_from(BOARD_PICTURE.format(row="_ 80 ."))
    (diag,) = err.value.diagnostics
    assert diag.message == (
        "'80' is not a piece (1..12); where a piece's symbol has several characters, each word is one cell"
    )
    assert (diag.pos.line, diag.pos.column, diag.pos.width) == (5, 7, 2)
