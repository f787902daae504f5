"""Boards of every shape, one naming of cells, directions and shapes."""

from __future__ import annotations

import pytest
from puzint.errors import SpecError
from puzint.model.expr import CellConst
from puzint.runner import search

from tests.conftest import compiled_from, puzzle_from

RING = "board ring 5\npiece A a\nstart A _ _ _ _\ngoal _ _ A _ _\nmove s: A _ -> _ A along clockwise\n"


def messages(text: str, **params: object) -> list[str]:
    with pytest.raises(SpecError) as err:
        compiled_from(text, **params)
    return [d.message for d in err.value.diagnostics]


def test_a_picture_decides_which_cells_exist_and_keeps_their_names() -> None:
    puzzle = puzzle_from("board:\n    . _ .\n    _ _ _\npiece P peg\nstart P _ P P\ngoal _ P P P\nmove m: P _ -> _ P\n")
    assert puzzle.board is not None and puzzle.board.size == 4
    assert [c.name for c in puzzle.board.cells] == ["r1c2", "r2c1", "r2c2", "r2c3"]
    assert puzzle.board.at(1, 1) is None and puzzle.start.cells == (1, 0, 1, 1)


def test_a_board_picture_that_shows_pieces_is_the_start() -> None:
    text = "board:\n    . P .\n    P _ _\npiece P peg\ngoal _ _ P P\nmove m: P _ -> _ P along right\n"
    assert puzzle_from(text).start.cells == (1, 1, 0, 0)
    assert "the board's picture already shows the start" in messages(text + "start P P _ _\n")


def test_a_board_picture_reads_a_number_of_several_digits_as_one_square() -> None:
    text = "pieces 1..12\nboard:\n    1  _ .  12\n    _ 10 _  _\nfill cells with 1..12\nrule: all different(cells)\n"
    puzzle = puzzle_from(text)
    assert puzzle.board is not None and (puzzle.board.rows, puzzle.board.cols, puzzle.board.size) == (2, 4, 7)
    assert [puzzle.symbol(code) for code in puzzle.start.cells] == ["1", "_", "12", "_", "10", "_", "_"]
    assert puzzle_from(text.replace("1  _ .  12", "1  _ .  1 2").replace("_ 10 _  _", "_ 10 _  _ _")).board.cols == 5


def test_where_keeps_the_squares_where_the_condition_holds() -> None:
    text = "board grid 7 x 7 where row in 3..5 or col in 3..5\npiece P peg\nstart P*16 _ P*16\n"
    text += "goal _*16 P _*16\nmove jump: P P _ -> _ _ P along orthogonal\n"
    board = puzzle_from(text).board
    assert board is not None and board.size == 33 and board.kind == "picture"
    assert board.name(0) == "r1c3" and board.name(16) == "r4c4"  # the centre is the 17th cell


def test_a_start_picture_must_mark_the_squares_without_cells() -> None:
    text = "board grid 2 x 2 where not (row == 1 and col == 1)\npiece P peg\n"
    text += "start:\n    P _\n    _ P\ngoal ? ? ?\nmove m: P _ -> _ P\n"
    assert "the board has no cell at r1c1" in messages(text)
    ok = text.replace("    P _\n    _ P", "    . P\n    _ P")
    assert puzzle_from(ok).start.cells == (1, 0, 1)


def test_rings_and_lines_count_their_cells_from_1() -> None:
    puzzle = puzzle_from(RING + "safe: cell(1) is empty or cell(5) is empty\n")
    assert puzzle.board is not None and [c.name for c in puzzle.board.cells] == ["1", "2", "3", "4", "5"]
    (rule,) = puzzle.safety
    left = rule.condition.left.operand  # type: ignore[union-attr]
    assert isinstance(left, CellConst) and left.cell == 0
    assert "cell(0) is off the board (cells 1..5)" in messages(RING + "safe: cell(0) is empty\n")
    assert "cell(6) is off the board (cells 1..5)" in messages(RING + "safe: cell(6) is empty\n")


def test_a_grid_cell_is_named_by_row_and_column() -> None:
    text = "board grid 2 x 3\npiece A a\nstart A _ _ _ _ _\ngoal _ _ _ _ _ A\nmove s: A _ -> _ A\n"
    assert compiled_from(text + "safe: cell(2, 3) is empty or r1c1 is empty\n").safety.anything
    assert "a cell of a 2 x 3 grid is cell(row, column)" in messages(text + "safe: cell(3) is empty\n")
    assert "cell(3, 1) is off the board (cells r1c1..r2c3)" in messages(text + "safe: cell(3, 1) is empty\n")


def test_a_cell_computed_off_the_board_stops_the_search_at_its_position() -> None:
    text = RING.replace(
        "move s: A _ -> _ A along clockwise", "counter k = 0 in 0..9\nmove s: A _ -> _ A along clockwise"
    )
    text += "safe: k == 0 or cell(k) is empty\nmove bump: set k = k + 6\n"
    with pytest.raises(SpecError) as err:
        search(compiled_from(text), method="bfs")
    (diag,) = err.value.diagnostics
    assert diag.message == "cell(6) is off the board (cells 1..5)" and (diag.pos.line, diag.pos.column) == (7, 17)


def test_the_cursor_starts_at_a_named_cell() -> None:
    text = "board grid 2 x 2\npieces 1..4\ncursor at r2c1\nstart at hand: everyone\n"
    text += "move p: take ?t from hand, put ?t at cursor, advance cursor by 1\ngoal when hand is empty\n"
    puzzle = puzzle_from(text)
    assert puzzle.start.counters == (2,)  # r2c1 is the third cell
    assert "the cursor would start off the board: the cells are r1c1..r2c2" in messages(
        text.replace("r2c1", "cell(3, 1)")
    )
    assert "the cursor would start off the board: the cells are 1..5" in messages(RING + "cursor at 0\n")


def test_a_graph_names_its_cells_and_links_them() -> None:
    text = "board graph a, b, c, d\nlink a - b, b - c, c -> d\npiece T t\nstart T _ _ _\ngoal _ _ _ T\n"
    text += "move step: ?x _ -> _ ?x\n"
    result = search(compiled_from(text))
    assert result.length == 3
    backwards = text.replace("goal _ _ _ T", "goal T _ _ _").replace("start T _ _ _", "start _ _ _ T")
    assert search(compiled_from(backwards)).status == "no-solution"  # c -> d is one way
    assert "unknown cell 'e'" in messages(text.replace("c -> d", "c -> e"))


def test_named_directions_combine_names_steps_and_leaps() -> None:
    text = "board grid 5 x 5\npiece P peg\ndirection line6 = orthogonal, (1, 1), (-1, -1)\n"
    text += "direction twice = leap(1, 2), knight\nstart P*24 _\ngoal ?*25\nmove j: P P _ -> _ _ P along line6\n"
    board = puzzle_from(text).board
    assert board is not None
    assert len(board.directions["line6"]) == 6 and len(board.directions["twice"]) == 8


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("direction hop = (0, 2)\ndirection hop = (0, 3)", "'hop' is declared twice (first on line 6)"),
        ("direction up = (0, 2)", "'up' is already a direction of a 3 x 3 grid"),
        ("direction nowhere = (0, 0)", "a direction must go somewhere: (0, 0) stays put"),
        (
            "direction link = a -> b",
            "links join the cells of a graph; on this board a direction is a step (rows, columns)",
        ),
        ("shape plus = (0, 0), sideways", "a 3 x 3 grid has no direction 'sideways'"),
    ],
)
def test_mistakes_in_directions_and_shapes(line: str, message: str) -> None:
    text = "board grid 3 x 3\npiece P p\nstart P ________\ngoal ________ P\nmove m: P _ -> _ P\n"
    assert message in messages(text + line + "\n")


def test_shapes_list_their_steps_from_the_anchor() -> None:
    text = "board grid 3 x 3\npiece L l\nneighbourhood plus = (0, 0), orthogonal\n"
    text += "start L*9\ngoal _*9\nmove press: toggle L in plus\n"
    board = puzzle_from(text).board
    assert board is not None and board.shapes["plus"] == ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1))
