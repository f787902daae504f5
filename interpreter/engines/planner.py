"""The one place where an engine is chosen for a question.

`auto` runs the Python engine first, so that a small search never waits for the kernel (or
OR-tools) to load, and lets the engine that follows it in the plan (the compiled kernel, for
a logic puzzle CP-SAT or the kernel's fill search) take over a search that is not small.
Where the machine has a second core, the two run at once from the start, the next engine in
a forked copy of this process, and the first answer is the answer (see `race`); on one core,
Python tries for a fraction of a second and the search then moves to the next engine (see
`first_try`). Either way, where the kernel is not compiled yet (a first run: half a minute),
it is compiled in a process of its own while Python searches. The engine that answered a
race first is remembered for that question, and the next run asks it alone (`answered`).
An engine that cannot answer a question is passed over with its reason; `--engine NAME`
asks one engine, and is refused with its reason where it cannot answer. What the kernel meets only once it runs (a value
past its 64-bit words) it hands over to the Python engine, which answers exactly. The
result names the engine that answered and, where the plan changed its mind, the one tried
first and why.

The plan, question by question (`--engine help` shows it for a spec):

    question                       python, then (or beside it, on two cores)
    shortest (any method)          compiled
    cheapest, count cheapest       compiled
    count, reach                   compiled
    any                            compiled
    all (search all walk)          compiled
    every solution, trajectories   none: python alone (the graph of all solutions is kept in Python)
    a filling: one solution        cpsat, where its model says every rule; else compiled (the
               (and unique?)       kernel's fill search), where it does
    a filling: every solution,     compiled, else cpsat: the first that can say every rule
               their number        (else python alone)
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import NamedTuple

from ..compiler import CompiledPuzzle
from ..errors import NOWHERE, Diagnostic, SpecError
from ..search import Limits, SearchResult
from ..search.limits import LimitReached, stop_reason
from ..search.result import LIMIT
from . import answered, background, first_try, race
from .base import Engine, HandOver, Path
from .cpsat import SolverEngine
from .first_try import FirstTry, Next
from .kernel import KernelEngine
from .python import PythonEngine
from .query import Query
from .workers import Workers, WorkersEngine

PYTHON: Engine = PythonEngine()
KERNEL = KernelEngine()
COMPILED: Engine = KERNEL
SOLVER: Engine = SolverEngine()
WORKERS = WorkersEngine()  # how many, and where: `using_workers`
ENGINES: dict[str, Engine] = {engine.name: engine for engine in (PYTHON, COMPILED, SOLVER, WORKERS)}
NAMES = ("auto", *ENGINES)
FILLING_ONE = (SOLVER, COMPILED, PYTHON)  # one solution and whether it is unique: propagation decides
FILLING_EVERY = (COMPILED, SOLVER, PYTHON)  # every solution, or their number: the fastest walk


@dataclass(frozen=True)
class Step:
    """One engine of a plan: the seconds it may take before the next is tried (None: all;
    a first try goes on longer while the kernel is compiled: see `first_try`)."""

    engine: str
    seconds: float | None = None


def plan(compiled: CompiledPuzzle, query: Query, asked: str = "auto") -> list[Step]:
    """The engines that answer this question, in the order they are tried: one for `python`
    or `compiled` (refused, with the engine's reason, where it cannot answer), the plan's
    for `auto`. PUZINT_ENGINE, if set, names the engine `auto` prefers (the Python engine
    answers what it does not)."""
    if asked == "auto" and os.environ.get("PUZINT_ENGINE", "auto") in ENGINES:
        preferred = ENGINES[os.environ["PUZINT_ENGINE"]]  # a preference: where it does not answer, Python does
        return [Step(preferred.name if preferred.why_not(compiled, query) is None else PYTHON.name)]
    if asked != "auto":
        engine = ENGINES[asked]
        why = engine.why_not(compiled, query)
        if why is not None:
            raise refusal(asked, why)
        return [Step(asked)]
    then = _then(compiled, query)
    if then is PYTHON:
        return [Step(PYTHON.name)]
    return [Step(PYTHON.name, first_try.SECONDS), Step(then.name)]


def _then(compiled: CompiledPuzzle, query: Query) -> Engine:
    """The engine that takes a search over from Python's first try (PYTHON: none can)."""
    if compiled.filling is not None:  # a logic puzzle: the first of its engines that can say its rules
        order = FILLING_ONE if query.mode == "any" else FILLING_EVERY
        return next(e for e in order if e.why_not(compiled, query) is None)
    return COMPILED if COMPILED.why_not(compiled, query) is None else PYTHON


def _python_first(asked: str) -> bool:
    """Whether the plan starts with Python's first try: for `auto`, unless PUZINT_ENGINE
    names the engine it prefers."""
    return asked == "auto" and os.environ.get("PUZINT_ENGINE", "auto") not in ENGINES


@contextmanager
def using_workers(workers: Workers) -> Iterator[None]:
    """The workers engine set to `workers` (how many, or a cluster) for the block: `--workers
    N`, `--cluster ADDRESS`. One run at a time sets it (the command line, one API call)."""
    before = WORKERS.workers
    WORKERS.workers = workers
    try:
        yield
    finally:
        WORKERS.workers = before


def refusal(engine: str, why: str) -> SpecError:
    return SpecError([Diagnostic(NOWHERE, f"--engine {engine} cannot run this: {why}")])


def search(compiled: CompiledPuzzle, query: Query, limits: Limits, asked: str = "auto") -> SearchResult:
    """The answer to the question: for `auto`, Python's first try, then (where it did not
    finish) the engine chosen meanwhile, under the run's limits; else the one engine of the
    plan. What the kernel cannot answer exactly it hands over to Python. A* chosen by
    default that fills the default room for states (no `--max-states` given) goes on as
    IDA*, which keeps only its path: the same shortest length, found with no more room."""
    result = _answer(compiled, query, limits, asked)
    if query.may_deepen(compiled) and result.status == LIMIT and limits.at_default_cap:
        limits.tripped = None
        deeper = _answer(compiled, dataclasses.replace(query, method="idastar"), limits, asked)
        deeper.method += f" (A* filled its {limits.stored_cap:,} states first, in {result.seconds:.1f} s)"
        return deeper
    return result


def _answer(compiled: CompiledPuzzle, query: Query, limits: Limits, asked: str) -> SearchResult:
    tried: tuple[str, str] | None = None
    chosen: str | None = None
    engine = PYTHON
    if not _python_first(asked):
        engine = ENGINES[plan(compiled, query, asked)[0].engine]
    elif (known := _answered_last(compiled, query)) is not None:
        engine, chosen = known, ANSWERED_LAST
    elif (racing := _race(compiled, query, limits, _searching(compiled, query))) is not None:
        return _raced(compiled, query, limits, racing)
    else:
        trying = _first_try(compiled, query, limits)
        if trying is not None:
            try:
                with trying.watched():
                    result = PYTHON.search(compiled, query, trying.limits)
            except LimitReached as exc:  # a stop that came after the search's own loop (counting orbits)
                result = SearchResult(LIMIT, 0, limit_reason=exc.reason, method="")
            if not trying.stopped_by_itself(result.stopped):
                return _named(result, PYTHON.name, None)
            assert trying.next is not None and trying.next.engine is not None
            tried = (PYTHON.name, trying.reason or "")
            engine = ENGINES[trying.next.engine]
    limits.engine = engine.name
    try:
        result = engine.search(compiled, query, limits)
    except LimitReached as exc:  # as above: a stop after the search's own loop
        result = SearchResult(LIMIT, 0, limit_reason=exc.reason, method="")
    except HandOver as exc:
        if chosen is not None:
            answered.remember(compiled, query, None)
        limits.engine = PYTHON.name
        return _named(PYTHON.search(compiled, query, limits), PYTHON.name, (engine.name, exc.why))
    result.chosen = chosen
    return _named(result, engine.name, tried)


ANSWERED_LAST = "it answered first the last time this question was asked"


def _answered_last(compiled: CompiledPuzzle, query: Query) -> Engine | None:
    """The engine that answered this question first the last time (see `answered`), where it
    can answer it at once: not a kernel that would have to be compiled first (the race
    compiles it beside Python's search), nor one that now refuses the question."""
    name = answered.recall(compiled, query)
    if name is None:
        return None
    engine = ENGINES[name]  # one of answered.ENGINES
    if engine.why_not(compiled, query) is not None:
        answered.remember(compiled, query, None)
        return None
    if engine is KERNEL and not KERNEL.compiled_already(compiled, query):
        return None
    return engine


def _remember_race(compiled: CompiledPuzzle, query: Query, racing: race.Race, outcome: race.Outcome | None) -> None:
    """What a race says of the next run of this question: the engine that answered it first
    (`outcome`: the copy's; None: Python's, remembered only where the copy ran its engine
    beside it, not where the kernel was being compiled), or nothing (the copy handed over or
    failed: the next run races again)."""
    if outcome is None:
        if racing.ran_beside():
            answered.remember(compiled, query, PYTHON.name)
        elif racing.outcome is not None:
            answered.remember(compiled, query, None)
    elif outcome.kind == "done":
        answered.remember(compiled, query, outcome.engine)
    elif outcome.kind != "stopped":
        answered.remember(compiled, query, None)


def _searching(compiled: CompiledPuzzle, query: Query) -> race.Work:
    """The other engine's side of a race for a search question: its answer, a stop after
    its search's own loop included."""

    def work(engine: Engine, limits: Limits) -> SearchResult:
        try:
            return engine.search(compiled, query, limits)
        except LimitReached as exc:
            return SearchResult(LIMIT, 0, limit_reason=exc.reason, method="")

    return work


def _raced(compiled: CompiledPuzzle, query: Query, limits: Limits, racing: race.Race) -> SearchResult:
    """Python's search beside the other engine's (see `race`): the first answer."""
    try:
        with racing.watched():
            result = PYTHON.search(compiled, query, racing.limits)
    except LimitReached as exc:  # a stop that came after the search's own loop (counting orbits)
        result = SearchResult(LIMIT, 0, limit_reason=exc.reason, method="")
    except BaseException:
        racing.stop()
        raise
    if not racing.stopped_by_itself(result.stopped):
        racing.lost()
        _remember_race(compiled, query, racing, None)
        return _named(result, PYTHON.name, None)
    outcome = racing.answer()
    _remember_race(compiled, query, racing, outcome)
    tried = (PYTHON.name, racing.reason or "")
    if outcome.kind == "done":
        answer, keys = outcome.answer
        answer.path = _renumbered(compiled, keys, answer.path)
        if answer.stopped and limits.tripped is None:  # the run's own limit, met by the other engine
            limits.tripped = answer.limit_reason if answer.status == LIMIT else answer.unique_unknown
        return _named(answer, outcome.engine, tried)
    if outcome.kind == "stopped":
        return _named(SearchResult(LIMIT, racing.states, limit_reason=outcome.why, method=""), outcome.engine, tried)
    limits.engine = PYTHON.name  # handed over, or failed: Python, the reference, answers from the start
    return _named(PYTHON.search(compiled, query, limits), PYTHON.name, (outcome.engine, outcome.why))


def _renumbered(compiled: CompiledPuzzle, keys: list[tuple[object, ...]], path: Path) -> Path:
    """A path found in the race's other process, its moves numbered as here: a concrete move
    is numbered when it is first made (`MoveIds`), so the same move may have another number
    in each process; its key is the same."""
    ids = compiled.ids
    return [(move if move < ids.first else ids.number(keys[move - ids.first]), state) for move, state in path]


def _race(compiled: CompiledPuzzle, query: Query, limits: Limits, work: race.Work) -> race.Race | None:
    """The race of Python and the next engine, where it can be run (see `race.possible`)
    and the run's time left is longer than a first try; else None (the first try decides)."""
    if not race.possible() or _no_time_for_a_try(limits):
        return None

    def choose() -> Engine | None:
        then = _then(compiled, query)
        return None if then is PYTHON else then

    def compile_first(engine: Engine) -> race.Compile | None:
        if engine is not COMPILED or KERNEL.compiled_already(compiled, query):
            return None
        return lambda wanted: background.compile_here(compiled, query, wanted)

    def with_keys(engine: Engine, limits: Limits) -> tuple[object, list[tuple[object, ...]]]:
        return work(engine, limits), compiled.ids.keys  # the copy's move numbers (see `_renumbered`)

    racing = race.Race(limits, choose, compile_first, with_keys)
    racing.limits.engine = PYTHON.name
    return racing


class GoalStates(NamedTuple):
    """Who walks a `search all` spec's goal states: `engine`, or, where a walk is already
    done (Python's first try, or the engine run beside it in a race), `found` (the goal
    states, each path) or, where only their number was asked, `counted` (states visited,
    goal states), with the states it `visited`, the engine's `statistics`, and the run's
    limit it `stopped` at, if any; `tried`: the engine tried first and why it did not
    finish, where the plan moved on."""

    engine: Engine
    found: list[Path] | None = None
    visited: int = 0
    tried: tuple[str, str] | None = None
    counted: tuple[int, int] | None = None
    statistics: dict[str, object] | None = None
    stopped: str | None = None
    chosen: str | None = None  # why `engine` walks them with no race (see `answered`)


@dataclass
class Walked:
    """The other engine's walk of the goal states in a race (see GoalStates)."""

    found: list[Path] | None = None
    visited: int = 0
    counted: tuple[int, int] | None = None
    statistics: dict[str, object] | None = None
    stopped: str | None = None


def goal_states_engine(
    compiled: CompiledPuzzle,
    limits: Limits,
    asked: str = "auto",
    moves: bool = False,
    count_only: bool = False,
    enough: int | None = None,
) -> GoalStates:
    """The engine that walks a `search all` spec's goal states. Where the plan tries Python
    first, its walk runs as a first try (or in a race with the next engine), its goal states
    kept (each path, with `moves`): where it finishes, they are the answer (nothing is
    walked twice); else the next engine walks them all again (or has walked them in the
    race: `count_only`, it counts them; else it keeps the first `enough`, or all)."""
    query = Query.of(compiled, mode="all")
    if not _python_first(asked):
        return GoalStates(ENGINES[plan(compiled, query, asked)[0].engine])
    known = _answered_last(compiled, query)
    if known is not None:
        return GoalStates(known, chosen=ANSWERED_LAST)
    racing = _race(compiled, query, limits, _walking(compiled, moves, count_only, enough))
    trying = _first_try(compiled, query, limits) if racing is None else None
    if racing is None and trying is None:
        return GoalStates(PYTHON)
    side = racing if racing is not None else trying
    assert side is not None
    found: list[Path] = []
    visited = [0]
    try:
        with side.watched():
            found.extend(PYTHON.goal_states(compiled, side.limits, visited, moves=moves))
    except LimitReached:
        if racing is not None and racing.stopped_by_itself(True):
            return _walked_beside(compiled, query, racing)
        if trying is not None and trying.stopped_by_itself(True):
            assert trying.next is not None and trying.next.engine is not None
            return GoalStates(ENGINES[trying.next.engine], tried=(PYTHON.name, trying.reason or ""))
        if racing is not None:
            racing.stop()
        return GoalStates(PYTHON, visited=visited[0])  # the run's own limit: the walk stops at once
    except BaseException:
        if racing is not None:
            racing.stop()
        raise
    if racing is not None:
        racing.lost()
        _remember_race(compiled, query, racing, None)
    return GoalStates(PYTHON, found, visited[0])


def _walking(compiled: CompiledPuzzle, moves: bool, count_only: bool, enough: int | None) -> race.Work:
    """The other engine's side of a race for the goal states: their number, or the first
    `enough` of them (all: None), and where the run's limits stopped it."""

    def work(engine: Engine, limits: Limits) -> Walked:
        walked = Walked()
        try:
            if count_only:
                counter = [0, 0]
                try:
                    engine.count_goal_states(compiled, limits, counter)
                finally:
                    walked.counted = (counter[0], counter[1])
            else:
                visited = [0]
                walked.found = []
                try:
                    for path in engine.goal_states(compiled, limits, visited, moves):
                        walked.found.append(path)
                        if enough is not None and len(walked.found) >= enough:
                            break
                finally:
                    walked.visited = visited[0]
        except (LimitReached, KeyboardInterrupt) as exc:
            walked.stopped = stop_reason(exc)
        walked.statistics = engine.statistics()
        return walked

    return work


def _walked_beside(compiled: CompiledPuzzle, query: Query, racing: race.Race) -> GoalStates:
    """The goal states as the engine beside Python walked them (or, where it handed over or
    failed, Python walks them again)."""
    outcome = racing.answer()
    _remember_race(compiled, query, racing, outcome)
    tried = (PYTHON.name, racing.reason or "")
    if outcome.kind == "done":
        walked, keys = outcome.answer
        engine = ENGINES[outcome.engine]
        found = [_renumbered(compiled, keys, path) for path in walked.found or []]
        return GoalStates(
            engine,
            found if walked.found is not None else None,
            walked.visited,
            tried,
            walked.counted,
            walked.statistics,
            walked.stopped,
        )
    if outcome.kind == "stopped":
        return GoalStates(ENGINES[outcome.engine], [], racing.states, tried, stopped=outcome.why)
    return GoalStates(PYTHON, tried=(outcome.engine, outcome.why))


def explain(compiled: CompiledPuzzle, query: Query) -> list[str]:
    """`--engine help`: each engine, and whether it answers this question on this spec (or
    why not); then what `auto` does."""
    lines = [f"the question: {query.name}"]
    for name, engine in ENGINES.items():
        why = engine.why_not(compiled, query)
        verdict = "answers it" if why is None else f"does not: {why}"
        lines.append(f"  {name:<9} {engine.summary}; {verdict}")
    steps = plan(compiled, query)
    if len(steps) == 1:
        lines.append(f"  auto      runs it on {steps[0].engine}")
    else:
        first, then = steps
        if race.possible():
            lines.append(
                f"  auto      runs {first.engine} and {then.engine} at once, {then.engine} in a copy of this "
                f"process (compiled there first where its cache lacks it); the first answer is the answer, "
                f"and {first.engine} stops once {then.engine} has loaded (at most {race.PATIENCE:g} s after it started)"
            )
        else:
            lines.append(
                f"  auto      tries {first.engine} first, for {first.seconds:g} s (a small search never waits "
                f"for the kernel to load; where the kernel is not compiled yet, for as long as its compile "
                f"takes, in the background), then moves it to {then.engine}"
            )
    return lines


def _first_try(compiled: CompiledPuzzle, query: Query, limits: Limits) -> FirstTry | None:
    """Python's first try (see `first_try`); None where the run's own time left is that
    short already (Python alone answers)."""
    if _no_time_for_a_try(limits):
        return None
    trying = FirstTry(limits, first_try.SECONDS, lambda: _next(compiled, query))
    trying.limits.engine = PYTHON.name
    return trying


def _no_time_for_a_try(limits: Limits) -> bool:
    """Whether the run's own time left is no longer than a first try (Python alone answers)."""
    return limits.timeout is not None and limits.timeout - limits.elapsed() <= first_try.SECONDS


def _next(compiled: CompiledPuzzle, query: Query) -> Next:
    """What follows Python's first try, chosen when its time is up: the engine that takes the
    search over, and, where that is the kernel and its code is not in the cache yet, its
    compile in a background process (or, with no cache to compile into, a few seconds more)."""
    then = _then(compiled, query)
    if then is PYTHON:
        return Next(None)
    if then is not COMPILED or KERNEL.compiled_already(compiled, query):
        return Next(then.name)
    if background.possible(compiled):
        return Next(then.name, compile=lambda: background.BackgroundCompile(compiled, query))
    return Next(then.name, wait=first_try.SECONDS_NO_CACHE - first_try.SECONDS)


def _named(result: SearchResult, engine: str, tried: tuple[str, str] | None) -> SearchResult:
    result.engine = engine
    if tried is not None:
        result.tried_first, result.tried_first_stopped = tried
    return result
