"""The goal's targets and a block's exit, read from the spec (its goal's cells and its
pieces' shapes) and drawn in text and SVG."""

from __future__ import annotations

from puzint.render import svg, text
from puzint.render.glyphs import ASCII, UNICODE
from puzint.render.targets import exits, targets
from puzint.runner import load
from rich.text import Text

from tests.conftest import SPECS


def _names(compiled, cells):  # type: ignore[no-untyped-def]
    board = compiled.puzzle.board
    return sorted(board.name(c) for c in cells)


def test_sokobans_targets_are_the_goals_box_cells_and_it_has_no_exit() -> None:
    sokoban = load(SPECS / "sokoban.puz")
    assert _names(sokoban, targets(sokoban.puzzle)) == ["r4c6", "r6c2"]  # as the spec's comment says
    assert exits(sokoban.puzzle) == []


def test_rush_hours_red_car_leaves_on_the_right_of_row_3() -> None:
    rush = load(SPECS / "rush_hour.puz")
    assert _names(rush, targets(rush.puzzle)) == ["r3c5", "r3c6"]
    ((cell, side),) = exits(rush.puzzle)
    assert rush.puzzle.board.name(cell) == "r3c6" and side == "right"


def test_a_whole_board_goal_has_no_targets() -> None:
    frog = load(SPECS / "frog.puz")
    assert targets(frog.puzzle) == {} and exits(frog.puzzle) == []


def test_text_draws_an_empty_target_and_the_exit() -> None:
    sokoban = load(SPECS / "sokoban.puz")
    rows = text.draw_cells(sokoban, sokoban.start).plain.split("\n")
    assert rows[3] == "    ·  ·     ·  ◌" and rows[5] == "    ◌  ·     @  ·"
    rush = load(SPECS / "rush_hour.puz")
    assert text.draw_cells(rush, rush.start).plain.split("\n")[2] == " X  X  C  E  F  ◌  →"
    assert text.draw_cells(rush, rush.start, glyphs=ASCII).plain.split("\n")[2] == " X  X  C  E  F  :  >"
    assert text._legend(rush.puzzle, UNICODE) == ["◌ target of X", "→ exit"]
    assert isinstance(text.draw_cells(rush, rush.start), Text)


def test_svg_rings_the_targets_over_the_pieces_and_points_the_exit() -> None:
    rush = load(SPECS / "rush_hour.puz")
    board = svg.board_panel(rush, rush.start, None)
    drawn = "".join(board.parts)
    assert drawn.count('stroke-dasharray="5 3"') == 2 and drawn.count("<title>exit</title>") == 1
    ring = drawn.index('stroke-dasharray="5 3"')
    assert ring > drawn.rindex("<rect"), "the rings come after (over) the cars"
    assert board.width == 6 * svg.CELL + svg.EXIT


def _blocks(tmp_path, start: str, goal: str):  # type: ignore[no-untyped-def]
    spec = tmp_path / "blocks.puz"
    spec.write_text(
        'puzzle "Blocks"\nboard grid 3 x 3\npieces "X" "block" block\n'
        f"start:\n{start}goal:\n{goal}move drive: slide ?v along up, down, left, right\n",
        encoding="utf-8",
    )
    return load(spec)


def test_an_exit_wherever_a_blocks_target_lies_on_the_edge(tmp_path) -> None:  # type: ignore[no-untyped-def]
    klotski = load(SPECS / "klotski.puz")  # the large block wanted in the middle of the bottom row
    assert [(klotski.puzzle.board.name(c), side) for c, side in exits(klotski.puzzle)] == [
        ("r5c2", "down"),
        ("r5c3", "down"),
    ]
    assert text.draw_cells(klotski, klotski.start).plain.split("\n")[-1] == "    ↓  ↓"
    column = _blocks(tmp_path, "    _ _ _\n    _ _ X\n    _ _ X\n", "    ? ? X\n    ? ? X\n    ? ? ?\n")
    assert [(column.puzzle.board.name(c), side) for c, side in exits(column.puzzle)] == [("r1c3", "up")]
    one = _blocks(tmp_path, "    _ _ _\n    _ _ _\n    _ X _\n", "    ? ? ?\n    ? ? ?\n    ? X ?\n")
    assert [(one.puzzle.board.name(c), side) for c, side in exits(one.puzzle)] == [("r3c2", "down")]


def test_no_exit_where_the_side_cannot_be_told(tmp_path) -> None:  # type: ignore[no-untyped-def]
    corner = _blocks(tmp_path, "    _ _ _\n    _ X X\n    _ X X\n", "    X X ?\n    X X ?\n    ? ? ?\n")
    assert exits(corner.puzzle) == []  # on the edge at the top and on the left
    inside = _blocks(tmp_path, "    X _ _\n    _ _ _\n    _ _ _\n", "    ? ? ?\n    ? X ?\n    ? ? ?\n")
    assert exits(inside.puzzle) == []
