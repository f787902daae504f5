"""One state at a time, as a person playing sees it: the moves that can be made (in reading
order, each with its words and the state it leads to), the moves a safety rule forbids and
why, and a game: the moves played so far, undone and redone, and the engine's next move of a
shortest solution from wherever the player stands.

Everything here works on the compiled puzzle's own successor functions, so the moves offered
are exactly the moves the searches make: a move the engine would never make cannot be played.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from ..compiler import CompiledPuzzle
from ..engines import RunOptions
from ..questions import Question, ask
from ..render import data
from ..render.explain import rejections
from ..render.glyphs import ASCII, UNICODE
from ..render.moves import describe
from ..runner import answer
from ..search import Limits, SearchResult
from ..search.costs import plain
from ..search.result import LIMIT, SOLVED

LISTED = 1_000  # the most moves `play` lists from one state (the others are counted and said)
NAMED_BETWEEN_POLLS = 256  # moves put in words between two polls of the limits


@dataclass(frozen=True)
class Option:
    """A move that can be made from a state: its rule, what moves (`text`, as `run` prints
    it; `ascii`, as `--ascii` does), the pieces that move (symbol, from, to), its cost where
    the spec gives costs, and the state it leads to."""

    number: int  # the compiled puzzle's number for the move
    rule: str
    text: str
    ascii: str
    movers: tuple[tuple[str, str | None, str | None], ...]
    cost: object
    after: bytes
    at: str | None = None  # a toggle's cell

    @property
    def words(self) -> str:
        """The rule and the move: `jump ○ 3 → 1`, a line of a solution file."""
        return f"{self.rule} {self.text}".rstrip()

    @property
    def ascii_words(self) -> str:
        return f"{self.rule} {self.ascii}".rstrip()


@dataclass(frozen=True)
class Refusal:
    """A move a safety rule forbids here: the move's rule and words, the safety rule's text
    and line, and where it fails (a place, or "the state")."""

    name: str
    text: str
    rule: str
    line: int
    where: str

    @property
    def words(self) -> str:
        return f"{self.name} {self.text}".rstrip()


@dataclass(frozen=True)
class Listing:
    """The legal moves of a state as `play` lists them: the first ones in reading order (at
    most LISTED), and how many there are in all. A filling of two counters of 60,001 values
    each has 60,001 moves from its start: a list a person cannot read, and minutes to put in
    words on the screen's own thread, where `q` then waited."""

    options: list[Option]
    total: int

    @property
    def left_out(self) -> int:
        return self.total - len(self.options)


def option(compiled: CompiledPuzzle, state: bytes, number: int, after: bytes) -> Option:
    """The move `number` from `state` to `after`, in words."""
    label = compiled.label(number, state, after)
    cost = plain(data.compiled_cost(compiled, state, number)) if compiled.has_costs else None
    return Option(
        number,
        label.rule,
        describe(label, compiled, drawn=UNICODE).plain,
        describe(label, compiled, drawn=ASCII).plain,
        label.movers,
        cost,
        after,
        label.at,
    )


def each_option(
    compiled: CompiledPuzzle, state: bytes, limits: Limits | None = None, counted: list[int] | None = None
) -> Iterator[Option]:
    """The legal moves from `state` in reading order (the order `run` would try them), each
    put in words as it is asked for. Under `limits` (a replay's, a listing's): the moves made
    are states generated, counted in `counted[0]` across the states listed, and the limits
    are polled once the state is expanded and every NAMED_BETWEEN_POLLS moves after (a
    state's expansion is one step: the timer of `Limits.armed` stops it inside)."""
    counted = counted if counted is not None else [0]
    successors = compiled.in_reading_order(compiled.expand(state))
    counted[0] += len(successors)
    if limits is not None:
        limits.check(counted[0], stored=False)
    for named, (after, number) in enumerate(successors, 1):
        yield option(compiled, state, number, after)
        if limits is not None and named % NAMED_BETWEEN_POLLS == 0:
            limits.check(counted[0], stored=False)


def options(
    compiled: CompiledPuzzle, state: bytes, limits: Limits | None = None, counted: list[int] | None = None
) -> list[Option]:
    """Every legal move from `state`, in reading order, in words (see `each_option`)."""
    return list(each_option(compiled, state, limits, counted))


def listing(compiled: CompiledPuzzle, state: bytes, most: int = LISTED, limits: Limits | None = None) -> Listing:
    """The first `most` legal moves from `state` in words, and how many there are: the
    moves past `most` are counted, not put in words."""
    successors = compiled.in_reading_order(compiled.expand(state))
    if limits is not None:
        limits.check(len(successors), stored=False)
    shown = []
    for named, (after, number) in enumerate(successors[:most], 1):
        shown.append(option(compiled, state, number, after))
        if limits is not None and named % NAMED_BETWEEN_POLLS == 0:
            limits.check(len(successors), stored=False)
    return Listing(shown, len(successors))


def leading_to(compiled: CompiledPuzzle, state: bytes, after: bytes) -> Option | None:
    """The first move (in reading order) from `state` to `after`, in words; None if none
    leads there. Only that move is put in words, whatever the number of moves."""
    for child, number in compiled.in_reading_order(compiled.expand(state)):
        if child == after:
            return option(compiled, state, number, child)
    return None


def refusals(compiled: CompiledPuzzle, state: bytes) -> list[Refusal]:
    """The moves a safety rule forbids from `state`, each with the rule that forbids it."""
    return [Refusal(r.name, r.move, r.rule, r.line, r.where) for r in rejections(compiled, state)]


def shortest_from(compiled: CompiledPuzzle, state: bytes, limits: Limits | None = None) -> SearchResult:
    """The spec's question (a shortest solution, or a cheapest) asked from `state`."""
    moved = compiled.starting_at(state)
    asked = ask(moved, Question(), RunOptions())
    return answer(moved, asked.query, limits or Limits(), asked.options)


@dataclass(frozen=True)
class Hint:
    """The next move of a shortest solution from where the player stands, or why there is
    none (the goal cannot be reached from here; a limit stopped the search)."""

    move: Option | None
    why_not: str = ""


@dataclass
class Game:
    """A game in progress: the states from the start to where the player stands, and the
    moves undone (for redo). A move played after an undo forgets what was undone. The moves
    listed from the state where the player stands are kept (`listed`), however they were
    listed: here, or on another thread (`remember`)."""

    compiled: CompiledPuzzle
    played: list[Option] = field(default_factory=list)
    undone: list[Option] = field(default_factory=list)
    most: int = LISTED  # the most moves listed from a state
    _listed: tuple[bytes, Listing] | None = field(default=None, repr=False)
    _hinted: tuple[bytes, Option] | None = field(default=None, repr=False)  # a hint's move, and from where

    @property
    def state(self) -> bytes:
        return self.played[-1].after if self.played else self.compiled.start

    @property
    def solved(self) -> bool:
        return self.compiled.is_goal(self.state)

    def listed(self) -> Listing | None:
        """The moves listed from where the player stands, if they have been listed."""
        kept = self._listed
        return kept[1] if kept is not None and kept[0] == self.state else None

    def remember(self, state: bytes, moves: Listing) -> None:
        self._listed = (state, moves)

    def listing(self, limits: Limits | None = None) -> Listing:
        """The moves from where the player stands (listed here, if they are not yet)."""
        kept = self.listed()
        if kept is None:
            kept = listing(self.compiled, self.state, self.most, limits)
            self.remember(self.state, kept)
        return kept

    def options(self) -> list[Option]:
        """The moves listed from where the player stands (all of them, up to `most`)."""
        return self.listing().options

    def refusals(self) -> list[Refusal]:
        return refusals(self.compiled, self.state)

    def play(self, option: Option) -> None:
        """`option`, if it can be played here: one of the moves listed, a hint's move from
        here (the moves listed may stop short of it), or, past them, a move the state has."""
        state = self.state
        known = option in self.options() or self._hinted == (state, option)
        if not known and (option.after, option.number) not in self.compiled.expand(state):
            raise ValueError(f"{option.words} cannot be played here")
        self.played.append(option)
        self.undone.clear()

    def undo(self) -> bool:
        if not self.played:
            return False
        self.undone.append(self.played.pop())
        return True

    def redo(self) -> bool:
        if not self.undone:
            return False
        self.played.append(self.undone.pop())
        return True

    def hint(self, limits: Limits | None = None, state: bytes | None = None) -> Hint:
        """The next move of a shortest solution from here, or from `state` (where the player
        stood when it was asked: the app asks on another thread, and the player may move on)."""
        state = self.state if state is None else state
        if self.compiled.is_goal(state):
            return Hint(None, "the goal is reached")
        result = shortest_from(self.compiled, state, limits)
        if result.status == LIMIT:
            return Hint(None, f"stopped: {result.limit_reason}")
        if result.status != SOLVED or not result.path:
            return Hint(None, "the goal cannot be reached from here")
        _, after = result.path[0]  # a move of the puzzle compiled from here: found again here by the state it makes
        move = leading_to(self.compiled, state, after)
        if move is None:
            return Hint(None, "the engine's next move is not one of this state's")
        self._hinted = (state, move)
        return Hint(move)
