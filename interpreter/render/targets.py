"""Where the goal wants a piece, as every drawing marks it: a goal that leaves the other
cells open (`?`) names its targets (Sokoban's, where the boxes go), and a block whose target
lies on the board's edge leaves the board there (Rush Hour's exit, Klotski's).

Read from the spec alone: the goal's cells and the pieces' shapes, never the puzzle's name.
"""

from __future__ import annotations

from ..model.board import Board
from ..model.puzzle import ANY, EMPTY, Puzzle

SIDES = ("up", "down", "left", "right")


def targets(puzzle: Puzzle) -> dict[int, int]:
    """The cells a goal with open cells (`?`) wants a piece on, with the piece's code; none
    where the goal gives the whole board (the goal is then drawn as a board of its own)."""
    cells = puzzle.goal.cells
    if cells is None or ANY not in cells or puzzle.board is None:
        return {}
    return {cell: code for cell, code in enumerate(cells) if code not in (ANY, EMPTY) and cell < puzzle.board.size}


STEPS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}


def exits(puzzle: Puzzle) -> list[tuple[int, str]]:
    """Where a block leaves the board: each cell of a block's target that lies on the board's
    edge (no cell past it: the frame's end, a hole in it, a wall), with the side it leaves by.

    A target along one row (or one column) leaves along its length, by the end that lies on
    the edge (a car of two cells wanted at the right end of its row drives out on the right;
    at both ends, by the right or the bottom). Any other target leaves by the one side along
    which all of it lies on the edge (Klotski's large block, wanted in the middle of the
    bottom row, leaves at the bottom); a target on the edge on two sides or more (a corner)
    has no side to tell, and no exit is drawn."""
    board = puzzle.board
    if board is None or not board.has_frame:
        return []
    wanted: dict[int, list[int]] = {}
    for cell, code in targets(puzzle).items():
        if puzzle.piece(code).shape is not None:
            wanted.setdefault(puzzle.parts[code].piece, []).append(cell)
    out: list[tuple[int, str]] = []
    for cells in wanted.values():
        if any(board.cells[c].row is None or board.cells[c].col is None for c in cells):
            continue
        rows = {board.cells[c].row for c in cells}
        cols = {board.cells[c].col for c in cells}
        along = len(cells) > 1 and (len(rows) == 1 or len(cols) == 1)
        sides: tuple[str, ...] = SIDES
        if along:
            sides = ("right", "left") if len(rows) == 1 else ("down", "up")
        open_sides = [side for side in sides if all(_on_edge(board, c, side) for c in _rim(board, cells, side))]
        if len(open_sides) == 1 or (open_sides and along):
            side = open_sides[0]
            out.extend((c, side) for c in _rim(board, cells, side))
    return out


def _rim(board: Board, cells: list[int], side: str) -> list[int]:
    """The target's cells on that side of it: those whose neighbour that way is not in it."""
    inside = set(cells)
    return sorted(c for c in cells if board.step(c, STEPS[side]) not in inside)


def _on_edge(board: Board, cell: int, side: str) -> bool:
    return board.step(cell, STEPS[side]) is None
