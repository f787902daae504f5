"""The plan: which engines answer a question, and the one runner that carries it out.

`table` is the plan as data (for each kind of question, the engines that may answer it, and
how they run) with its reasons; `runner` is the mechanism (an engine alone, the race of
Python and the engines beside it in forked copies, the first try on one core, the hand-over,
the engine remembered, the run's limits); `race`, `first_try`, `background` and `memory` are
its parts. An engine keeps only its own search (`engines`). This package is the one door
to the engines for the rest of puzint: `search` for a question's answer, `walk` for a
`search all` spec's goal states, `explain` for `--engine help`.
"""

from __future__ import annotations

import dataclasses
import textwrap
import time
from collections.abc import Callable

from ..compiler import CompiledPuzzle
from ..engines import Query, RunOptions, registry
from ..model.patterns import is_dead
from ..search import Limits, SearchResult
from ..search.result import LIMIT, NO_SOLUTION
from . import heuristic, race, runner, table
from .sides import Searching, Take, Walked, Walking

__all__ = ["Walk", "Walked", "explain", "search", "walk"]

INVARIANT = "invariant"  # the method of an answer a parity every move keeps gave, with no search
PATH_MODES = ("shortest", "cheapest", "any")


def search(compiled: CompiledPuzzle, query: Query, limits: Limits, options: RunOptions) -> SearchResult:
    """The answer to the question, as the plan says (see `runner`), guided by the heuristic
    `heuristic.guided` chooses. A* chosen by default that fills the default room for states
    (no `--max-states` given) goes on as IDA*, which keeps only its path: the same shortest
    length, found with no more room. The seconds are the whole run's (the tables built, the
    A* that gave way)."""
    began = time.monotonic()
    proof = _no_way(compiled, query)
    if proof is not None:
        return SearchResult(NO_SOLUTION, 0, method=INVARIANT, proof=proof, seconds=time.monotonic() - began)
    own = compiled
    guide = heuristic.guided(compiled, query, limits, options)
    compiled, query = guide.compiled, guide.query
    result = _answer(compiled, query, limits, options)
    if query.may_deepen(compiled) and result.status == LIMIT and limits.at_default_cap:
        limits.tripped = None
        deeper = _answer(compiled, dataclasses.replace(query, method="idastar"), limits, options)
        deeper.method += f" (A* filled its {limits.stored_cap:,} states first, in {result.seconds:.1f} s)"
        result = deeper
    if query.guided:
        result.heuristic, result.heuristic_about, result.heuristic_why = guide.used, guide.about, guide.why
        if compiled.estimate is not None:
            result.estimate_at_start = compiled.estimate(compiled.start)
            result.dead_at_start = "derived" in guide.used and is_dead(result.estimate_at_start)
        if result.status == NO_SOLUTION and "derived" in guide.used:
            result.reachable, result.dead_pruned = None, True  # not every reachable state was explored
    if compiled is not own and result.path:
        result.path = [(_named_again(own, compiled, move), state) for move, state in result.path]
    result.seconds = time.monotonic() - began
    return result


def _no_way(compiled: CompiledPuzzle, query: Query) -> str | None:
    """Why no path joins the start to the goal, shown by a parity every move keeps, before any
    search (None: none shown). Asked of the questions of one solution: a count or the
    reachable states are answered by their searches, which find the same."""
    if query.count or query.reach or query.listing or query.trajectories or query.mode not in PATH_MODES:
        return None
    from ..heuristics.parity import unreachable  # a puzzle with a start that may be unreachable only

    return unreachable(compiled)


def _named_again(own: CompiledPuzzle, searched: CompiledPuzzle, move: int) -> int:
    """A move of the path found on the puzzle with the heuristic chosen, numbered as the spec's
    own compiled puzzle numbers it: the moves of a family are numbered as each compiled puzzle
    meets them (a plain rewrite's number is the same in both)."""
    if move < searched.instance_count:
        return move
    return own.ids.number(searched.ids.key(move))


def _answer(compiled: CompiledPuzzle, query: Query, limits: Limits, options: RunOptions) -> SearchResult:
    ran = runner.run(compiled, query, limits, options, Searching(compiled, query))
    result: SearchResult = ran.answer
    result.engine = ran.engine
    if ran.tried is not None:
        result.tried_first, result.tried_first_stopped = ran.tried
    result.chosen = ran.chosen or _alone(compiled, query, options, ran.engine, ran.tried)
    return result


def _alone(
    compiled: CompiledPuzzle, query: Query, options: RunOptions, engine: str, tried: tuple[str, str] | None
) -> str | None:
    """Why `auto` ran Python alone where its row races other engines beside it: each of them
    refused the puzzle (said by `--verbose`, so that a slow run says what could not help)."""
    if options.engine != "auto" or engine != "python" or tried is not None:
        return None
    refused = []
    for name in table.row_for(compiled, query).beside:
        why = registry.engine(name, options).why_not(compiled, query)
        if why is None:
            return None
        refused.append(f"{name} ({why})")
    return "no other engine can: " + "; ".join(refused) if refused else None


@dataclasses.dataclass
class Walk:
    """A walk of a `search all` spec's goal states (`walked`), the engine that walked them, the
    engine tried first and why it did not finish (where the plan moved on), and why the
    engine walked alone (remembered)."""

    walked: Walked
    engine: str
    tried: tuple[str, str] | None = None
    chosen: str | None = None


def walk(
    compiled: CompiledPuzzle,
    limits: Limits,
    options: RunOptions,
    moves: bool = False,
    count_only: bool = False,
    enough: int | None = None,
    take: Take | None = None,
    classes: Callable[[bytes], bytes] | None = None,
) -> Walk:
    """The goal states of a `search all` spec, walked as the plan says: counted (`count_only`),
    or each path (with `moves`; else a path may be its goal state alone) handed to `take` as
    found by an engine that walks alone, or kept (until `enough` of them, or of their
    `classes`, are found) by one that raced."""
    query = Query.of(compiled, mode="all")
    walking = Walking(compiled, moves, count_only, enough, take, classes)
    ran = runner.run(compiled, query, limits, options, walking)
    return Walk(
        ran.answer, ran.engine, ran.tried, ran.chosen or _alone(compiled, query, options, ran.engine, ran.tried)
    )


WIDTH = 100  # --engine help fits a terminal of this many columns


def explain(compiled: CompiledPuzzle, query: Query, options: RunOptions, counted: bool = False) -> list[str]:
    """`--engine help`: the question asked (`counted`: a walk that only counts), each engine
    and whether it answers it on this spec (or why not), then what `auto` does."""
    lines = [f"the question: {query.describe(compiled, counted)}"]
    row = table.row_for(compiled, query)
    for described in registry.DESCRIPTIONS:
        why = registry.engine(described.name, options).why_not(compiled, query)
        verdict = "answers it" if why is None else f"does not: {why}"
        lines += _wrapped(f"{described.name:<9} ", f"{described.summary}; {verdict}")
    beside = [name for name in row.beside if registry.engine(name, options).why_not(compiled, query) is None]
    if not beside:
        doing = f"runs it on python ({row.kind}: {row.why})" if not row.beside else "runs it on python"
    elif race.possible(options.cores):
        others = " and ".join(beside)
        copies = "a copy" if len(beside) == 1 else "copies"
        keeps_on = table.python_keeps_on(compiled, query)
        gives_way = (
            f"python gives way only to an answer: {keeps_on}"
            if keeps_on
            else f"python gives way once an engine beside it has begun its search (at most {table.GIVE_WAY:g} s "
            "after it started)"
        )
        doing = (
            f"runs python here and {others} beside it, in {copies} of this process (compiled there first "
            f"where its cache lacks it): the first answer is the answer; {gives_way}. An engine that "
            f"wins by a clear margin is asked alone the next time"
        )
    elif keeps_on := table.python_keeps_on(compiled, query):
        doing = f"runs it on python: {keeps_on}"
    else:
        doing = (
            f"tries python first, for {table.FIRST_TRY:g} s (a small search never waits for another engine to "
            f"load), then moves it to {beside[0]} (compiled in the background first where its cache lacks it)"
        )
    lines += _wrapped("auto      ", doing)
    return lines


def _wrapped(head: str, text: str) -> list[str]:
    return textwrap.wrap(
        text, WIDTH, initial_indent="  " + head, subsequent_indent=" " * (2 + len(head)), break_on_hyphens=False
    )
