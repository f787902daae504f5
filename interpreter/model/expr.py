"""Typed expressions: what a predicate, guard, cost or heuristic *means*, with every name
resolved and every value given a type.

Elaboration (`language.predicates`) builds these from the syntax and reports mistakes at
their positions; the compiler (`compiler.evaluate`) turns them into small functions of a
state. Nothing here is text to be evaluated: each node says exactly what to compute.

Runtime values: numbers and truth values are ints and bools; a *piece* is the cell it
stands on (0..cells-1), or `cells + code` for a piece in a place (interchangeable pieces in
places are not told apart), or NONE; a *cell* is its index, or NONE (a cursor off the
board); a *place* and a *counter* are their indexes; a *line* is a tuple of cells.
"""

from __future__ import annotations

from typing import NamedTuple

from ..errors import Pos
from .board import Direction

NUM, BOOL, TEXT = "a number", "a condition", "text"
PIECE, CELL, PLACE = "a piece", "a cell", "a place"
DIRECTION, COUNTER, LINE, LIST = "a direction", "a counter", "a line of cells", "a list of numbers"
LISTS = "a list of lists"

NONE = -1  # no piece / no cell


# ---- leaves


class Const(NamedTuple):
    pos: Pos
    value: int | bool | str
    type: str


class ListConst(NamedTuple):
    pos: Pos
    values: tuple[int, ...]
    type: str = LIST


class ListsConst(NamedTuple):
    """A list of lists of numbers (a nonogram's clues, a line's each)."""

    pos: Pos
    values: tuple[tuple[int, ...], ...]
    type: str = LISTS


class Local(NamedTuple):
    """A variable bound by a quantifier, an aggregate, a `let` or a move (`?x`)."""

    pos: Pos
    name: str
    slot: int
    type: str


class CounterValue(NamedTuple):
    """The value of a counter in the state: a number, a cell (cursor) or a place (carrier)."""

    pos: Pos
    counter: int
    type: str


class CellConst(NamedTuple):
    pos: Pos
    cell: int
    type: str = CELL


class CellAt(NamedTuple):
    """`cell(i)` / `cell(r, c)` with an index known only during the search: an index off the
    board stops the search with an error at `pos`."""

    pos: Pos
    args: tuple[Expr, ...]
    type: str = CELL


class PlaceConst(NamedTuple):
    pos: Pos
    place: int
    type: str = PLACE


class Here(NamedTuple):
    """The place being checked by a `safe in places` / `in loads` rule (a place or a load)."""

    pos: Pos
    type: str = PLACE


class PieceConst(NamedTuple):
    """A piece named by the spec (`farmer`, `H1`): one type, wherever it is."""

    pos: Pos
    code: int
    type: str = PIECE


class DirectionConst(NamedTuple):
    pos: Pos
    direction: Direction
    type: str = DIRECTION


class CounterConst(NamedTuple):
    pos: Pos
    counter: int
    type: str = COUNTER


# ---- conversions and attributes


class Content(NamedTuple):
    """The piece on a cell (NONE if it is empty)."""

    pos: Pos
    cell: Expr
    type: str = PIECE


class CellOf(NamedTuple):
    """The cell a piece on the board stands on (a block: its anchor)."""

    pos: Pos
    piece: Expr
    type: str = CELL


class CounterRead(NamedTuple):
    """The value of the counter a move variable (`?j`) is bound to."""

    pos: Pos
    counter: Expr
    type: str = NUM


class ValueOf(NamedTuple):
    """A numbered piece as its number; a missing piece is an error at `pos`."""

    pos: Pos
    piece: Expr
    type: str = NUM


class PieceAttr(NamedTuple):
    """A piece's attribute: declared (`couple`, `time`), `value`, `width`, `height`, or its
    position `row` / `col` (pieces on cells only)."""

    pos: Pos
    piece: Expr
    name: str
    type: str


class CellAttr(NamedTuple):
    pos: Pos
    cell: Expr
    name: str  # row or col (numbers), or name (text: the cell's name)
    type: str = NUM


class LineAttr(NamedTuple):
    """A line's `row` or `col`: its first cell's, so that a row names its clue."""

    pos: Pos
    line: Expr
    name: str  # row or col
    type: str = NUM


class Index(NamedTuple):
    """`list[i]` whose index is known before the search but not when the spec is read (a
    quantifier's variable): a number of a list, or a list of a list of lists; `obj` is such a
    list, or an `Index` of a list of lists (`clues[l.row][l.col - 1]`)."""

    pos: Pos
    obj: ListConst | ListsConst | Index
    at: Expr
    type: str


class CounterBound(NamedTuple):
    pos: Pos
    counter: Expr
    name: str  # min or max
    type: str = NUM


# ---- operators


class Unary(NamedTuple):
    pos: Pos
    op: str  # "-" or "not"
    operand: Expr
    type: str


class Binary(NamedTuple):
    pos: Pos
    op: str  # + - * / % == != < <= > >= and or in
    left: Expr
    right: Expr
    type: str


class IsEmpty(NamedTuple):
    """Nothing there: a cell, a place (or `here`), a piece that is NONE."""

    pos: Pos
    operand: Expr
    type: str = BOOL


class IsKind(NamedTuple):
    """The piece (NONE: false) has one of these codes."""

    pos: Pos
    piece: Expr
    codes: frozenset[int]
    type: str = BOOL


class IsAt(NamedTuple):
    """The piece is in the place (`place` None: in `here`)."""

    pos: Pos
    piece: Expr
    place: Expr | None
    type: str = BOOL


class Call(NamedTuple):
    """A built-in function of the state: abs, min, max, first, next, top, together, inversions,
    displacement, misplaced, holding (the cell holding a number), adjacent (its arguments: two
    cells, then the directions one is from the other)."""

    pos: Pos
    name: str
    args: tuple[Expr, ...]
    type: str


# ---- collections, quantifiers and aggregates


class KindDomain(NamedTuple):
    """The pieces with these codes, everywhere (`where` None), in the place being checked
    ("here"), in a carry move's load ("load"), or in a place."""

    codes: frozenset[int]
    where: str | Expr | None
    type: str = PIECE


class CellsDomain(NamedTuple):
    """Fixed cells, or the cells of a line value (`line`)."""

    cells: tuple[int, ...] | None
    line: Expr | None = None
    type: str = CELL


class RayDomain(NamedTuple):
    origin: Expr  # a cell or a piece on a cell
    direction: Expr
    type: str = CELL


class NeighboursDomain(NamedTuple):
    """The cells one step from `origin` along each of `directions` that are on the board
    (`neighbours(c, king)`): where a rule reads a neighbour's value."""

    origin: Expr  # a cell or a piece on a cell
    directions: tuple[Direction, ...]
    type: str = CELL


class LinesDomain(NamedTuple):
    lines: tuple[tuple[int, ...], ...]
    type: str = LINE


class PlacesDomain(NamedTuple):
    places: tuple[int, ...]
    type: str = PLACE


class DirectionsDomain(NamedTuple):
    directions: tuple[Direction, ...]
    type: str = DIRECTION


class NumbersDomain(NamedTuple):
    values: Expr  # a LIST or a range constant
    type: str = NUM


class FilteredDomain(NamedTuple):
    """The pieces (or cells holding pieces) of a domain that have one of these codes."""

    inner: Domain
    codes: frozenset[int]
    type: str = PIECE


class UnionDomain(NamedTuple):
    parts: tuple[Domain, ...]
    type: str


Domain = (
    KindDomain
    | CellsDomain
    | RayDomain
    | NeighboursDomain
    | LinesDomain
    | PlacesDomain
    | DirectionsDomain
    | NumbersDomain
    | FilteredDomain
    | UnionDomain
)


class Quantified(NamedTuple):
    pos: Pos
    quantifier: str  # every, some, no
    slot: int
    domain: Domain
    body: Expr
    type: str = BOOL


class Aggregate(NamedTuple):
    """count / sum / min / max over a domain; pieces in places count with their multiplicity."""

    pos: Pos
    function: str
    slot: int
    domain: Domain
    value: Expr | None  # None for count
    condition: Expr | None
    type: str = NUM


class Connected(NamedTuple):
    """`connected(c for c in COLLECTION [if COND])`: the cells chosen form one group, each
    reached from any other by steps along `directions` (the board's default) between chosen
    cells; no cell, or one, is one group. Its own node, as `Product` is."""

    pos: Pos
    slot: int
    domain: Domain
    value: Expr  # the cell each member stands for
    condition: Expr | None
    directions: tuple[Direction, ...]
    type: str = BOOL


class Product(NamedTuple):
    """`product(EXPR for v in COLLECTION [if COND])`: its own node (not an `Aggregate`), so
    that what knows only count, sum, min and max refuses it rather than misreads it."""

    pos: Pos
    slot: int
    domain: Domain
    value: Expr
    condition: Expr | None
    type: str = NUM


class Runs(NamedTuple):
    """`runs(LINE, KIND)`: the lengths of the runs of consecutive cells of the line (in its
    order) that hold a piece of the kind: a nonogram's clue of the line."""

    pos: Pos
    domain: Domain
    codes: frozenset[int]
    type: str = LIST


class AllDifferent(NamedTuple):
    """The pieces on the cells of `domain` (empty cells left out), or the numbers `items`,
    pairwise different."""

    pos: Pos
    items: tuple[Expr, ...]
    domain: Domain | None
    type: str = BOOL


Expr = (
    Const
    | ListConst
    | ListsConst
    | Local
    | CounterValue
    | CellConst
    | CellAt
    | PlaceConst
    | Here
    | PieceConst
    | DirectionConst
    | CounterConst
    | Content
    | CellOf
    | CounterRead
    | ValueOf
    | PieceAttr
    | CellAttr
    | CounterBound
    | LineAttr
    | Index
    | Unary
    | Binary
    | IsEmpty
    | IsKind
    | IsAt
    | Call
    | Quantified
    | Aggregate
    | Product
    | Runs
    | AllDifferent
    | Connected
)


def children(expr: Expr) -> list[Expr]:
    """The sub-expressions of a node (domains included), for analyses such as "does this
    read the state?"."""
    out: list[Expr] = []
    for name in ("cell", "piece", "operand", "left", "right", "counter", "body", "value", "condition", "line", "at"):
        child = getattr(expr, name, None)
        if child is not None and not isinstance(child, (int, str)):
            out.append(child)
    if isinstance(expr, (Call, CellAt)):
        out.extend(expr.args)
    if isinstance(expr, AllDifferent):
        out.extend(expr.items)
        if expr.domain is not None:
            out.extend(domain_children(expr.domain))
    if isinstance(expr, IsAt) and expr.place is not None:
        out.append(expr.place)
    if isinstance(expr, (Quantified, Aggregate, Product, Runs, Connected)):
        out.extend(domain_children(expr.domain))
    return out


def domain_children(domain: Domain) -> list[Expr]:
    if isinstance(domain, KindDomain) and not isinstance(domain.where, (str, type(None))):
        return [domain.where]
    if isinstance(domain, CellsDomain) and domain.line is not None:
        return [domain.line]
    if isinstance(domain, RayDomain):
        return [domain.origin, domain.direction]
    if isinstance(domain, NeighboursDomain):
        return [domain.origin]
    if isinstance(domain, NumbersDomain):
        return [domain.values]
    if isinstance(domain, FilteredDomain):
        return domain_children(domain.inner)
    if isinstance(domain, UnionDomain):
        return [e for part in domain.parts for e in domain_children(part)]
    return []


STATE_READERS = (
    CounterValue,
    CounterRead,
    CellAt,
    Content,
    IsEmpty,
    IsAt,
    Quantified,
    Aggregate,
    Product,
    Runs,
    Here,
    AllDifferent,
    Connected,
)


STATE_CALLS = (
    "first",
    "top",
    "together",
    "inversions",
    "displacement",
    "misplaced",
    "moves",
    "patterns",
    "pieces",
    "holding",
)


def reads_state(expr: Expr) -> bool:
    """Does the value depend on the state (rather than only on parameters and the move's
    variables)? Such parts cannot be decided before the search."""
    if isinstance(expr, STATE_READERS):
        if isinstance(expr, (Quantified, Aggregate, Product, Connected)) and not _domain_reads_state(expr.domain):
            return any(reads_state(c) for c in children(expr))
        return True
    if isinstance(expr, PieceAttr) and expr.name in ("row", "col"):
        return reads_state(expr.piece)
    if isinstance(expr, Call) and expr.name in STATE_CALLS:
        return True
    return any(reads_state(c) for c in children(expr))


def _domain_reads_state(domain: Domain) -> bool:
    return isinstance(domain, (KindDomain, FilteredDomain)) or (
        isinstance(domain, UnionDomain) and any(_domain_reads_state(p) for p in domain.parts)
    )


def uses_here(expr: Expr) -> bool:
    """Does the expression look at the place being checked (`here`)?"""
    if isinstance(expr, IsAt) and expr.place is None:
        return True
    if isinstance(expr, Here):
        return True
    if isinstance(expr, (Quantified, Aggregate, Product, Runs, Connected)) and _domain_here(expr.domain):
        return True
    return any(uses_here(c) for c in children(expr))


def _domain_here(domain: Domain) -> bool:
    if isinstance(domain, KindDomain):
        return domain.where == "here"
    if isinstance(domain, FilteredDomain):
        return _domain_here(domain.inner)
    if isinstance(domain, UnionDomain):
        return any(_domain_here(p) for p in domain.parts)
    return False


def only_here(expr: Expr) -> bool:
    """Is the value decided by the contents of `here` alone (and parameters)? Then a rule's
    answer can be remembered per contents."""
    if isinstance(expr, (CounterValue, CounterRead, CellAt, Content, Runs)):
        return False
    if isinstance(expr, IsAt) and expr.place is not None:
        return False
    if isinstance(expr, IsEmpty) and not isinstance(expr.operand, Here):
        return False
    if isinstance(expr, (Quantified, Aggregate, Product, Runs, Connected)) and not _domain_only_here(expr.domain):
        return False
    if isinstance(expr, PieceAttr) and expr.name in ("row", "col"):
        return False
    if isinstance(expr, Call) and expr.name in STATE_CALLS:
        return False
    return all(only_here(c) for c in children(expr))


def _domain_only_here(domain: Domain) -> bool:
    if isinstance(domain, KindDomain):
        return domain.where in ("here", "load")
    if isinstance(domain, FilteredDomain):
        return _domain_only_here(domain.inner)
    if isinstance(domain, UnionDomain):
        return all(_domain_only_here(p) for p in domain.parts)
    return isinstance(domain, (NumbersDomain, DirectionsDomain))
