"""The text output is complete at any width and in files: nothing cropped or dropped, no
trailing spaces, aligned columns; golden files at 40, 80 and 200 columns (what a pipe or a
file gets is the 80-column drawing, as COLUMNS is unset there)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from puzint.cli import main

HERE = Path(__file__).parent
ROOT = HERE.parents[1]
GOLDEN = HERE / "golden"
TIMING = re.compile(r"\d+\.\d{3} s")

CASES = {
    # the Python engine: a search this long may be answered by the kernel, run beside Python
    # (engines/race.py), whose summary differs
    "frog12": [str(ROOT / "specs" / "frog.puz"), "-p", "n=12", "--engine", "python"],
    "jealous_banks": [
        str(ROOT / "specs" / "jealous_husbands.puz"),
        "-p",
        "couples=4",
        "-p",
        "island=banks",
        "--engine",
        "python",
    ],
    "peg_triangle": [str(ROOT / "specs" / "peg_triangle.puz"), "--engine", "python"],
    "hanoi": [str(ROOT / "specs" / "hanoi.puz")],
    "water_jugs": [str(ROOT / "specs" / "water_jugs.puz")],
    "amida": [str(ROOT / "specs" / "amida.puz")],
    "wide_grid": [str(HERE / "wide_grid.puz")],
}
WIDTHS = (40, 80, 200)


def text_output(argv: list[str], width: int | None, capsys: pytest.CaptureFixture[str], mp: pytest.MonkeyPatch) -> str:
    if width is None:
        mp.delenv("COLUMNS", raising=False)
    else:
        mp.setenv("COLUMNS", str(width))
    code = main(["run", *argv, "--quiet"])
    out = capsys.readouterr().out
    assert code == 0
    return TIMING.sub("#.### s", out).replace(str(ROOT) + os.sep, "")  # the time taken varies


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_text_output(
    name: str, width: int, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = text_output(CASES[name], width, capsys, monkeypatch)
    golden = GOLDEN / f"{name}.{width}.txt"
    if os.environ.get("PUZINT_UPDATE_GOLDEN"):
        golden.write_text(out, encoding="utf-8")
    assert out == golden.read_text(encoding="utf-8")


@pytest.mark.parametrize("width", (*WIDTHS, None))
@pytest.mark.parametrize("name", sorted(CASES))
def test_nothing_is_cropped_and_no_line_ends_in_spaces(
    name: str, width: int | None, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = text_output(CASES[name], width, capsys, monkeypatch)
    assert "…" not in out
    assert all(line == line.rstrip() for line in out.splitlines())
    # every move of the solution is there, numbered, in order (grids caption each board:
    # "12 jump ..."), and every word the widest drawing shows (a narrow one may repeat a
    # column's name or the board's ruler under each move, as `left:`)
    wide = text_output(CASES[name], 400, capsys, monkeypatch)
    words = lambda text: {w.removesuffix(":") for w in text.split() if w not in ("move", "=>")}  # noqa: E731
    assert words(wide) <= words(out)
    main(["run", *CASES[name], "--quiet", "--format", "json"])
    moves = json.loads(capsys.readouterr().out)["moves"]
    rules = {move["rule"] for move in moves}
    named = lambda text: sum(1 for w in text.split("\n\n", 1)[-1].split() if w in rules)  # noqa: E731
    assert named(out) == named(wide) in (0, len(moves))  # each move named once (a ladder names none)


def test_ascii_drawing_has_no_other_characters(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = text_output([*CASES["frog12"], "--ascii"], 80, capsys, monkeypatch)
    assert out.isascii()
    assert " B  B  B  B  B  B  B  B  B  B  B  B  .  W" in out and "slide  B 12 -> 13" in out


GRAPH_NAMED = """puzzle "g"
board graph left, right, up, down
link left - right, right - up, up - down
piece A
start A _ _ _
goal _ _ _ A
move s: A _ -> _ A
"""


def test_a_graph_boards_long_cell_names_stay_apart_with_each_piece_under_its_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Names wider than a cell's 3 characters widen every cell's slot (they ran together as
    `leftright up`), and each glyph stays under its own name; short names keep the usual
    slot (the golden files above)."""
    spec = tmp_path / "g.puz"
    spec.write_text(GRAPH_NAMED)
    lines = text_output([str(spec), "--ascii"], 80, capsys, monkeypatch).splitlines()
    assert lines[2:7] == [
        "   move                     left right   up   down",
        "   start                     A     .     .     .",
        "1  s      A left -> right    .    [A]    .     .",
        "2  s      A right -> up      .     .    [A]    .",
        "3  s      A up -> down       .     .     .    [A]",
    ]
    for name, row in (("right", 4), ("up", 5), ("down", 6)):
        column = lines[2].index(name)
        assert column <= lines[row].index("[A]") + 1 < column + len(name)


@pytest.mark.parametrize("form", ["json", "text", "svg"])
def test_a_solution_is_named_without_expanding_its_states_again(
    form: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each move is named from the state it leaves and the one it reaches, both in the path:
    finding the state reached again (`successor`, a whole expansion a move) made the JSON of
    Hanoi's 16,383 moves take 2.4 s where naming them takes 0.7."""
    from puzint.compiler import CompiledPuzzle

    def expanded(*args: object) -> bytes:
        raise AssertionError("a move's state expanded again to name it")

    monkeypatch.setattr(CompiledPuzzle, "successor", expanded)
    spec = Path(__file__).resolve().parents[2] / "specs" / "hanoi.puz"
    assert main(["run", str(spec), "-p", "discs=3", "--engine", "python", "--format", form]) == 0
    out = capsys.readouterr().out
    if form == "json":
        moves = json.loads(out)["moves"]
        assert len(moves) == 7 and moves[0]["rule"] == "shift"


def test_pieces_on_places_are_shown_as_drawn(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    spec = tmp_path / "crossing.puz"
    spec.write_text(
        """puzzle "A son and his father cross"
places left, right
piece F father drawn "F"
piece S son drawn "s"
carrier boat at left
start at left: F S
goal at right: everyone
move cross: carry 1..2 in boat
""",
        encoding="utf-8",
    )
    assert main(["run", str(spec)]) == 0
    out = capsys.readouterr().out
    assert "start               F s (boat)" in out
    assert "cross  F s → right" in out
    assert " S" not in out
    assert "s son" in out and "F father" not in out  # a letter other than the symbol is explained


@pytest.mark.parametrize("width", (40, 200))
def test_a_long_move_table_printed_in_batches_reads_as_printed_a_line_at_a_time(
    width: int, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """511 moves: two batches and a part, in colour; the same text, escapes included."""
    from puzint.render import text

    monkeypatch.setenv("FORCE_COLOR", "1")
    argv = [str(ROOT / "specs" / "hanoi.puz"), "-p", "discs=9", "--engine", "python"]
    batched = text_output(argv, width, capsys, monkeypatch)
    assert "\x1b[" in batched and batched.count("\n") > 2 * text.LineBatch.SIZE
    monkeypatch.setattr(text.LineBatch, "SIZE", 1)
    one_by_one = text_output(argv, width, capsys, monkeypatch)
    assert batched == one_by_one
