"""Boards of cells: which cells exist, what each is called, and how directions step between them.

Every board but a graph lies in a rectangular *frame* of rows x columns (a line and a ring are
one row; a picture or a `where` board leaves some squares without a cell). Cells are numbered
0.. in reading order internally and *named* the way the docs, the specs and the output name
them: `1..N` on a line or ring, `r2c3` on a grid, the spec's names on a graph.

A direction is a table: for each cell, the cells one step away. On a frame board a direction
is a step (rows, columns) and has at most one next cell; on a graph a direction is a relation
and may branch.
"""

from __future__ import annotations

from dataclasses import dataclass, field

Vector = tuple[int, int]

LINE, RING, GRID, PICTURE, GRAPH = "line", "ring", "grid", "picture", "graph"
BOARD_SYMMETRIES = ("mirror", "flip", "rotate", "reversal")  # the symmetries a board has by its shape (Board.symmetry)

_ORTHOGONAL: tuple[tuple[str, Vector], ...] = (("up", (-1, 0)), ("down", (1, 0)), ("left", (0, -1)), ("right", (0, 1)))
_DIAGONAL: tuple[tuple[str, Vector], ...] = (
    ("up_left", (-1, -1)),
    ("up_right", (-1, 1)),
    ("down_left", (1, -1)),
    ("down_right", (1, 1)),
)


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


@dataclass(frozen=True)
class Cell:
    name: str
    row: int | None  # 1-based, None on a graph
    col: int | None


@dataclass(frozen=True, eq=False)
class Direction:
    """One direction: `steps[i]` are the cells one step from cell i (at most one unless the
    board is a graph). `vector` is the frame step it was made from, if any."""

    name: str
    vector: Vector | None
    steps: tuple[tuple[int, ...], ...]

    @property
    def straight(self) -> bool:
        """Does every cell have at most one next cell (so that rays are well defined)?"""
        return all(len(s) <= 1 for s in self.steps)

    def next(self, cell: int) -> int | None:
        following = self.steps[cell]
        return following[0] if following else None

    def walk(self, cell: int, steps: int) -> int | None:
        """Where `steps` >= 0 steps along this (straight) direction lead from `cell` (None: off
        the board), in at most three times the board's size of steps whatever `steps` is: a
        walk of more steps than there are cells goes round a loop, which is cut short."""
        size = len(self.steps)
        at: int | None = cell
        for _ in range(min(steps, size)):
            at = self.next(at) if at is not None else None
        if at is None or steps <= size:
            return at
        loop, probe = 1, self.next(at)  # after `size` steps the walk is on its loop
        while probe != at and probe is not None:
            loop, probe = loop + 1, self.next(probe)
        for _ in range((steps - size) % loop):
            at = self.next(at)  # type: ignore[arg-type]
        return at

    def ray(self, cell: int) -> tuple[int, ...]:
        """The cells from `cell` (excluded) along this direction up to the edge; a ring's ray
        stops before coming back."""
        out: list[int] = []
        seen = {cell}
        at = self.next(cell)
        while at is not None and at not in seen:
            out.append(at)
            seen.add(at)
            at = self.next(at)
        return tuple(out)


@dataclass(frozen=True, eq=False)
class Board:
    kind: str
    rows: int
    cols: int
    cells: tuple[Cell, ...]
    frame: tuple[int, ...]  # frame square r*cols + c -> cell index, or -1 (no cell)
    directions: dict[str, tuple[Direction, ...]] = field(default_factory=dict)
    default: tuple[Direction, ...] = ()
    shapes: dict[str, tuple[Vector, ...]] = field(default_factory=dict)
    neighbourhoods: frozenset[str] = frozenset()  # shapes cut at the board's edges
    box: tuple[int, int] | None = None  # `boxes R x C`: the grid cut into boxes of R rows and C columns
    regions: tuple[tuple[str, tuple[int, ...]], ...] = ()  # `regions:`: each letter of the picture, its cells

    @property
    def size(self) -> int:
        return len(self.cells)

    @property
    def wraps(self) -> bool:
        return self.kind == RING

    @property
    def has_frame(self) -> bool:
        return self.kind != GRAPH

    @property
    def one_row(self) -> bool:
        return self.kind in (LINE, RING)

    def name(self, cell: int) -> str:
        return self.cells[cell].name

    def describe(self) -> str:
        if self.kind in (GRID,):
            return f"a {self.rows} x {self.cols} grid"
        if self.kind == PICTURE:
            return f"a board of {self.size} cells in a {self.rows} x {self.cols} frame"
        if self.kind == GRAPH:
            return f"a graph of {self.size} cells"
        return f"a {self.kind} of {self.cols} cells"

    def names_range(self) -> str:
        """How the cells are named, for error messages: `1..6`, `r1c1..r4c3`."""
        if not self.cells:
            return "none"
        if self.kind == GRAPH:
            shown = ", ".join(c.name for c in self.cells[:8])
            return shown + (", ..." if self.size > 8 else "")
        return f"{self.cells[0].name}..{self.cells[-1].name}"

    def at(self, row: int, col: int) -> int | None:
        """The cell at 1-based (row, col) of the frame, if there is one."""
        if not (1 <= row <= self.rows and 1 <= col <= self.cols) or not self.has_frame:
            return None
        found = self.frame[(row - 1) * self.cols + (col - 1)]
        return found if found >= 0 else None

    def by_name(self, name: str) -> int | None:
        for i, cell in enumerate(self.cells):
            if cell.name == name:
                return i
        return None

    def step(self, cell: int, vector: Vector, times: int = 1) -> int | None:
        """The cell `times` steps of `vector` away on the frame, or None off the board."""
        c = self.cells[cell]
        assert c.row is not None and c.col is not None
        row = c.row - 1 + vector[0] * times
        col = c.col - 1 + vector[1] * times
        if self.wraps:
            col %= self.cols
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            return None
        found = self.frame[row * self.cols + col]
        return found if found >= 0 else None

    def direction(self, name: str, vector: Vector) -> Direction:
        return Direction(name, vector, tuple(_one(self.step(i, vector)) for i in range(self.size)))

    # ---- lines, for predicates
    def lines(self, family: str) -> tuple[tuple[int, ...], ...] | str:
        """The lines of a family (`rows`, `columns`, `diagonals`, `main_diagonals`, `lines`) as
        tuples of cells, or a sentence saying why this board has none."""
        if not self.has_frame:
            return "a graph has no rows, columns or diagonals"
        if family == "rows":
            return self._runs([[(r, c) for c in range(self.cols)] for r in range(self.rows)])
        if family == "columns":
            return self._runs([[(r, c) for r in range(self.rows)] for c in range(self.cols)])
        if family == "diagonals":
            down = [[(r, c) for r, c in _diagonal(self.rows, self.cols, start, 1)] for start in _starts(self, 1)]
            up = [[(r, c) for r, c in _diagonal(self.rows, self.cols, start, -1)] for start in _starts(self, -1)]
            return tuple(line for line in self._runs(down + up) if len(line) >= 2)
        if family == "main_diagonals":
            if self.rows != self.cols:
                return f"only a square board has main diagonals; this is {self.describe()}"
            n = self.rows
            both = ([(i, i) for i in range(n)], [(i, n - 1 - i) for i in range(n)])
            if any(self.frame[r * self.cols + c] < 0 for line in both for r, c in line):
                return "a main diagonal of this board runs through squares that are not cells"
            return self._runs(list(both))
        if family == "lines":
            parts = [self.lines(f) for f in ("rows", "columns", "diagonals")]
            return tuple(line for part in parts if isinstance(part, tuple) for line in part)
        if family == "boxes":
            if self.box is None:
                return "this board has no boxes: declare them with `boxes ROWS x COLUMNS`"
            height, width = self.box
            boxes = []
            for top in range(0, self.rows, height):
                for left in range(0, self.cols, width):
                    squares = [(r, c) for r in range(top, top + height) for c in range(left, left + width)]
                    cells = tuple(
                        self.frame[r * self.cols + c] for r, c in squares if self.frame[r * self.cols + c] >= 0
                    )
                    if cells:
                        boxes.append(cells)
            return tuple(boxes)
        if family == "regions":
            if not self.regions:
                return "this board has no regions: draw them with `regions:` and a picture"
            return tuple(cells for _, cells in self.regions)
        return f"unknown family of lines '{family}'"

    def region(self, letter: str) -> tuple[int, ...] | None:
        """The cells of the region drawn with `letter` (None: no such region)."""
        return next((cells for name, cells in self.regions if name == letter), None)

    def _runs(self, squares: list[list[tuple[int, int]]]) -> tuple[tuple[int, ...], ...]:
        """Each list of frame squares, cut into runs of existing cells."""
        out: list[tuple[int, ...]] = []
        for line in squares:
            run: list[int] = []
            for r, c in line:
                cell = self.frame[r * self.cols + c]
                if cell < 0:
                    if run:
                        out.append(tuple(run))
                    run = []
                else:
                    run.append(cell)
            if run:
                out.append(tuple(run))
        return tuple(out)

    # ---- symmetries
    def symmetry(self, name: str) -> tuple[int, ...] | str:
        """Where each cell goes under a named board symmetry (cell i moves to result[i]), or a
        sentence saying why the board has no such symmetry."""
        n = self.size
        if name == "reversal":
            return tuple(n - 1 - i for i in range(n))
        if not self.has_frame:
            return f"a graph has the symmetry reversal, not '{name}'"
        rows, cols = self.rows, self.cols
        if self.kind == RING:
            if name == "mirror":
                return tuple((-i) % n for i in range(n))
            if name == "rotate":
                return tuple((i + 1) % n for i in range(n))
            return f"a ring has the symmetries mirror, rotate and reversal, not '{name}'"
        if self.kind == LINE and name != "mirror":
            return f"a line has the symmetries mirror and reversal, not '{name}'"
        maps = {
            "mirror": lambda r, c: (r, cols - 1 - c),
            "flip": lambda r, c: (rows - 1 - r, c),
            # a quarter turn clockwise on a square, a half turn on any other grid
            "rotate": (lambda r, c: (c, rows - 1 - r)) if rows == cols else (lambda r, c: (rows - 1 - r, cols - 1 - c)),
        }
        if name not in maps:
            return f"a grid has the symmetries mirror, flip, rotate and reversal, not '{name}'"
        square = maps[name]
        out = []
        for cell in self.cells:
            assert cell.row is not None and cell.col is not None
            r, c = square(cell.row - 1, cell.col - 1)
            target = self.frame[r * cols + c]
            if target < 0:
                return f"'{name}' does not map this board onto itself: {cell.name} would land where there is no cell"
            out.append(target)
        return tuple(out)


def _one(cell: int | None) -> tuple[int, ...]:
    return () if cell is None else (cell,)


def _starts(board: Board, way: int) -> list[tuple[int, int]]:
    """The first square of every diagonal going down-right (way 1) or down-left (way -1)."""
    top = [(0, c) for c in range(board.cols)]
    side = [(r, 0 if way == 1 else board.cols - 1) for r in range(1, board.rows)]
    return top + side


def _diagonal(rows: int, cols: int, start: tuple[int, int], way: int) -> list[tuple[int, int]]:
    r, c = start
    out = []
    while 0 <= r < rows and 0 <= c < cols:
        out.append((r, c))
        r, c = r + 1, c + way
    return out


# ---- building boards


def _frame_board(kind: str, rows: int, cols: int, exists: list[bool]) -> Board:
    cells: list[Cell] = []
    frame: list[int] = []
    for r in range(rows):
        for c in range(cols):
            if exists[r * cols + c]:
                frame.append(len(cells))
                name = str(c + 1) if kind in (LINE, RING) else f"r{r + 1}c{c + 1}"
                cells.append(Cell(name, r + 1, c + 1))
            else:
                frame.append(-1)
    board = Board(kind, rows, cols, tuple(cells), tuple(frame))
    table: dict[str, tuple[Direction, ...]] = {}
    default: tuple[Direction, ...]
    if kind == LINE:
        right, left = board.direction("right", (0, 1)), board.direction("left", (0, -1))
        table = {"right": (right,), "left": (left,), "any": (right, left)}
        default = (right, left)
    elif kind == RING:
        cw, acw = board.direction("clockwise", (0, 1)), board.direction("anticlockwise", (0, -1))
        table = {"clockwise": (cw,), "anticlockwise": (acw,), "any": (cw, acw)}
        default = (cw, acw)
    else:
        ortho = tuple(board.direction(n, v) for n, v in _ORTHOGONAL)
        diag = tuple(board.direction(n, v) for n, v in _DIAGONAL)
        table = {d.name: (d,) for d in ortho + diag}
        table["orthogonal"] = ortho
        table["diagonal"] = diag
        table["king"] = table["any"] = ortho + diag
        table["knight"] = tuple(board.direction("knight", v) for v in leap(1, 2))
        default = ortho
    return Board(kind, rows, cols, board.cells, board.frame, table, default)


def line(n: int) -> Board:
    return _frame_board(LINE, 1, n, [True] * n)


def ring(n: int) -> Board:
    return _frame_board(RING, 1, n, [True] * n)


def grid(rows: int, cols: int, exists: list[bool] | None = None) -> Board:
    kind = GRID if exists is None or all(exists) else PICTURE
    return _frame_board(kind, rows, cols, exists if exists is not None else [True] * (rows * cols))


def graph(names: list[str], links: list[tuple[int, int]]) -> Board:
    """A graph's cells, and its `link` direction (the links given, each as written)."""
    cells = tuple(Cell(name, None, None) for name in names)
    steps: list[list[int]] = [[] for _ in names]
    for a, b in links:
        if b not in steps[a]:
            steps[a].append(b)
    link = Direction("link", None, tuple(tuple(s) for s in steps))
    return Board(GRAPH, 1, len(names), cells, tuple(range(len(names))), {"link": (link,), "any": (link,)}, (link,))


def with_directions(
    board: Board,
    extra: dict[str, tuple[Direction, ...]],
    shapes: dict[str, tuple[Vector, ...]],
    neighbourhoods: frozenset[str] = frozenset(),
) -> Board:
    directions = dict(board.directions)
    directions.update(extra)
    return Board(
        board.kind, board.rows, board.cols, board.cells, board.frame, directions, board.default, shapes, neighbourhoods
    )
