"""`board from "FILE"`, `regions from "FILE"`, `start from "FILE"`, `goal from "FILE"`: a
picture's rows read from a file beside the spec, meaning what they mean pasted; a file that
cannot serve, or a row that does not parse, refused at the file's name (with the line and
column inside the file)."""

from __future__ import annotations

from pathlib import Path

import pytest
from puzint.engines import RunOptions
from puzint.errors import SpecError
from puzint.language.parser import keywords
from puzint.runner import load
from puzint.search import Limits
from puzint.solutions import enumerate_solutions

CAGES = "a a b b\nc d d b\nc e f f\ng g h h\n"
SHIDOKU = """puzzle "cages"
board grid 4 x 4
pieces 1..4 "digits"
boxes 2 x 2
fill cells with 1..4
{regions}
rule:
    every l in rows, columns, boxes: all different(l)
    sum(c.value for c in region(a)) == 3
"""
FROM_FILE = 'regions from "cages.txt"'
PASTED = "regions:\n" + "".join(f"    {row}\n" for row in CAGES.splitlines())


def _spec(tmp_path: Path, text: str, rows: str | None = CAGES, name: str = "cages.txt") -> Path:
    if rows is not None:
        (tmp_path / name).write_text(rows, encoding="utf-8")
    spec = tmp_path / "shidoku.puz"
    spec.write_text(text, encoding="utf-8")
    return spec


def _count(spec: Path) -> int:
    return enumerate_solutions(load(spec, {}), Limits(), keep=False, options=RunOptions("python")).count


def test_regions_from_a_file_mean_what_they_mean_pasted(tmp_path: Path) -> None:
    # 288 Shidoku grids; r1c1 and r1c2 hold an ordered pair of two digits of the 12 equally
    # often, and 1 + 2 (either way) is the one pair adding up to 3: 288 / 12 * 2
    from_file = _count(_spec(tmp_path, SHIDOKU.format(regions=FROM_FILE)))
    assert from_file == _count(_spec(tmp_path, SHIDOKU.format(regions=PASTED))) == 288 // 12 * 2


def test_a_board_and_a_start_from_files(tmp_path: Path) -> None:
    (tmp_path / "start.txt").write_text("1 . _\n_ _ _\n", encoding="utf-8")
    text = 'puzzle "b"\nboard from "holes.txt"\npieces 1..3\nstart from "start.txt"\nfill cells with 1..3\n'
    text += "rule:\n    every l in rows: all different(l)\n"
    spec = _spec(tmp_path, text, "_ . _\n_ _ _\n", "holes.txt")
    # row 1 is cut by its hole into r1c1 (1, given) and r1c3 (any of 3); row 2: the 6 orders of 1, 2, 3
    assert _count(spec) == 3 * 6


def test_a_missing_picture_file_is_refused_at_its_name(tmp_path: Path) -> None:
    spec = _spec(tmp_path, SHIDOKU.format(regions='regions from "none.txt"'))
    with pytest.raises(SpecError) as caught:
        load(spec, {})
    (diag,) = caught.value.diagnostics
    assert diag.message == f"cannot read the picture file 'none.txt': No such file or directory (in {tmp_path})"
    assert (diag.pos.line, diag.pos.column) == (6, 14)


def test_a_malformed_row_is_refused_with_its_line_and_column_in_the_file(tmp_path: Path) -> None:
    spec = _spec(tmp_path, SHIDOKU.format(regions=FROM_FILE), "a a b b\nc d ) b\n")
    with pytest.raises(SpecError) as caught:
        load(spec, {})
    (diag,) = caught.value.diagnostics
    assert diag.message == "'cages.txt', line 2, column 5: unexpected ')'"
    assert (diag.pos.line, diag.pos.column) == (6, 14)


def test_a_file_of_no_rows_is_refused(tmp_path: Path) -> None:
    spec = _spec(tmp_path, SHIDOKU.format(regions=FROM_FILE), "\n  \n")
    with pytest.raises(SpecError) as caught:
        load(spec, {})
    assert caught.value.diagnostics[0].message == "'cages.txt' holds no row of a picture"


def _refusal(tmp_path: Path, rows: str) -> str:
    spec = _spec(tmp_path, SHIDOKU.format(regions=FROM_FILE), rows)
    with pytest.raises(SpecError) as caught:
        load(spec, {})
    (diag,) = caught.value.diagnostics
    assert (diag.pos.line, diag.pos.column) == (6, 14)  # the file's name in the spec
    return f"{diag.message} / expected {diag.expected}"


def test_a_bracket_left_open_in_a_file_is_said_where_it_opens(tmp_path: Path) -> None:
    assert _refusal(tmp_path, "a a b b\nc d d b\nc e f f\ng g h (h\n") == (
        "'cages.txt', line 4, column 7: this '(' is never closed"
        " / expected names of regions (letters and digits), `.` for no cell"
    )


def test_a_row_of_names_too_short_in_a_file_names_its_line(tmp_path: Path) -> None:
    assert _refusal(tmp_path, "aa aa bb bb\ncc dd dd bb\ncc ee ff\ngg gg hh hh\n") == (
        "'cages.txt', line 3, column 1: 'cc' would be read a letter a cell, where another row names a region per"
        " word (line 1): this row has 3 words and the board 4 columns"
        " / expected one name per square separated by spaces, in every row"
    )


def test_a_row_of_names_that_would_fill_the_row_as_letters_is_refused(tmp_path: Path) -> None:
    """`ab cd` on a board of 4 columns is 4 letters; beside rows of names, it is a typo."""
    assert _refusal(tmp_path, "aa aa bb bb\ncc dd dd bb\ncc ee\ngg gg hh hh\n").startswith(
        "'cages.txt', line 3, column 1: 'cc' would be read a letter a cell, where another row names a region per"
        " word (line 1): this row has 2 words and the board 4 columns"
    )


def test_a_row_of_letters_of_the_wrong_width_counts_both_readings(tmp_path: Path) -> None:
    assert _refusal(tmp_path, "aabb\ncddb\ncc eff\nggjj\n") == (
        "'cages.txt', line 3, column 1: this row of the regions' picture has 2 names or 5 letters"
        " and the board 4 columns"
        " / expected one letter per square of the row, or one name per square separated by spaces"
    )


@pytest.mark.parametrize(("row", "column"), [("g g h*2", 5), ("g (g h) h", 3), ("g g h ?", 7)])
def test_a_pattern_in_a_regions_file_is_refused_at_its_line_and_column(tmp_path: Path, row: str, column: int) -> None:
    assert _refusal(tmp_path, f"a a b b\nc d d b\nc e f f\n{row}\n") == (
        f"'cages.txt', line 4, column {column}: a region is drawn with its name on each of its cells:"
        " no ?, ?x, ( ) or * in a regions' picture / expected names of regions (letters and digits), `.` for no cell"
    )


def test_an_unknown_piece_in_a_start_file_is_said_at_its_column_there(tmp_path: Path) -> None:
    text = SHIDOKU.format(regions='start from "start.txt"').replace("region(a)", "cells")
    spec = _spec(tmp_path, text, "1 _ _ _\n_ _ 2 _\n_ x _ _\n_ _ _ _\n", name="start.txt")
    with pytest.raises(SpecError) as caught:
        load(spec, {})
    messages = [d.message for d in caught.value.diagnostics]
    assert "'start.txt', line 3, column 3: unknown piece 'x'" in messages


def test_an_unknown_region_lists_the_names_drawn(tmp_path: Path) -> None:
    text = SHIDOKU.format(regions=FROM_FILE).replace("region(a)", "region(oq)")
    spec = _spec(tmp_path, text, "ab ab cage3 cage3\nef gh gh cage3\nef kl 12 12\nop kl kl 12\n")
    with pytest.raises(SpecError) as caught:
        load(spec, {})
    (diag,) = caught.value.diagnostics
    assert diag.message == "no region is drawn with 'oq'"
    assert diag.expected == "a region of the picture: 12, ab, cage3, ef, gh, kl, op"


@pytest.mark.parametrize(
    ("name", "reading"), [("3a", "a number and a name"), ("07", "the number 7")], ids=["digit-letter", "leading-zero"]
)
def test_a_region_name_region_cannot_read_back_is_refused(tmp_path: Path, name: str, reading: str) -> None:
    assert _refusal(tmp_path, f"aa aa bb bb\ncc dd dd bb\ncc ee ff ff\ngg gg {name} {name}\n") == (
        f"'cages.txt', line 4, column 7: '{name}' cannot be a region's name: region({name}) would read as {reading}"
        f" / expected {NAMES}"
    )


NAMES = (
    "a name that begins with a letter (c3), or a number (12), and is not a word of the language "
    "(docs/language.md lists them)"
)


@pytest.mark.parametrize("word", ["not", "every", "true", "and"])
def test_a_word_of_the_language_drawn_as_a_region_s_name_is_refused(tmp_path: Path, word: str) -> None:
    """`region(not)` or `region(true)` would not read as a name (and no word of the language
    names anything, though `region(and)` happens to read): refused where it is drawn."""
    assert word in keywords()
    assert _refusal(tmp_path, f"aa aa bb bb\ncc dd dd bb\ncc ee ff ff\ngg gg {word} {word}\n") == (
        f"'cages.txt', line 4, column 7: '{word}' is a word of the language and cannot name a region / expected {NAMES}"
    )


def test_a_word_of_the_language_in_a_pasted_regions_picture_is_refused_at_it(tmp_path: Path) -> None:
    pasted = "regions:\n    aa aa bb bb\n    cc dd dd bb\n    cc ee ff ff\n    gg gg true true\n"
    spec = _spec(tmp_path, SHIDOKU.format(regions=pasted), rows=None)
    with pytest.raises(SpecError) as caught:
        load(spec, {})
    (diag,) = caught.value.diagnostics
    assert (diag.pos.line, diag.pos.column, diag.pos.width) == (10, 11, 4)  # the first `true`, in the spec
    assert (diag.message, diag.expected) == ("'true' is a word of the language and cannot name a region", NAMES)


def test_a_region_named_as_a_function_or_a_collection_is_a_region_s_name(tmp_path: Path) -> None:
    """Not words of the language: `region(sum)`, `region(rows)` read the regions drawn so."""
    text = SHIDOKU.format(regions=FROM_FILE).replace("region(a)", "region(sum)")
    spec = _spec(tmp_path, text, "sum sum rows rows\ncc dd dd rows\ncc ee ff ff\ngg gg hh hh\n")
    assert _count(spec) == 288 // 12 * 2  # as region(a) above: r1c1 and r1c2 add up to 3
