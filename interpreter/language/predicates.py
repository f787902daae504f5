"""Syntax expressions -> typed model expressions (`model.expr`), for every predicate of a
spec: safety rules, goal conditions, move guards, effects, costs and heuristics.

Every name is resolved here, once, in a fixed order (a variable, a parameter, a counter, a
piece, a place, a cell, a direction), every value gets a type, and the small conversions
people expect are made explicit (a numbered piece stands for its number, a cell for the
piece on it). Parts that only depend on parameters are computed now. A mistake raises a
SpecError at its position.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from ..errors import Diagnostic, Pos, SpecError, suggest
from ..model import expr as m
from ..model.board import Board, Direction
from ..model.puzzle import CARRIER, CURSOR, PROGRESS, Counter, PieceType, Place
from . import syntax as s
from .expressions import FUNCTIONS as PARAM_FUNCTIONS
from .expressions import Value, evaluate, members, type_name

TEXT_ATTRIBUTES = ("symbol", "kind")  # every piece's: what two cells hold is compared by them
LINE_FAMILIES = ("rows", "columns", "diagonals", "main_diagonals", "lines", "boxes", "regions")
STATE_FUNCTIONS = (
    "abs",
    "min",
    "max",
    "first",
    "next",
    "top",
    "cell",
    "together",
    "inversions",
    "displacement",
    "misplaced",
    "moves",
    "patterns",
    "holding",
    "adjacent",
)
MEASURES = ("inversions", "displacement", "misplaced")
POSITION_ATTRIBUTES = ("row", "col")
BLOCK_ATTRIBUTES = ("width", "height")
CELL_NAME = re.compile(r"r[0-9]+c[0-9]+")  # how a grid names its cells: a name of that form is no other thing


def fail(pos: Pos, message: str, expected: str | None = None, missing: str | None = None) -> SpecError:
    return SpecError([Diagnostic(pos, message, expected, missing=missing)])


@dataclass
class Names:
    """Everything a predicate may name, as elaboration found it."""

    params: dict[str, Value]
    board: Board | None
    pieces: tuple[PieceType, ...]
    kinds: dict[str, frozenset[int]]  # kind words (kind, symbol, group symbol) -> piece codes
    unique: dict[str, int]  # names of single pieces (`farmer`, `H1`) -> code
    places: tuple[Place, ...]
    counters: tuple[Counter, ...]
    attributes: dict[str, str]  # declared attribute -> m.NUM or m.TEXT

    def place(self, name: str) -> int | None:
        return next((i for i, p in enumerate(self.places) if p.name == name), None)

    def counter(self, name: str) -> int | None:
        return next((i for i, c in enumerate(self.counters) if c.name == name), None)


@dataclass
class Scope:
    """Where an expression is written: what it may name and which variables are bound."""

    names: Names
    what: str  # "a safety rule", "a move's condition", ... for messages
    here: bool = False  # `here` is the place (or load) being checked
    load: bool = False  # `load` is a carry move's load
    locals: dict[str, m.Local] = field(default_factory=dict)
    # slots 0 and 1 of every environment hold the place being checked (`here`) and a carry
    # move's load; variables come after them
    slots: list[int] = field(default_factory=lambda: [2])

    def bind(self, name: str, type_: str, pos: Pos) -> tuple[Scope, m.Local]:
        """A new scope with one more variable (a fresh slot)."""
        local = m.Local(pos, name, self.slots[0], type_)
        self.slots[0] += 1
        inner = Scope(self.names, self.what, self.here, self.load, dict(self.locals), self.slots)
        inner.locals[name] = local
        return inner, local

    def declare(self, name: str, type_: str, pos: Pos) -> m.Local:
        """Bind a variable in this scope itself (a move's variable, a `let`)."""
        local = m.Local(pos, name, self.slots[0], type_)
        self.slots[0] += 1
        self.locals[name] = local
        return local

    @property
    def size(self) -> int:
        return self.slots[0]


def condition(expr: s.Expr, scope: Scope) -> m.Expr:
    """A truth value (a rule, a goal, a guard)."""
    typed = typed_expr(expr, scope)
    if typed.type != m.BOOL:
        raise fail(expr.pos, f"expected a condition here, got {typed.type}", "a condition")
    return typed


def number(expr: s.Expr, scope: Scope) -> m.Expr:
    """A number (a cost, a heuristic, a counter's new value)."""
    return as_number(typed_expr(expr, scope), expr.pos, scope.names)


# ---- conversions


def _numbered(names: Names) -> bool:
    return any(p.value is not None for p in names.pieces)


def as_number(e: m.Expr, pos: Pos, names: Names | None = None) -> m.Expr:
    """A number; a piece (or a cell holding one) stands for its number when the puzzle has
    numbered pieces."""
    if e.type == m.NUM:
        return e
    if e.type in (m.PIECE, m.CELL) and names is not None and not _numbered(names):
        raise fail(pos, f"expected a number here, got {e.type}", "a number (only numbered pieces stand for numbers)")
    if e.type == m.PIECE:
        return m.ValueOf(pos, e)
    if e.type == m.CELL:
        return m.ValueOf(pos, m.Content(pos, e))
    if e.type == m.COUNTER:
        return m.CounterRead(pos, e)
    raise fail(pos, f"expected a number here, got {e.type}", "a number")


def as_piece(e: m.Expr, pos: Pos) -> m.Expr:
    if e.type == m.PIECE:
        return e
    if e.type == m.CELL:
        return m.Content(pos, e)
    raise fail(pos, f"expected a piece here, got {e.type}", "a piece (or a cell)")


def as_cell(e: m.Expr, pos: Pos) -> m.Expr:
    """A cell, or a piece standing on one (its cell)."""
    if e.type in (m.CELL, m.PIECE):
        return e if e.type == m.CELL else m.CellOf(pos, e)
    raise fail(pos, f"expected a cell or a piece on the board here, got {e.type}", "a cell")


def _const(pos: Pos, value: Value) -> m.Expr:
    if isinstance(value, bool):
        return m.Const(pos, value, m.BOOL)
    if isinstance(value, int):
        return m.Const(pos, value, m.NUM)
    if isinstance(value, str):
        return m.Const(pos, value, m.TEXT)
    members(pos, value, "this list")
    if value and isinstance(value[0], tuple):
        return m.ListsConst(pos, tuple(tuple(int(v) for v in inner) for inner in value))  # type: ignore[union-attr]
    return m.ListConst(pos, tuple(int(v) for v in value))  # type: ignore[arg-type]


def _is_const(e: m.Expr) -> bool:
    return isinstance(e, (m.Const, m.ListConst))


# ---- the typer


def typed_expr(expr: s.Expr, scope: Scope) -> m.Expr:
    handler = _HANDLERS.get(type(expr))
    if handler is None:
        raise fail(expr.pos, f"this cannot be used in {scope.what}")
    return handler(expr, scope)


def _num(expr: s.Num, scope: Scope) -> m.Expr:
    return m.Const(expr.pos, expr.value, m.NUM)


def _str(expr: s.Str, scope: Scope) -> m.Expr:
    return m.Const(expr.pos, expr.value, m.TEXT)


def _bool(expr: s.Bool, scope: Scope) -> m.Expr:
    return m.Const(expr.pos, expr.value, m.BOOL)


def _list(expr: s.ListExpr, scope: Scope) -> m.Expr:
    """A list of numbers, or a list of lists of numbers, known before the search."""
    typed = [typed_expr(syntax, scope) for syntax in expr.items]
    if any(isinstance(item, m.ListConst) for item in typed):
        lists = []
        for item, syntax in zip(typed, expr.items, strict=True):
            if not isinstance(item, m.ListConst):
                raise fail(syntax.pos, "a list of lists holds lists of numbers known before the search", "[1, 2]")
            lists.append(item.values)
        return m.ListsConst(expr.pos, tuple(lists))
    values = []
    for item, syntax in zip(typed, expr.items, strict=True):
        if not (isinstance(item, m.Const) and item.type == m.NUM):
            raise fail(syntax.pos, "a list holds numbers known before the search", "a number")
        values.append(int(item.value))
    return m.ListConst(expr.pos, tuple(values))


def _var(expr: s.VarRef, scope: Scope) -> m.Expr:
    local = scope.locals.get("?" + expr.name)
    if local is None:
        bound = sorted(k for k in scope.locals if k.startswith("?"))
        expected = "one of: " + ", ".join(bound) if bound else "no variable: this has none bound"
        raise fail(expr.pos, f"?{expr.name} is not bound here", expected)
    return m.Local(expr.pos, local.name, local.slot, local.type)


def _name(expr: s.Name, scope: Scope) -> m.Expr:
    names, name = scope.names, expr.name
    if name in scope.locals:
        local = scope.locals[name]
        return m.Local(expr.pos, local.name, local.slot, local.type)
    if name in names.params:
        return _const(expr.pos, names.params[name])
    counter = names.counter(name)
    if counter is not None:
        role = names.counters[counter].role
        kind = m.CELL if role == CURSOR else m.PLACE if role == CARRIER else m.NUM
        return m.CounterValue(expr.pos, counter, kind)
    if name in names.unique:
        return m.PieceConst(expr.pos, names.unique[name])
    place = names.place(name)
    if place is not None:
        return m.PlaceConst(expr.pos, place)
    if name == "here":
        if not scope.here:
            raise fail(
                expr.pos,
                f"'here' is the place a `safe in places` rule checks; {scope.what} has none",
                "safe in places: ... (or at PLACE)",
            )
        return m.Here(expr.pos)
    board = names.board
    if board is not None:
        cell = board.by_name(name)
        if cell is not None:
            return m.CellConst(expr.pos, cell)
        single = board.directions.get(name)
        if single is not None and len(single) == 1:
            return m.DirectionConst(expr.pos, single[0])
    if name in names.kinds:
        raise fail(
            expr.pos,
            f"'{name}' is a kind of piece, not one piece",
            f"count({name}), some {name} is here, every {name} x: ... or a piece's name",
        )
    known = _known_names(scope)
    if board is not None and board.has_frame and CELL_NAME.fullmatch(name):
        raise fail(expr.pos, f"the board has no cell '{name}'", f"a cell of the board, {board.names_range()}")
    kinds = ["a variable", "a parameter", "a counter", "a piece", "a place"] + (["a cell"] if board is not None else [])
    what = ", ".join(kinds[:-1]) + " or " + kinds[-1]
    expected = what + (": " + ", ".join(known) if known else "")
    raise fail(expr.pos, f"unknown name '{name}'{suggest(name, known)}", expected)


def meaning(name: str, names: Names) -> str | None:
    """What a name already stands for in expressions (None: nothing), so that a `let` cannot
    hide it and a `set` can say what it is when it is not a counter."""
    counter = names.counter(name)
    board = names.board
    if name in names.params:
        return "a parameter"
    if counter is not None:
        return {CURSOR: "the cursor", CARRIER: "the carrier"}.get(names.counters[counter].role, "a counter")
    if name in names.unique:
        return "a piece"
    if names.place(name) is not None:
        return "a place"
    if board is not None and board.by_name(name) is not None:
        return "a cell"
    if board is not None and name in board.directions:
        return "a direction"
    if name in names.kinds:
        return "a kind of piece"
    return None


def _known_names(scope: Scope) -> list[str]:
    names = scope.names
    known = [k for k in scope.locals if not k.startswith("?")]
    known += list(names.params) + [c.name for c in names.counters if c.role != PROGRESS] + sorted(names.unique)
    return known + [p.name for p in names.places]


def _unary(expr: s.Unary, scope: Scope) -> m.Expr:
    inner = typed_expr(expr.operand, scope)
    if expr.op == "not":
        if inner.type != m.BOOL:
            raise fail(expr.operand.pos, f"expected a condition here, got {inner.type}", "a condition")
        if isinstance(inner, m.Const):
            return m.Const(expr.pos, not inner.value, m.BOOL)
        return m.Unary(expr.pos, "not", inner, m.BOOL)
    inner = as_number(inner, expr.operand.pos, scope.names)
    if isinstance(inner, m.Const):
        return m.Const(expr.pos, -int(inner.value), m.NUM)
    return m.Unary(expr.pos, "-", inner, m.NUM)


ARITHMETIC = ("+", "-", "*", "/", "%")
ORDER = ("<", "<=", ">", ">=")


def _binary(expr: s.Binary, scope: Scope) -> m.Expr:
    op = expr.op
    if op in ("and", "or"):
        return _logic(expr, scope)
    left = typed_expr(expr.left, scope)
    if op == "in":
        return _membership(expr, left, scope)
    right = typed_expr(expr.right, scope)
    if op in ("==", "!="):
        left, right = _comparable(expr, left, right, scope.names)
        result: m.Expr = m.Binary(expr.pos, op, left, right, m.BOOL)
    else:
        if left.type == m.TEXT and right.type == m.TEXT and op == "+":
            result = m.Binary(expr.pos, op, left, right, m.TEXT)
        else:
            left = as_number(left, expr.left.pos, scope.names)
            right = as_number(right, expr.right.pos, scope.names)
            result = m.Binary(expr.pos, op, left, right, m.BOOL if op in ORDER else m.NUM)
    return _fold(result)


def _comparable(expr: s.Binary, left: m.Expr, right: m.Expr, names: Names) -> tuple[m.Expr, m.Expr]:
    """Both sides of == / != as the same type: a piece or a cell compared with a number is
    its number (when the puzzle has numbered pieces)."""
    if isinstance(left, m.CellConst) and isinstance(right, m.CellConst):
        raise fail(
            expr.pos,
            "this compares two cells' places, not what they hold (two cells named are never one)",
            "what the cells hold: `a.symbol == b.symbol` (or `a.value == b.value` for numbers)",
        )
    if left.type == right.type:
        return left, right
    numeric = (m.NUM, m.COUNTER) + ((m.PIECE, m.CELL) if _numbered(names) else ())
    if left.type in numeric and right.type in numeric and m.NUM in (left.type, right.type):
        return as_number(left, expr.left.pos), as_number(right, expr.right.pos)
    if {left.type, right.type} == {m.PIECE, m.CELL}:
        return as_piece(left, expr.left.pos), as_piece(right, expr.right.pos)
    raise fail(expr.pos, f"cannot compare {left.type} with {right.type}", f"{left.type} on both sides")


def _membership(expr: s.Binary, left: m.Expr, scope: Scope) -> m.Expr:
    left = as_number(left, expr.left.pos, scope.names)
    if isinstance(expr.right, s.Range):
        low = number(expr.right.low, scope)
        high = number(expr.right.high, scope)
        result: m.Expr = m.Binary(
            expr.pos,
            "and",
            m.Binary(expr.pos, "<=", low, left, m.BOOL),
            m.Binary(expr.pos, "<=", left, high, m.BOOL),
            m.BOOL,
        )
        return _fold(result)
    right = typed_expr(expr.right, scope)
    if right.type != m.LIST:
        raise fail(expr.right.pos, f"'in' needs a range or a list on its right, got {right.type}", "a range or a list")
    return _fold(m.Binary(expr.pos, "in", left, right, m.BOOL))


def _logic(expr: s.Binary, scope: Scope) -> m.Expr:
    left = typed_expr(expr.left, scope)
    right = typed_expr(expr.right, scope)
    for side, syntax in ((left, expr.left), (right, expr.right)):
        if side.type != m.BOOL:
            raise fail(syntax.pos, f"expected a condition here, got {side.type}", "a condition")
    # A side the parameters decide is decided now: `first == 0 or ...` costs nothing later.
    short = expr.op == "or"
    for side, other in ((left, right), (right, left)):
        if isinstance(side, m.Const):
            return m.Const(expr.pos, short, m.BOOL) if side.value == short else other
    return m.Binary(expr.pos, expr.op, left, right, m.BOOL)


def _fold(e: m.Expr) -> m.Expr:
    """A node whose operands are all known is computed now (with positioned errors)."""
    if isinstance(e, m.Binary) and _is_const(e.left) and _is_const(e.right):
        a = e.left.value if isinstance(e.left, m.Const) else e.left.values  # type: ignore[union-attr]
        b = e.right.value if isinstance(e.right, m.Const) else e.right.values  # type: ignore[union-attr]
        if e.op in ("/", "%") and b == 0:
            raise fail(e.right.pos, "division by zero")
        value = BINARY_OPS[e.op](a, b)
        assert isinstance(value, (int, str, bool))
        return m.Const(e.pos, value, e.type)
    return e


BINARY_OPS: dict[str, Callable[[object, object], object]] = {
    "+": lambda a, b: a + b,  # type: ignore[operator]
    "-": lambda a, b: a - b,  # type: ignore[operator]
    "*": lambda a, b: a * b,  # type: ignore[operator]
    "/": lambda a, b: a // b,  # type: ignore[operator]
    "%": lambda a, b: a % b,  # type: ignore[operator]
    "<": lambda a, b: a < b,  # type: ignore[operator]
    "<=": lambda a, b: a <= b,  # type: ignore[operator]
    ">": lambda a, b: a > b,  # type: ignore[operator]
    ">=": lambda a, b: a >= b,  # type: ignore[operator]
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "in": lambda a, b: a in b,  # type: ignore[operator]
}


def _range(expr: s.Range, scope: Scope) -> m.Expr:
    low, high = number(expr.low, scope), number(expr.high, scope)
    if not (isinstance(low, m.Const) and isinstance(high, m.Const)):
        bound = next((v for end in (low, high) for v in _locals(end)), None)
        if bound is not None and not m.reads_state(low) and not m.reads_state(high):
            raise fail(
                expr.pos,
                f"a range's ends must be numbers and parameters, and this one depends on '{bound.name}'"
                " (a range is made once, not once for each value of a variable)",
                "numbers and parameters: range over the widest span and test the end in the condition "
                "(every x in 1..WIDEST: x > END or ...)",
            )
        raise fail(expr.pos, "a range's ends must be known before the search", "numbers and parameters")
    span = range(int(low.value), int(high.value) + 1)
    members(expr.pos, span, "this range")
    return m.ListConst(expr.pos, tuple(span))


def _locals(expr: m.Expr) -> list[m.Local]:
    """The variables an expression reads (a quantifier's, a move's), outermost first."""
    if isinstance(expr, m.Local):
        return [expr]
    return [v for child in m.children(expr) for v in _locals(child)]


def _index(expr: s.Index, scope: Scope) -> m.Expr:
    """`l[i]`, from 1: a number of a list, a list of a list of lists. The index is known
    before the search: a number, or made of quantifiers' variables over fixed collections
    (`clues[l.row]` for each row l), which the rule's pieces fix one by one."""
    obj = typed_expr(expr.obj, scope)
    if not isinstance(obj, (m.ListConst, m.ListsConst, m.Index)) or obj.type not in (m.LIST, m.LISTS):
        raise fail(expr.obj.pos, f"only a list can be indexed, not {obj.type}", "a list")
    i = number(expr.at, scope)
    kind = m.NUM if obj.type == m.LIST else m.LIST
    if isinstance(obj, m.Index) or not isinstance(i, m.Const):
        if m.reads_state(i):
            raise fail(
                expr.at.pos,
                "a list's index must be known before the search: a number, or a quantifier's variable "
                "over a fixed collection",
                "a number, `i` of `every i in 1..n`, `l.row` of `every l in rows`",
            )
        return m.Index(expr.pos, obj, i, kind)
    if not 1 <= int(i.value) <= len(obj.values):
        raise fail(expr.at.pos, f"index {i.value} is outside 1..{len(obj.values)}", f"1..{len(obj.values)}")
    found = obj.values[int(i.value) - 1]
    return m.Const(expr.pos, found, m.NUM) if isinstance(found, int) else m.ListConst(expr.pos, found)


# ---- attributes and tests


def _attr(expr: s.Attr, scope: Scope) -> m.Expr:
    obj = typed_expr(expr.obj, scope)
    name = expr.name
    if isinstance(obj, m.CounterValue) and obj.type == m.NUM and name in ("min", "max"):
        obj = m.CounterConst(obj.pos, obj.counter)  # a named counter's range: `S.max`
    if obj.type == m.LINE:
        if name not in POSITION_ATTRIBUTES:
            raise fail(expr.name_pos, f"a line has a row and a col (its first cell's), not '{name}'", "row or col")
        _needs_frame(scope, expr.name_pos)
        return m.LineAttr(expr.pos, obj, name)
    if obj.type == m.COUNTER:
        if name not in ("min", "max"):
            raise fail(expr.name_pos, f"a counter has min and max, not '{name}'", "min or max")
        return m.CounterBound(expr.pos, obj, name)
    if obj.type == m.CELL:
        if name in POSITION_ATTRIBUTES:
            _needs_frame(scope, expr.name_pos)
            return m.CellAttr(expr.pos, obj, name)
        if name == "name":
            if name in scope.names.attributes:
                raise fail(
                    expr.name_pos,
                    "`name` is a cell's name, and the pieces have an attribute `name` too: which is meant is unclear",
                    "the pieces' attribute under another name",
                )
            return m.CellAttr(expr.pos, obj, name, m.TEXT)
        obj = m.Content(expr.obj.pos, obj)
    if obj.type != m.PIECE:
        raise fail(expr.obj.pos, f"only pieces, cells and counters have attributes, this is {obj.type}", "a piece")
    return _piece_attr(expr, obj, scope)


def _piece_attr(expr: s.Attr, piece: m.Expr, scope: Scope) -> m.Expr:
    names, name = scope.names, expr.name
    if name in POSITION_ATTRIBUTES:
        _needs_frame(scope, expr.name_pos)
        return m.PieceAttr(expr.pos, piece, name, m.NUM)
    if name in BLOCK_ATTRIBUTES:
        return m.PieceAttr(expr.pos, piece, name, m.NUM)
    if name == "value":
        if not _numbered(names):
            raise fail(expr.name_pos, "no piece has a value: numbered pieces come from `pieces 1..n`", "pieces 1..n")
        return m.PieceAttr(expr.pos, piece, name, m.NUM)
    if name in names.attributes:
        return m.PieceAttr(expr.pos, piece, name, names.attributes[name])
    if name in TEXT_ATTRIBUTES:
        return m.PieceAttr(expr.pos, piece, name, m.TEXT)
    known = sorted(
        set(names.attributes)
        | {"row", "col", "width", "height", *TEXT_ATTRIBUTES}
        | ({"value"} if _numbered(names) else set())
    )
    raise fail(expr.name_pos, f"no piece has the attribute '{name}'", "one of: " + ", ".join(known))


def _needs_frame(scope: Scope, pos: Pos) -> None:
    board = scope.names.board
    if board is None or not board.has_frame:
        raise fail(pos, "only cells of a line, ring or grid have a row and a column")


def _is_empty(expr: s.IsEmpty, scope: Scope) -> m.Expr:
    inner = typed_expr(expr.operand, scope)
    if inner.type not in (m.CELL, m.PLACE, m.PIECE):
        raise fail(expr.operand.pos, f"{inner.type} cannot be empty", "a cell, a place, the cursor or a piece")
    result: m.Expr = m.IsEmpty(expr.pos, inner)
    return m.Unary(expr.pos, "not", result, m.BOOL) if expr.negated else result


def kind_codes(name: s.Name, scope: Scope) -> frozenset[int]:
    codes = scope.names.kinds.get(name.name)
    if codes is None:
        known = ", ".join(sorted(scope.names.kinds)) or "none"
        unknown = f"unknown kind of piece '{name.name}'{suggest(name.name, scope.names.kinds)}"
        raise fail(name.pos, unknown, f"one of: {known}")
    return codes


def _is_kind(expr: s.IsKind, scope: Scope) -> m.Expr:
    inner = as_piece(typed_expr(expr.operand, scope), expr.operand.pos)
    result: m.Expr = m.IsKind(expr.pos, inner, kind_codes(expr.kind, scope))
    return m.Unary(expr.pos, "not", result, m.BOOL) if expr.negated else result


def _location(location: s.Location, scope: Scope) -> m.Expr | None:
    """None for `here`, else the place."""
    if location.place is None:
        if not scope.here:
            raise fail(
                location.pos,
                f"'here' is the place a `safe in places` rule checks; {scope.what} has none",
                "safe in places: ... (or at PLACE)",
            )
        return None
    if location.var or location.place in scope.locals:
        place = (
            _var(s.VarRef(location.pos, location.place), scope)
            if location.var
            else _name(s.Name(location.pos, location.place), scope)
        )
        if place.type != m.PLACE:
            raise fail(location.pos, f"{location.place} is {place.type}, not a place", "a place")
        return place
    index = scope.names.place(location.place)
    if index is None:
        known = ", ".join(p.name for p in scope.names.places) or "none: this puzzle has no places"
        unknown = f"unknown place '{location.place}'{suggest(location.place, [p.name for p in scope.names.places])}"
        raise fail(location.pos, unknown, f"one of: {known}")
    return m.PlaceConst(location.pos, index)


def _located(expr: s.Located, scope: Scope) -> m.Expr:
    piece = as_piece(typed_expr(expr.operand, scope), expr.operand.pos)
    return m.IsAt(expr.pos, piece, _location(expr.location, scope))


# ---- quantifiers, aggregates and collections


def domain(binder: s.Binder, scope: Scope) -> m.Domain:
    """What a binder ranges over."""
    if binder.collections is None:  # `KIND [VAR] [LOCATION]`, or a location alone: every piece there
        codes = (
            kind_codes(binder.kind, scope) if binder.kind is not None else frozenset(p.code for p in scope.names.pieces)
        )
        where: str | m.Expr | None = None
        if binder.location is not None:
            place = _location(binder.location, scope)
            where = "here" if place is None else place
        return m.KindDomain(codes, where)
    parts = [_collection(c, scope) for c in binder.collections]
    found: m.Domain = parts[0] if len(parts) == 1 else _union(parts, binder.collections)
    if binder.kind is not None:
        if found.type not in (m.PIECE, m.CELL):
            raise fail(binder.kind.pos, f"a kind can only pick pieces, and these are {found.type}s")
        found = m.FilteredDomain(found, kind_codes(binder.kind, scope))
    return found


def _union(parts: list[m.Domain], syntax: tuple[s.Expr, ...]) -> m.Domain:
    types = {p.type for p in parts}
    if len(types) > 1:
        raise fail(syntax[1].pos, "collections joined with ',' must hold the same kind of thing", parts[0].type)
    return m.UnionDomain(tuple(parts), parts[0].type)


COLLECTIONS_EXPECTED = (
    "a kind of piece, cells, rows, columns, diagonals, main_diagonals, lines, boxes, regions, places, load, here, "
    "a place, a direction, a line, ray(x, d), neighbours(x, d), region(a), a range or a list"
)

COLLECTION_WORDS = (
    "cells",
    "rows",
    "columns",
    "diagonals",
    "main_diagonals",
    "lines",
    "boxes",
    "regions",
    "places",
    "stacks",
    "load",
    "here",
)


def _collection(expr: s.Expr, scope: Scope) -> m.Domain:
    names = scope.names
    if isinstance(expr, s.Range):
        return m.NumbersDomain(_range(expr, scope))
    if isinstance(expr, s.Call) and expr.name == "ray":
        if len(expr.args) != 2:
            raise fail(expr.pos, "ray() takes a cell (or a piece) and a direction", "ray(x, d)")
        origin = as_cell(typed_expr(expr.args[0], scope), expr.args[0].pos)
        direction = _direction(expr.args[1], scope)
        return m.RayDomain(origin, direction)
    if isinstance(expr, s.Call) and expr.name == "region":
        return _region(expr, scope)
    if isinstance(expr, s.Call) and expr.name == "neighbours":
        return _neighbours(expr, scope)
    if isinstance(expr, s.Name):
        word = expr.name
        if word in scope.locals:
            local = _name(expr, scope)
            return _value_collection(local, expr.pos, scope)
        if word == "here":
            if not scope.here:
                raise fail(
                    expr.pos,
                    f"'here' is the place a `safe in places` rule checks; {scope.what} has none",
                    "safe in places: ... (or a place's name)",
                )
            return m.KindDomain(frozenset(p.code for p in names.pieces), "here")
        if word == "cells":
            _needs_board(scope, expr.pos)
            return m.CellsDomain(None)
        if word in LINE_FAMILIES:
            board = _needs_board(scope, expr.pos)
            lines = board.lines(word)
            if isinstance(lines, str):
                raise fail(expr.pos, lines)
            return m.LinesDomain(lines)
        if word in ("places", "stacks"):
            chosen = tuple(i for i, p in enumerate(names.places) if word == "places" or p.stack)
            return m.PlacesDomain(chosen)
        if word == "load":
            if not scope.load:
                raise fail(
                    expr.pos,
                    f"'load' is what a carry move carries; {scope.what} has none",
                    "a carry move's cost or condition",
                )
            return m.KindDomain(frozenset(p.code for p in names.pieces), "load")
        if word in names.kinds:
            if names.board is not None and word in names.board.directions:
                raise fail(
                    expr.pos,
                    f"'{word}' is both a kind of piece and a direction here",
                    f"another kind for the piece, or `direction leaps = {word}` and `in leaps` for the direction",
                )
            return m.KindDomain(names.kinds[word], None)
        place = names.place(word)
        if place is not None:
            return m.KindDomain(frozenset(p.code for p in names.pieces), m.PlaceConst(expr.pos, place))
        if names.board is not None and word in names.board.directions:
            return m.DirectionsDomain(names.board.directions[word])
        if word in names.params:
            return _value_collection(_const(expr.pos, names.params[word]), expr.pos, scope)
        known = [*COLLECTION_WORDS, *names.kinds, *(p.name for p in names.places), *names.params]
        if names.board is not None:
            known.extend(names.board.directions)
        raise fail(expr.pos, f"'{word}' is not a collection{suggest(word, known)}", COLLECTIONS_EXPECTED)
    value = typed_expr(expr, scope)
    return _value_collection(value, expr.pos, scope)


def _neighbours(expr: s.Call, scope: Scope) -> m.Domain:
    """`neighbours(x)`, `neighbours(x, DIRECTIONS)`: the cells one step from x along each
    direction (the board's default for moves, or a direction or set named), those on the board."""
    board = _needs_board(scope, expr.pos)
    if len(expr.args) not in (1, 2):
        raise fail(expr.pos, "neighbours() takes a cell (or a piece) and maybe directions", "neighbours(x, king)")
    origin = as_cell(typed_expr(expr.args[0], scope), expr.args[0].pos)
    directions = board.default
    if len(expr.args) == 2:
        named = expr.args[1]
        if not isinstance(named, s.Name):
            raise fail(named.pos, "neighbours() takes the directions by name", "a direction or a set (king, ...)")
        directions = directions_of(named, board)
    return m.NeighboursDomain(origin, tuple(directions))


def _value_collection(value: m.Expr, pos: Pos, scope: Scope) -> m.Domain:
    if value.type == m.LINE:
        return m.CellsDomain(None, line=value)
    if value.type == m.PLACE:
        return m.KindDomain(frozenset(p.code for p in scope.names.pieces), value)
    if isinstance(value, m.ListConst):
        return m.NumbersDomain(value)
    raise fail(pos, f"{value.type} is not a collection", COLLECTIONS_EXPECTED)


def _needs_board(scope: Scope, pos: Pos) -> Board:
    if scope.names.board is None:
        raise fail(pos, "this puzzle has no board of cells", missing="board")
    return scope.names.board


def _direction(expr: s.Expr, scope: Scope) -> m.Expr:
    direction = typed_expr(expr, scope)
    if direction.type != m.DIRECTION:
        raise fail(expr.pos, f"expected a direction here, got {direction.type}", "a direction (right, up_left, ...)")
    return direction


def _binder_scope(binder: s.Binder, scope: Scope) -> tuple[Scope, m.Local, m.Domain]:
    found = domain(binder, scope)
    name = binder.var.name if binder.var is not None else "_"
    pos = binder.var.pos if binder.var is not None else binder.pos
    if binder.var is not None:
        _hides_nothing(name, pos, scope)
    inner, local = scope.bind(name, found.type, pos)
    return inner, local, found


def _hides_nothing(name: str, pos: Pos, scope: Scope) -> None:
    """A quantifier's variable takes a new name: one that means something already (a counter,
    a parameter, a piece, an outer variable) would be hidden inside it, and read as the
    variable where the spec meant the other."""
    already = "a variable here" if name in scope.locals else meaning(name, scope.names)
    if already is not None:
        raise fail(pos, f"'{name}' is already {already}: a quantifier's variable cannot hide it", "another name")


def _quantified(expr: s.Quantified, scope: Scope) -> m.Expr:
    binder = expr.binder
    if expr.body is None:  # `some KIND is here`, `no KIND is at P`, `every KIND is here`
        assert binder.kind is not None and binder.location is not None
        codes = kind_codes(binder.kind, scope)
        place = _location(binder.location, scope)
        _, local = scope.bind("_", m.PIECE, binder.pos)
        if expr.quantifier == "every":
            test = m.IsAt(expr.pos, local, place)
            return m.Quantified(expr.pos, "every", local.slot, m.KindDomain(codes, None), test)
        where: str | m.Expr = "here" if place is None else place
        return m.Quantified(
            expr.pos, expr.quantifier, local.slot, m.KindDomain(codes, where), m.Const(expr.pos, True, m.BOOL)
        )
    inner, local, found = _binder_scope(binder, scope)
    body = condition(expr.body, inner)
    return m.Quantified(expr.pos, expr.quantifier, local.slot, found, body)


def _aggregate(expr: s.Aggregate, scope: Scope) -> m.Expr:
    if expr.function == "connected":
        return _connected(expr, scope)
    if expr.function not in ("count", "sum", "min", "max", "product"):
        raise fail(
            expr.pos,
            f"'{expr.function}(... for ...)' is not an aggregate",
            "count, sum, product, min, max or connected",
        )
    inner, local, found = _binder_scope(expr.binder, scope)
    value = None
    if expr.value is not None:
        value = as_number(typed_expr(expr.value, inner), expr.value.pos, scope.names)
    cond = condition(expr.condition, inner) if expr.condition is not None else None
    if expr.function == "product":
        assert value is not None
        return m.Product(expr.pos, local.slot, found, value, cond)
    return m.Aggregate(expr.pos, expr.function, local.slot, found, value, cond)


def _connected(expr: s.Aggregate, scope: Scope) -> m.Expr:
    """`connected(c for c in cells if c is sea)`: the cells chosen form one group, joined by
    steps along the board's default directions."""
    board = _needs_board(scope, expr.pos)
    inner, local, found = _binder_scope(expr.binder, scope)
    if expr.value is None:
        raise fail(expr.pos, "connected() takes cells: connected(c for c in cells if ...)", "connected(c for c in ...)")
    value = as_cell(typed_expr(expr.value, inner), expr.value.pos)
    cond = condition(expr.condition, inner) if expr.condition is not None else None
    return m.Connected(expr.pos, local.slot, found, value, cond, tuple(board.default))


# ---- functions


def _call(expr: s.Call, scope: Scope) -> m.Expr:
    name = expr.name
    if name == "runs":
        return _runs(expr, scope)
    if name in PARAM_FUNCTIONS and name not in STATE_FUNCTIONS:
        return _param_call(expr, scope)
    if name not in STATE_FUNCTIONS:
        known = sorted(set(PARAM_FUNCTIONS) | set(STATE_FUNCTIONS) | {"ray", "region", "neighbours", "runs"})
        raise fail(expr.pos, f"unknown function '{name}'{suggest(name, known)}", "one of: " + ", ".join(known))
    if name == "adjacent":
        return _adjacent(expr, scope)
    args = [typed_expr(a, scope) for a in expr.args]
    if name in ("min", "max", "abs"):
        want = (1, 1) if name == "abs" else (2, None)
        _arity(expr, *want)
        numbers = [as_number(a, syntax.pos, scope.names) for a, syntax in zip(args, expr.args, strict=True)]
        if all(isinstance(a, m.Const) for a in numbers):
            values = [int(a.value) for a in numbers if isinstance(a, m.Const)]
            result = abs(values[0]) if name == "abs" else min(values) if name == "min" else max(values)
            return m.Const(expr.pos, result, m.NUM)
        return m.Call(expr.pos, name, tuple(numbers), m.NUM)
    if name == "first":
        _arity(expr, 2, 2)
        origin = as_cell(args[0], expr.args[0].pos)
        return m.Call(expr.pos, name, (origin, _direction(expr.args[1], scope)), m.PIECE)
    if name == "next":
        _arity(expr, 2, 2)
        origin = as_cell(args[0], expr.args[0].pos)
        return m.Call(expr.pos, name, (origin, _direction(expr.args[1], scope)), m.CELL)
    if name == "holding":
        _arity(expr, 1, 1)
        _needs_board(scope, expr.pos)
        if not _numbered(scope.names):
            raise fail(expr.pos, "holding(v) finds a numbered piece, and no piece has a number", "pieces 1..n")
        return m.Call(expr.pos, name, (as_number(args[0], expr.args[0].pos, scope.names),), m.CELL)
    if name == "top":
        _arity(expr, 1, 1)
        if args[0].type != m.PLACE:
            raise fail(expr.args[0].pos, f"top() takes a stack, got {args[0].type}", "a stack")
        _a_stack(args[0], expr.args[0].pos, scope.names)
        return m.Call(expr.pos, name, (args[0],), m.PIECE)
    if name == "cell":
        return _cell(expr, args, scope)
    if name == "together":
        if len(args) < 2:
            raise fail(expr.pos, "together() takes two or more pieces", "together(a, b)")
        pieces = tuple(as_piece(a, syntax.pos) for a, syntax in zip(args, expr.args, strict=True))
        return m.Call(expr.pos, name, pieces, m.BOOL)
    if name == "patterns":
        return _patterns(expr, args, scope)
    _arity(expr, 0, 0)  # the measures, and moves()
    if name == "moves" and scope.what != "the heuristic":
        raise fail(
            expr.pos,
            f"moves() counts the moves from a state: it is for the heuristic, not {scope.what}",
            "heuristic moves()",
        )
    return m.Call(expr.pos, name, (), m.NUM)


def _runs(expr: s.Call, scope: Scope) -> m.Expr:
    """`runs(LINE, KIND)`: the lengths of the runs of the line's cells that hold a KIND, in
    the line's order (a list: compared with a list, `runs(l, black) == clues[l.row]`)."""
    if len(expr.args) != 2 or not isinstance(expr.args[1], s.Name):
        raise fail(expr.pos, "runs() takes a line of cells and a kind of piece", "runs(l, black)")
    found = _collection(expr.args[0], scope)
    if found.type != m.CELL:
        raise fail(
            expr.args[0].pos, f"runs() reads a line of cells, and these are {found.type}s", "a line: l, ray(x, d)"
        )
    return m.Runs(expr.pos, found, kind_codes(expr.args[1], scope))


def _adjacent(expr: s.Call, scope: Scope) -> m.Expr:
    """`adjacent(a, b)`, `adjacent(a, b, DIRECTIONS)`: b is one step from a along one of the
    directions (the board's default for moves, or a direction or set named)."""
    board = _needs_board(scope, expr.pos)
    _arity(expr, 2, 3)
    cells = tuple(as_cell(typed_expr(a, scope), a.pos) for a in expr.args[:2])
    directions = board.default
    if len(expr.args) == 3:
        named = expr.args[2]
        if not isinstance(named, s.Name):
            raise fail(named.pos, "adjacent() takes the directions by name", "a direction or a set (king, ...)")
        directions = directions_of(named, board)
    return m.Call(expr.pos, "adjacent", (*cells, *(m.DirectionConst(expr.pos, d) for d in directions)), m.BOOL)


def _patterns(expr: s.Call, args: list[m.Expr], scope: Scope) -> m.Expr:
    """`patterns()`: the pattern databases derived from the spec (`heuristics.patterns`), the
    patterns chosen by puzint; `patterns("123456, 789ABC, DEF")`: the groups of pieces named as
    `--patterns` names them (checked, and the tables built, when a search starts)."""
    if scope.what != "the heuristic":
        raise fail(
            expr.pos,
            f"patterns() estimates the moves left from a state: it is for the heuristic, not {scope.what}",
            "heuristic patterns()",
        )
    _arity(expr, 0, 1)
    if args and not (isinstance(args[0], m.Const) and isinstance(args[0].value, str) and args[0].value.strip()):
        raise fail(
            expr.args[0].pos,
            "patterns() takes the groups of pieces as one text: each group its pieces' symbols, groups "
            "separated by commas",
            'patterns("123456, 789ABC, DEF")',
        )
    return m.Call(expr.pos, "patterns", tuple(args), m.NUM)


def _a_stack(place: m.Expr, pos: Pos, names: Names) -> None:
    """`top(P)` is the top of a stack; a bag has no order and no top. A place that is not
    named (a variable, `here`, the carrier) may be any place, so every place must be a stack."""
    if isinstance(place, m.PlaceConst):
        if not names.places[place.place].stack:
            raise fail(pos, f"{names.places[place.place].name} is not a stack", "a stack")
        return
    bags = [p.name for p in names.places if not p.stack]
    if bags:
        raise fail(
            pos,
            f"top() takes a stack, and this may be {', '.join(bags)}, which {'is' if len(bags) == 1 else 'are'} not",
            "a stack named, or a puzzle whose places are all stacks",
        )


def _arity(expr: s.Call, low: int, high: int | None) -> None:
    n = len(expr.args)
    if n < low or (high is not None and n > high):
        from .expressions import arity_text

        raise fail(expr.pos, f"{expr.name}() takes {arity_text(low, high)}, got {n}")


def _param_call(expr: s.Call, scope: Scope) -> m.Expr:
    args = [typed_expr(a, scope) for a in expr.args]
    if not all(_is_const(a) for a in args):
        raise fail(expr.pos, f"{expr.name}() works on values known before the search", "parameters and numbers")
    literal = s.Call(
        expr.pos,
        expr.name,
        tuple(_literal(a, syntax.pos) for a, syntax in zip(args, expr.args, strict=True)),
    )
    return _const(expr.pos, evaluate(literal, {}))


def _literal(e: m.Expr, pos: Pos) -> s.Expr:
    if isinstance(e, m.ListConst):
        return s.ListExpr(pos, tuple(s.Num(pos, v) for v in e.values))
    assert isinstance(e, m.Const)
    if isinstance(e.value, bool):
        return s.Bool(pos, e.value)
    if isinstance(e.value, int):
        return s.Num(pos, e.value)
    return s.Str(pos, e.value)


def _cell(expr: s.Call, args: list[m.Expr], scope: Scope) -> m.Expr:
    board = _needs_board(scope, expr.pos)
    if board.kind == "graph":
        _arity(expr, 1, 1)
        if isinstance(args[0], m.Const):
            found = board.by_name(str(args[0].value))
            if found is None:
                raise fail(expr.args[0].pos, f"no cell is named {args[0].value}", "one of: " + board.names_range())
            return m.CellConst(expr.pos, found)
        raise fail(expr.args[0].pos, "a graph's cell is named by the spec", "cell(NAME)")
    want = 1 if board.one_row else 2
    if len(args) != want:
        form = "cell(i)" if want == 1 else "cell(row, column)"
        raise fail(expr.pos, f"a cell of {board.describe()} is {form}", form)
    numbers = tuple(as_number(a, syntax.pos, scope.names) for a, syntax in zip(args, expr.args, strict=True))
    if all(isinstance(a, m.Const) for a in numbers):
        values = [int(a.value) for a in numbers if isinstance(a, m.Const)]
        found = board.at(1, values[0]) if want == 1 else board.at(values[0], values[1])
        if found is None:
            shown = ", ".join(str(v) for v in values)
            raise fail(expr.pos, f"cell({shown}) is off the board (cells {board.names_range()})", board.names_range())
        return m.CellConst(expr.pos, found)
    return m.CellAt(expr.pos, numbers)


def _all_different(expr: s.AllDifferent, scope: Scope) -> m.Expr:
    """`all different(l)`: the pieces on the cells of a line (a line variable, `cells`, a ray,
    the cells listed); `all different(S, E, N)`: the numbers listed."""
    if len(expr.items) == 1 and not isinstance(expr.items[0], (s.Num, s.Binary, s.Unary)):
        found = _cells_of(expr.items[0], scope)
        if found is not None:
            return m.AllDifferent(expr.pos, (), found)
    typed = [typed_expr(item, scope) for item in expr.items]
    if len(typed) > 1 and all(t.type == m.CELL for t in typed):
        if not all(isinstance(t, m.CellConst) for t in typed):
            raise fail(expr.pos, "all different compares cells named in the spec", "cells such as r1c1, r1c2")
        return m.AllDifferent(expr.pos, (), m.CellsDomain(tuple(t.cell for t in typed if isinstance(t, m.CellConst))))
    if len(typed) < 2:
        raise fail(
            expr.pos,
            f"all different takes a line of cells, or two or more numbers; this is {typed[0].type}",
            "all different(l) with l a line, or all different(A, B, C) with numbers",
        )
    numbers = tuple(as_number(t, item.pos, scope.names) for t, item in zip(typed, expr.items, strict=True))
    return m.AllDifferent(expr.pos, numbers, None)


def _region(expr: s.Call, scope: Scope) -> m.Domain:
    """`region(a)`: the cells drawn with the letter a in the `regions:` picture."""
    board = _needs_board(scope, expr.pos)
    letter = expr.args[0] if len(expr.args) == 1 else None
    if not isinstance(letter, (s.Name, s.Num)):
        raise fail(expr.pos, "region() takes the name of a region of the `regions:` picture", "region(a)")
    word = letter.name if isinstance(letter, s.Name) else str(letter.value)
    cells = board.region(word)
    if cells is None:
        known = [name for name, _ in board.regions]
        if not known:
            raise fail(expr.pos, "this board has no regions: draw them with `regions:` and a picture", "regions:")
        raise fail(
            letter.pos,
            f"no region is drawn with '{word}'{suggest(word, known)}",
            f"a region of the picture: {_listed(known)}",
        )
    return m.CellsDomain(cells)


MOST_LISTED = 40  # names of regions listed in a message; a larger picture's are cut short


def _listed(names: list[str]) -> str:
    """The names as the picture draws them, in order, numbers by value; at most MOST_LISTED."""
    ordered = sorted(names, key=lambda n: (not n.isdigit(), int(n) if n.isdigit() else 0, n))
    more = len(ordered) - MOST_LISTED
    return ", ".join(ordered[:MOST_LISTED]) + (f" and {more} more" if more > 0 else "")


def _cells_of(item: s.Expr, scope: Scope) -> m.Domain | None:
    """The cells of a collection of cells named as one item (None: it is not one)."""
    if isinstance(item, s.Name) and item.name in LINE_FAMILIES:
        raise fail(
            item.pos,
            f"all different({item.name}) would compare the {item.name} themselves",
            f"every l in {item.name}: all different(l)",
        )
    if (isinstance(item, s.Name) and (item.name == "cells" or item.name in scope.locals)) or (
        isinstance(item, s.Call) and item.name in ("ray", "region")
    ):
        found = _collection(item, scope)
    else:
        return None
    if found.type != m.CELL:
        raise fail(item.pos, f"all different compares the pieces on cells; these are {found.type}s", "a line of cells")
    return found


_HANDLERS: dict[type, Callable[..., m.Expr]] = {
    s.AllDifferent: _all_different,
    s.Num: _num,
    s.Str: _str,
    s.Bool: _bool,
    s.ListExpr: _list,
    s.Name: _name,
    s.VarRef: _var,
    s.Unary: _unary,
    s.Binary: _binary,
    s.Range: _range,
    s.Index: _index,
    s.Attr: _attr,
    s.IsEmpty: _is_empty,
    s.IsKind: _is_kind,
    s.Located: _located,
    s.Quantified: _quantified,
    s.Aggregate: _aggregate,
    s.Call: _call,
}


def describe_value(value: Value) -> str:
    return type_name(value)


def directions_of(name: s.Name, board: Board) -> tuple[Direction, ...]:
    found = board.directions.get(name.name)
    if found is None:
        raise fail(
            name.pos,
            f"{board.describe()} has no direction '{name.name}'{suggest(name.name, board.directions)}",
            "one of: " + ", ".join(sorted(board.directions)),
        )
    return found
