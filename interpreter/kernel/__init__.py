"""The compiled search kernel (numba): the same searches as `search/`, on puzzles that are
integer tables, many times faster than Python. The Python engine stays the reference: both
give the same answers; `engines.compiled` says which questions the kernel answers, and the
plan (`puzint.plan`) when it is worth its start-up.

Nothing here is imported until a search asks for it, so that `puzint run` on a small puzzle
never pays for numba.

Its parts are sub-packages (docs/architecture.md, "The kernel"): `compiling` (numba's
decorators and the checked cache), `machine` (any puzzle as a program of integers),
`tables` (plain puzzles of one word as integer tables), `stores` (the states the searches
keep), `searches` (every search of a state space) and `fill` (the fill search and the exact
cover of logic puzzles). This module and `where` are what the rest of puzint asks before any
search, without importing numba."""

from __future__ import annotations

import importlib.util
import math
import os
import sys
from collections import Counter

from ..compiler import CompiledPuzzle
from ..model.puzzle import Move, Put, Toggle
from ..search.limits import Limits


def installed() -> bool:
    """Whether numba can be imported here (it is not on every platform or Python)."""
    return importlib.util.find_spec("numba") is not None


def jit_disabled() -> bool:
    """Whether numba is told not to compile (NUMBA_DISABLE_JIT, read as numba reads it: an
    integer, anything else ignored; numba's own setting once it is imported). Its decorators
    then hand back plain Python functions, and the kernel, written for the compiler
    (pointers, intrinsics, a C entry point), cannot run that way."""
    numba = sys.modules.get("numba")
    if numba is not None:
        return bool(numba.config.DISABLE_JIT)
    try:
        return int(os.environ.get("NUMBA_DISABLE_JIT", "0")) != 0
    except ValueError:
        return False


DEPTH_FIRST_WORDS = 64  # a depth-first walk takes states of up to this many words


def why_not(compiled: CompiledPuzzle, depth_first: bool = False) -> str | None:
    """Why the kernel cannot run this puzzle (None: it can): on states of one word, or
    (`depth_first`: the searches of the machine alone) on states of any size. The word
    tables are asked first: what they run, the machine runs too, and asking them does not
    build the machine's program (start-up stays small)."""
    if not installed():
        return "numba is not installed (pip install numba)"
    if jit_disabled():
        return "NUMBA_DISABLE_JIT is set, and the kernel runs only compiled by numba"
    if compiled.wide is not None:
        return compiled.wide.describe(compiled.puzzle.source)
    from .tables.tables import why_not as tables_why_not

    return tables_why_not(compiled, words=DEPTH_FIRST_WORDS if depth_first else 1)


def announce_fill(limits: Limits, search: str = "fill search") -> None:
    """As `announce`, for the fill search or the exact cover (a few seconds, once)."""
    if limits.notice is None:
        return
    from .where import compiled_before

    if not compiled_before("fill" if search == "fill search" else "cover"):
        limits.notice(f"compiling the kernel's {search}: a few seconds, once; later runs load it at once")


def announce(compiled: CompiledPuzzle, limits: Limits, machine: bool = True) -> None:
    """Tell the run (limits.notice) that the kernel is about to be compiled, where its cache
    does not hold it yet: the first compilation takes a while, once (see compiling.jit.CACHE_DIR).
    `machine`: the search runs on the machine (else on word tables, where the puzzle fits)."""
    if limits.notice is None:
        return
    if not compiled_for(compiled, machine):
        how_long = "about half a minute" if machine_runs(compiled, machine) else "a few seconds"
        limits.notice(f"compiling the search kernel: {how_long}, once; later runs load it at once")


def machine_runs(compiled: CompiledPuzzle, machine: bool) -> bool:
    """Whether a search runs on the machine: asked to (`machine`), or the puzzle does not fit
    the word tables."""
    from .tables.tables import why_not_tables

    return machine or why_not_tables(compiled) is not None


def compiled_for(compiled: CompiledPuzzle, machine: bool) -> bool:
    """Whether the cache holds the code a search of this puzzle runs on first (a guess from
    the cache's files, good enough to tell a warm kernel from one about to be compiled):
    the fill search or the exact cover for a logic puzzle, else the machine or the tables."""
    from .where import compiled_before

    if compiled.filling is not None:
        return compiled_before("cover" if compiled.tiling is not None else "fill")
    return compiled_before("entry" if machine_runs(compiled, machine) else "core")


def state_bound(compiled: CompiledPuzzle) -> int:
    """A bound on the puzzle's states, for the kernel's choice of how to keep them: the
    number of arrangements of the start's contents on the cells (moves that only move
    pieces about), or, where moves change what a cell holds (toggles), the number of ways
    to fill the cells with the codes they may hold; with places or counters, the ways to
    share each kind of piece among the cells and places, times the counters' values and
    the orders of stacks."""
    puzzle = compiled.puzzle
    if compiled.layout.size != compiled.cells:
        return _bound_with_places(compiled)
    changed = {
        code for move in puzzle.moves for a in move.actions if isinstance(a, Toggle) for code in (a.first, a.second)
    }
    if changed:
        codes = len(changed | set(compiled.start[: compiled.cells]))
        return int(codes**compiled.cells)
    if not all(_moves_pieces_about(m) for m in puzzle.moves):
        return _bound_with_places(compiled)
    contents = Counter(compiled.start[: compiled.cells])
    arrangements = math.factorial(compiled.cells)
    for n in contents.values():
        arrangements //= math.factorial(n)
    return arrangements


def _bound_with_places(compiled: CompiledPuzzle) -> int:
    puzzle, layout = compiled.puzzle, compiled.layout
    creates = any(isinstance(a, Put) and a.code is not None for m in puzzle.moves for a in m.actions)
    if creates or any(isinstance(a, Toggle) for m in puzzle.moves for a in m.actions):
        return 1 << 62  # pieces made during the search: no bound but the bits
    units = Counter(code for code in puzzle.start.cells if code)
    for place, contents in zip(puzzle.places, puzzle.start.places, strict=True):
        units.update(contents if place.stack else {i + 1: n for i, n in enumerate(contents) if n})
    spots = compiled.cells + len(puzzle.places)
    bound = 1
    for n in units.values():
        bound *= math.comb(n + spots - 1, spots - 1)
    for counter in layout.counters:
        bound *= counter.high - counter.low + 1
    if any(slot.stack for slot in layout.places):
        bound *= math.factorial(sum(units.values()))
    return bound


def _moves_pieces_about(move: Move) -> bool:
    """A move that only moves pieces about the cells, or toggles them."""
    return all(isinstance(a, Toggle) for a in move.actions)
