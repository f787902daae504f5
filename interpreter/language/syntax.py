"""The syntax model: immutable objects built from a spec, each with its source position.

It is what the spec *says*, before parameters are applied; `elaborate` turns it into the
puzzle model for one choice of parameters. The nodes are named tuples: immutable, and cheap
to define, which keeps the command's start-up short.
"""

from __future__ import annotations

from typing import NamedTuple

from ..errors import Pos

# ---- expressions --------------------------------------------------------------------


class Num(NamedTuple):
    pos: Pos
    value: int


class Str(NamedTuple):
    pos: Pos
    value: str


class Bool(NamedTuple):
    pos: Pos
    value: bool


class Name(NamedTuple):
    pos: Pos
    name: str


class VarRef(NamedTuple):
    """`?x` in an expression: a move's variable."""

    pos: Pos
    name: str


class Call(NamedTuple):
    pos: Pos
    name: str
    args: tuple[Expr, ...]


class Attr(NamedTuple):
    pos: Pos
    obj: Expr
    name: str
    name_pos: Pos


class Index(NamedTuple):
    pos: Pos
    obj: Expr
    at: Expr


class ListExpr(NamedTuple):
    pos: Pos
    items: tuple[Expr, ...]


class Unary(NamedTuple):
    pos: Pos
    op: str  # "-" or "not"
    operand: Expr


class Binary(NamedTuple):
    pos: Pos
    op: str  # + - * / % == != < <= > >= and or in
    left: Expr
    right: Expr


class Range(NamedTuple):
    pos: Pos
    low: Expr
    high: Expr


class IsEmpty(NamedTuple):
    pos: Pos
    operand: Expr
    negated: bool = False


class IsKind(NamedTuple):
    pos: Pos
    operand: Expr
    kind: Name
    negated: bool = False


class Location(NamedTuple):
    """`here` (place None), `at PLACE` or `at ?p` (var True)."""

    pos: Pos
    place: str | None
    var: bool = False


class Located(NamedTuple):
    pos: Pos
    operand: Expr
    location: Location


class Binder(NamedTuple):
    """What a quantifier or aggregate ranges over: `KIND [VAR] [LOCATION]` (kind_first), or
    `[KIND] VAR in COLLECTION, ...`."""

    pos: Pos
    kind: Name | None
    var: Name | None
    location: Location | None
    collections: tuple[Expr, ...] | None


class Quantified(NamedTuple):
    """`every|some|no BINDER: BODY`; without a body, `some KIND is LOCATION`."""

    pos: Pos
    quantifier: str
    binder: Binder
    body: Expr | None


class Aggregate(NamedTuple):
    """`count(BINDER [if COND])`, `sum(EXPR for BINDER [if COND])`, `min(...)`, `max(...)`."""

    pos: Pos
    function: str
    value: Expr | None
    binder: Binder
    condition: Expr | None


class AllDifferent(NamedTuple):
    """`all different(X, ...)`: the things listed (cells' pieces, numbers) pairwise different."""

    pos: Pos
    items: tuple[Expr, ...]


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
    | AllDifferent
)

# ---- layouts and patterns -------------------------------------------------------------


class Cells(NamedTuple):
    """A word of cell symbols, e.g. `BBB_WWW`, or the name of a text parameter."""

    pos: Pos
    text: str


class Wild(NamedTuple):
    pos: Pos


class NoCells(NamedTuple):
    """`.` in a picture: squares with no cell (one per dot)."""

    pos: Pos
    squares: int


class Var(NamedTuple):
    pos: Pos
    name: str


class Group(NamedTuple):
    pos: Pos
    items: tuple[LayoutItem, ...]


class Repeat(NamedTuple):
    pos: Pos
    item: LayoutItem
    times: Expr


LayoutItem = Cells | Wild | NoCells | Var | Group | Repeat


class Layout(NamedTuple):
    pos: Pos
    items: tuple[LayoutItem, ...]


# ---- moves ------------------------------------------------------------------------------


class Rewrite(NamedTuple):
    """`LHS -> RHS [along DIRS | in SHAPE]`; each side is one or more windows separated by `...`."""

    pos: Pos
    lhs: tuple[Layout, ...]
    rhs: tuple[Layout, ...]
    along: tuple[Name, ...] | None
    shape: Name | None


class SlideForm(NamedTuple):
    """`step|slide PIECE along DIRS [until blocked]`."""

    pos: Pos
    mode: str  # step, slide, until
    subject: Var | Name
    along: tuple[Name, ...]


class Carry(NamedTuple):
    pos: Pos
    load: Range
    carrier: Name
    with_: tuple[Name, ...]
    only: tuple[Name, ...]


class Take(NamedTuple):
    pos: Pos
    var: Var
    source: Name | Var | Num


class Put(NamedTuple):
    pos: Pos
    what: Var | Cells
    target: Name | Var | Num
    on: bool = False  # `put X on P` (a place) rather than `put X at C`


class Advance(NamedTuple):
    pos: Pos
    counter: Name
    amount: Expr | Var
    along: Name | None


class SetCounter(NamedTuple):
    pos: Pos
    counter: Name | Var
    value: Expr
    add: bool = False


class Let(NamedTuple):
    pos: Pos
    name: Name
    value: Expr


class Toggle(NamedTuple):
    pos: Pos
    first: LayoutItem
    second: LayoutItem | None
    shape: Name
    anchor: Var | None


class Cycle(NamedTuple):
    """`cycle (a b c d) (e f g h)`: what each cell holds moves on to the next of its cycle
    (the last one's to the first); or `cycle U * k`, move U's cycles made k times (k < 0:
    undone)."""

    pos: Pos
    cycles: tuple[tuple[Name, ...], ...]
    of: Name | None = None
    power: int = 1


class Run(NamedTuple):
    """`reverse A .. B` (the cells from A to B in the opposite order) or `rotate A .. B` (what
    each holds one cell on towards B, B's to A); an end may be a variable (`?k`), which then
    ranges over the cells: a move for every run it makes; an end written `(EXPR)`, or a
    parameter's name where no cell has that name, is the cell its value names."""

    pos: Pos
    kind: str  # reverse | rotate
    first: Expr  # a Name, a Var or another expression
    last: Expr


Action = Take | Put | Advance | SetCounter | Let | Toggle | Cycle | Run
Form = Rewrite | SlideForm | Carry | None


# ---- statements ---------------------------------------------------------------------------


class PuzzleTitle(NamedTuple):
    pos: Pos
    title: str


class About(NamedTuple):
    pos: Pos
    text: str


class Param(NamedTuple):
    pos: Pos
    name: str
    default: Expr
    doc: str
    choices: tuple[Expr, ...] = ()  # `one of A, B, C`: the only values the parameter may take


class Require(NamedTuple):
    pos: Pos
    condition: Expr
    message: str | None


class Board(NamedTuple):
    """`board line N`, `board ring N`, `board grid R x C [where COND]`, `board places A, B`,
    `board graph a, b, ...`."""

    pos: Pos
    shape: str  # line, grid, ring, places, graph
    sizes: tuple[Expr, ...]
    names: tuple[Name, ...] = ()
    where: Expr | None = None


class BoardPicture(NamedTuple):
    pos: Pos
    rows: tuple[Layout, ...]


class PlacesDecl(NamedTuple):
    pos: Pos
    names: tuple[Name, ...]
    stack: bool


class Vector(NamedTuple):
    """A step `(dr, dc)`, a leap `leap(a, b)`, a direction's name, or a link `a -> b` / `a - b`."""

    pos: Pos
    kind: str  # step, leap, name, link
    a: Expr | None = None
    b: Expr | None = None
    name: str = ""
    source: Name | None = None
    target: Name | None = None
    both_ways: bool = False


class Direction(NamedTuple):
    pos: Pos
    name: str
    vectors: tuple[Vector, ...]


class ShapeDecl(NamedTuple):
    """`shape NAME = ...` (every cell must be on the board) or `neighbourhood NAME = ...`
    (the cells that are on the board: cut at its edges)."""

    pos: Pos
    name: str
    vectors: tuple[Vector, ...]
    cut: bool = False


class Links(NamedTuple):
    pos: Pos
    links: tuple[Vector, ...]


class Route(NamedTuple):
    pos: Pos
    source: str
    target: str
    both_ways: bool


class Carrier(NamedTuple):
    pos: Pos
    name: str
    place: str
    place_pos: Pos


class Cursor(NamedTuple):
    pos: Pos
    start: Expr


class CounterDecl(NamedTuple):
    pos: Pos
    name: str
    start: Expr
    low: Expr
    high: Expr
    doc: str


class PieceDecl(NamedTuple):
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
    shape: tuple[Layout, ...] | None = None  # `shape:` and a picture: a polyomino for tiling
    kind_pos: Pos | None = None  # where the kind is written (None: no kind, the symbol is the kind)


class PiecesDecl(NamedTuple):
    """`pieces EXPR`: one distinct piece per character of a text, or per number of a range/list."""

    pos: Pos
    source: Expr
    description: str | None
    options: tuple[tuple[str, object, Pos], ...] = ()


class GroupDecl(NamedTuple):
    pos: Pos
    name: str
    members: Expr


class LayoutDecl(NamedTuple):
    """`start LAYOUT`, `goal LAYOUT` or the picture form (one layout per row)."""

    pos: Pos
    which: str  # start or goal
    rows: tuple[Layout, ...]
    picture: bool = False


class ComputedLayout(NamedTuple):
    pos: Pos
    which: str
    value: Expr


class PlaceLayout(NamedTuple):
    pos: Pos
    which: str
    place: str
    contents: Layout | Expr | None  # None: everyone; Expr: computed (`= EXPR`)


class GoalWhen(NamedTuple):
    pos: Pos
    condition: Expr


class CostParts(NamedTuple):
    """`cost E1, E2, ...`: a cost of several parts, compared in order (the first decides)."""

    pos: Pos
    parts: tuple[Expr, ...]


class Move(NamedTuple):
    pos: Pos
    name: str
    form: Form
    actions: tuple[Action, ...]
    more_directions: tuple[Name, ...]
    until: Pos | None
    guards: tuple[Expr, ...]
    costs: tuple[Expr | CostParts, ...]
    anchors: tuple[tuple[Name, ...], ...] = ()  # `from CELL, ...`: where the pattern's first cell may lie
    repeated: Pos | None = None  # `repeated`: a piece's whole path by this move is one move
    until_pieces: bool = False  # `until blocked by pieces`: only a piece stops the slide, not the edge


class Safe(NamedTuple):
    pos: Pos
    scope: str  # board, everywhere, places, loads
    conditions: tuple[Expr, ...]


class FillItem(NamedTuple):
    """What a fill may put: a piece (its symbol or kind), or numbered pieces `a..b` (`high`
    given); for counters, the numbers `a..b`."""

    pos: Pos
    low: Expr | Name
    high: Expr | None = None


class Fill(NamedTuple):
    """`fill TARGETS with ITEMS [or empty]`: cells (or `cells`: every cell empty at the
    start) to fill with pieces, or counters to find."""

    pos: Pos
    targets: tuple[Name, ...]
    items: tuple[FillItem, ...]
    or_empty: bool


class Rule(NamedTuple):
    """`rule: CONDITION`: a condition every solution of a filling keeps."""

    pos: Pos
    conditions: tuple[Expr, ...]


class Boxes(NamedTuple):
    """`boxes R x C`: the grid cut into boxes, a collection of lines."""

    pos: Pos
    rows: Expr
    cols: Expr


class Regions(NamedTuple):
    """`regions:` and a picture of the board: a letter per cell, the cells of one letter a region."""

    pos: Pos
    rows: tuple[Layout, ...]


class Tile(NamedTuple):
    """`tile TARGETS with ITEMS [turned] [and flipped]`: cover the cells (`cells`: every cell
    empty at the start) with the pieces' shapes, each piece once."""

    pos: Pos
    targets: tuple[Name, ...]
    items: tuple[FillItem, ...]
    turned: bool
    flipped: bool


class Symmetry(NamedTuple):
    """One symmetry: transformations applied together, e.g. `mirror + swap B W`."""

    pos: Pos
    parts: tuple[tuple[Name, ...], ...]


class SymmetryDecl(NamedTuple):
    pos: Pos
    symmetries: tuple[Symmetry, ...]


class Directive(NamedTuple):
    """One-word directives: `search MODE`, `show STYLE`."""

    pos: Pos
    kind: str  # search, show
    words: tuple[Name, ...]


class Heuristic(NamedTuple):
    pos: Pos
    value: Expr


class Objective(NamedTuple):
    """`maximize EXPR ["NAME"]` / `minimize EXPR ["NAME"]`: a filling's wanted solutions are
    those where the number is largest (smallest); NAME is what the output calls it."""

    pos: Pos
    sense: str  # maximize, minimize
    value: Expr
    name: str | None


class Level(NamedTuple):
    """`level:` and its rows, each as written (a character a square), with the position of
    its first character."""

    pos: Pos
    rows: tuple[tuple[Pos, str], ...]


class PictureFrom(NamedTuple):
    """`board from "FILE"` (`regions`, `start`, `goal`): a picture whose rows are the lines of
    a file beside the spec; the parser reads it (`picture_files`) and puts the picture it
    stands for in its place."""

    pos: Pos
    which: str  # board, regions, start or goal
    file: str
    file_pos: Pos


class LevelFrom(NamedTuple):
    """`level N from "FILE"`: level N (counting from 1) of a collection file beside the spec.
    The parser reads the file (`levels.read_level_file`) and keeps its levels, each the line
    of the file it starts on and its rows, and the legend that reads them; elaboration, which
    knows N, puts the chosen level's pictures in its place."""

    pos: Pos
    number: Expr
    file: str
    file_pos: Pos
    levels: tuple[tuple[int, tuple[str, ...]], ...] = ()
    legend: tuple[LegendEntry, ...] = ()
    only: bool = False  # `level from "FILE"`, no number: the file holds one level


class LegendEntry(NamedTuple):
    """`"$" = B ?`: what a character of a level stands for at the start, and in the goal."""

    pos: Pos
    char: str
    start: LayoutItem
    goal: LayoutItem | None


class Legend(NamedTuple):
    pos: Pos
    entries: tuple[LegendEntry, ...]


class If(NamedTuple):
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
    | Fill
    | Rule
    | Boxes
    | Regions
    | Tile
    | SymmetryDecl
    | Directive
    | Heuristic
    | Objective
    | Level
    | LevelFrom
    | PictureFrom
    | Legend
    | If
)


class Spec(NamedTuple):
    filename: str
    source: str
    statements: tuple[Statement, ...]
