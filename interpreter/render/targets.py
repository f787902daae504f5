"""Where the goal wants a piece, as every drawing marks it: a goal that leaves the other
cells open (`?`) names its targets (Sokoban's, where the boxes go), and a block whose target
touches the board's edge along its length leaves the board there (Rush Hour's exit).

Read from the spec alone: the goal's cells and the pieces' shapes, never the puzzle's name.
"""

from __future__ import annotations

from ..model.puzzle import ANY, EMPTY, Puzzle

SIDES = ("up", "down", "left", "right")


def targets(puzzle: Puzzle) -> dict[int, int]:
    """The cells a goal with open cells (`?`) wants a piece on, with the piece's code; none
    where the goal gives the whole board (the goal is then drawn as a board of its own)."""
    cells = puzzle.goal.cells
    if cells is None or ANY not in cells or puzzle.board is None:
        return {}
    return {cell: code for cell, code in enumerate(cells) if code not in (ANY, EMPTY) and cell < puzzle.board.size}


def exits(puzzle: Puzzle) -> list[tuple[int, str]]:
    """Where a block leaves the board: the cell of a block's target at the frame's edge, and
    the side it leaves by, where the target lies along one row (or one column) and touches
    the edge at its end (a car of two cells wanted at the right end of its row drives out
    on the right)."""
    board = puzzle.board
    if board is None or not board.has_frame:
        return []
    wanted: dict[int, list[int]] = {}
    for cell, code in targets(puzzle).items():
        if puzzle.piece(code).shape is not None:
            wanted.setdefault(puzzle.parts[code].piece, []).append(cell)
    out = []
    for cells in wanted.values():
        places = [(board.cells[c].row, board.cells[c].col, c) for c in cells]
        if any(r is None or col is None for r, col, _ in places):
            continue
        rows = {r for r, _, _ in places}
        cols = {col for _, col, _ in places}
        if len(rows) == 1 and len(places) > 1:
            first, last = min(places, key=lambda p: p[1] or 0), max(places, key=lambda p: p[1] or 0)
            if last[1] == board.cols:
                out.append((last[2], "right"))
            elif first[1] == 1:
                out.append((first[2], "left"))
        elif len(cols) == 1 and len(places) > 1:
            first, last = min(places, key=lambda p: p[0] or 0), max(places, key=lambda p: p[0] or 0)
            if last[0] == board.rows:
                out.append((last[2], "down"))
            elif first[0] == 1:
                out.append((first[2], "up"))
    return out
