"""The Python API: load a spec, solve it, read the answer as typed objects.

    import puzint
    puzzle = puzint.load("specs/frog.puz", n=4)        # a path, a catalogue name, or text=...
    result = puzint.solve(puzzle)                       # or puzint.solve("frog", n=4)
    result.length, [move.rule for move in result.moves], result.data["status"]

Everything here is what the command line does, without the printing: `Result.data` is the
exact object `puzint run --format json` prints, and the typed fields are read from it, so
the two can never disagree. Bad input raises `puzint.SpecError` (its `render()` is the
message the command line shows); nothing else of the package is needed.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.text import Text

from .catalogue import resolve_spec
from .compiler import CompiledPuzzle, compile_puzzle
from .engines import RunOptions, registry
from .engines import workers as parallel
from .engines.workers import Workers
from .errors import SpecError
from .heuristics import HEURISTICS
from .language.elaborate import elaborate
from .language.parser import parse
from .play import record, session
from .questions import Question, ask, keywords, refusal
from .render import data, text
from .render.glyphs import ASCII, UNICODE
from .runner import METHODS
from .runner import load as load_file
from .runner import solve as solve_compiled
from .search import Limits
from .search.limits import stop_reason
from .search.result import LIMIT, SOLVED
from .solutions import enumerate_shortest, enumerate_solutions
from .sources import read_text

__all__ = ["Forbidden", "LegalMove", "Move", "Mover", "Puzzle", "Result", "SpecError", "State", "load", "solve"]


@dataclass(frozen=True)
class Puzzle:
    """A spec read, its parameters set, and compiled: ready to be solved (several times, with
    different questions), and played: the moves of any state, whether it is a goal, and its
    drawing."""

    compiled: CompiledPuzzle
    spec: str

    def __repr__(self) -> str:
        return f"<puzint.Puzzle {self.compiled.puzzle.summary}>"

    @property
    def title(self) -> str:
        return self.compiled.puzzle.title

    @property
    def params(self) -> dict[str, Any]:
        return {name: data._plain(value) for name, value in self.compiled.puzzle.params.items()}

    @property
    def start(self) -> State:
        """The start state (`str(puzzle.start)`: written as in the JSON output)."""
        return State(self, self.compiled.start)

    def moves(self, state: State | None = None) -> list[LegalMove]:
        """Every move that can be made from `state` (the start by default), in reading order,
        each with the state it leads to: exactly the moves a search makes."""
        key = self._key(state)
        return [LegalMove.of(self, option) for option in session.options(self.compiled, key)]

    def forbidden(self, state: State | None = None) -> list[Forbidden]:
        """The moves from `state` that a safety rule forbids, each with the rule."""
        return [Forbidden(r.words, r.rule, r.line, r.where) for r in session.refusals(self.compiled, self._key(state))]

    def is_goal(self, state: State) -> bool:
        return self.compiled.is_goal(self._key(state))

    def draw(self, state: State | None = None, ascii: bool = False) -> str:
        """The state as `puzint run` draws it: the board, then each place and counter."""
        glyphs = ASCII if ascii else UNICODE
        lines = text.state_block(self.compiled, Text(), self._key(state), None, glyphs)[1:]
        return textwrap.dedent("\n".join(line.plain.rstrip() for line in lines))

    def replay(self, moves: str) -> list[LegalMove]:
        """The moves of a solution (one per line, as `puzint play` saves them and `run --replay`
        reads them), each checked against the state it is made in: a SpecError at the first
        line that names no legal move."""
        replayed = record.replay(self.compiled, moves)
        return [LegalMove.of(self, option) for option in replayed.moves]

    def solve(self, from_state: State | None = None, **question: Any) -> Result:
        """`puzint.solve(self, ...)`: the answer, from the start or from `from_state`."""
        return solve(self, from_state=from_state, **question)

    def _key(self, state: State | None) -> bytes:
        if state is None:
            return self.compiled.start
        if not isinstance(state, State) or state.puzzle.compiled is not self.compiled:
            raise ValueError(f"not a state of this puzzle: {state!r} (states come from puzzle.start and puzzle.moves)")
        return state.key


@dataclass(frozen=True, eq=False)
class State:
    """A state of a loaded puzzle. States are compared and hashed by what they hold, so that
    they can be kept in sets (the states seen) and used as keys; `board` (and `str(state)`)
    is the state written as in the JSON output."""

    puzzle: Puzzle
    key: bytes

    @property
    def board(self) -> str:
        return data.board_text(self.puzzle.compiled, self.key)

    def __str__(self) -> str:
        return self.board

    def __repr__(self) -> str:
        return f"State({self.board!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and other.key == self.key and other.puzzle.compiled is self.puzzle.compiled

    def __hash__(self) -> int:
        return hash(self.key)


@dataclass(frozen=True)
class LegalMove:
    """A move that can be made: its rule, what moves in words (`text`, as `run` prints it),
    the pieces that move, its cost (where the spec gives costs) and the state it leads to.
    `str(move)` is the line a solution file holds for it (`jump ○ 3 → 1`)."""

    rule: str
    text: str
    movers: tuple[Mover, ...]
    cost: Any
    state: State

    @classmethod
    def of(cls, puzzle: Puzzle, option: session.Option) -> LegalMove:
        movers = tuple(Mover(*mover) for mover in option.movers)
        return cls(option.rule, option.text, movers, option.cost, State(puzzle, option.after))

    def __str__(self) -> str:
        return f"{self.rule} {self.text}".rstrip()


@dataclass(frozen=True)
class Forbidden:
    """A move a safety rule forbids: the move in words, the rule's text and line in the spec,
    and where it fails (a place's name, or "the state")."""

    move: str
    rule: str
    line: int
    where: str


@dataclass(frozen=True)
class Mover:
    piece: str
    source: str | None  # None: the piece appeared
    target: str | None  # None: the piece was removed


@dataclass(frozen=True)
class Move:
    """One move of a solution: the rule's name, what moved, and the state after it."""

    rule: str
    piece: str
    source: str | None
    target: str | None
    movers: tuple[Mover, ...]
    board: str
    cost: int | None = None
    changes: tuple[tuple[str, str, str], ...] = ()  # (counter, before, after)
    at: str | None = None  # a toggle's cell

    @classmethod
    def from_data(cls, entry: Mapping[str, Any]) -> Move:
        return cls(
            rule=entry["rule"],
            piece=entry["piece"],
            source=entry["from"],
            target=entry["to"],
            movers=tuple(Mover(m["piece"], m["from"], m["to"]) for m in entry["movers"]),
            board=entry["board"],
            cost=entry.get("cost"),
            changes=tuple((c["counter"], str(c["from"]), str(c["to"])) for c in entry.get("changes", ())),
            at=entry.get("at"),
        )


@dataclass(frozen=True)
class Result:
    """The answer. `status` is "solved", "no-solution" or "limit"; the other fields are None
    when the question did not ask for them. `data` is the JSON output, field for field."""

    status: str
    length: int | None
    cost: int | None
    count: int | None
    count_up_to_symmetry: int | None
    reachable: int | None
    reachable_goals: int | None
    depth: int | None  # with reach: how far the farthest reachable state lies
    layers: tuple[int, ...] | None  # how many states lie at each distance
    farthest: str | None  # one of the farthest, as text
    states: int
    seconds: float
    method: str
    limit: str | None
    moves: tuple[Move, ...]
    solutions: tuple[str, ...]  # all solutions (solve(..., all=True)): each final state
    solution_moves: tuple[tuple[Move, ...], ...]  # ... and each one's moves
    data: dict[str, Any] = field(repr=False)
    unique: bool | None = None  # a filling's or a `search any`'s one solution: is it the only one
    count_in_all: int | None = None  # every solution counted, where `count` counts one of each class
    optimum: int | None = None  # a filling's `maximize`/`minimize`: the best value

    @property
    def solved(self) -> bool:
        return self.status == SOLVED

    def __repr__(self) -> str:
        """The answer in one line: the status and the figures asked for (the moves, a few
        hundred lines of them, are in `moves`)."""
        figures = [
            f"{name}={value!r}"
            for name, value in (
                ("length", self.length),
                ("cost", self.cost),
                ("count", self.count),
                ("reachable", self.reachable),
                ("solutions", len(self.solutions) if self.solutions else None),
                ("limit", self.limit),
            )
            if value is not None
        ]
        figures.append(f"states={self.states}")
        return f"<puzint.Result {self.status} {' '.join(figures)} by {self.method or '?'} in {self.seconds:.3g} s>"

    @classmethod
    def from_data(cls, payload: dict[str, Any]) -> Result:
        return cls(
            status=payload["status"],
            length=payload.get("length"),
            cost=payload.get("cost"),
            count=payload.get("count"),
            count_up_to_symmetry=payload.get("count_up_to_symmetry"),
            reachable=payload.get("reachable"),
            reachable_goals=payload.get("reachable_goals"),
            depth=payload.get("depth"),
            layers=tuple(payload["layers"]) if payload.get("layers") is not None else None,
            farthest=payload.get("farthest"),
            states=payload.get("states", 0),
            seconds=payload.get("seconds", 0.0),
            method=payload.get("method", ""),
            limit=payload.get("limit"),
            moves=tuple(Move.from_data(m) for m in payload.get("moves", ())),
            solutions=tuple(s["board"] for s in payload.get("solutions", ())),
            solution_moves=tuple(tuple(Move.from_data(m) for m in s["moves"]) for s in payload.get("solutions", ())),
            data=payload,
            unique=payload.get("unique"),
            count_in_all=payload.get("count_in_all", payload.get("count")),
            optimum=(payload.get("objective") or {}).get("value"),
        )


def load(
    spec: str | Path | None = None,
    params: Mapping[str, object] | None = None,
    *,
    text: str | None = None,
    **named: object,
) -> Puzzle:
    """Read and compile a spec: a file, a catalogue name (`"frog"`), or its `text`.
    Parameters are given as a mapping or as keywords (`load("frog", n=4)`), as values or as
    the text `-p` would take."""
    values = {**(params or {}), **named}
    overrides = {name: _as_text(value) for name, value in values.items()}
    if text is not None:
        name = str(spec) if spec is not None else "<text>"
        source = read_text(text, name)
        try:
            return Puzzle(compile_puzzle(elaborate(parse(source, name), overrides)), name)
        except SpecError as exc:
            raise exc.with_source(source, name) from None
    if spec is None:
        raise TypeError("load() needs a spec: a path, a catalogue name, or text=...")
    path = resolve_spec(spec)
    return Puzzle(load_file(path, overrides), str(path))


def solve(
    puzzle: Puzzle | str | Path,
    params: Mapping[str, object] | None = None,
    *,
    count: bool = False,
    reach: bool = False,
    from_goal: bool = False,
    from_state: State | None = None,
    all: bool = False,
    limit: int | None = None,
    method: str = "auto",
    heuristic: str = "auto",
    patterns: str = "",
    engine: str = "auto",
    max_states: int | None = None,
    timeout: float | None = None,
    max_memory_mb: float | None = None,
    interrupt: str = "raise",
    workers: int | None = None,
    cluster: str | None = None,
    **named: object,
) -> Result:
    """Answer the spec's question (its `search` line), or the one asked: `count` the shortest
    solutions, `reach` every state (with `from_goal`: every state that can reach the goal,
    explored backwards from it), `all` solutions (at most `limit`: every shortest solution of
    a puzzle of moves, every goal state of a `search all` spec). Limits work as on the
    command line; a search that reaches one returns status "limit" (it does not raise).
    `engine` as `--engine`: "auto", "python", "compiled" (the kernel wherever it applies), or
    "cpsat" (OR-tools, for fillings). `from_state` (a state of the puzzle) asks the question
    of the same puzzle started there: the next move of a shortest solution from wherever a
    player stands. `workers` (a number; 0: one per core) or `cluster` (a running Dask
    cluster's scheduler address) run the search on Dask's workers, as `--workers` and
    `--cluster` do (the engine "workers"). `heuristic` as `--heuristic`: "auto", "derived"
    (the tables derived from the spec: pattern databases, or dead cells and a bound for pushed
    pieces), "spec" (its own `heuristic` line) or "none";
    `patterns` as `--patterns` (the groups of pieces those tables keep: "123456,789ABC,DEF").
    Ctrl-C stops the search and raises KeyboardInterrupt once it has cleaned up; with
    `interrupt="result"` it is a result instead (status "limit", limit "interrupted").
    Options that would change nothing, or contradict each other, raise ValueError with the
    reason, as the command line refuses them."""
    if not isinstance(puzzle, Puzzle):
        puzzle = load(puzzle, {**(params or {}), **named})
    elif params or named:
        raise TypeError("parameters are set when the puzzle is loaded: load(spec, n=4), then solve()")
    _check_arguments(limit, method, engine, max_states, interrupt)
    if heuristic not in HEURISTICS:
        raise ValueError(f"heuristic must be one of {', '.join(HEURISTICS)}, got {heuristic!r}")
    if from_state is not None:
        key = puzzle._key(from_state)
        puzzle = Puzzle(puzzle.compiled.starting_at(key), puzzle.spec)
    if max_memory_mb is None:
        limits = Limits(max_states=max_states, timeout=timeout)  # the default memory limit
    else:
        limits = Limits(max_states=max_states, timeout=timeout, max_memory_mb=max_memory_mb)
    compiled = puzzle.compiled
    dask = Workers()
    if workers is not None or cluster is not None:
        cluster = _dask_workers(workers, cluster)
        if engine not in ("auto", "workers"):
            raise ValueError(
                f"workers and cluster run the search on the workers: they do not go with engine={engine!r}"
            )
        engine, dask = "workers", Workers(workers or None, cluster)
    question = Question(count, reach, all, limit, method, from_goal=from_goal)
    options = RunOptions(engine, dask, heuristic, patterns)
    why = refusal(compiled, question, options, keywords)
    if why is not None:
        raise ValueError(why)
    asked = ask(compiled, question, options)
    if asked.walk:
        report = enumerate_solutions(compiled, limits, limit=limit, keep=not count, options=options)
        result = Result.from_data(data.all_to_data(compiled, puzzle.spec, report))
    elif asked.listing:
        report = enumerate_shortest(compiled, limits, limit=limit, keep=True)
        result = Result.from_data(data.all_to_data(compiled, puzzle.spec, report))
    else:
        solved = solve_compiled(compiled, asked, limits, puzzle.spec)
        result = Result.from_data(data.to_data(solved, count=count, reach=reach))
    if interrupt == "raise" and result.status == LIMIT and result.limit == INTERRUPTED:
        raise KeyboardInterrupt
    return result


INTERRUPTED = stop_reason(KeyboardInterrupt())  # the limit a search reports when Ctrl-C stopped it
INTERRUPT_CHOICES = ("raise", "result")


def _check_arguments(limit: object, method: str, engine: str, max_states: object, interrupt: str) -> None:
    """Values the command line could not even be given (`--limit 0`), refused by name."""
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}, got {method!r}")
    if engine not in ("auto", *registry.NAMES):
        raise ValueError(f"engine must be one of {', '.join(('auto', *registry.NAMES))}, got {engine!r}")
    if interrupt not in INTERRUPT_CHOICES:
        raise ValueError(f"interrupt must be one of {', '.join(INTERRUPT_CHOICES)}, got {interrupt!r}")
    for name, value, what in (("limit", limit, "solution"), ("max_states", max_states, "state")):
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{name} is a whole number of {what}s, got {value!r}")
        if value < 1:
            raise ValueError(f"{name} must be at least 1 {what}, got {value}")


def _dask_workers(workers: object, cluster: object) -> str | None:
    """`workers` and `cluster` checked as `--workers` and `--cluster` are (engines.workers):
    a number of local workers the machine can run, or the address of a scheduler that
    answers (within CONNECT_SECONDS); the address as Dask is to be given it. An empty
    address is refused, not read as "no cluster": the search would run here unasked."""
    if workers is not None and cluster is not None:
        raise ValueError("workers starts workers here and cluster uses a cluster's: give one of them")
    if workers is not None:
        if isinstance(workers, bool) or not isinstance(workers, int):
            raise TypeError(f"workers is a whole number of workers (0: one per core), got {workers!r}")
        if workers < 0:
            raise ValueError(f"workers must be at least 1 (or 0: one per core), got {workers}")
        problem = parallel.count_problem(workers)
        if problem is not None:
            raise ValueError(f"workers={workers}: {problem}")
        return None
    if not isinstance(cluster, str):
        raise TypeError(f"cluster is a Dask scheduler's address such as 'tcp://host:8786', got {cluster!r}")
    address = parallel.scheduler_address(cluster)
    try:
        parallel.reach(address)
    except parallel.Unreachable as exc:
        raise ValueError(f"cluster: {exc}") from None
    return address


def _as_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(_as_text(v) for v in value)
    return str(value)
