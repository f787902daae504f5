"""Which heuristic a search runs with (`RunOptions.heuristic`, `--heuristic`), decided once
before the engines are asked: the puzzle they search is the spec's, with its heuristic
replaced as chosen, and the answer says which ran and its value at the start.

`auto`: for one shortest solution of a puzzle large enough to need it (`heuristics.large`),
the heuristic derived from the spec (pattern databases), with the spec's own where it has one
(the larger of the two); else the spec's; and where A* or IDA* is asked for and the spec
writes no heuristic, the derived one whatever the puzzle's size. `derived`: the derived one alone, wherever the
puzzle has an abstraction. `spec`: the spec's alone. `none`: no heuristic (a breadth-first or
two-ended search). With no method named, IDA* runs from the start where the puzzle says it
fits better than A* (`method`). A spec whose heuristic reads `patterns(...)` names its own
tables: they are built (or read from the cache) here for `auto` and `spec`, with the groups it
names (or those `--patterns` names instead), and are the groups `derived` builds.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from .. import heuristics
from ..compiler import CompiledPuzzle
from ..engines import Query, RunOptions
from ..errors import Diagnostic, Pos, SpecError
from ..model import expr as m
from ..model.patterns import named_in
from ..search import Limits
from .method import deepening_fits


@dataclass(frozen=True)
class Guided:
    """The puzzle the engines search and the question they are asked, with what guides them:
    `used` (none, spec, derived, spec and derived), `about` (the derived tables) and `why`
    (where `auto` derived none)."""

    compiled: CompiledPuzzle
    query: Query
    used: str
    about: str = ""
    why: str = ""  # why `auto` derived none, where it chose not to (said by --verbose)


def guided(compiled: CompiledPuzzle, query: Query, limits: Limits, options: RunOptions) -> Guided:
    """The puzzle with the heuristic `options.heuristic` chooses (the tables built, or read
    from the cache, here: once, before any engine runs), and the question, by IDA* where the
    derived heuristic runs with no method named and every move can be undone."""
    spec = "spec" if compiled.puzzle.heuristic is not None else "none"
    call = named_in(compiled.puzzle.heuristic)
    named = options.patterns or (_text(call) if call is not None else "")
    who = "--patterns" if options.patterns else "patterns()"
    if query.method in ("astar", "idastar") and compiled.estimate is None and options.heuristic == "auto":
        return _derived_for(compiled, query, limits, named)
    if call is not None and options.heuristic in ("auto", "spec"):
        return _spec_tables(compiled, query, limits, call, named, who)
    if call is not None and options.heuristic == "derived" and query.guided:  # the groups named, nothing else
        tables_only = compiled.puzzle._replace(heuristic=m.Call(call.pos, "patterns", (), m.NUM), heuristic_slots=0)
        return _spec_tables(CompiledPuzzle(tables_only), query, limits, call, named, who, used="derived")
    if not query.guided or options.heuristic == "spec":
        return Guided(compiled, _deepening(compiled, query, limits, tables=False), spec)
    if options.heuristic == "auto" and not options.patterns and not heuristics.large(compiled):
        why = heuristics.why_small(compiled)
        return Guided(compiled, _deepening(compiled, query, limits, tables=False), spec, why=why)
    if options.heuristic == "none":
        bare = CompiledPuzzle(compiled.puzzle._replace(heuristic=None, heuristic_slots=0))
        return Guided(bare, query, "none")
    own = compiled if options.heuristic == "auto" else CompiledPuzzle(compiled.puzzle._replace(heuristic=None))
    derived = heuristics.derive(own, limits, paying=options.heuristic == "auto", named=named)
    if isinstance(derived, str):
        if options.heuristic == "derived":
            raise SpecError([Diagnostic(Pos(0, 0), f"no heuristic can be derived: {derived}")])
        return Guided(compiled, query, spec, why=f"auto derived no heuristic: {derived}")
    used = "derived" if own.puzzle.heuristic is None else "spec and derived"
    return Guided(derived.compiled, _deepening(compiled, query, limits, tables=True), used, derived.about)


def _derived_for(compiled: CompiledPuzzle, query: Query, limits: Limits, named: str) -> Guided:
    """A* or IDA* asked for (by the spec or the caller) where the spec writes no heuristic: the
    one derived from the spec, with every table it has whatever the puzzle's size (the method
    asks for a heuristic), or a refusal at the spec's `by METHOD` where it named it."""
    derived = heuristics.derive(compiled, limits, named=named)
    if isinstance(derived, str):
        puzzle = compiled.puzzle
        named_here = puzzle.method == query.method
        name = "A*" if query.method == "astar" else "IDA*"
        why = f"{name} needs a heuristic: the spec has no `heuristic` line, and none can be derived from it: {derived}"
        if named_here:
            raise SpecError([Diagnostic(puzzle.method_pos, why, "heuristic EXPR")])
        raise SpecError([Diagnostic(Pos(0, 0), why)])
    return Guided(derived.compiled, query, "derived", derived.about)


def _spec_tables(
    compiled: CompiledPuzzle, query: Query, limits: Limits, call: m.Call, named: str, who: str, used: str = "spec"
) -> Guided:
    """The spec's heuristic with the tables its `patterns(...)` reads, or a refusal at it."""
    made = heuristics.spec_tables(compiled, limits, named, who)
    if isinstance(made, str):
        why = made if made.startswith(who) else f"{who}: no pattern databases can be derived: {made}"
        raise SpecError([Diagnostic(call.pos, why, "another heuristic")])
    return Guided(made.compiled, _deepening(compiled, query, limits, tables=True), used, made.about)


def _text(call: m.Call) -> str:
    """The groups a spec's `patterns("...")` names ("": none named)."""
    if not call.args:
        return ""
    value = call.args[0]
    assert isinstance(value, m.Const) and isinstance(value.value, str), "the language takes one text"
    return value.value


def _deepening(compiled: CompiledPuzzle, query: Query, limits: Limits, tables: bool) -> Query:
    """The question by IDA* where a heuristic guides it, no method is named and IDA* fits the
    puzzle (`method.deepening_fits`)."""
    if (
        query.guided
        and query.mode == "shortest"  # the cheapest solution is A*'s (no IDA* searches costs)
        and query.method == "auto"
        and (tables or compiled.estimate is not None)
        and deepening_fits(compiled, limits.stored_cap, tables)
    ):
        return dataclasses.replace(query, method="idastar")
    return query
