"""Typed expressions (`model.expr`) compiled into small Python closures `fn(state, env)`.

`state` is a compiled state (bytes, or the bytearray of a move being built); `env` is a list
holding, in slot 0, the contents of the place being checked (`here`), in slot 1 a carry
move's load, and then the values of variables. Nothing is ever evaluated as text: every
node becomes a closure over already-resolved indexes and tables. A problem that can only
show during the search (a cell computed off the board, a number asked of an empty cell, a
division by zero) stops it with an error at the expression's position.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from itertools import chain
from typing import Any

from ..errors import Diagnostic, Pos, SpecError
from ..model import expr as m
from ..model.board import Direction
from ..model.patterns import DEAD, UNREACHED
from ..model.puzzle import ANY, EMPTY, Puzzle
from ..search.costs import LexCost
from .layout import StateLayout
from .operators import ARITHMETIC, COMPARISON

Fn = Callable[[Any, list[Any]], Any]
Iter = Callable[[Any, list[Any]], Iterable[Any]]
Weighted = Callable[[Any, list[Any]], Iterable[tuple[Any, int]]]

HERE, LOAD = 0, 1
NONE = m.NONE


class EvalError(SpecError):
    """A mistake that only shows during the search; reported at the expression."""

    def __init__(self, pos: Pos, message: str, expected: str | None = None):
        super().__init__([Diagnostic(pos, message, expected)])


def negative_cost(pos: Pos, cost: int) -> EvalError:
    """A move's cost below 0 (found during the search; both engines say it so)."""
    return EvalError(pos, f"a move's cost must be 0 or more, not {cost}", "a cost of 0 or more")


def steps_table(directions: Sequence[Direction], cells: int) -> list[tuple[int, ...]]:
    """For each cell, the cells one step away along the directions."""
    return [tuple(c for d in directions if (c := d.next(cell)) is not None) for cell in range(cells)]


def one_group(cells: Collection[int], near: Sequence[tuple[int, ...]], within: Collection[int]) -> bool:
    """Whether the cells are joined by steps (`near`) onto cells of `within` (no cell, or one,
    is one group): `connected(...)`, and its test of a partial filling (`families.fill`)."""
    if len(cells) < 2:
        return True
    first = next(iter(cells))
    seen, frontier = {first}, [first]
    while frontier:
        for other in near[frontier.pop()]:
            if other in within and other not in seen:
                seen.add(other)
                frontier.append(other)
    return all(cell in seen for cell in cells)


def _div(pos: Pos) -> Callable[[int, int], int]:
    def div(a: int, b: int) -> int:
        if b == 0:
            raise EvalError(pos, "division by zero", "a divisor that is never 0")
        return a // b

    return div


def _mod(pos: Pos) -> Callable[[int, int], int]:
    def mod(a: int, b: int) -> int:
        if b == 0:
            raise EvalError(pos, "division by zero", "a divisor that is never 0")
        return a % b

    return mod


def _not_yet(state: Any) -> Sequence[object]:
    raise AssertionError("moves() read before the puzzle's moves were compiled")


class Evaluator:
    """Compiles expressions for one puzzle; the tables it builds are shared by them all."""

    def __init__(self, puzzle: Puzzle, layout: StateLayout):
        self.puzzle = puzzle
        self.layout = layout
        self.cells = layout.cells
        board = puzzle.board
        self.rows = [c.row or 0 for c in board.cells] if board is not None else []
        self.names = [c.name for c in board.cells] if board is not None else []
        self.cols = [c.col or 0 for c in board.cells] if board is not None else []
        parts = puzzle.parts
        self.base = [part.piece for part in parts]  # cell code -> piece code
        self.anchor_offset: list[tuple[int, int]] = []
        for part in parts:
            if part.piece and puzzle.pieces[part.piece - 1].shape is not None:
                self.anchor_offset.append(puzzle.pieces[part.piece - 1].shape[part.offset])  # type: ignore[index]
            else:
                self.anchor_offset.append((0, 0))
        self.value: list[int | None] = [None, *(p.value for p in puzzle.pieces)]
        # `moves()`: the puzzle's successor function, given once the puzzle is compiled (the
        # heuristic that reads it is compiled before the moves are)
        self.successors: list[Callable[[Any], Sequence[object]]] = [_not_yet]
        self._rays: dict[tuple[int, int], tuple[int, ...]] = {}

    # ---- pieces
    def code_of(self, state: Any, piece: int) -> int:
        """The piece code of a piece value (0 for NONE)."""
        if piece < 0:
            return 0
        if piece < self.cells:
            return self.base[int(state[piece])]
        return piece - self.cells

    def anchor(self, state: Any, cell: int) -> int:
        """The cell of a block's anchor, from any of its cells."""
        dr, dc = self.anchor_offset[state[cell]]
        if not dr and not dc:
            return cell
        board = self.puzzle.board
        assert board is not None
        return board.at(self.rows[cell] - dr, self.cols[cell] - dc) or cell

    def place_of(self, state: Any, piece: int) -> int:
        """The place a piece in the places is in (the first that holds one), or NONE."""
        if piece < self.cells:
            return NONE
        code = piece - self.cells
        for i in range(len(self.layout.places)):
            if self.layout.bag(state, i)[code - 1]:
                return i
        return NONE

    # ---- building closures
    def function(self, expr: m.Expr) -> Fn:
        """The Python closure that computes `expr` on a state: fixed code in this class, chosen
        by the expression's type; nothing from the spec is turned into Python source."""
        method = getattr(self, "_" + type(expr).__name__.lower())
        return method(expr)  # type: ignore[no-any-return]

    def _const(self, e: m.Const) -> Fn:
        value = e.value
        return lambda s, env: value

    def _listconst(self, e: m.ListConst) -> Fn:
        values = e.values
        return lambda s, env: values

    def _listsconst(self, e: m.ListsConst) -> Fn:
        values = e.values
        return lambda s, env: values

    def _index(self, e: m.Index) -> Fn:
        """`l[i]` with i known only once the rule is cut (a quantifier's variable): out of
        1..len(l), an error at the index."""
        obj, at, pos = self.function(e.obj), self.function(e.at), e.at.pos

        def item(s: Any, env: list[Any]) -> Any:
            values, i = obj(s, env), at(s, env)
            if not 1 <= i <= len(values):
                raise EvalError(pos, f"index {i} is outside 1..{len(values)}", f"1..{len(values)}")
            return values[i - 1]

        return item

    def _lineattr(self, e: m.LineAttr) -> Fn:
        """A line's row or column: its first cell's."""
        line, table = self.function(e.line), (self.rows if e.name == "row" else self.cols)
        return lambda s, env: table[line(s, env)[0]]

    def _runs(self, e: m.Runs) -> Fn:
        """The lengths of the runs of the line's cells holding one of the kind's pieces."""
        cells_of, codes, base = self.domain(e.domain), e.codes, self.base

        def runs(s: Any, env: list[Any]) -> tuple[int, ...]:
            found: list[int] = []
            length = 0
            for c in cells_of(s, env):
                if base[s[c]] in codes:
                    length += 1
                elif length:
                    found.append(length)
                    length = 0
            if length:
                found.append(length)
            return tuple(found)

        return runs

    def _product(self, e: m.Product) -> Fn:
        """The product of the values over the collection (1 over nothing), each value taken
        as often as the pieces it stands for."""
        weighted, slot, value = self.weighted(e.domain), e.slot, self.function(e.value)
        cond = self.function(e.condition) if e.condition is not None else None

        def product(s: Any, env: list[Any]) -> int:
            total = 1
            for v, weight in weighted(s, env):
                env[slot] = v
                if cond is None or cond(s, env):
                    total *= value(s, env) ** weight
            return total

        return product

    def _connected(self, e: m.Connected) -> Fn:
        """Whether the cells chosen form one group: a walk from one of them along the
        directions, stepping only on chosen cells, reaches them all."""
        weighted, slot, value = self.weighted(e.domain), e.slot, self.function(e.value)
        cond = self.function(e.condition) if e.condition is not None else None
        near = steps_table(e.directions, self.cells)

        def connected(s: Any, env: list[Any]) -> bool:
            chosen: set[int] = set()
            for v, _ in weighted(s, env):
                env[slot] = v
                if cond is None or cond(s, env):
                    cell = value(s, env)
                    if cell >= 0:
                        chosen.add(cell)
            return one_group(chosen, near, chosen)

        return connected

    def _local(self, e: m.Local) -> Fn:
        slot = e.slot
        return lambda s, env: env[slot]

    def _countervalue(self, e: m.CounterValue) -> Fn:
        read = self.layout.reader(e.counter)
        return lambda s, env: read(s)

    def _counterread(self, e: m.CounterRead) -> Fn:
        which = self.function(e.counter)
        readers = [self.layout.reader(i) for i in range(len(self.layout.counters))]
        return lambda s, env: readers[which(s, env)](s)

    def _cellconst(self, e: m.CellConst) -> Fn:
        cell = e.cell
        return lambda s, env: cell

    def _cellat(self, e: m.CellAt) -> Fn:
        board = self.puzzle.board
        assert board is not None
        args = [self.function(a) for a in e.args]
        pos = e.pos

        def cell(s: Any, env: list[Any]) -> int:
            values = [a(s, env) for a in args]
            found = board.at(1, values[0]) if len(values) == 1 else board.at(values[0], values[1])
            if found is None:
                shown = ", ".join(str(v) for v in values)
                raise EvalError(
                    pos, f"cell({shown}) is off the board (cells {board.names_range()})", board.names_range()
                )
            return found

        return cell

    def _placeconst(self, e: m.PlaceConst) -> Fn:
        place = e.place
        return lambda s, env: place

    def _here(self, e: m.Here) -> Fn:
        return lambda s, env: env[HERE]

    def _piececonst(self, e: m.PieceConst) -> Fn:
        code, cells, layout = e.code, self.cells, self.layout

        def piece(s: Any, env: list[Any]) -> int:
            at = s.find(code, 0, cells) if cells else -1
            if at >= 0:
                return at  # type: ignore[no-any-return]
            for i in range(len(layout.places)):
                if layout.bag(s, i)[code - 1]:
                    return cells + code
            return NONE

        return piece

    def _directionconst(self, e: m.DirectionConst) -> Fn:
        direction = e.direction
        return lambda s, env: direction

    def _counterconst(self, e: m.CounterConst) -> Fn:
        counter = e.counter
        return lambda s, env: counter

    def _content(self, e: m.Content) -> Fn:
        cell = self.function(e.cell)
        anchor = self.anchor
        blocks = any(off != (0, 0) for off in self.anchor_offset)

        def content(s: Any, env: list[Any]) -> int:
            c = cell(s, env)
            if c < 0 or not s[c]:
                return NONE
            return anchor(s, c) if blocks else c  # type: ignore[no-any-return]

        return content

    def _cellof(self, e: m.CellOf) -> Fn:
        piece = self.function(e.piece)
        cells = self.cells
        return lambda s, env: p if 0 <= (p := piece(s, env)) < cells else NONE

    def _valueof(self, e: m.ValueOf) -> Fn:
        piece = self.function(e.piece)
        value, code_of, pos = self.value, self.code_of, e.pos
        if isinstance(e.piece, m.Local):  # the commonest case, a move's piece: one step
            slot, cells, base = e.piece.slot, self.cells, self.base

            def local_number(s: Any, env: list[Any]) -> int:
                p = env[slot]
                found: int | None = value[p - cells] if p >= cells else (value[base[s[p]]] if p >= 0 else None)
                if found is None:
                    raise EvalError(
                        pos, "no number here: the cell is empty or its piece has no value", "a numbered piece"
                    )
                return found

            return local_number

        def number(s: Any, env: list[Any]) -> int:
            found = value[code_of(s, piece(s, env))]
            if found is None:
                raise EvalError(pos, "no number here: the cell is empty or its piece has no value", "a numbered piece")
            return found

        return number

    def _pieceattr(self, e: m.PieceAttr) -> Fn:
        piece, name, pos = self.function(e.piece), e.name, e.pos
        code_of = self.code_of
        if name in ("row", "col"):
            table = self.rows if name == "row" else self.cols
            anchor, cells = self.anchor, self.cells

            def position(s: Any, env: list[Any]) -> int:
                p = piece(s, env)
                if not 0 <= p < cells:
                    raise EvalError(pos, f"this piece is not on the board, so it has no {name}", "a piece on a cell")
                return table[anchor(s, p)]

            return position
        if name in ("width", "height", "value"):
            table_values: list[Any] = [None] + [
                getattr(p, name) if name != "value" else p.value for p in self.puzzle.pieces
            ]
        else:
            table_values = [None] + [p.attribute(name) for p in self.puzzle.pieces]

        def attribute(s: Any, env: list[Any]) -> Any:
            found = table_values[code_of(s, piece(s, env))]
            if found is None:
                raise EvalError(pos, f"this piece has no {name}", f"a piece with the attribute {name}")
            return found

        return attribute

    def _cellattr(self, e: m.CellAttr) -> Fn:
        cell = self.function(e.cell)
        tables: dict[str, Sequence[int | str]] = {"row": self.rows, "col": self.cols, "name": self.names}
        table = tables[e.name]
        pos = e.pos

        def position(s: Any, env: list[Any]) -> int | str:
            c = cell(s, env)
            if c < 0:
                raise EvalError(pos, "the cursor is off the board", "a cell")
            return table[c]

        return position

    def _counterbound(self, e: m.CounterBound) -> Fn:
        which = self.function(e.counter)
        bounds = [(c.low, c.high) for c in self.puzzle.counters]
        index = 0 if e.name == "min" else 1
        return lambda s, env: bounds[which(s, env)][index]

    def _unary(self, e: m.Unary) -> Fn:
        inner = self.function(e.operand)
        if e.op == "not":
            return lambda s, env: not inner(s, env)
        return lambda s, env: -inner(s, env)

    def _binary(self, e: m.Binary) -> Fn:
        left, right = self.function(e.left), self.function(e.right)
        op = e.op
        # both operands are conditions, whose functions return True or False
        if op == "and":
            return lambda s, env: left(s, env) and right(s, env)
        if op == "or":
            return lambda s, env: left(s, env) or right(s, env)
        fn: Callable[[Any, Any], Any] = {
            **ARITHMETIC,
            **COMPARISON,
            "/": _div(e.right.pos),
            "%": _mod(e.right.pos),
            "in": _member,
        }[op]
        if op == "==":
            return lambda s, env: left(s, env) == right(s, env)
        if op == "+":
            return lambda s, env: left(s, env) + right(s, env)
        return lambda s, env: fn(left(s, env), right(s, env))

    def _isempty(self, e: m.IsEmpty) -> Fn:
        inner = self.function(e.operand)
        kind = e.operand.type
        if isinstance(e.operand, m.Here):
            return lambda s, env: not any(env[HERE])
        if kind == m.CELL:
            if isinstance(e.operand, m.CounterValue):  # `cursor is empty`: read it in place
                slot = self.layout.counters[e.operand.counter]
                if slot.width == 1 and slot.cursor:
                    at = slot.offset
                    return lambda s, env: (c := s[at] - 1) >= 0 and not s[c]
            return lambda s, env: (c := inner(s, env)) >= 0 and not s[c]
        if kind == m.PIECE:
            return lambda s, env: inner(s, env) < 0
        layout = self.layout
        if isinstance(e.operand, m.PlaceConst):  # a named place: its bytes are known
            where = layout.places[e.operand.place]
            lo, hi = where.offset, where.offset + where.length
            return lambda s, env: not any(s[lo:hi])

        def empty_place(s: Any, env: list[Any]) -> bool:
            slot = layout.places[inner(s, env)]
            return not any(s[slot.offset : slot.offset + slot.length])

        return empty_place

    def _iskind(self, e: m.IsKind) -> Fn:
        piece = self.function(e.piece)
        codes, code_of = e.codes, self.code_of
        return lambda s, env: code_of(s, piece(s, env)) in codes

    def _isat(self, e: m.IsAt) -> Fn:
        piece = self.function(e.piece)
        cells, layout = self.cells, self.layout
        if e.place is None:

            def here(s: Any, env: list[Any]) -> bool:
                p = piece(s, env)
                return bool(p >= cells and env[HERE][p - cells - 1] > 0)

            return here
        place = self.function(e.place)

        def at(s: Any, env: list[Any]) -> bool:
            p = piece(s, env)
            return bool(p >= cells and layout.bag(s, place(s, env))[p - cells - 1] > 0)

        return at

    def _call(self, e: m.Call) -> Fn:
        name = e.name
        args = [self.function(a) for a in e.args]
        if name == "abs":
            (a,) = args
            return lambda s, env: abs(a(s, env))
        if name in ("min", "max"):
            pick = min if name == "min" else max
            return lambda s, env: pick(x(s, env) for x in args)
        if name == "first":
            origin, direction = args
            anchor, ray = self.anchor, self.ray
            blocks = any(off != (0, 0) for off in self.anchor_offset)

            def first(s: Any, env: list[Any]) -> int:
                for c in ray(origin(s, env), direction(s, env)):
                    if s[c]:
                        return anchor(s, c) if blocks else c  # type: ignore[no-any-return]
                return NONE

            return first
        if name == "next":
            origin, direction = args

            def following(s: Any, env: list[Any]) -> int:
                c = origin(s, env)
                if c < 0:
                    return NONE
                found = direction(s, env).next(c)
                return found if found is not None else NONE  # type: ignore[no-any-return]

            return following
        if name == "holding":
            return self._holding(e)
        if name == "adjacent":
            a, b = args[:2]
            directions = [x.direction for x in e.args[2:] if isinstance(x, m.DirectionConst)]
            near = [frozenset(c for x in directions if (c := x.next(cell)) is not None) for cell in range(self.cells)]
            return lambda s, env: (x := a(s, env)) >= 0 and b(s, env) in near[x]
        if name == "top":
            (place,) = args
            layout, cells = self.layout, self.cells

            def top(s: Any, env: list[Any]) -> int:
                contents = layout.stack(s, place(s, env))
                return cells + contents[-1] if contents else NONE

            return top
        if name == "together":
            place_of = self.place_of
            return lambda s, env: len({place_of(s, p(s, env)) for p in args}) == 1
        if name == "moves":
            successors = self.successors
            return lambda s, env: len(successors[0](s))
        if name == "parts":  # a cost of several parts (`cost 1, 1`), compared in order
            return lambda s, env: LexCost(part(s, env) for part in args)
        if name == "patterns":
            return self._patterns(e)
        if name == "pieces":
            made = self.puzzle.alone
            assert made is not None, "a heuristic reads one-piece tables only where they were derived"
            if made.parts > 1:  # a cost of several parts: each part's estimate, compared in order
                return lambda s, env: LexCost(made.each_part(s))
            return lambda s, env: made.estimate(s)
        return self._measure(e)

    def _patterns(self, e: m.Call) -> Fn:
        """The estimate of the pattern databases derived from the spec (`model.patterns`:
        each table read at the rank of its pieces' placement, in the state and in its images
        through the puzzle's symmetries, the largest kept). The spec's own `patterns(...)` has
        its tables only once a search has built them (`plan.heuristic`): read before, it says so."""
        made = self.puzzle.patterns
        if made is None:

            def unbuilt(s: Any, env: list[Any]) -> int:
                raise EvalError(e.pos, "patterns() is read before its tables were built", "a search (puzint run)")

            return unbuilt
        cells, additive = self.cells, made.additive
        tables = [(t.codes, t.weights, t.distances) for t in made.tables]
        views = [(tuple(range(cells)), tuple(range(256)))] + [(s.reads, s.codes) for s in made.symmetries]

        def estimate(s: Any, env: list[Any]) -> int:
            best = 0
            for reads, renamed in views:
                where = [0] * 256
                for c in range(cells):
                    where[renamed[s[reads[c]]]] = c
                values = []
                for codes, weights, distances in tables:
                    rank = 0
                    placed: list[int] = []
                    for i, code in enumerate(codes):
                        cell = where[code]
                        rank += (cell - sum(1 for p in placed if p < cell)) * weights[i]
                        placed.append(cell)
                    values.append(distances[rank])
                if UNREACHED in values:
                    return DEAD
                best = max(best, sum(values) if additive else max(values))
            return best

        return estimate

    # ---- measures of the distance to the goal (heuristics)
    def _goal_places(self, e: m.Call) -> dict[int, int]:
        goal = self.puzzle.goal.cells
        if goal is None or ANY in goal:
            raise EvalError(
                e.pos, f"{e.name}() measures the distance to a goal that fixes every cell", "goal LAYOUT without ?"
            )
        where: dict[int, int] = {}
        for cell, code in enumerate(goal):
            if code != EMPTY:
                if code in where:
                    raise EvalError(
                        e.pos, f"{e.name}() needs every piece to appear once in the goal", "distinct pieces"
                    )
                where[code] = cell
        return where

    def _measure(self, e: m.Call) -> Fn:
        if e.name == "misplaced":
            goal = self.puzzle.goal.cells
            if goal is None:
                raise EvalError(e.pos, "misplaced() counts the goal's cells, and this goal has none", "goal LAYOUT")
            wanted = [(cell, code) for cell, code in enumerate(goal) if code not in (EMPTY, ANY)]
            return lambda s, env: sum(1 for cell, code in wanted if s[cell] != code)
        where = self._goal_places(e)
        if e.name == "inversions":
            rank = [where.get(code, -1) for code in range(256)]
            cells = self.cells

            def inversions(s: Any, env: list[Any]) -> int:
                seen: list[int] = []
                count = 0
                for i in range(cells):
                    code = s[i]
                    if code:
                        r = rank[code]
                        count += len(seen) - bisect_left(seen, r)
                        insort(seen, r)
                return count

            return inversions
        if not self.puzzle.board or not self.puzzle.board.has_frame:
            raise EvalError(
                e.pos, "displacement() measures steps on a line, ring or grid", "inversions() or misplaced()"
            )
        far = [[0] * self.cells for _ in range(256)]
        for code, goal_cell in where.items():
            for cell in range(self.cells):
                far[code][cell] = abs(self.rows[cell] - self.rows[goal_cell]) + abs(
                    self.cols[cell] - self.cols[goal_cell]
                )
        cells = self.cells
        return lambda s, env: sum(far[s[i]][i] for i in range(cells) if s[i])

    # ---- quantifiers and aggregates
    def _quantified(self, e: m.Quantified) -> Fn:
        values = self.domain(e.domain)
        body, slot = self.function(e.body), e.slot
        if e.quantifier == "some":

            def some(s: Any, env: list[Any]) -> bool:
                for v in values(s, env):
                    env[slot] = v
                    if body(s, env):
                        return True
                return False

            return some
        if e.quantifier == "no":

            def none_of(s: Any, env: list[Any]) -> bool:
                for v in values(s, env):
                    env[slot] = v
                    if body(s, env):
                        return False
                return True

            return none_of

        def all_of(s: Any, env: list[Any]) -> bool:
            for v in values(s, env):
                env[slot] = v
                if not body(s, env):
                    return False
            return True

        return all_of

    def _aggregate(self, e: m.Aggregate) -> Fn:
        weighted = self.weighted(e.domain)
        slot = e.slot
        value = self.function(e.value) if e.value is not None else None
        cond = self.function(e.condition) if e.condition is not None else None
        function, pos = e.function, e.pos

        def items(s: Any, env: list[Any]) -> Iterator[tuple[Any, int]]:
            for v, weight in weighted(s, env):
                env[slot] = v
                if cond is None or cond(s, env):
                    yield v, weight

        if function == "count":
            return lambda s, env: sum(w for _, w in items(s, env))
        assert value is not None
        if function == "sum":
            return lambda s, env: sum(value(s, env) * w for _, w in items(s, env))
        pick = min if function == "min" else max

        def extreme(s: Any, env: list[Any]) -> int:
            found = [value(s, env) for _ in items(s, env)]
            if not found:
                raise EvalError(
                    pos, f"{function}() over nothing: the collection is empty here", "a collection that is never empty"
                )
            return int(pick(found))

        return extreme

    def _alldifferent(self, e: m.AllDifferent) -> Fn:
        """The pieces on the cells (empty cells left out: on a filling not yet complete, the
        cells still open), or the numbers, pairwise different."""
        if e.domain is not None:
            cells_of = self.domain(e.domain)
            base = self.base

            def different_pieces(s: Any, env: list[Any]) -> bool:
                seen: set[int] = set()
                for c in cells_of(s, env):
                    code = s[c]
                    if code:
                        piece = base[code]
                        if piece in seen:
                            return False
                        seen.add(piece)
                return True

            return different_pieces
        items = [self.function(x) for x in e.items]

        def different_numbers(s: Any, env: list[Any]) -> bool:
            values = [item(s, env) for item in items]
            return len(set(values)) == len(values)

        return different_numbers

    # ---- collections
    def domain(self, d: m.Domain) -> Iter:
        """The values of a collection (for quantifiers: how many pieces each stands for does
        not matter)."""
        if isinstance(d, m.KindDomain) and d.where is None and not self.layout.places:
            codes, cells = tuple(sorted(d.codes)), self.cells

            def on_cells(s: Any, env: list[Any]) -> Iterator[int]:
                for c in codes:
                    i = s.find(c, 0, cells)
                    while i >= 0:
                        yield i
                        i = s.find(c, i + 1, cells)

            return on_cells
        if isinstance(d, m.DirectionsDomain):
            directions = d.directions
            return lambda s, env: directions
        if isinstance(d, m.LinesDomain):
            lines = d.lines
            return lambda s, env: lines
        weighted = self.weighted(d)
        return lambda s, env: (v for v, _ in weighted(s, env))

    def weighted(self, d: m.Domain) -> Weighted:
        """Values of a collection, each with how many pieces it stands for."""
        if isinstance(d, m.KindDomain):
            return self._kind_domain(d)
        if isinstance(d, m.CellsDomain):
            if d.line is not None:
                line = self.function(d.line)
                return lambda s, env: ((c, 1) for c in line(s, env))
            cells = d.cells if d.cells is not None else tuple(range(self.cells))
            pairs = tuple((c, 1) for c in cells)
            return lambda s, env: pairs
        if isinstance(d, m.RayDomain):
            origin, direction = self.function(d.origin), self.function(d.direction)
            return lambda s, env: ((c, 1) for c in self.ray(origin(s, env), direction(s, env)))
        if isinstance(d, m.NeighboursDomain):
            return self._neighbours(d)
        if isinstance(d, m.LinesDomain):
            lines = tuple((line, 1) for line in d.lines)
            return lambda s, env: lines
        if isinstance(d, m.PlacesDomain):
            places = tuple((p, 1) for p in d.places)
            return lambda s, env: places
        if isinstance(d, m.DirectionsDomain):
            directions = tuple((x, 1) for x in d.directions)
            return lambda s, env: directions
        if isinstance(d, m.NumbersDomain):
            numbers = self.function(d.values)
            return lambda s, env: ((v, 1) for v in numbers(s, env))
        if isinstance(d, m.FilteredDomain):
            inner = self.weighted(d.inner)
            codes, code_of = d.codes, self.code_of
            if d.inner.type == m.CELL:
                return lambda s, env: ((c, w) for c, w in inner(s, env) if c >= 0 and self.base[s[c]] in codes)
            return lambda s, env: ((p, w) for p, w in inner(s, env) if code_of(s, p) in codes)
        assert isinstance(d, m.UnionDomain)
        parts = [self.weighted(p) for p in d.parts]
        return lambda s, env: chain.from_iterable(part(s, env) for part in parts)

    def _neighbours(self, d: m.NeighboursDomain) -> Weighted:
        """The cells one step from the origin along each direction, on the board (none from
        a piece off the board)."""
        origin, directions = self.function(d.origin), d.directions
        steps = [
            tuple((c, 1) for c in dict.fromkeys(x.next(cell) for x in directions) if c is not None)
            for cell in range(self.cells)
        ]
        return lambda s, env: steps[o] if (o := origin(s, env)) >= 0 else ()

    def _holding(self, e: m.Call) -> Fn:
        """The first cell in reading order whose piece is numbered v (NONE: no cell holds v)."""
        (number,) = (self.function(a) for a in e.args)
        value, base, cells = self.value, self.base, self.cells

        def holding(s: Any, env: list[Any]) -> int:
            wanted = number(s, env)
            for c in range(cells):
                if s[c] and value[base[s[c]]] == wanted:
                    return c
            return NONE

        return holding

    def _kind_domain(self, d: m.KindDomain) -> Weighted:
        codes = tuple(sorted(d.codes))
        cells, layout = self.cells, self.layout
        if d.where in ("here", "load"):
            slot = HERE if d.where == "here" else LOAD
            return lambda s, env: ((cells + c, n) for c in codes if (n := env[slot][c - 1]))
        if d.where is not None:
            place = self.function(d.where)  # type: ignore[arg-type]

            def in_place(s: Any, env: list[Any]) -> Iterator[tuple[int, int]]:
                bag = layout.bag(s, place(s, env))
                return ((cells + c, n) for c in codes if (n := bag[c - 1]))

            return in_place
        nplaces = len(layout.places)

        def everywhere(s: Any, env: list[Any]) -> Iterator[tuple[int, int]]:
            for c in codes:
                i = s.find(c, 0, cells) if cells else -1
                while i >= 0:
                    yield i, 1
                    i = s.find(c, i + 1, cells)
            for p in range(nplaces):
                bag = layout.bag(s, p)
                for c in codes:
                    if bag[c - 1]:
                        yield cells + c, bag[c - 1]

        return everywhere

    def ray(self, cell: int, direction: Direction) -> tuple[int, ...]:
        if cell < 0:
            return ()
        key = (cell, id(direction))
        found = self._rays.get(key)
        if found is None:
            found = self._rays[key] = direction.ray(cell)
        return found


def condition_fn(evaluator: Evaluator, expr: m.Expr | None) -> Fn | None:
    return evaluator.function(expr) if expr is not None else None


def _member(item: Any, collection: Any) -> bool:
    return item in collection
