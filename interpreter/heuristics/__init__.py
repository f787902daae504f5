"""Heuristics derived from the spec: what a puzzle's own description says about how far a
state is from the goal, so that its user need not know how to solve it.

`abstraction` finds the abstraction of a puzzle (a few pieces kept, the others alike) and
`patterns` chooses patterns, builds their tables on the kernel and keeps them on disk. This
module decides, for a question, whether a derived heuristic is used and hands back the puzzle
with it: the spec's own heuristic and the derived one, the larger of the two (both bound the
moves left, so their maximum does too).

Which heuristic runs (`RunOptions.heuristic`, `--heuristic`): `auto` derives one for the
shortest solution of a puzzle too large to search without one (more states than `LARGE`: a
smaller one is searched faster than its tables are built), `derived` wherever the puzzle has
an abstraction, `spec` the spec's alone, `none` no heuristic at all. Where several pieces
share a code the goal places (Sokoban's boxes), `pieces` derives one-piece tables: dead
positions (estimate DEAD) and a bound per piece, used by `auto` from `pieces.LARGE` arrangements.
"""

from __future__ import annotations

import dataclasses

from ..compiler import CompiledPuzzle
from ..model import expr as m
from ..model.patterns import DEAD, PatternSet, named_in
from ..search.limits import Limits
from . import patterns, pieces
from .abstraction import Abstraction, abstraction, arrangements, unfit
from .patterns import Choice, build, cached, choose, keep, key, states
from .pieces import pays, piece_tables
from .symmetries import symmetries

HEURISTICS = ("auto", "derived", "spec", "none")
LARGE = 50_000_000  # states (as the pieces can be arranged) from which auto derives tables


@dataclasses.dataclass(frozen=True)
class Derived:
    """The puzzle with the derived heuristic, and what it is (for the output)."""

    compiled: CompiledPuzzle
    about: str


def derive(
    compiled: CompiledPuzzle,
    limits: Limits,
    most_states: int | None = None,
    paying: bool = False,
    named: str = "",
) -> Derived | str:
    """The puzzle with a heuristic derived from it (with its own, where it has one), or why
    none can be derived. `most_states`: the largest abstraction one table's build searches
    (default `patterns.BUILD_STATES`); `paying` (`auto`): only the tables that pay on this
    puzzle (`patterns_pay`, `pieces.pays`), not every table it has; `named`: the patterns as
    `--patterns` names them (see `named_groups`), instead of the fixed rule's."""
    alone = piece_tables(compiled) if not paying or pays(compiled) else "the one-piece tables would not pay"
    made = (
        _pattern_tables(compiled, limits, most_states, named)
        if named or not paying or patterns_pay(compiled)
        else "pattern databases would not pay"
    )
    if isinstance(made, str) and isinstance(alone, str):
        return made
    puzzle = compiled.puzzle
    lookups: list[m.Expr] = []
    about = []
    if not isinstance(made, str):
        lookups.append(m.Call(puzzle.search_pos, "patterns", (), m.NUM))
        about.append(made.about)
    if not isinstance(alone, str):
        lookups.append(m.Call(puzzle.search_pos, "pieces", (), m.NUM))
        about.append(alone.about)
    # the spec's own heuristic estimates one number: a cost of several parts is the tables' alone
    several = not isinstance(alone, str) and alone.parts > 1
    if puzzle.heuristic is not None and not several:  # below DEAD: only tables say dead (CompiledPuzzle.dead)
        below = m.Const(puzzle.search_pos, DEAD - 1, m.NUM)
        lookups.insert(0, m.Call(puzzle.search_pos, "min", (puzzle.heuristic, below), m.NUM))
    heuristic = lookups[0] if len(lookups) == 1 else m.Call(puzzle.search_pos, "max", tuple(lookups), m.NUM)
    with_tables = CompiledPuzzle(
        puzzle._replace(
            heuristic=heuristic,
            patterns=None if isinstance(made, str) else made,
            alone=None if isinstance(alone, str) else alone,
        )
    )
    return Derived(with_tables, "; ".join(about))


def spec_tables(compiled: CompiledPuzzle, limits: Limits, named: str, who: str) -> Derived | str:
    """The puzzle with the tables its own heuristic reads (`patterns(...)` in the spec): the
    groups `named` (as `--patterns` names them; "": the fixed rule's), built or read from the
    cache, or why none can be (`who` names what asked for them, in the reason)."""
    made = _pattern_tables(compiled, limits, None, named, who)
    if isinstance(made, str):
        return made
    return Derived(CompiledPuzzle(compiled.puzzle._replace(patterns=made)), made.about)


def _pattern_tables(
    compiled: CompiledPuzzle, limits: Limits, most_states: int | None, named: str = "", who: str = "--patterns"
) -> PatternSet | str:
    """The pattern databases of the puzzle (built, or read from the cache), or why none."""
    from ..kernel import installed, jit_disabled

    found = abstraction(compiled)
    if isinstance(found, str):
        return found
    most = most_states if most_states is not None else patterns.BUILD_STATES
    choice = named_groups(compiled, found, named, most, who) if named else choose(found, most)
    if not choice.groups:
        return choice.why_none
    name = key(found, choice.groups)
    made = cached(name)
    if made is None:
        if not installed() or jit_disabled():
            return "pattern databases are built on the kernel, and numba cannot run here"
        made = build(found, choice.groups, limits)
        keep(name, made)
    seen_through = symmetries(compiled, found)
    if not seen_through:
        return made
    plural = "symmetry" if len(seen_through) == 1 else "symmetries"
    about = f"{made.about}, also read through {len(seen_through)} {plural} of the board"
    return dataclasses.replace(made, about=about, symmetries=seen_through)


def named_groups(
    compiled: CompiledPuzzle, found: Abstraction, named: str, most_states: int, who: str = "--patterns"
) -> Choice:
    """The groups `--patterns` (or the spec's `patterns("...")`: `who`) names: groups separated
    by commas, each its pieces' symbols (one character each, or separated by spaces), every one
    a piece a pattern may keep (on the board once, placed by the goal), none twice, each
    group's table within `most_states`."""
    symbols = {compiled.puzzle.symbol(code): code for code, _ in found.candidates}
    groups: list[tuple[int, ...]] = []
    seen: set[str] = set()
    for text in named.split(","):
        names = text.split() if " " in text.strip() else list(text.strip())
        if not names:
            return Choice((), f"{who} has an empty group")
        for name in names:
            if name not in symbols:
                keep = " ".join(sorted(symbols)) or "none"
                return Choice((), f"{who} names {name!r}, which no pattern can keep (it may keep: {keep})")
            if name in seen:
                return Choice((), f"{who} names {name!r} twice")
            seen.add(name)
        group = tuple(symbols[name] for name in names)
        size = states(found, len(group))
        if size > most_states:
            return Choice((), f"{who}: the group {''.join(names)} has {size:,} states, more than {most_states:,}")
        groups.append(group)
    return Choice(tuple(groups))


def refusal(compiled: CompiledPuzzle, wanted: str, guided: bool, method: str, named: str = "") -> str | None:
    """Why this heuristic (`--heuristic`, with the patterns `--patterns` names) cannot be asked
    of this question (None: it can): `guided`, whether a heuristic guides it (`Query.guided`),
    and the method asked."""
    if named:
        own = named_in(compiled.puzzle.heuristic) is not None
        if wanted == "none" or (wanted == "spec" and not own):
            return f"--patterns names the derived tables, and --heuristic {wanted} uses none"
        if not guided:
            return "--patterns: a heuristic guides the search for one shortest solution, and this question is not one"
        found = abstraction(compiled)
        if isinstance(found, str):
            return f"--patterns: no heuristic can be derived: {found}"
        return named_groups(compiled, found, named, patterns.BUILD_STATES).why_none or None
    if wanted == "auto":
        return None
    if not guided and method in ("bfs", "bidirectional"):
        return f"--method {method} searches with no heuristic (A* and IDA* use one)"
    if not guided:
        return "a heuristic guides the search for one shortest solution (by A* or IDA*), and this question is not one"
    if wanted == "spec" and compiled.puzzle.heuristic is None:
        return "the spec has no `heuristic` line"
    if wanted == "none" and method in ("astar", "idastar"):
        return f"--method {method} needs a heuristic"
    if wanted == "derived":
        why = underivable(compiled)  # pattern databases, or the one-piece tables of pushed pieces
        if why is not None:
            return f"no heuristic can be derived: {why}"
    return None


def underivable(compiled: CompiledPuzzle) -> str | None:
    """Why no heuristic can be derived from this puzzle, as far as its kind of moves tells
    before anything is built (None: one may be; `derive` says if it then cannot)."""
    why = unfit(compiled, "pattern databases")
    if why is not None and unfit(compiled, "dead positions", costs=True) is not None:
        return why
    return None


def large(compiled: CompiledPuzzle) -> bool:
    """Whether `auto` derives a heuristic: pattern databases or one-piece tables pay here."""
    return patterns_pay(compiled) or pays(compiled)


def why_small(compiled: CompiledPuzzle) -> str:
    """Why `auto` derives no heuristic where `large` says no (for `--verbose`): what keeps
    each kind of table from paying."""
    ways = arrangements(compiled)
    made = piece_tables(compiled) if compiled.puzzle.search == "cheapest" or ways > pieces.LARGE else None
    if made is None:  # not built, as `pays` did not build them: a run that derives nothing pays nothing
        alone = f"one-piece tables are used from {pieces.LARGE:,} arrangements for the shortest solution"
    elif isinstance(made, str):
        alone = f"no one-piece tables ({made})"
    else:
        alone = "the one-piece tables find no dead cell (their pruning is what pays)"
    unfitting = unfit(compiled, "pattern databases") if ways > LARGE else None  # cheap: no move looked at again
    tables = (
        f"no pattern databases ({unfitting})"
        if unfitting is not None
        else f"pattern databases are built from {LARGE:,} arrangements, where every move moves one piece and some"
        " piece is on the board once for a pattern to keep"
    )
    counted = f"{ways:,} {'way' if ways == 1 else 'ways'}"
    return f"auto derived no heuristic: the start's pieces can be arranged on the cells in {counted}; {alone}; {tables}"


def patterns_pay(compiled: CompiledPuzzle) -> bool:
    """Whether pattern databases pay: the puzzle is large, its moves move one piece each (so
    that the tables of every group of pieces add up), and some piece is on the board once for
    a pattern to keep. Where a move moves several pieces only one table bounds (the largest),
    and on a large puzzle one group holds a few of many pieces: a weak bound (four of the
    amida ladder's 52 lines, below its own `inversions()`), not worth its build."""
    found = abstraction(compiled)
    return (
        not isinstance(found, str) and found.single_piece and bool(found.candidates) and arrangements(compiled) > LARGE
    )
