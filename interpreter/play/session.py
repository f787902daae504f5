"""One state at a time, as a person playing sees it: the moves that can be made (in reading
order, each with its words and the state it leads to), the moves a safety rule forbids and
why, and a game: the moves played so far, undone and redone, and the engine's next move of a
shortest solution from wherever the player stands.

Everything here works on the compiled puzzle's own successor functions, so the moves offered
are exactly the moves the searches make: a move the engine would never make cannot be played.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..compiler import CompiledPuzzle
from ..render import data
from ..render.explain import rejections
from ..render.glyphs import ASCII, UNICODE
from ..render.moves import describe
from ..runner import solve
from ..search import Limits, SearchResult
from ..search.costs import plain
from ..search.result import LIMIT, SOLVED


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


def options(compiled: CompiledPuzzle, state: bytes) -> list[Option]:
    """Every legal move from `state`, in reading order (the order `run` would try them)."""
    out = []
    for after, number in compiled.in_reading_order(compiled.expand(state)):
        label = compiled.label(number, state)
        cost = plain(data.compiled_cost(compiled, state, number)) if compiled.has_costs else None
        out.append(
            Option(
                number,
                label.rule,
                describe(label, compiled, drawn=UNICODE).plain,
                describe(label, compiled, drawn=ASCII).plain,
                label.movers,
                cost,
                after,
                label.at,
            )
        )
    return out


def refusals(compiled: CompiledPuzzle, state: bytes) -> list[Refusal]:
    """The moves a safety rule forbids from `state`, each with the rule that forbids it."""
    return [Refusal(r.name, r.move, r.rule, r.line, r.where) for r in rejections(compiled, state)]


def shortest_from(compiled: CompiledPuzzle, state: bytes, limits: Limits | None = None) -> SearchResult:
    """The spec's question (a shortest solution, or a cheapest) asked from `state`."""
    moved = compiled.starting_at(state)
    return solve(moved, moved.puzzle.filename or "<puzzle>", limits=limits or Limits()).result


@dataclass(frozen=True)
class Hint:
    """The next move of a shortest solution from where the player stands, or why there is
    none (the goal cannot be reached from here; a limit stopped the search)."""

    move: Option | None
    why_not: str = ""


@dataclass
class Game:
    """A game in progress: the states from the start to where the player stands, and the
    moves undone (for redo). A move played after an undo forgets what was undone."""

    compiled: CompiledPuzzle
    played: list[Option] = field(default_factory=list)
    undone: list[Option] = field(default_factory=list)

    @property
    def state(self) -> bytes:
        return self.played[-1].after if self.played else self.compiled.start

    @property
    def solved(self) -> bool:
        return self.compiled.is_goal(self.state)

    def options(self) -> list[Option]:
        return options(self.compiled, self.state)

    def refusals(self) -> list[Refusal]:
        return refusals(self.compiled, self.state)

    def play(self, option: Option) -> None:
        if option not in self.options():
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

    def hint(self, limits: Limits | None = None) -> Hint:
        """The next move of a shortest solution from here."""
        if self.solved:
            return Hint(None, "the goal is reached")
        result = shortest_from(self.compiled, self.state, limits)
        if result.status == LIMIT:
            return Hint(None, f"stopped: {result.limit_reason}")
        if result.status != SOLVED or not result.path:
            return Hint(None, "the goal cannot be reached from here")
        _, after = result.path[0]
        return Hint(next(o for o in self.options() if o.after == after))
