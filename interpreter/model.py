"""The puzzle model: one spec with its parameters applied, everything concrete.

`language.elaborate` builds it from the syntax model; `compiler` turns it into fast moves.
Cell contents are small integers: 0 is an empty cell, piece k is k (1-based).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import Pos

EMPTY = 0

# Presentation hints (`show ...`): how a solution is drawn when the board's default is not enough.
SHOW_BOARD = "board"
SHOW_LADDER = "ladder"  # a line whose moves swap neighbours, drawn as an amida ladder
SHOW_CIRCLE = "circle"  # a ring of numbers, drawn as the number-circle article prints it


@dataclass(frozen=True)
class PieceType:
    code: int
    symbol: str
    kind: str
    description: str
    glyph: str
    value: int | None = None  # numbered pieces (`pieces 0..n-1`) carry their number


@dataclass(frozen=True)
class Lit:
    """A cell that must hold (or will hold) exactly this content."""

    code: int


@dataclass(frozen=True)
class AnyCell:
    """`?`: on the left of a move, any content; on the right, "left as it was"."""


@dataclass(frozen=True)
class Bind:
    """`?x`: on the left, any piece (not empty), remembered as x; on the right, that piece."""

    name: str


CellPattern = Lit | AnyCell | Bind
Window = tuple[CellPattern, ...]


@dataclass(frozen=True)
class BoardShape:
    """A rectangle of cells; a line is one row, a ring is one row whose ends meet."""

    kind: str  # line, grid, ring
    rows: int
    cols: int

    @property
    def size(self) -> int:
        return self.rows * self.cols

    @property
    def wraps(self) -> bool:
        return self.kind == "ring"


@dataclass(frozen=True)
class RewriteRule:
    """Replace the windows `lhs` by `rhs`; every window runs along the same direction."""

    name: str
    pos: Pos
    lhs: tuple[Window, ...]
    rhs: tuple[Window, ...]
    directions: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Symmetry:
    """A symmetry the spec declares: cell i goes to cells[i], piece code c becomes codes[c]."""

    name: str
    pos: Pos
    cells: tuple[int, ...]
    codes: tuple[int, ...]

    def apply(self, state: tuple[int, ...] | bytes) -> tuple[int, ...]:
        out = [0] * len(state)
        for i, code in enumerate(state):
            out[self.cells[i]] = self.codes[code]
        return tuple(out)


@dataclass(frozen=True)
class Puzzle:
    title: str
    about: str
    params: dict[str, object]
    board: BoardShape
    pieces: tuple[PieceType, ...]
    start: tuple[int, ...]
    goal: tuple[CellPattern, ...]
    rules: tuple[RewriteRule, ...]
    goal_pos: Pos = field(default=Pos(0, 0))
    symmetries: tuple[Symmetry, ...] = ()
    heuristic: object = None  # a syntax.Expr: an admissible estimate of the moves still needed
    show: str = "board"
    param_env: dict[str, object] = field(default_factory=dict)

    def piece(self, code: int) -> PieceType:
        return self.pieces[code - 1]

    def symbol(self, code: int) -> str:
        return "_" if code == 0 else self.pieces[code - 1].symbol

    @property
    def goal_is_concrete(self) -> bool:
        return all(isinstance(c, Lit) for c in self.goal)


# ---- boards of places (river crossings) ------------------------------------------------


@dataclass(frozen=True)
class Person:
    """One piece on a board of places. Pieces with the same name are interchangeable."""

    name: str  # H1, W1, M
    symbol: str  # H, W, M
    kind: str  # husband, wife, missionary
    glyph: str
    attributes: tuple[tuple[str, int | str], ...] = ()

    def attribute(self, name: str) -> int | str | None:
        return dict(self.attributes).get(name)


@dataclass(frozen=True)
class CarryRule:
    """`carry LOW..HIGH in CARRIER [with KIND] [only KIND]`."""

    name: str
    pos: Pos
    low: int
    high: int
    with_: tuple[str, ...]
    only: tuple[str, ...]


@dataclass(frozen=True)
class SafetyRule:
    """A predicate every place (scope "places"), every load ("loads") or both must satisfy."""

    pos: Pos
    scope: str
    condition: object  # a syntax.Expr, compiled by compiler.predicates
    text: str  # the rule's source, for explanations


@dataclass(frozen=True)
class PlacesPuzzle:
    title: str
    about: str
    params: dict[str, object]
    places: tuple[str, ...]
    routes: frozenset[tuple[int, int]]  # (from place, to place) the carrier may travel
    carrier: str
    carrier_start: int
    people: tuple[Person, ...]
    start: tuple[int, ...]  # the place of each person
    goal: tuple[tuple[str, int, int], ...]  # (piece name, place, how many must end there)
    rules: tuple[CarryRule, ...]
    safety: tuple[SafetyRule, ...]
    param_env: dict[str, object] = field(default_factory=dict)


# ---- placement puzzles (numbers on a circle) ---------------------------------------------


@dataclass(frozen=True)
class ActionRule:
    """`take ?t from hand, [put ?t at cursor,] [advance cursor by AMOUNT along DIR] [if GUARD]`;
    `amount` None means "by the value of the piece taken"."""

    name: str
    pos: Pos
    put: bool
    amount: int | None
    direction: tuple[int, int] | None
    guard: object  # a syntax.Expr or None


@dataclass(frozen=True)
class PlacementPuzzle:
    title: str
    about: str
    params: dict[str, object]
    board: BoardShape
    pieces: tuple[PieceType, ...]
    start: tuple[int, ...]  # the board's cells at the start (0: empty)
    hand: tuple[int, ...]  # how many of each piece (index code - 1) the hand holds at the start
    cursor: int
    rules: tuple[ActionRule, ...]
    safety: tuple[object, ...]  # syntax.Expr, checked on every state
    goal: object  # a syntax.Expr
    all_solutions: bool
    reversal: bool
    show: str
    param_env: dict[str, object] = field(default_factory=dict)
