"""The one runner: a plan (`plan.table`) carried out for any question, a search or the walk
of a `search all` spec's goal states alike.

What is asked of each engine is a `Side`: the engine's answer under limits, and how the runner
reads it (whether a limit cut it, how a copy's moves are numbered here, what a run stopped
while waiting reports). The runner does the rest, the same way for every question:

- an engine that runs alone (asked by name, or remembered) answers, and a hand-over
  (`HandOver`: a value past the kernel's words) passes the question to Python, from the start;
- else Python searches first: on two cores beside the plan's engines, each in a forked copy
  (`race`), the first answer being the answer (a listing too long to carry back from a copy
  is asked again of that engine alone: `race.StreamAlone`); on one core for a first try
  (`first_try`), after which the first engine beside it that can answer takes the search over;
- the engine that answered a race first is remembered for the question where it won by a
  clear margin (`memory`, `table.MARGIN`), and the next run asks it alone;
- the run's limits (time, states, memory, Ctrl-C, SIGTERM) hold throughout: a stop that is
  the run's, met on any side, is the run's answer.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Protocol

from ..compiler import CompiledPuzzle
from ..engines import Engine, HandOver, Path, Query, RunOptions, registry
from ..search import Limits
from ..search.limits import LimitReached
from . import background, first_try, memory, race, table
from .first_try import FirstTry, Next

REMEMBERED = memory.REMEMBERED


class Side(Protocol):
    """What the runner asks of an engine, and how it reads the answer."""

    def __call__(self, engine: Engine, limits: Limits, final: bool) -> Any:
        """The engine's answer under `limits` (a limit met is an answer too); `final`: no
        other engine will answer after it (a walk may hand on what it finds as it finds it)."""

    def cut(self, answer: Any) -> str | None:
        """The limit that stopped the answer before it was whole (None: it is whole)."""

    def renumbered(self, answer: Any, keys: list[tuple[object, ...]]) -> Any:
        """An answer made in a copy, its moves numbered as here (see `renumbered`)."""

    def stopped(self, reason: str, states: int) -> Any:
        """The answer of a run stopped (`reason`) while it waited for a copy."""

    def extent(self, answer: Any) -> int | None:
        """How far an answer cut by the run's time limit went, where two engines' answers
        compare (a walk: the goal states found); None where they do not."""


@dataclass
class Ran:
    """The answer, the engine that gave it, the engine tried first and why it did not answer
    (where the plan moved on), and why the engine was asked alone with no race (remembered)."""

    answer: Any
    engine: str
    tried: tuple[str, str] | None = None
    chosen: str | None = None


def run(compiled: CompiledPuzzle, query: Query, limits: Limits, options: RunOptions, side: Side) -> Ran:
    """The answer to `query`, as the plan for it says."""
    remembered, why = _remembered(compiled, query, options)
    chosen = table.plan(compiled, query, options, remembered, why)
    if chosen.alone is not None:
        return _alone(compiled, query, limits, options, side, chosen.alone, chosen.why_alone)
    if not chosen.beside or _no_time_for_a_try(limits):
        return _alone(compiled, query, limits, options, side, "python", "")
    keeps_on = table.python_keeps_on(compiled, query)
    if race.possible(options.cores):
        return _raced(compiled, query, limits, options, side, chosen.beside, keeps_on)
    if keeps_on:  # one core: no engine takes over a search that Python makes in fewer states
        return _alone(compiled, query, limits, options, side, "python", "")
    return _first_try(compiled, query, limits, options, side, chosen.beside)


def _remembered(compiled: CompiledPuzzle, query: Query, options: RunOptions) -> tuple[str | None, str]:
    """The engine that won this question's last race by a clear margin, where it can answer
    at once (not a kernel that would have to be compiled first: the race compiles it beside
    Python's search), or the kernel for a search guided by derived tables where it answered
    one in this process before (`memory.tables_on_the_kernel`); and why."""
    if options.engine != "auto":
        return None, ""
    if memory.guided_by_tables(compiled) and memory.tables_on_the_kernel():
        return "compiled", memory.TABLES_HERE
    name = memory.recall(compiled, query)
    if name == "compiled" and not registry.COMPILED.compiled_already(compiled, query):
        return None, ""
    return name, REMEMBERED if name else ""


def _alone(
    compiled: CompiledPuzzle, query: Query, limits: Limits, options: RunOptions, side: Side, name: str, why: str
) -> Ran:
    """One engine, with no race; a hand-over leaves the question to Python, from the start."""
    engine = registry.engine(name, options)
    limits.engine = name
    try:
        answer = side(engine, limits, True)
    except HandOver as exc:
        if why == REMEMBERED:
            memory.remember(compiled, query, None)
        limits.engine = "python"
        return Ran(side(registry.PYTHON, limits, True), "python", (name, exc.why))
    if side.cut(answer) is None:
        memory.answered(compiled, name)
    return Ran(answer, name, chosen=why if why in (REMEMBERED, memory.TABLES_HERE) else None)


def _raced(
    compiled: CompiledPuzzle,
    query: Query,
    limits: Limits,
    options: RunOptions,
    side: Side,
    beside: tuple[str, ...],
    keeps_on: str,
) -> Ran:
    """Python here, each engine beside it in a copy (see `race`): the first answer (Python
    giving way to an engine's search only where `keeps_on` gives no reason not to)."""

    def choose(name: str) -> race.Choose:
        def made() -> Engine | None:  # in the copy: asking whether it can answer costs nothing here
            engine = registry.engine(name, options)
            return engine if engine.why_not(compiled, query) is None else None

        return made

    def compile_first(engine: Engine) -> race.Compile | None:
        if engine.name != "compiled" or registry.COMPILED.compiled_already(compiled, query):
            return None
        return lambda wanted: background.compile_here(compiled, query, wanted)

    def with_keys(engine: Engine, copy_limits: Limits) -> tuple[object, list[tuple[object, ...]]]:
        return side(engine, copy_limits, False), compiled.ids.keys  # the copy's move numbers (see `renumbered`)

    slots = race.cores(options.cores) - 1
    racing = race.Race(
        limits,
        beside,
        choose,
        compile_first,
        with_keys,
        slots=slots,
        keeps_on=keeps_on,
        extent=lambda answer: side.extent(answer[0]),  # a copy's answer: (the side's, its move keys)
        whole=lambda answer: side.cut(answer[0]) is None,
    )
    racing.limits.engine = "python"
    try:
        answer = _watched_python(side, racing.watched, racing.limits)
    except race.StreamAlone:  # Python found more than the race holds first: it lists alone
        racing.stop()
        return _alone(compiled, query, limits, options, side, "python", "")
    except BaseException:
        racing.stop()
        raise
    if not racing.stopped_by_itself(side.cut(answer) is not None):
        clear = racing.forked() and racing.clear_margin(None, table.MARGIN, time.monotonic())
        racing.lost()
        _remember(compiled, query, racing, "python" if clear else None)
        return Ran(answer, "python")
    tried = ("python", racing.reason or "")
    done, dropped = racing.answer()
    cut = racing.cut_short() if done is None else None
    if cut is not None:  # no answer in full: the one a copy's own limit cut is the run's
        assert cut.outcome is not None
        found, keys = cut.outcome.answer
        found = side.renumbered(found, keys)
        if limits.tripped is None:
            limits.tripped = side.cut(found)
        return Ran(found, cut.engine, tried)
    if done is not None and done.outcome is not None and done.outcome.kind == "alone":
        _remember(compiled, query, racing, None)
        ran = _alone(compiled, query, limits, options, side, done.engine, "")
        ran.tried = ran.tried or tried
        return ran
    if done is not None:
        assert done.outcome is not None
        clear = racing.clear_margin(done, table.MARGIN)
        _remember(compiled, query, racing, done.engine if clear else None)
        memory.answered(compiled, done.engine)
        found, keys = done.outcome.answer
        found = side.renumbered(found, keys)
        reason = side.cut(found)
        if reason is not None and limits.tripped is None:  # the run's own limit, met by the other engine
            limits.tripped = reason
        return Ran(found, done.engine, tried)
    if dropped and dropped[-1].kind == "stopped":
        last = dropped[-1]
        if last.answer is not None:  # the copy's own report of the same time limit
            found, keys = last.answer
            return Ran(side.renumbered(found, keys), last.engine, tried)
        states = max((copy.states for copy in racing.copies), default=0)
        return Ran(side.stopped(last.why, states), last.engine, tried)
    # every engine beside dropped out (handed over, failed): Python, the reference, answers from the start
    _remember(compiled, query, racing, None)
    limits.engine = "python"
    out = next((o for o in dropped if o.kind != "none"), dropped[0] if dropped else None)
    return Ran(side(registry.PYTHON, limits, True), "python", (out.engine, out.why) if out else None)


def _remember(compiled: CompiledPuzzle, query: Query, racing: race.Race, winner: str | None) -> None:
    """What a race says of the next run of this question: the engine that won it by a clear
    margin, or nothing (the next run races again). A race in which no copy ran its engine
    (Python answered before any loaded, or they compiled the kernel first) says nothing."""
    if winner is not None or racing.ran_beside():
        memory.remember(compiled, query, winner)


def _first_try(
    compiled: CompiledPuzzle, query: Query, limits: Limits, options: RunOptions, side: Side, beside: tuple[str, ...]
) -> Ran:
    """One core: Python for a first try, then the first engine beside it that can answer."""
    trying = FirstTry(limits, table.FIRST_TRY, lambda: _next(compiled, query, options, beside))
    trying.limits.engine = "python"
    try:
        answer = _watched_python(side, trying.watched, trying.limits)
    except race.StreamAlone:  # a listing too long to hold for the try's end: Python lists it alone
        return _alone(compiled, query, limits, options, side, "python", "")
    if not trying.stopped_by_itself(side.cut(answer) is not None):
        return Ran(answer, "python")
    assert trying.next is not None and trying.next.engine is not None
    name = trying.next.engine
    ran = _alone(compiled, query, limits, options, side, name, "")
    if ran.tried is None:
        ran.tried = ("python", trying.reason or "")
    return ran


def _watched_python(side: Side, watched: Callable[[], AbstractContextManager[None]], limits: Limits) -> Any:
    """Python's side under a watch whose stop (the race's, the try's, the run's limit) may land
    anywhere, not only inside the engine's loop: after the answer was made (the answer
    stands), or in the side's own steps around the engine (the side stopped, as it would be)."""
    answer: Any = None
    try:
        with watched():
            answer = side(registry.PYTHON, limits, False)
    except LimitReached as exc:
        if answer is None:
            answer = side.stopped(exc.reason, 0)
    return answer


def _next(compiled: CompiledPuzzle, query: Query, options: RunOptions, beside: tuple[str, ...]) -> Next:
    """What follows Python's first try, chosen when its time is up: the engine that takes the
    search over, and, where that is the kernel and its code is not in the cache yet, its
    compile in a background process (or, with no cache to compile into, a few seconds more)."""
    then = table.answering(compiled, query, options, beside)
    if then is None:
        return Next(None)
    if then != "compiled" or registry.COMPILED.compiled_already(compiled, query):
        return Next(then)
    if background.possible(compiled):
        return Next(then, compile=lambda: background.BackgroundCompile(compiled, query))
    return Next(then, wait=first_try.SECONDS_NO_CACHE - table.FIRST_TRY)


def _no_time_for_a_try(limits: Limits) -> bool:
    """Whether the run's own time left is no longer than a first try (Python alone answers)."""
    return limits.timeout is not None and limits.timeout - limits.elapsed() <= table.FIRST_TRY


def renumbered(compiled: CompiledPuzzle, keys: list[tuple[object, ...]], path: Path) -> Path:
    """A path found in a copy, its moves numbered as here: a concrete move is numbered when it
    is first made (`MoveIds`), so the same move may have another number in each process; its
    key is the same."""
    ids = compiled.ids
    return [(move if move < ids.first else ids.number(keys[move - ids.first]), state) for move, state in path]
