"""`level N from "FILE"`: a collection file read beside the spec, cut into levels with the
legend, level N chosen by elaboration; every file that cannot serve refused at the file's name,
and a number past the last level refused saying how many the file has."""

from __future__ import annotations

from pathlib import Path

import pytest
from puzint.compiler import compile_puzzle
from puzint.errors import SpecError
from puzint.language.elaborate import elaborate
from puzint.language.levels import MAX_LEVEL_FILE
from puzint.language.parser import parse
from puzint.lsp.analysis import analyse
from puzint.runner import load, search

SPEC = """\
puzzle "Sokoban"
param n = 1
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
level n from "levels.xsb"
move walk: M _ -> _ M along orthogonal
move push: M B _ -> _ M B along orthogonal
"""
LEVEL_LINE = 13  # the line of `level n from`
# three levels: titles, comments and a line of prose between them, CRLF line ends
COLLECTION = (
    "Title: three rooms\r\n; 1\r\n\r\n#####\r\n#@$.#\r\n#####\r\n"
    "; 2\r\n######\r\n#@$ .#\r\n######\r\n'Duh!'\r\n"
    "#######   \r\n#@ $ .#\r\n#######\r\n"
)


def _spec(tmp_path: Path, text: str = SPEC, levels: str | bytes | None = COLLECTION) -> Path:
    if isinstance(levels, str):
        (tmp_path / "levels.xsb").write_text(levels, encoding="utf-8", newline="")
    elif isinstance(levels, bytes):
        (tmp_path / "levels.xsb").write_bytes(levels)
    spec = tmp_path / "rooms.puz"
    spec.write_text(text, encoding="utf-8")
    return spec


def _refusal(spec: Path, params: dict[str, str] | None = None) -> str:
    with pytest.raises(SpecError) as caught:
        load(spec, params or {})
    rendered = caught.value.render()
    assert rendered.startswith(f"{spec}:")
    return rendered


@pytest.mark.parametrize(("n", "moves"), [(1, 1), (2, 2), (3, 3)])
def test_each_level_of_the_file_is_the_one_its_number_names(tmp_path: Path, n: int, moves: int) -> None:
    compiled = load(_spec(tmp_path), {"n": str(n)})
    assert search(compiled, engine="python").length == moves  # one box, pushed n squares
    board = compiled.puzzle.board
    assert board is not None and board.cols == 3 + n + 1  # trailing spaces dropped


def test_the_number_may_be_any_expression_and_the_level_sit_in_an_if(tmp_path: Path) -> None:
    text = SPEC.replace("level n from", "if n > 0:\n    level n + 1 from")
    assert search(load(_spec(tmp_path, text), {"n": "2"}), engine="python").length == 3


def test_a_file_of_one_level_is_read_without_a_number(tmp_path: Path) -> None:
    text = SPEC.replace("level n from", "level from")
    one = "#######\n#@ $ .#\n#######\n"
    assert search(load(_spec(tmp_path, text, one)), engine="python").length == 3
    rendered = _refusal(_spec(tmp_path, text))
    assert f":{LEVEL_LINE}:12: levels.xsb has 3 levels: say which one" in rendered
    assert 'expected level N from "levels.xsb" (N from 1 to 3)' in rendered


def test_a_number_past_the_last_level_says_how_many_levels_the_file_has(tmp_path: Path) -> None:
    rendered = _refusal(_spec(tmp_path), {"n": "4"})
    assert f":{LEVEL_LINE}:7: levels.xsb has 3 levels: there is no level 4 (with n=4)" in rendered
    assert "expected a number from 1 to 3" in rendered
    assert "must be at least 1, got 0" in _refusal(_spec(tmp_path), {"n": "0"})


def test_a_missing_file_is_refused_at_its_name(tmp_path: Path) -> None:
    rendered = _refusal(_spec(tmp_path, levels=None))
    assert f":{LEVEL_LINE}:14: cannot read the level file 'levels.xsb': No such file or directory" in rendered


@pytest.mark.parametrize(
    ("data", "said"),
    [
        (b"#####\n#@$.#\n\x00####\n", "not a text file: byte 0x00 at its line 3, column 1"),
        (b"; 1\n#####\n#@$\xff.#\n", "not a text file: byte 0xff at its line 3, column 4"),
        (b"; no level here\nAuthor: nobody\n", "holds no level"),
    ],
)
def test_a_file_that_is_not_levels_in_text_is_refused(tmp_path: Path, data: bytes, said: str) -> None:
    assert said in _refusal(_spec(tmp_path, levels=data))


def test_a_file_larger_than_the_bound_is_refused_before_it_is_read(tmp_path: Path) -> None:
    levels = tmp_path / "levels.xsb"
    spec = _spec(tmp_path, levels=None)
    with open(levels, "wb") as handle:
        handle.truncate(MAX_LEVEL_FILE + 1)  # sparse: no megabytes written
    assert f"larger than {MAX_LEVEL_FILE:,} bytes" in _refusal(spec)


@pytest.mark.parametrize(
    ("name", "said"), [("/etc/hostname", "is not a path relative to the spec's folder"), (".", "is not a file")]
)
def test_only_a_file_under_a_relative_path_is_read(tmp_path: Path, name: str, said: str) -> None:
    assert said in _refusal(_spec(tmp_path, SPEC.replace('"levels.xsb"', f'"{name}"')))


def test_the_legend_says_which_lines_are_a_level_s(tmp_path: Path) -> None:
    # without "*" in the legend, "#@*##" is no row of a level; between two rows with no blank
    # line, it would cut the level in two open halves: it is refused where it stands
    levels = COLLECTION + "; 4\n#####\n#@*##\n#####\n"
    text = SPEC.replace('    "*" = B B\n', "")
    said = _refusal(_spec(tmp_path, text, levels), {"n": "1"})
    assert "'levels.xsb', line 17, column 3: '*' is not one of the legend's characters ' #$+.@'" in said
    assert "in a line between two rows of a level (it would cut the level in two)" in said
    assert "has 4 levels" in _refusal(_spec(tmp_path, SPEC, levels), {"n": "6"})
    # a title between two levels with no blank line still only separates them
    titled = COLLECTION + "Level four\n#####\n#@$.#\n#####\n"
    assert "has 4 levels" in _refusal(_spec(tmp_path, SPEC, titled), {"n": "6"})


def test_a_spec_given_as_text_has_no_folder_to_read_a_level_file_in(tmp_path: Path) -> None:
    _spec(tmp_path)
    with pytest.raises(SpecError) as caught:
        parse(SPEC, "<text>")
    message = caught.value.diagnostics[0]
    assert (message.pos.line, message.pos.column) == (LEVEL_LINE, 14)
    assert "no file of its own" in message.message
    problems = analyse(SPEC, "<spec>").problems  # the language server: a diagnostic, not a crash
    assert [p.pos.line for p in problems] == [LEVEL_LINE] and "no file of its own" in problems[0].message


def test_a_folder_given_with_the_text_is_where_the_file_is_read(tmp_path: Path) -> None:
    _spec(tmp_path)
    compiled = compile_puzzle(elaborate(parse(SPEC, "<text>", folder=tmp_path), {"n": "2"}))
    assert search(compiled, engine="python").length == 2


def test_the_parameter_that_chooses_the_level_is_one_that_is_read(tmp_path: Path) -> None:
    compiled = load(_spec(tmp_path), {"n": "3"})  # not refused as "set but changes nothing"
    assert compiled.puzzle.params == {"n": 3}


def test_a_blank_line_inside_a_pasted_level_is_skipped_and_the_rows_after_it_kept() -> None:
    """The rows after it are the level's (a row of walls after it was read as a comment)."""
    pasted = SPEC.replace('level n from "levels.xsb"', "level:\n    ######\n    #@$ .#\n{blank}    #    #\n    ######")
    whole, cut = (compile_puzzle(elaborate(parse(pasted.format(blank=blank)))) for blank in ("", "\n"))
    assert whole.puzzle.board is not None and cut.puzzle.board is not None
    assert (cut.puzzle.board.rows, cut.start, cut.cells) == (whole.puzzle.board.rows, whole.start, whole.cells)
    assert whole.puzzle.board.rows == 4
