"""Elaboration of where things can be: the board of cells (line, ring, grid, grid with holes,
picture, graph) with its directions and shapes, the places (bags and stacks) with the
routes between them, and the counters (numbers, the cursor, the carrier)."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from ..errors import Pos, SpecError, suggest
from ..model import board as b
from ..model.board import Board, Direction, Vector
from ..model.puzzle import CARRIER, CURSOR, NUMBER, Counter, Place
from . import syntax as s
from .expressions import evaluate, show, type_name
from .pieces import not_a_piece, one_cell_a_word

if TYPE_CHECKING:
    from .context import Elaboration

MAX_CELLS = 4096  # a board larger than this is a mistake, or beyond any search
MAX_COUNTER_SPAN = 1 << 32
HAND = "hand"


# ---- the board


def board(el: Elaboration, symbols: Collection[str] = ()) -> tuple[Board | None, list[tuple[str, Pos]] | None]:
    """The board of cells (None: the puzzle has none), and the picture's contents when a
    `board:` picture also shows the pieces (one symbol per cell, `_` empty, with where it is
    written). A word of the picture that is a piece's symbol of several characters (`12`,
    `H1`) is one square, as in a `start:` picture, and among such pieces a word that is none
    is refused, not split."""
    boards = [x for x in el.of(s.Board) if x.shape != "places"] + el.of(s.BoardPicture)
    for extra in boards[1:]:
        el.errors.error(extra.pos, f"the board is given twice (first on line {boards[0].pos.line})", "only one")
    if not boards:
        return None, None
    stmt = boards[0]
    if isinstance(stmt, s.BoardPicture):
        return _picture(el, stmt, symbols)
    if stmt.shape == "graph":
        return _graph(el, stmt), None
    sizes = [el.eval_int(e, "a board size", 1) for e in stmt.sizes]
    if any(x is None for x in sizes):
        return None, None
    if stmt.shape == "grid":
        rows, cols = sizes[0] or 1, sizes[1] or 1
        if not _fits(el, stmt.pos, rows * cols):
            return None, None
        exists = _where(el, stmt, rows, cols) if stmt.where is not None else None
        if exists is not None and not any(exists):
            el.errors.error(stmt.where.pos, f"no square of the grid is a cell{el.with_params()}")  # type: ignore[union-attr]
            return None, None
        return b.grid(rows, cols, exists), None
    n = sizes[0] or 1
    if not _fits(el, stmt.pos, n):
        return None, None
    return (b.line(n) if stmt.shape == "line" else b.ring(n)), None


def _fits(el: Elaboration, pos: Pos, cells: int) -> bool:
    if cells > MAX_CELLS:
        el.errors.error(
            pos,
            f"the board would have {cells:,} cells{el.with_params()}; puzint takes at most {MAX_CELLS:,}",
            f"at most {MAX_CELLS:,} cells",
        )
        return False
    return True


def _where(el: Elaboration, stmt: s.Board, rows: int, cols: int) -> list[bool] | None:
    assert stmt.where is not None
    exists = []
    for r in range(1, rows + 1):
        for c in range(1, cols + 1):
            try:
                value = evaluate(stmt.where, {**el.env, "row": r, "col": c})
            except SpecError as exc:
                el.errors.diagnostics.extend(exc.diagnostics)
                return None
            if not isinstance(value, bool):
                el.errors.error(stmt.where.pos, f"'where' needs a condition on row and col, got {type_name(value)}")
                return None
            exists.append(value)
    return exists


def _picture(
    el: Elaboration, stmt: s.BoardPicture, symbols: Collection[str]
) -> tuple[Board | None, list[tuple[str, Pos]] | None]:
    whole = {symbol for symbol in symbols if len(symbol) > 1}
    rows: list[list[tuple[str, Pos] | None]] = []
    for picture_row in stmt.rows:
        squares: list[tuple[str, Pos] | None] = []
        for item in picture_row.items:
            if isinstance(item, s.NoCells):
                squares.extend([None] * item.squares)
            elif isinstance(item, s.Cells) and item.text in whole:
                squares.append((item.text, item.pos))
            elif isinstance(item, s.Cells) and one_cell_a_word(item.text, whole):
                el.errors.error(
                    item.pos.moved(0, len(item.text)), not_a_piece(item.text, symbols), "a declared piece, _ or ."
                )
                return None, None
            elif isinstance(item, s.Cells):
                squares.extend((ch, item.pos.moved(i)) for i, ch in enumerate(item.text))
            else:
                el.errors.error(item.pos, "a board picture shows cells (_ or a piece) and squares with no cell (.)")
                return None, None
        rows.append(squares)
    width = len(rows[0])
    for squares, syntax in zip(rows, stmt.rows, strict=True):
        if len(squares) != width:
            el.errors.error(
                syntax.pos, f"this row has {len(squares)} squares but the first row has {width}", f"{width} squares"
            )
            return None, None
    if not _fits(el, stmt.pos, width * len(rows)):
        return None, None
    exists = [square is not None for row in rows for square in row]
    if not any(exists):
        el.errors.error(stmt.pos, "the picture has no cell", "_ for a cell")
        return None, None
    contents = [square for row in rows for square in row if square is not None]
    shows_pieces = any(square[0] != "_" for square in contents)
    return b.grid(len(rows), width, exists), (contents if shows_pieces else None)


def _graph(el: Elaboration, stmt: s.Board) -> Board | None:
    names: list[str] = []
    for name in stmt.names:
        if name.name in names:
            el.errors.error(name.pos, f"cell '{name.name}' is named twice", "distinct names")
        names.append(name.name)
    if len(names) > MAX_CELLS:
        _fits(el, stmt.pos, len(names))
        return None
    links: list[tuple[int, int]] = []
    for decl in el.of(s.Links):
        for link in decl.links:
            found = _link(el, names, link)
            if found is not None:
                links.extend(found)
    permuted = any(isinstance(a, s.Cycle) for move in el.of(s.Move) for a in move.actions)
    if not links and not permuted:  # cells joined only by cycles need no links
        el.errors.error(stmt.pos, "a graph needs links between its cells (or moves of cycles)", "link a - b, b - c")
    return b.graph(names, links)


def _link(el: Elaboration, names: list[str], link: s.Vector) -> list[tuple[int, int]] | None:
    assert link.source is not None and link.target is not None
    ends = []
    for end in (link.source, link.target):
        if end.name not in names:
            unknown = f"unknown cell '{end.name}'{suggest(end.name, names)}"
            el.errors.error(end.pos, unknown, "one of: " + ", ".join(names[:12]))
            return None
        ends.append(names.index(end.name))
    a, c = ends
    if a == c:
        el.errors.error(link.pos, "a link joins two different cells")
        return None
    return [(a, c), (c, a)] if link.both_ways else [(a, c)]


def directions_and_shapes(el: Elaboration, board: Board | None) -> Board | None:
    """The board with the spec's own directions and shapes added."""
    declared = el.of(s.Direction) + el.of(s.ShapeDecl)
    if board is None:  # a board declared and refused is said once, at the board (`Collector.missing`)
        for stmt in declared + el.of(s.Links):
            el.errors.missing("board", stmt.pos, "directions, shapes and links belong to a board of cells", "board ...")
        return None
    for stmt in el.of(s.Links):
        if board.has_frame:
            el.errors.error(stmt.pos, "links join the cells of a graph; this board's cells are joined by directions")
    extra: dict[str, tuple[Direction, ...]] = {}
    shapes: dict[str, tuple[Vector, ...]] = {}
    cut: set[str] = set()
    seen: dict[str, Pos] = {}
    for stmt in declared:
        el.check_name(stmt.pos, stmt.name, "a direction or shape")
        if stmt.name in seen:
            el.errors.error(stmt.pos, f"'{stmt.name}' is declared twice (first on line {seen[stmt.name].line})")
            continue
        if stmt.name in board.directions:
            el.errors.error(stmt.pos, f"'{stmt.name}' is already a direction of {board.describe()}", "another name")
            continue
        seen[stmt.name] = stmt.pos
        if isinstance(stmt, s.Direction):
            found = _direction(el, board, stmt.name, stmt.vectors, extra)
            if found:
                extra[stmt.name] = found
        else:
            offsets = _shape(el, board, stmt)
            if offsets:
                shapes[stmt.name] = offsets
                if stmt.cut:
                    cut.add(stmt.name)
    return b.with_directions(board, extra, shapes, frozenset(cut))


def _vectors(el: Elaboration, board: Board, item: s.Vector, known: dict[str, tuple[Direction, ...]]) -> list[Vector]:
    if item.kind == "name":
        found = known.get(item.name) or board.directions.get(item.name)
        if found is None:
            expected = "one of: " + ", ".join(sorted(set(board.directions) | set(known)))
            unknown = f"{board.describe()} has no direction '{item.name}'"
            el.errors.error(item.pos, unknown + suggest(item.name, set(board.directions) | set(known)), expected)
            return []
        return [d.vector for d in found if d.vector is not None]
    a = el.eval_int(item.a, "a step", None) if item.a is not None else None
    c = el.eval_int(item.b, "a step", None) if item.b is not None else None
    if a is None or c is None:
        return []
    if item.kind == "leap":
        return list(b.leap(a, c))
    return [(a, c)]


def _direction(
    el: Elaboration, board: Board, name: str, items: tuple[s.Vector, ...], known: dict[str, tuple[Direction, ...]]
) -> tuple[Direction, ...]:
    if not board.has_frame:
        steps: list[list[int]] = [[] for _ in board.cells]
        for item in items:
            if item.kind == "name":
                for d in known.get(item.name) or board.directions.get(item.name) or ():
                    for i, following in enumerate(d.steps):
                        steps[i].extend(x for x in following if x not in steps[i])
                if item.name not in known and item.name not in board.directions:
                    el.errors.error(item.pos, f"{board.describe()} has no direction '{item.name}'")
                continue
            if item.kind != "link":
                el.errors.error(item.pos, "a graph's directions are links between cells", "a -> b or a - b")
                continue
            for x, y in _link(el, [c.name for c in board.cells], item) or []:
                if not _linked(el, board, item, x, y):
                    continue
                if y not in steps[x]:
                    steps[x].append(y)
        return (Direction(name, None, tuple(tuple(st) for st in steps)),)
    out: list[Direction] = []
    seen: set[Vector] = set()
    for item in items:
        if item.kind == "link":
            el.errors.error(
                item.pos, "links join the cells of a graph; on this board a direction is a step (rows, columns)"
            )
            continue
        for v in _vectors(el, board, item, known):
            if v == (0, 0):
                el.errors.error(item.pos, "a direction must go somewhere: (0, 0) stays put", "a step other than (0, 0)")
            elif v not in seen:
                seen.add(v)
                out.append(board.direction(name, v))
    return tuple(out)


def _linked(el: Elaboration, board: Board, item: s.Vector, source: int, target: int) -> bool:
    """A graph's direction picks some of its links: a step between cells that no link joins
    would be a new link, made where the spec only meant to name one."""
    (link,) = board.directions["link"]
    if target in link.steps[source]:
        return True
    a, b = board.cells[source].name, board.cells[target].name
    linked = [f"{a} -> {board.cells[n].name}" for n in link.steps[source]]
    el.errors.error(
        item.pos,
        f"the graph has no link from {a} to {b}: a direction names links of the graph",
        "one of its links" + (f" from {a}: " + ", ".join(linked) if linked else f" (none leaves {a})"),
    )
    return False


def _shape(el: Elaboration, board: Board, stmt: s.ShapeDecl) -> tuple[Vector, ...]:
    if not board.has_frame:
        el.errors.error(stmt.pos, "a shape is made of steps on a line, ring or grid; a graph has none")
        return ()
    offsets: list[Vector] = []
    for item in stmt.vectors:
        if item.kind == "link":
            el.errors.error(item.pos, "a shape is made of steps (rows, columns)", "(0, 0), (1, 0), ...")
            continue
        for v in _vectors(el, board, item, {}):
            if v not in offsets:
                offsets.append(v)
            elif item.kind == "step":  # a step written twice: a shape's cells are each once
                el.errors.error(item.pos, f"the step ({v[0]}, {v[1]}) is already in this shape", "another step")
    return tuple(offsets)


# ---- places and routes


def places(el: Elaboration) -> tuple[list[Place], frozenset[tuple[int, int]]]:
    found: list[Place] = []
    positions: dict[str, Pos] = {}

    def add(name: s.Name, stack: bool) -> None:
        if name.name in positions:
            el.errors.error(name.pos, f"place '{name.name}' is named twice (first on line {positions[name.name].line})")
            return
        el.check_name(name.pos, name.name, "a place")
        positions[name.name] = name.pos
        found.append(Place(name.name, stack))

    for stmt in el.statements:
        if isinstance(stmt, s.Board) and stmt.shape == "places":
            for name in stmt.names:
                add(name, False)
        elif isinstance(stmt, s.PlacesDecl):
            for name in stmt.names:
                add(name, stmt.stack)
    if HAND not in positions and any(x.place == HAND for x in el.of(s.PlaceLayout)):
        found.append(Place(HAND))
    return found, _routes(el, found)


def _routes(el: Elaboration, found: list[Place]) -> frozenset[tuple[int, int]]:
    names = [p.name for p in found]
    routes: set[tuple[int, int]] = set()
    declared = el.of(s.Route)
    for route in declared:
        ends = [place_index(el, names, n, route.pos) for n in (route.source, route.target)]
        if None in ends:
            continue
        a, c = ends
        if a == c:
            el.errors.error(route.pos, "a route must join two different places")
        routes.add((a, c))  # type: ignore[arg-type]
        if route.both_ways:
            routes.add((c, a))  # type: ignore[arg-type]
    if not declared:
        routes = {(a, c) for a in range(len(found)) for c in range(len(found)) if a != c}
    return frozenset(routes)


def place_index(el: Elaboration, names: list[str], name: str, pos: Pos) -> int | None:
    if name in names:
        return names.index(name)
    known = ", ".join(names) or "none: this puzzle has no places"
    el.errors.error(pos, f"unknown place '{name}'{suggest(name, names)}", f"one of: {known}")
    return None


# ---- counters


def counters(el: Elaboration, board: Board | None, found_places: list[Place]) -> list[Counter]:
    out: list[Counter] = []
    names: dict[str, Pos] = {}

    def add(counter: Counter) -> None:
        if counter.name in names:
            el.errors.error(
                counter.pos, f"'{counter.name}' is declared twice (first on line {names[counter.name].line})"
            )
            return
        names[counter.name] = counter.pos
        out.append(counter)

    for stmt in el.of(s.CounterDecl):
        el.check_name(stmt.pos, stmt.name, "a counter")
        start = el.eval_int(stmt.start, "a counter's start", None)
        low = el.eval_int(stmt.low, "a counter's lowest value", None)
        high = el.eval_int(stmt.high, "a counter's highest value", None)
        if start is None or low is None or high is None:
            continue
        if low > high:
            el.errors.error(stmt.low.pos, f"the range {low}..{high} is empty{el.with_params()}", "LOW <= HIGH")
            continue
        if high - low >= MAX_COUNTER_SPAN:
            el.errors.error(stmt.low.pos, f"a counter's range may span at most {MAX_COUNTER_SPAN:,} values")
            continue
        if not low <= start <= high:
            el.errors.error(stmt.start.pos, f"the start {start} is outside {low}..{high}{el.with_params()}")
            continue
        add(Counter(stmt.name, low, high, start, NUMBER, stmt.doc, stmt.pos))
    cursors = el.of(s.Cursor)
    for extra in cursors[1:]:
        el.errors.error(extra.pos, "only one cursor is supported", "one cursor line")
    if cursors:
        cell = cursor_cell(el, board, cursors[0].start)
        if cell is not None:
            add(Counter("cursor", -1, board.size - 1, cell, CURSOR, "the cursor", cursors[0].pos))  # type: ignore[union-attr]
    carriers = el.of(s.Carrier)
    for extra in carriers[1:]:
        el.errors.error(extra.pos, "only one carrier is supported", "one carrier line")
    if carriers:
        stmt = carriers[0]
        el.check_name(stmt.pos, stmt.name, "a carrier")
        where = place_index(el, [p.name for p in found_places], stmt.place, stmt.place_pos)
        if where is not None:
            add(Counter(stmt.name, 0, len(found_places) - 1, where, CARRIER, f"the {stmt.name}", stmt.pos))
    return out


def cursor_cell(el: Elaboration, board: Board | None, expr: s.Expr) -> int | None:
    """The cell a cursor starts at, named as everywhere else: `1` on a line, `r1c1` on a grid."""
    if board is None:
        el.errors.missing("board", expr.pos, "a cursor moves over cells, and this puzzle has no board", "board ...")
        return None
    if isinstance(expr, s.Name) and board.by_name(expr.name) is not None:
        return board.by_name(expr.name)
    if isinstance(expr, s.Call) and expr.name == "cell":
        values = [el.eval_int(a, "a cell's number", None) for a in expr.args]
        if None in values:
            return None
        found = board.at(1, values[0]) if board.one_row and len(values) == 1 else None  # type: ignore[arg-type]
        if len(values) == 2:
            found = board.at(values[0], values[1])  # type: ignore[arg-type]
    else:
        value = el.eval(expr)
        if value is None:
            return None
        if isinstance(value, str) and board.by_name(value) is not None:
            return board.by_name(value)
        if not isinstance(value, int) or isinstance(value, bool) or not board.one_row:
            el.errors.error(expr.pos, f"the cursor starts at a cell ({board.names_range()})", board.names_range())
            return None
        found = board.at(1, value)
    if found is None:
        el.errors.error(
            expr.pos,
            f"the cursor would start off the board{el.with_params()}: the cells are {board.names_range()}",
            board.names_range(),
        )
    return found


def describe_value(value: object) -> str:
    return show(value)  # type: ignore[arg-type]
