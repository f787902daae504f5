"""The syntax model: immutable rule objects built from a spec, each with its source position.

It is what the spec *says*, before parameters are applied; `elaborate` turns it into a
concrete `Puzzle` for one choice of parameters.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import Pos

# ---- expressions --------------------------------------------------------------------


@dataclass(frozen=True)
class Num:
    pos: Pos
    value: int


@dataclass(frozen=True)
class Str:
    pos: Pos
    value: str


@dataclass(frozen=True)
class Bool:
    pos: Pos
    value: bool


@dataclass(frozen=True)
class Name:
    pos: Pos
    name: str


@dataclass(frozen=True)
class Call:
    pos: Pos
    name: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Attr:
    pos: Pos
    obj: Expr
    name: str


@dataclass(frozen=True)
class Unary:
    pos: Pos
    op: str  # "-" or "not"
    operand: Expr


@dataclass(frozen=True)
class Binary:
    pos: Pos
    op: str  # + - * / % == != < <= > >= and or in
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Range:
    pos: Pos
    low: Expr
    high: Expr


@dataclass(frozen=True)
class IsEmpty:
    pos: Pos
    operand: Expr


@dataclass(frozen=True)
class Location:
    """`here` (place is None) or `at PLACE`."""

    pos: Pos
    place: str | None


@dataclass(frozen=True)
class Located:
    pos: Pos
    operand: Expr
    location: Location


@dataclass(frozen=True)
class Quantified:
    """`every|some|no KIND [VAR] [LOCATION] [: BODY]` (no body: `some KIND is LOCATION`)."""

    pos: Pos
    quantifier: str
    kind: str
    var: str | None
    location: Location | None
    body: Expr | None


@dataclass(frozen=True)
class Count:
    pos: Pos
    kind: str
    location: Location | None


Expr = Num | Str | Bool | Name | Call | Attr | Unary | Binary | Range | IsEmpty | Located | Quantified | Count

# ---- layouts and patterns -------------------------------------------------------------


@dataclass(frozen=True)
class Cells:
    """A word of cell symbols, e.g. `BBB_WWW`, or the name of a string parameter."""

    pos: Pos
    text: str


@dataclass(frozen=True)
class Wild:
    pos: Pos


@dataclass(frozen=True)
class Var:
    pos: Pos
    name: str


@dataclass(frozen=True)
class Group:
    pos: Pos
    items: tuple[LayoutItem, ...]


@dataclass(frozen=True)
class Repeat:
    pos: Pos
    item: LayoutItem
    count: Expr


LayoutItem = Cells | Wild | Var | Group | Repeat


@dataclass(frozen=True)
class Layout:
    pos: Pos
    items: tuple[LayoutItem, ...]


# ---- rules ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rewrite:
    """`LHS -> RHS [along DIRS]`; each side is one or more windows separated by `...`."""

    pos: Pos
    lhs: tuple[Layout, ...]
    rhs: tuple[Layout, ...]
    along: tuple[Name, ...] | None


@dataclass(frozen=True)
class Carry:
    pos: Pos
    load: Range
    carrier: str
    with_: tuple[str, ...]
    only: tuple[str, ...]


@dataclass(frozen=True)
class Action:
    pos: Pos
    verb: str  # take, put, advance
    args: tuple[str | Expr, ...]


@dataclass(frozen=True)
class Actions:
    pos: Pos
    actions: tuple[Action, ...]
    guard: Expr | None


Rule = Rewrite | Carry | Actions

# ---- statements ---------------------------------------------------------------------------


@dataclass(frozen=True)
class PuzzleTitle:
    pos: Pos
    title: str


@dataclass(frozen=True)
class About:
    pos: Pos
    text: str


@dataclass(frozen=True)
class Param:
    pos: Pos
    name: str
    default: Expr
    doc: str


@dataclass(frozen=True)
class Require:
    pos: Pos
    condition: Expr
    message: str | None


@dataclass(frozen=True)
class Board:
    """`board line N`, `board grid R x C`, `board ring N` or `board places A, B, ...`."""

    pos: Pos
    shape: str  # line, grid, ring, places
    sizes: tuple[Expr, ...]
    places: tuple[str, ...] = ()


@dataclass(frozen=True)
class Vector:
    """A step `(dr, dc)`, or a leap `leap(a, b)` standing for all its sign/order variants."""

    pos: Pos
    leap: bool
    a: Expr
    b: Expr


@dataclass(frozen=True)
class Direction:
    pos: Pos
    name: str
    vectors: tuple[Vector, ...]


@dataclass(frozen=True)
class Route:
    pos: Pos
    source: str
    target: str
    both_ways: bool


@dataclass(frozen=True)
class Carrier:
    pos: Pos
    name: str
    place: str


@dataclass(frozen=True)
class Cursor:
    pos: Pos
    start: Expr


@dataclass(frozen=True)
class PieceDecl:
    """`piece SYMBOL [KIND] ["description"] [per GROUP] [drawn "glyph"]`."""

    pos: Pos
    symbol: str
    kind: str | None
    description: str | None
    per_group: str | None
    drawn: str | None


@dataclass(frozen=True)
class PiecesDecl:
    """`pieces EXPR`: one distinct piece per character of a string, or per number of a range."""

    pos: Pos
    source: Expr
    description: str | None


@dataclass(frozen=True)
class GroupDecl:
    pos: Pos
    name: str
    members: Expr


@dataclass(frozen=True)
class LayoutDecl:
    """`start LAYOUT`, `goal LAYOUT` or the picture form (one layout per row)."""

    pos: Pos
    which: str  # start or goal
    rows: tuple[Layout, ...]


@dataclass(frozen=True)
class ComputedLayout:
    pos: Pos
    which: str
    value: Expr


@dataclass(frozen=True)
class PlaceLayout:
    pos: Pos
    which: str
    place: str
    contents: Layout | None  # None: everyone


@dataclass(frozen=True)
class GoalWhen:
    pos: Pos
    condition: Expr


@dataclass(frozen=True)
class Move:
    pos: Pos
    name: str
    rule: Rule


@dataclass(frozen=True)
class Safe:
    pos: Pos
    scope: str  # board, everywhere, places, loads
    conditions: tuple[Expr, ...]


@dataclass(frozen=True)
class Symmetry:
    """One symmetry: transformations applied together, e.g. `mirror + swap B W`."""

    pos: Pos
    parts: tuple[tuple[Name, ...], ...]


@dataclass(frozen=True)
class SymmetryDecl:
    pos: Pos
    symmetries: tuple[Symmetry, ...]


@dataclass(frozen=True)
class Directive:
    """One-word directives: `search MODE`, `show STYLE`."""

    pos: Pos
    kind: str  # symmetry, search, show
    words: tuple[Name, ...]


@dataclass(frozen=True)
class Heuristic:
    pos: Pos
    value: Expr


@dataclass(frozen=True)
class If:
    pos: Pos
    condition: Expr
    then: tuple[Statement, ...]
    otherwise: tuple[Statement, ...]


Statement = (
    PuzzleTitle
    | About
    | Param
    | Require
    | Board
    | Direction
    | Route
    | Carrier
    | Cursor
    | PieceDecl
    | PiecesDecl
    | GroupDecl
    | LayoutDecl
    | ComputedLayout
    | PlaceLayout
    | GoalWhen
    | Move
    | Safe
    | Directive
    | Heuristic
    | If
)


@dataclass(frozen=True)
class Spec:
    filename: str
    source: str
    statements: tuple[Statement, ...]
