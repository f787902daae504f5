"""One state at a time, as a person playing sees it: the moves that can be made (in reading
order, each with its words and the state it leads to), the moves a safety rule forbids and
why, and a game: the moves played so far, undone and redone, and the engine's next move of a
shortest solution from wherever the player stands.

Everything here works on the compiled puzzle's own successor functions, so the moves offered
are exactly the moves the searches make: a move the engine would never make cannot be played.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ..compiler import CompiledPuzzle
from ..compiler.families.fill import FillFamily, Instance
from ..engines import RunOptions
from ..model.puzzle import EMPTY, FillForm
from ..questions import Question, ask
from ..render import data
from ..render.explain import rejections
from ..render.glyphs import ASCII, UNICODE
from ..render.moves import describe
from ..runner import answer, load
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


class FreeFilling:
    """A filling of cells, played in any order of its cells: `fill cells with 1..9` decides
    its cells one after another in the spec's order (the searches need one order), which
    a person filling a Sudoku does not keep. Where every thing a filling decides is a cell
    that no value leaves empty, the state says by itself which cells are decided (those not
    empty), so any open cell may be filled next: a value is offered where every rule whose
    cells are then all decided holds (an `all different`, at every cell it reads, as in the
    spec's order), and the safety rules hold. A complete filling has passed every rule, as
    in the spec's order; its progress counter counts the cells decided, so that the goal
    and the drawings read it as the spec's order does. A solution file written so is
    replayed by `run --replay` the same way (`record.replay` lists these moves)."""

    def __init__(self, compiled: CompiledPuzzle, family: FillFamily):
        self.compiled, self.family = compiled, family
        position = family.position
        self.cells = [var.cell for var in family.vars if var.cell is not None]  # every thing is a cell
        self.checked: list[list[tuple[Instance, frozenset[int] | None]]] = [[] for _ in family.vars]
        for instance in family.instances:
            if instance.reads is None:
                for k in range(len(family.vars)):
                    self.checked[k].append((instance, None))
                continue
            things = frozenset(position[r] for r in instance.reads if r in position)
            for k in things or range(len(family.vars)):
                self.checked[k].append((instance, things))

    def open(self, state: bytes) -> list[int]:
        """The things (by place) not decided in `state`."""
        return [k for k, cell in enumerate(self.cells) if state[cell] == EMPTY]

    def children(self, state: bytes, only: int | None = None) -> list[tuple[bytes, int]]:
        """The moves from `state` (of thing `only` alone, where given), in the order of the
        cells and of their values."""
        family, open_things = self.family, self.open(state)
        decided = len(self.cells) - len(open_things)
        out = []
        for k in open_things if only is None else [only]:
            for i, value in enumerate(family.vars[k].values):
                child = bytearray(family.set_thing(state, k, value))
                family.layout.write_counter(child, family.progress, decided + 1)
                after = bytes(child)
                if self._holds(after, k, decided + 1) and family.safety.ok(after):
                    out.append((after, family.ids.number((family.index, k, i))))
        return out

    def _holds(self, after: bytes, k: int, decided: int) -> bool:
        cells, complete = self.cells, decided == len(self.cells)
        for instance, things in self.checked[k]:
            if things is None:
                if not complete:
                    continue
            elif not instance.partial and any(after[cells[t]] == EMPTY for t in things if t != k):
                continue
            if not instance.holds(after):
                return False
        return True

    def given(self, state: bytes) -> CompiledPuzzle:
        """The same filling, in the spec's order from its start, with each cell filled in
        `state` given the one value it holds there: its solutions are those of `state`'s
        open cells that keep the cells filled, and any engine answers it."""
        puzzle, family = self.compiled.puzzle, self.family
        form = family.move.form
        assert isinstance(form, FillForm)
        things = tuple(
            var if state[cell] == EMPTY else var._replace(values=(state[cell],))
            for var, cell in zip(form.vars, self.cells, strict=True)
        )
        move = family.move._replace(form=form._replace(vars=things))
        moves = tuple(move if other is family.move else other for other in puzzle.moves)
        return CompiledPuzzle(puzzle._replace(moves=moves))

    def next_move(self, state: bytes, limits: Limits | None = None) -> tuple[bytes, int] | str | None:
        """The move that fills the first open cell of `state` as a solution that keeps the
        cells filled does (found by the engines on `given`); None where no solution keeps
        them; a string: why the search stopped."""
        open_things = self.open(state)
        if not open_things:
            return None
        asked = self.given(state)
        result = shortest_from(asked, asked.start, limits)
        if result.status == LIMIT:
            return f"stopped: {result.limit_reason}"
        if result.status != SOLVED or not result.path:
            return None
        _, filled = result.path[-1]
        k = open_things[0]
        cell = self.cells[k]
        return next(((a, n) for a, n in self.children(state, k) if a[cell] == filled[cell]), None)


_FREE: weakref.WeakKeyDictionary[CompiledPuzzle, FreeFilling | None] = weakref.WeakKeyDictionary()


def free_filling(compiled: CompiledPuzzle) -> FreeFilling | None:
    """The puzzle's filling played in any order of its cells, where it is one (see
    `FreeFilling`); None for any other puzzle (moves, a tiling, a filling of counters or of
    values that may be empty: played in the spec's order)."""
    if compiled not in _FREE:
        family = compiled.filling
        fits = (
            isinstance(family, FillFamily)
            and len(compiled.families) == 1
            and all(var.cell is not None and EMPTY not in var.values for var in family.vars)
        )
        _FREE[compiled] = FreeFilling(compiled, family) if fits and isinstance(family, FillFamily) else None
    return _FREE[compiled]


def moves_from(compiled: CompiledPuzzle, state: bytes) -> list[tuple[bytes, int]]:
    """The legal moves from `state` as a player may make them, in reading order: the
    puzzle's own (the moves the searches make), a filling's in any order of its cells."""
    free = free_filling(compiled)
    if free is not None:
        return free.children(state)
    return compiled.in_reading_order(compiled.expand(state))


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
    successors = moves_from(compiled, state)
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
    successors = moves_from(compiled, state)
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
    for child, number in moves_from(compiled, state):
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
        if not known and (option.after, option.number) not in moves_from(self.compiled, state):
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
        free = free_filling(self.compiled)
        if free is not None:
            return self._free_hint(free, state, limits)
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

    def _free_hint(self, free: FreeFilling, state: bytes, limits: Limits | None) -> Hint:
        """A filling's next cell: of a filling of the open cells that keeps the cells filled."""
        found = free.next_move(state, limits)
        if isinstance(found, str):
            return Hint(None, found)
        if found is None:
            return Hint(None, "the goal cannot be reached from here")
        after, number = found
        move = option(self.compiled, state, number, after)
        self._hinted = (state, move)
        return Hint(move)

    def restart(self) -> bool:
        """Back to the start, the moves played kept for redo (`r` plays them again, in
        order); False where no move was played."""
        if not self.played:
            return False
        self.undone.extend(reversed(self.played))
        self.played.clear()
        return True

    def legal(self) -> bool:
        """Whether every move played is a legal move of the state it was played in (the
        state where the player stands is reached by legal moves from the start)."""
        state = self.compiled.start
        for move in self.played:
            if (move.after, move.number) not in moves_from(self.compiled, state):
                return False
            state = move.after
        return True


@dataclass(frozen=True)
class Picked:
    """What a click on the board's cell or place does (`pick`): the cells and places picked
    now, the moves that touch them all (the moves to list), the move to play where one is
    left, and what to say."""

    names: list[str]
    moves: list[Option]
    play: Option | None = None
    message: str = ""


def touches(option: Option, name: str) -> bool:
    """Whether a move moves a piece from or to the cell or place `name` (or is made there)."""
    return option.at == name or any(name in (source, target) for _, source, target in option.movers)


def kept(moves: list[Option], picked: list[str]) -> list[Option]:
    """The moves that touch every cell or place picked."""
    return [move for move in moves if all(touches(move, name) for name in picked)]


def pick(moves: list[Option], picked: list[str], name: str) -> Picked:
    """A click on `name`, with `picked` picked before, among the legal `moves`: the moves
    that touch the last cell picked and this one; where none does, those that touch this
    one alone; where none touches it, nothing changes (the list never empties at a click:
    the player is told that no move touches it). Where one move is left, it is the move to
    play (and nothing stays picked)."""
    for names in ([*picked[-1:], name], [name]):
        touching = kept(moves, names)
        if len(touching) == 1:
            return Picked([], moves, touching[0])
        if touching:
            return Picked(names, touching, None, "picked " + " and ".join(names) + ": Escape lets go")
    return Picked(picked, kept(moves, picked), None, f"no move touches {name}")


def parameters(compiled: CompiledPuzzle) -> dict[str, str]:
    """The parameters given to the puzzle from outside (`-p NAME=VALUE`), as given."""
    return dict(compiled.puzzle.given)


class CannotReload(Exception):
    """A spec that cannot be read again (it came from no file)."""


def reloaded(compiled: CompiledPuzzle, changes: dict[str, str]) -> CompiledPuzzle:
    """The same spec with some parameters changed (a level is a parameter: `level n from
    ...`): read and compiled again from its file, with the parameters given before and
    these. A value the spec refuses raises its SpecError, which says where and why."""
    filename = compiled.puzzle.filename
    if not filename or not Path(filename).is_file():
        raise CannotReload(f"the spec's file {filename or '(none)'} cannot be read again")
    return load(filename, {**parameters(compiled), **changes})


def stepped(compiled: CompiledPuzzle, step: int) -> dict[str, str] | None:
    """The change of the spec's first whole-number parameter by `step` (the next or the
    previous level, where a spec's level is its first parameter); None where it has none."""
    for name, value in compiled.puzzle.params.items():
        if isinstance(value, int) and not isinstance(value, bool):
            return {name: str(value + step)}
    return None
