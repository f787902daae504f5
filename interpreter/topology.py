"""Board geometry: cell names, named directions and stepping from cell to cell.

Every cell board is a rectangle of rows x cols (a line is one row, a ring is one row
whose ends meet), so one stepping rule serves all of them.
"""

from __future__ import annotations

from .model import BoardShape

Vector = tuple[int, int]

_LINE_DIRECTIONS: dict[str, tuple[Vector, ...]] = {
    "right": ((0, 1),),
    "left": ((0, -1),),
}
_RING_DIRECTIONS: dict[str, tuple[Vector, ...]] = {
    "clockwise": ((0, 1),),
    "anticlockwise": ((0, -1),),
}
_ORTHOGONAL: tuple[Vector, ...] = ((-1, 0), (1, 0), (0, -1), (0, 1))
_DIAGONAL: tuple[Vector, ...] = ((-1, -1), (-1, 1), (1, -1), (1, 1))
_GRID_DIRECTIONS: dict[str, tuple[Vector, ...]] = {
    "up": ((-1, 0),),
    "down": ((1, 0),),
    "left": ((0, -1),),
    "right": ((0, 1),),
    "up_left": ((-1, -1),),
    "up_right": ((-1, 1),),
    "down_left": ((1, -1),),
    "down_right": ((1, 1),),
    "orthogonal": _ORTHOGONAL,
    "diagonal": _DIAGONAL,
    "king": _ORTHOGONAL + _DIAGONAL,
}


def leap(a: int, b: int) -> tuple[Vector, ...]:
    """All vectors (±a, ±b) and (±b, ±a), without repeats: leap(1, 2) is the knight's move."""
    found: list[Vector] = []
    for x, y in ((a, b), (b, a)):
        for sx in (1, -1):
            for sy in (1, -1):
                v = (sx * x, sy * y)
                if v not in found and v != (0, 0):
                    found.append(v)
    return tuple(found)


def directions(board: BoardShape) -> dict[str, tuple[Vector, ...]]:
    """The direction names a board knows, including `any` (all its basic steps)."""
    if board.kind == "line":
        table = dict(_LINE_DIRECTIONS)
        table["any"] = ((0, 1), (0, -1))
    elif board.kind == "ring":
        table = dict(_RING_DIRECTIONS)
        table["any"] = ((0, 1), (0, -1))
    else:
        table = dict(_GRID_DIRECTIONS)
        table["knight"] = leap(1, 2)
        table["any"] = _ORTHOGONAL + _DIAGONAL
    return table


def default_directions(board: BoardShape) -> tuple[Vector, ...]:
    """Directions a move uses when it says no `along`: both ways on a line or ring,
    the four orthogonal steps on a grid."""
    return _ORTHOGONAL if board.kind == "grid" else ((0, 1), (0, -1))


def step(board: BoardShape, cell: int, vector: Vector, times: int = 1) -> int | None:
    """The cell `times` steps of `vector` away from `cell`, or None if that leaves the board."""
    row, col = divmod(cell, board.cols)
    row += vector[0] * times
    col += vector[1] * times
    if board.wraps:
        col %= board.cols
    if not (0 <= row < board.rows and 0 <= col < board.cols):
        return None
    return row * board.cols + col


def cell_name(board: BoardShape, cell: int) -> str:
    """How a person names a cell: 1, 2, ... along a line; r1c1 on a grid; 0.. round a ring."""
    if board.kind == "line":
        return str(cell + 1)
    if board.kind == "ring":
        return str(cell)
    row, col = divmod(cell, board.cols)
    return f"r{row + 1}c{col + 1}"


def describe(board: BoardShape) -> str:
    if board.kind == "grid":
        return f"a {board.rows} x {board.cols} grid"
    return f"a {board.kind} of {board.cols} cells"


def symmetry_permutation(board: BoardShape, name: str) -> tuple[int, ...] | str:
    """Where each cell goes under a named board symmetry (cell i moves to result[i]), or
    a sentence saying why the board has no such symmetry."""
    rows, cols = board.rows, board.cols
    cells = range(board.size)
    if board.kind == "ring":
        if name == "mirror":
            return tuple((-c) % cols for c in cells)
        if name == "rotate":
            return tuple((c + 1) % cols for c in cells)
        return f"a ring has the symmetries mirror and rotate, not '{name}'"
    if name == "mirror":
        return tuple(r * cols + (cols - 1 - c) for r, c in (divmod(i, cols) for i in cells))
    if board.kind == "line":
        return f"a line has the symmetry mirror, not '{name}'"
    if name == "flip":
        return tuple((rows - 1 - r) * cols + c for r, c in (divmod(i, cols) for i in cells))
    if name == "rotate":
        if rows == cols:  # a quarter turn clockwise
            return tuple(c * cols + (rows - 1 - r) for r, c in (divmod(i, cols) for i in cells))
        return tuple((rows - 1 - r) * cols + (cols - 1 - c) for r, c in (divmod(i, cols) for i in cells))
    return f"a grid has the symmetries mirror, flip and rotate, not '{name}'"
