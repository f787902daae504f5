"""The one place where an engine is chosen for a question.

`auto` tries the engines in the order the plan gives: the Python engine first, for a fraction
of a second that a small search never needs (so that it never waits for the kernel to load);
a search it has not finished by then goes to the compiled kernel, which answers it many
times faster. Where the kernel is not compiled yet (a first run: half a minute), the Python
engine goes on while the kernel is compiled in a background process, and the search moves
to the kernel when it is ready (see `first_try`). An engine that cannot answer a question is
passed over with its reason; `--engine NAME` asks one engine, and is refused with its reason
where it cannot answer. What the kernel meets only once it runs (a value past its 64-bit
words) it hands over to the Python engine, which answers exactly. The result names the
engine that answered and, where the plan changed its mind, the one tried first and why.

The plan, question by question (`--engine help` shows it for a spec):

    question                 tried first                           then
    shortest (any method)    python, 0.3 s (cold: until compiled)  compiled
    cheapest, count cheapest python, 0.3 s (cold: until compiled)  compiled
    count, reach             python, 0.3 s (cold: until compiled)  compiled
    any                      python, 0.3 s (cold: until compiled)  compiled
    all (search all walk)    python, 0.3 s (cold: until compiled)  compiled
    every solution, trajectories   python alone (the graph of all solutions is kept in Python)
    a filling: one solution        python, 0.3 s; then cpsat, where its model says every rule;
               (and unique?)       else compiled (the kernel's fill search), where it does
    a filling: every solution,     python, 0.3 s; then compiled, else cpsat: the first that
               their number        can say every rule (else python alone)
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
from ..search.limits import LimitReached
from ..search.result import LIMIT
from . import background, first_try
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
    engine = PYTHON
    if not _python_first(asked):
        engine = ENGINES[plan(compiled, query, asked)[0].engine]
    else:
        trying = _first_try(compiled, query, limits)
        if trying is not None:
            try:
                with trying.watched():
                    result = PYTHON.search(compiled, query, trying.limits)
            except LimitReached as exc:  # a stop that came after the search's own loop (counting orbits)
                result = SearchResult(LIMIT, 0, limit_reason=exc.reason, method="")
            if not trying.stopped_by_itself(result.status):
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
        limits.engine = PYTHON.name
        return _named(PYTHON.search(compiled, query, limits), PYTHON.name, (engine.name, exc.why))
    return _named(result, engine.name, tried)


class GoalStates(NamedTuple):
    """Who walks a `search all` spec's goal states: `engine`, or, where Python's first try
    finished the walk, `found` (the goal states, each path) with the states it `visited`;
    `tried`: the engine tried first and why it did not finish, where the plan moved on."""

    engine: Engine
    found: list[Path] | None = None
    visited: int = 0
    tried: tuple[str, str] | None = None


def goal_states_engine(
    compiled: CompiledPuzzle, limits: Limits, asked: str = "auto", moves: bool = False
) -> GoalStates:
    """The engine that walks a `search all` spec's goal states. Where the plan tries Python
    first, its walk runs as a first try, its goal states kept (each path, with `moves`):
    where it finishes, they are the answer (nothing is walked twice); else the next engine
    walks them all again."""
    query = Query.of(compiled, mode="all")
    if not _python_first(asked):
        return GoalStates(ENGINES[plan(compiled, query, asked)[0].engine])
    trying = _first_try(compiled, query, limits)
    if trying is None:
        return GoalStates(PYTHON)
    found: list[Path] = []
    visited = [0]
    try:
        with trying.watched():
            found.extend(PYTHON.goal_states(compiled, trying.limits, visited, moves=moves))
    except LimitReached:
        if trying.stopped_by_itself(LIMIT):
            assert trying.next is not None and trying.next.engine is not None
            return GoalStates(ENGINES[trying.next.engine], tried=(PYTHON.name, trying.reason or ""))
        return GoalStates(PYTHON, visited=visited[0])  # the run's own limit: the walk stops at once
    return GoalStates(PYTHON, found, visited[0])


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
        lines.append(
            f"  auto      tries {first.engine} first, for {first.seconds:g} s (a small search never waits "
            f"for the kernel to load; where the kernel is not compiled yet, for as long as its compile "
            f"takes, in the background), then moves it to {then.engine}"
        )
    return lines


def _first_try(compiled: CompiledPuzzle, query: Query, limits: Limits) -> FirstTry | None:
    """Python's first try (see `first_try`); None where the run's own time left is that
    short already (Python alone answers)."""
    if limits.timeout is not None and limits.timeout - limits.elapsed() <= first_try.SECONDS:
        return None
    trying = FirstTry(limits, first_try.SECONDS, lambda: _next(compiled, query))
    trying.limits.engine = PYTHON.name
    return trying


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
