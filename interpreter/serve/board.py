"""Where each cell of a board lies in the picture `render/svg.py` draws of a state
(`standalone(state_panel(...))`), so that the page can tell which cell a click landed on.

The geometry is the drawing's own (a grid or a line as squares, a ring or a graph as circles
round a circle); tests/serve/test_board.py checks these centres against the shapes drawn, so
that a change to the drawing that moves the cells shows there."""

from __future__ import annotations

import math

from ..compiler import CompiledPuzzle
from ..model.board import GRAPH, RING
from ..render.svg import CAPTION, CELL, _triangle_shift

MARGIN = 8  # standalone() draws a panel at (8, 8)
BOARD_TOP = CAPTION + 6  # state_panel() draws the board under its caption


def cell_centres(compiled: CompiledPuzzle) -> dict[str, tuple[float, float]]:
    """Each cell's name and its centre in the standalone picture of a state (none without a
    board), with the cell's radius of a click: CELL / 2."""
    board = compiled.puzzle.board
    if board is None:
        return {}
    centres: dict[int, tuple[float, float]] = {}
    if board.kind in (RING, GRAPH):
        radius = max(1.5 * CELL, board.size * CELL * 1.15 / (2 * math.pi))
        for cell in range(board.size):
            angle = 2 * math.pi * cell / board.size - math.pi / 2
            centres[cell] = (radius + CELL / 2 + radius * math.cos(angle), radius + CELL / 2 + radius * math.sin(angle))
    else:
        cols = board.cols if board.has_frame else board.size
        squares = board.frame if board.has_frame else tuple(range(board.size))
        shift = _triangle_shift(board)
        for i, cell in enumerate(squares):
            if cell >= 0:
                r, c = divmod(i, cols)
                centres[cell] = (c * CELL + shift(r) + CELL / 2, r * CELL + CELL / 2)
    return {board.name(cell): (x + MARGIN, y + MARGIN + BOARD_TOP) for cell, (x, y) in centres.items()}
