"""The one place where an engine is chosen for a question.

`auto` tries the engines in the order the plan gives: the Python engine first, for a fraction
of a second that a small search never needs (so that it never waits for the kernel to load);
a search it has not finished by then goes to the compiled kernel, which answers it many
times faster. Where the kernel is not compiled yet (a first run: half a minute), the Python
engine is given a few seconds more before the search waits for the compile. An engine that
cannot answer a question is passed over with its reason; `--engine NAME` asks one engine, and
is refused with its reason where it cannot answer. What the kernel meets only once it runs (a
value past its 64-bit words) it hands over to the Python engine, which answers exactly. The result names
the engine that answered and, where the plan changed its mind, the one tried first and why.

The plan, question by question (`--engine help` shows it for a spec):

    question                 tried first                         then
    shortest (any method)    python, 0.3 s (3 s, kernel cold)    compiled
    cheapest, count cheapest python, 0.3 s (3 s, kernel cold)    compiled
    count, reach             python, 0.3 s (3 s, kernel cold)    compiled
    any                      python, 0.3 s (3 s, kernel cold)    compiled
    all (search all walk)    python, 0.3 s (3 s, kernel cold)    compiled
    every solution, trajectories   python alone (the graph of all solutions is kept in Python)
    a filling: one solution        cpsat, where its model says every rule; else compiled
               (and unique?)       (the kernel's fill search), where it does; else python
    a filling: every solution,     compiled, then cpsat, then python: the first that can say
               their number        every rule
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from ..compiler import CompiledPuzzle
from ..errors import NOWHERE, Diagnostic, SpecError
from ..search import Limits, SearchResult
from ..search.limits import LimitReached
from ..search.result import LIMIT
from .base import Engine, HandOver
from .cpsat import SolverEngine
from .kernel import KernelEngine
from .python import PythonEngine
from .query import Query

PYTHON: Engine = PythonEngine()
COMPILED: Engine = KernelEngine()
SOLVER: Engine = SolverEngine()
ENGINES: dict[str, Engine] = {engine.name: engine for engine in (PYTHON, COMPILED, SOLVER)}
NAMES = ("auto", *ENGINES)
FILLING_ONE = (SOLVER, COMPILED, PYTHON)  # one solution and whether it is unique: propagation decides
FILLING_EVERY = (COMPILED, SOLVER, PYTHON)  # every solution, or their number: the fastest walk
PROBE_SECONDS = 0.3  # "auto": a search the Python engine has not finished by then goes to the kernel
PROBE_SECONDS_COLD = 3.0  # ... where the kernel must be compiled first (about half a minute, once)


@dataclass(frozen=True)
class Step:
    """One engine of a plan: the seconds it may take before the next is tried (None: all)."""

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
    if compiled.filling is not None:  # a logic puzzle: the first of its engines that can say its rules
        order = FILLING_ONE if query.mode == "any" else FILLING_EVERY
        return [Step(next(e.name for e in order if e.why_not(compiled, query) is None))]
    if COMPILED.why_not(compiled, query) is not None:
        return [Step(PYTHON.name)]
    return [Step(PYTHON.name, probe_seconds()), Step(COMPILED.name)]


def probe_seconds() -> float:
    """How long the Python engine tries a search before the kernel takes it: a fraction of a
    second where the kernel's compiled code is in its cache, a few seconds where it is not
    (a search that Python ends in that time should not wait half a minute for a compile)."""
    from ..kernel.where import compiled_before

    return PROBE_SECONDS if compiled_before("entry") else PROBE_SECONDS_COLD


def refusal(engine: str, why: str) -> SpecError:
    return SpecError([Diagnostic(NOWHERE, f"--engine {engine} cannot run this: {why}")])


def search(compiled: CompiledPuzzle, query: Query, limits: Limits, asked: str = "auto") -> SearchResult:
    """The answer to the question, by the engines of the plan: each step runs under the run's
    limits (the states of a first try also under its own), and the first to finish answers."""
    steps = plan(compiled, query, asked)
    tried: tuple[str, str] | None = None
    for i, step in enumerate(steps):
        engine = ENGINES[step.engine]
        last = i == len(steps) - 1
        step_limits = _first_try(limits, step.seconds) if not last else limits
        if step_limits is None:  # the run's own state limit is lower than the try's: this engine alone
            step_limits, last = limits, True
        try:
            with _watched(step_limits, limits):
                result = engine.search(compiled, query, step_limits)
        except HandOver as exc:
            tried = (engine.name, exc.why)
            result = PYTHON.search(compiled, query, limits)
            return _named(result, PYTHON.name, tried)
        if last or not _stopped_by_its_own_limit(step_limits, result.status):
            return _named(result, engine.name, tried)
        tried = (engine.name, f"not finished in {step.seconds:g} s")
    raise AssertionError("a plan ends with a step that answers")


def goal_states_engine(compiled: CompiledPuzzle, limits: Limits, asked: str = "auto") -> Engine:
    """The engine that walks a `search all` spec's goal states: where the plan tries Python
    first, its walk is run to the end (counted only) under the try's time limit, and the
    kernel walks it again if it did not finish in its time."""
    steps = plan(compiled, Query.of(compiled, mode="all"), asked)
    if len(steps) == 1:
        return ENGINES[steps[0].engine]
    trial = _first_try(limits, steps[0].seconds)
    if trial is None:
        return PYTHON
    try:
        with _watched(trial, limits):
            for _ in PYTHON.goal_states(compiled, trial, [0], moves=False):
                pass
    except LimitReached:
        return COMPILED if _stopped_by_its_own_limit(trial, LIMIT) else PYTHON
    return PYTHON


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
            f"for the kernel to load), then moves it to {then.engine}"
        )
    return lines


def _first_try(limits: Limits, seconds: float | None) -> Limits | None:
    """The limits of a try of at most `seconds`: the run's own, with a time limit of its own
    from now (None when the run's own time left is that short already)."""
    if seconds is None:
        return limits
    if limits.timeout is not None and limits.timeout - limits.elapsed() <= seconds:
        return None
    return dataclasses.replace(limits, timeout=seconds, started=time.monotonic(), tripped=None)


@contextmanager
def _watched(step: Limits, run: Limits) -> Iterator[None]:
    """A first try's own clock, watched by a timer as the run's is (a search that polls
    rarely, a few states a second, still stops at its time). A stop that is the run's, not
    the try's (SIGTERM, memory), is the run's from then on: no later engine runs."""
    if step is run:
        yield
        return
    try:
        with step.armed():
            yield
    finally:
        if step.tripped is not None and not _stopped_by_its_own_limit(step, LIMIT) and run.tripped is None:
            run.tripped = step.tripped


def _stopped_by_its_own_limit(limits: Limits, status: str) -> bool:
    """Whether a try stopped at its own time limit (not at the run's states or memory)."""
    return status == LIMIT and limits.tripped == f"time limit of {limits.timeout:g} s reached"


def _named(result: SearchResult, engine: str, tried: tuple[str, str] | None) -> SearchResult:
    result.engine = engine
    if tried is not None:
        result.tried_first, result.tried_first_stopped = tried
    return result
