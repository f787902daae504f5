"""The puzzle model: one spec with its parameters applied, everything concrete and checked.

There is one model for every puzzle. A state is cells (each holding one piece or nothing),
places (bags and stacks holding many) and counters (numbers; a cursor holds a cell, a
carrier a place). A move chooses, checks and changes (see docs/language.md, "The model");
its form says how it chooses, and all forms share guards, effects and costs.

Cell contents are small integers ("codes"): 0 is empty, piece k is k (1-based), and a block
that covers several cells writes the code of one of its *parts* in each of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from ..errors import NOWHERE, Pos
from .board import Board, Direction, Vector
from .expr import Expr
from .patterns import PatternSet
from .pieces import PieceSet

EMPTY = 0
ANY = -1  # a goal cell that may hold anything

# Presentation hints (`show ...`).
SHOW_BOARD = "board"
SHOW_LADDER = "ladder"  # a line whose moves swap neighbours, drawn as an amida ladder
SHOW_CIRCLE = "circle"  # a ring of numbers, drawn as the number-circle article prints it
SHOW_BANKS = "banks"  # places side by side

# What a search answers (`search ...`).
SEARCH_MODES = ("shortest", "cheapest", "count", "reach", "all", "any")
SEARCH_METHODS = ("bfs", "bidirectional", "astar", "idastar")  # `search shortest by METHOD`

# Counter roles. A filling's progress (how many of its things are decided) is a counter too,
# of the state but not shown.
NUMBER, CURSOR, CARRIER, PROGRESS = "number", "cursor", "carrier", "progress"


class PieceType(NamedTuple):
    code: int
    symbol: str
    kind: str
    description: str
    glyph: str
    attributes: tuple[tuple[str, int | str], ...] = ()
    value: int | None = None  # numbered pieces (`pieces 1..n`) are their number
    shape: tuple[Vector, ...] | None = None  # a block's cells from its anchor (the first), reading order

    def attribute(self, name: str) -> int | str | None:
        """A declared attribute, or the piece's `symbol` or `kind` (text): what lets a rule
        compare what two cells hold (`a.symbol == b.symbol`)."""
        if name == "symbol":
            return self.symbol
        if name == "kind":
            return self.kind
        return dict(self.attributes).get(name)

    @property
    def width(self) -> int:
        return 1 if self.shape is None else 1 + max(c for _, c in self.shape) - min(c for _, c in self.shape)

    @property
    def height(self) -> int:
        return 1 if self.shape is None else 1 + max(r for r, _ in self.shape) - min(r for r, _ in self.shape)


class Part(NamedTuple):
    """What a cell code stands for: a part (`offset` into the shape) of piece `piece`."""

    piece: int
    offset: int


class Place(NamedTuple):
    name: str
    stack: bool = False


class Counter(NamedTuple):
    name: str
    low: int
    high: int
    start: int
    role: str = NUMBER
    description: str = ""
    pos: Pos = NOWHERE


class State(NamedTuple):
    """A state as data: each cell's code, each counter's value (a cursor: a cell or NONE; a
    carrier: a place), each place's contents (a bag: how many of each piece, indexed by
    code - 1; a stack: its codes, bottom first)."""

    cells: tuple[int, ...]
    counters: tuple[int, ...]
    places: tuple[tuple[int, ...], ...]


class PlaceGoal(NamedTuple):
    place: int
    at_least: tuple[int, ...] | None  # how many of each piece must be there (index code - 1)
    sequence: tuple[int, ...] | None  # a stack's exact contents, bottom first


class Goal(NamedTuple):
    cells: tuple[int, ...] | None  # per cell: a code, EMPTY, or ANY
    places: tuple[PlaceGoal, ...]
    conditions: tuple[Expr, ...]
    pos: Pos

    @property
    def one_state_of_cells(self) -> bool:
        """Does the goal fix every cell and say nothing else?"""
        return self.cells is not None and ANY not in self.cells and not self.places and not self.conditions


# ---- rewrite patterns


@dataclass(frozen=True)
class Lit:
    """A cell that must hold (or will hold) exactly this code."""

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


# ---- move forms: how a move chooses


class Rewrite(NamedTuple):
    lhs: tuple[Window, ...]
    rhs: tuple[Window, ...]
    directions: tuple[Direction, ...]  # along (empty with a shape)
    shape: tuple[Vector, ...] | None = None  # `in SHAPE`: one window over the shape's cells
    anchors: frozenset[int] | None = None  # `from CELL, ...`: the cells the pattern's first cell may be


class Slide(NamedTuple):
    """`step`, `slide` or `slide ... until blocked` of a piece (a one-cell piece or a block)."""

    codes: frozenset[int]  # the piece codes that may move
    variable: str | None  # `?b`, bound to the moving piece
    directions: tuple[Direction, ...]
    mode: str  # step | slide | until (blocked) | until_piece (blocked by pieces: the edge stops nothing)
    repeated: bool = False  # the piece goes on by the same move, any number of times: one move


class Carry(NamedTuple):
    low: int
    high: int
    carrier: int  # counter index
    with_: tuple[frozenset[int], ...]  # the load must include one of each
    only: frozenset[int] | None  # every piece aboard is one of these


# ---- actions: what a move changes


class PlaceLoc(NamedTuple):
    place: int


class CellLoc(NamedTuple):
    cell: int


class CursorLoc(NamedTuple):
    counter: int


class VarLoc(NamedTuple):
    """A move variable ranging over places or cells (`?p`, `?c`)."""

    name: str
    slot: int
    over: str  # "place" or "cell"


Loc = PlaceLoc | CellLoc | CursorLoc | VarLoc


class Take(NamedTuple):
    slot: int  # the variable bound to the piece taken
    name: str
    source: Loc


class Put(NamedTuple):
    target: Loc
    slot: int | None  # a piece taken earlier in the move
    code: int | None  # or a new piece of this code


class Advance(NamedTuple):
    counter: int
    amount: Expr
    direction: Direction | None  # None: the order cells are listed in


class SetCounter(NamedTuple):
    counter: int | None  # a counter, or
    slot: int | None  # a variable ranging over the number counters
    value: Expr
    pos: Pos


class Let(NamedTuple):
    slot: int
    value: Expr


class Toggle(NamedTuple):
    first: int
    second: int
    shape: tuple[Vector, ...]
    slot: int  # the anchor cell variable
    cut: bool = False  # a neighbourhood: the cells that are on the board (else all must be)


class Cycle(NamedTuple):
    """A permutation of cells, as disjoint cycles: what each cell of a cycle holds moves on to
    the next cell of it (the last cell's to the first), all at once."""

    cycles: tuple[tuple[int, ...], ...]

    def pairs(self) -> tuple[tuple[int, int], ...]:
        """(from, to) for every cell of every cycle."""
        return tuple((c[i], c[(i + 1) % len(c)]) for c in self.cycles for i in range(len(c)))

    def inverse(self) -> Cycle:
        return Cycle(tuple((c[0], *reversed(c[1:])) for c in self.cycles))


Action = Take | Put | Advance | SetCounter | Let | Toggle | Cycle


class FillVar(NamedTuple):
    """One thing a filling decides: a cell (the piece codes it may hold, 0 for empty) or a
    counter (the numbers it may take)."""

    cell: int | None
    counter: int | None
    values: tuple[int, ...]
    pos: Pos


class FillForm(NamedTuple):
    """A filling (`fill ...`), as moves: each decides the next open thing, in the order they
    are listed (cells in reading order, then counters), counting them in the counter
    `progress`. A puzzle with a fill has no other moves, and its solutions are the complete
    fillings that keep every rule."""

    vars: tuple[FillVar, ...]
    progress: int


class TilePiece(NamedTuple):
    """A piece a tiling places once: each way it may lie (its squares as steps from the first
    in reading order), as drawn, turned and flipped as the spec allows, each way once."""

    code: int
    ways: tuple[tuple[Vector, ...], ...]
    pos: Pos


class TileForm(NamedTuple):
    """A tiling (`tile ...`), as moves: each places one more piece so that it covers the first
    cell still open (in reading order), counting the pieces placed in the counter `progress`.
    Every tiling is reached by one sequence of such moves. A puzzle with a tiling has no
    other moves; its solutions are the complete coverings of `cells`, each piece placed once
    (the pieces' squares add up to the cells)."""

    cells: tuple[int, ...]
    pieces: tuple[TilePiece, ...]
    progress: int


class Variable(NamedTuple):
    """A move variable: its slot in the move's environment and what it ranges over
    (piece, cell, place, counter, number)."""

    name: str
    slot: int
    type: str
    pos: Pos


class Move(NamedTuple):
    name: str
    pos: Pos
    form: Rewrite | Slide | Carry | FillForm | TileForm | None
    actions: tuple[Action, ...]
    guard: Expr | None
    cost: Expr | None
    variables: tuple[Variable, ...]
    slots: int  # size of the move's environment (variables, lets, quantifier variables)
    text: str = ""
    named: str = ""  # what tells this move from the others of its name (a run's extent: `flip 4`)

    @property
    def counters_named(self) -> frozenset[int]:
        """The counters the move changes by name: a counter variable never takes one of them
        (the move's changes are made at once, and two changes of one counter would lose one)."""
        return frozenset(a.counter for a in self.actions if isinstance(a, SetCounter) and a.counter is not None)


class SafetyRule(NamedTuple):
    """A condition on every state ("state"), on each place ("places"), on each carrier load
    ("loads"), or both of the last ("everywhere")."""

    pos: Pos
    scope: str
    condition: Expr
    slots: int
    text: str


class Rule(NamedTuple):
    """`rule: CONDITION`: a condition on a complete filling (every solution keeps it)."""

    pos: Pos
    condition: Expr
    slots: int
    text: str


class Objective(NamedTuple):
    """`maximize EXPR` / `minimize EXPR`: of a filling's solutions, only those where the number
    is largest (smallest) are wanted. `name` is how the output calls it (the spec's text for
    it, or the expression as written)."""

    pos: Pos
    maximize: bool
    value: Expr
    slots: int
    name: str

    @property
    def best(self) -> str:
        """`largest` or `smallest`: the word before the name in the output."""
        return "largest" if self.maximize else "smallest"

    def said(self, value: int) -> str:
        """The best value as the output says it: `largest MONEY = 10876`."""
        return f"{self.best} {self.name} = {value}"

    def better(self, a: int, b: int) -> bool:
        """Whether value a is better than b."""
        return a > b if self.maximize else a < b


class Symmetry(NamedTuple):
    """A declared symmetry: cell i goes to cells[i], cell code c becomes codes[c], place p
    becomes places[p]; counters are left as they are."""

    name: str
    pos: Pos
    cells: tuple[int, ...]
    codes: tuple[int, ...]
    places: tuple[int, ...]


class Puzzle(NamedTuple):
    title: str
    about: str
    params: dict[str, object]
    board: Board | None
    pieces: tuple[PieceType, ...]
    parts: tuple[Part, ...]  # indexed by cell code; parts[0] stands for "empty"
    places: tuple[Place, ...]
    routes: frozenset[tuple[int, int]]
    counters: tuple[Counter, ...]
    start: State
    goal: Goal
    moves: tuple[Move, ...]
    safety: tuple[SafetyRule, ...] = ()
    rules: tuple[Rule, ...] = ()  # a filling's
    objective: Objective | None = None  # a filling's `maximize` / `minimize`
    symmetries: tuple[Symmetry, ...] = ()
    heuristic: Expr | None = None
    heuristic_slots: int = 0
    patterns: PatternSet | None = None  # the pattern databases a derived heuristic reads (`heuristics`)
    alone: PieceSet | None = None  # the one-piece tables a derived heuristic reads (`heuristics.pieces`)
    search: str = "shortest"
    search_pos: Pos = NOWHERE
    method: str = "auto"  # how the shortest solution is searched (`search shortest by idastar`)
    method_pos: Pos = NOWHERE  # where the spec names it
    show: str = SHOW_BOARD
    goal_slots: int = 0
    source: str = ""  # the spec's text and file name, for errors found during a search
    filename: str = ""
    given: tuple[tuple[str, str], ...] = ()  # the parameters given from outside, as given: the same puzzle again
    in_use: tuple[str, ...] | None = None  # the parameters this puzzle reads (None: all of them)

    def __repr__(self) -> str:
        return f"<Puzzle {self.summary}>"

    @property
    def summary(self) -> str:
        """The puzzle in one line, for a repr (the whole tuple, board and tables, would fill a
        notebook's screen): its title, the parameters as set, and its size."""
        params = "".join(f" {name}={_written(value)}" for name, value in self.shown_params.items())
        size = [_counted(self.cell_count, "cell")] if self.board is not None else []
        size.append(_counted(len(self.pieces), "piece"))
        size += [_counted(len(self.places), "place")] if self.places else []
        size += [_counted(len(self.counters), "counter")] if self.counters else []
        size += [_counted(len(self.moves), "move")] if self.moves else []
        return f"{self.title!r}{params}: {', '.join(size)}"

    @property
    def shown_params(self) -> dict[str, object]:
        """The parameters a title shows: those that take part in the puzzle as set, but a list of
        lists (a nonogram's or a Kakuro's clues: the puzzle's data, which would fill a line)."""
        return {
            k: v
            for k, v in self.params.items()
            if (self.in_use is None or k in self.in_use)
            and not (isinstance(v, tuple) and v and isinstance(v[0], tuple))
        }

    @property
    def cell_count(self) -> int:
        return self.board.size if self.board is not None else 0

    def piece(self, code: int) -> PieceType:
        """The piece a cell code (or piece code) stands for."""
        return self.pieces[self.parts[code].piece - 1]

    def symbol(self, code: int) -> str:
        return "_" if code == EMPTY else self.piece(code).symbol

    def counter_index(self, role: str) -> int | None:
        return next((i for i, c in enumerate(self.counters) if c.role == role), None)

    @property
    def fill(self) -> FillForm | TileForm | None:
        """The filling or the tiling, for a logic puzzle (its one move)."""
        return next((m.form for m in self.moves if isinstance(m.form, (FillForm, TileForm))), None)

    @property
    def has_blocks(self) -> bool:
        return any(p.shape is not None for p in self.pieces)


def _written(value: object) -> str:
    """A parameter's value as a spec writes it (`-p` takes the same)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, range):
        return f"{value.start}..{value.stop - 1}"
    if isinstance(value, tuple):
        return ",".join(str(item) for item in value)
    if isinstance(value, str):
        return repr(value)
    return str(value)


def _counted(number: int, thing: str) -> str:
    return f"{number} {thing}" if number == 1 else f"{number} {thing}s"
