"""The syntax model: immutable objects built from a spec, each with its source position.

It is what the spec *says*, before parameters are applied; `elaborate` turns it into the
puzzle model for one choice of parameters.
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
class VarRef:
    """`?x` in an expression: a move's variable."""

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
    name_pos: Pos


@dataclass(frozen=True)
class Index:
    pos: Pos
    obj: Expr
    index: Expr


@dataclass(frozen=True)
class ListExpr:
    pos: Pos
    items: tuple[Expr, ...]


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
    negated: bool = False


@dataclass(frozen=True)
class IsKind:
    pos: Pos
    operand: Expr
    kind: Name
    negated: bool = False


@dataclass(frozen=True)
class Location:
    """`here` (place None), `at PLACE` or `at ?p` (var True)."""

    pos: Pos
    place: str | None
    var: bool = False


@dataclass(frozen=True)
class Located:
    pos: Pos
    operand: Expr
    location: Location


@dataclass(frozen=True)
class Binder:
    """What a quantifier or aggregate ranges over: `KIND [VAR] [LOCATION]` (kind_first), or
    `[KIND] VAR in COLLECTION, ...`."""

    pos: Pos
    kind: Name | None
    var: Name | None
    location: Location | None
    collections: tuple[Expr, ...] | None


@dataclass(frozen=True)
class Quantified:
    """`every|some|no BINDER: BODY`; without a body, `some KIND is LOCATION`."""

    pos: Pos
    quantifier: str
    binder: Binder
    body: Expr | None


@dataclass(frozen=True)
class Aggregate:
    """`count(BINDER [if COND])`, `sum(EXPR for BINDER [if COND])`, `min(...)`, `max(...)`."""

    pos: Pos
    function: str
    value: Expr | None
    binder: Binder
    condition: Expr | None


Expr = (
    Num
    | Str
    | Bool
    | Name
    | VarRef
    | Call
    | Attr
    | Index
    | ListExpr
    | Unary
    | Binary
    | Range
    | IsEmpty
    | IsKind
    | Located
    | Quantified
    | Aggregate
)

# ---- layouts and patterns -------------------------------------------------------------


@dataclass(frozen=True)
class Cells:
    """A word of cell symbols, e.g. `BBB_WWW`, or the name of a text parameter."""

    pos: Pos
    text: str


@dataclass(frozen=True)
class Wild:
    pos: Pos


@dataclass(frozen=True)
class NoCells:
    """`.` in a picture: squares with no cell (one per dot)."""

    pos: Pos
    count: int


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


LayoutItem = Cells | Wild | NoCells | Var | Group | Repeat


@dataclass(frozen=True)
class Layout:
    pos: Pos
    items: tuple[LayoutItem, ...]


# ---- moves ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rewrite:
    """`LHS -> RHS [along DIRS | in SHAPE]`; each side is one or more windows separated by `...`."""

    pos: Pos
    lhs: tuple[Layout, ...]
    rhs: tuple[Layout, ...]
    along: tuple[Name, ...] | None
    shape: Name | None


@dataclass(frozen=True)
class SlideForm:
    """`step|slide PIECE along DIRS [until blocked]`."""

    pos: Pos
    mode: str  # step, slide, until
    subject: Var | Name
    along: tuple[Name, ...]


@dataclass(frozen=True)
class Carry:
    pos: Pos
    load: Range
    carrier: Name
    with_: tuple[Name, ...]
    only: tuple[Name, ...]


@dataclass(frozen=True)
class Take:
    pos: Pos
    var: Var
    source: Name | Var | Num


@dataclass(frozen=True)
class Put:
    pos: Pos
    what: Var | Cells
    target: Name | Var | Num
    on: bool = False  # `put X on P` (a place) rather than `put X at C`


@dataclass(frozen=True)
class Advance:
    pos: Pos
    counter: Name
    amount: Expr | Var
    along: Name | None


@dataclass(frozen=True)
class SetCounter:
    pos: Pos
    counter: Name | Var
    value: Expr
    add: bool = False


@dataclass(frozen=True)
class Let:
    pos: Pos
    name: Name
    value: Expr


@dataclass(frozen=True)
class Toggle:
    pos: Pos
    first: LayoutItem
    second: LayoutItem | None
    shape: Name
    anchor: Var | None


Action = Take | Put | Advance | SetCounter | Let | Toggle
Form = Rewrite | SlideForm | Carry | None


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
    """`board line N`, `board ring N`, `board grid R x C [where COND]`, `board places A, B`,
    `board graph a, b, ...`."""

    pos: Pos
    shape: str  # line, grid, ring, places, graph
    sizes: tuple[Expr, ...]
    names: tuple[Name, ...] = ()
    where: Expr | None = None


@dataclass(frozen=True)
class BoardPicture:
    pos: Pos
    rows: tuple[Layout, ...]


@dataclass(frozen=True)
class PlacesDecl:
    pos: Pos
    names: tuple[Name, ...]
    stack: bool


@dataclass(frozen=True)
class Vector:
    """A step `(dr, dc)`, a leap `leap(a, b)`, a direction's name, or a link `a -> b` / `a - b`."""

    pos: Pos
    kind: str  # step, leap, name, link
    a: Expr | None = None
    b: Expr | None = None
    name: str = ""
    source: Name | None = None
    target: Name | None = None
    both_ways: bool = False


@dataclass(frozen=True)
class Direction:
    pos: Pos
    name: str
    vectors: tuple[Vector, ...]


@dataclass(frozen=True)
class ShapeDecl:
    pos: Pos
    name: str
    vectors: tuple[Vector, ...]


@dataclass(frozen=True)
class Links:
    pos: Pos
    links: tuple[Vector, ...]


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
    place_pos: Pos


@dataclass(frozen=True)
class Cursor:
    pos: Pos
    start: Expr


@dataclass(frozen=True)
class CounterDecl:
    pos: Pos
    name: str
    start: Expr
    low: Expr
    high: Expr
    doc: str


@dataclass(frozen=True)
class PieceDecl:
    """`piece SYMBOL [KIND] ["description"] [per GROUP] [drawn "glyph"] [with A = E, ...] [block [R x C]]`."""

    pos: Pos
    symbol: str
    kind: str | None
    description: str | None
    per_group: str | None
    drawn: str | None
    attributes: tuple[tuple[Name, Expr], ...] = ()
    block: bool = False
    block_size: tuple[Expr, Expr] | None = None


@dataclass(frozen=True)
class PiecesDecl:
    """`pieces EXPR`: one distinct piece per character of a text, or per number of a range/list."""

    pos: Pos
    source: Expr
    description: str | None
    options: tuple[tuple[str, object, Pos], ...] = ()


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
    picture: bool = False


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
    contents: Layout | Expr | None  # None: everyone; Expr: computed (`= EXPR`)


@dataclass(frozen=True)
class GoalWhen:
    pos: Pos
    condition: Expr


@dataclass(frozen=True)
class Move:
    pos: Pos
    name: str
    form: Form
    actions: tuple[Action, ...]
    more_directions: tuple[Name, ...]
    until: Pos | None
    guards: tuple[Expr, ...]
    costs: tuple[Expr, ...]


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
    kind: str  # search, show
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
    | BoardPicture
    | PlacesDecl
    | Direction
    | ShapeDecl
    | Links
    | Route
    | Carrier
    | Cursor
    | CounterDecl
    | PieceDecl
    | PiecesDecl
    | GroupDecl
    | LayoutDecl
    | ComputedLayout
    | PlaceLayout
    | GoalWhen
    | Move
    | Safe
    | SymmetryDecl
    | Directive
    | Heuristic
    | If
)


@dataclass(frozen=True)
class Spec:
    filename: str
    source: str
    statements: tuple[Statement, ...]
