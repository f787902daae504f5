"""The compiled search kernel (numba): the same searches as `search/`, on puzzles that are
integer tables, many times faster than Python. The Python engine stays the reference: both
give the same answers, and the kernel is used only where it applies and is worth its start-up.

Nothing here is imported until a search asks for it, so that `puzint run` on a small puzzle
never pays for numba."""

from __future__ import annotations

import dataclasses
import importlib.util
import math
import os
import sys
from collections import Counter

from ..compiler import CompiledPuzzle
from ..model.puzzle import Move, Put, Toggle
from ..search.limits import Limits

ENGINES = ("auto", "python", "compiled")
PROBE_STATES = 20_000  # "auto": a search the Python engine has not finished by then goes to the kernel


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
    from .tables import why_not as tables_why_not

    return tables_why_not(compiled, words=DEPTH_FIRST_WORDS if depth_first else 1)


def why_not_layers(compiled: CompiledPuzzle, counted: bool = False, solutions: bool = False) -> str | None:
    """Why the kernel's breadth-first searches (the shortest solution, counts, reachable
    states: kernel.search, and kernel.wide for states of several words) cannot run this
    puzzle (None: they can). `counted`: counts or reachable states, which are also given up
    to the puzzle's symmetries (their images are tables of the cells: places and counters
    are left to Python). `solutions`: the shortest solutions are counted (up to symmetry:
    where the goal is given by conditions, which symmetries keep it is found in Python)."""
    if solutions and compiled.symmetry is not None and compiled.puzzle.goal.conditions:
        return "counting solutions up to symmetry where the goal is given by conditions, which runs in Python"
    one_word = why_not(compiled)
    if one_word is None:
        if counted and compiled.symmetry is not None and compiled.layout.size != compiled.cells:
            return "symmetries of a puzzle with places or counters, which the kernel counts only in Python"
        return None
    unfit = why_not(compiled, depth_first=True)
    if unfit is not None:
        return unfit
    if compiled.symmetry is not None:
        return f"{one_word}, with symmetries"
    return None


def why_not_astar(compiled: CompiledPuzzle) -> str | None:
    """Why the kernel's A* (kernel.astar, and kernel.best_first for states wider than a word)
    cannot run this puzzle (None: it can)."""
    if compiled.estimate is None:
        return "A* needs a `heuristic` line in the spec"
    return why_not(compiled, depth_first=True)  # the machine runs the estimate


def why_not_idastar(compiled: CompiledPuzzle) -> str | None:
    """Why the kernel's IDA* (kernel.idastar) cannot run this puzzle (None: it can)."""
    if compiled.estimate is None:
        return "IDA* needs a `heuristic` line in the spec"
    return why_not(compiled, depth_first=True)  # on the machine, states of any size


def why_not_any(compiled: CompiledPuzzle) -> str | None:
    """Why the kernel's `search any` (kernel.any_solution) cannot run this puzzle."""
    return why_not(compiled, depth_first=True)  # on the machine, states of any size


def why_not_cheapest(compiled: CompiledPuzzle, count: bool) -> str | None:
    """Why the kernel's uniform-cost search (kernel.best_first) cannot run this puzzle."""
    if count and compiled.symmetry is not None:
        return "counting the cheapest solutions up to symmetry runs in Python"
    return why_not(compiled, depth_first=True)  # on the machine, states of any size


def why_not_bidirectional(compiled: CompiledPuzzle) -> str | None:
    """Why the kernel's bidirectional search (kernel.bidirectional) cannot run this puzzle."""
    if compiled.goal_state is None or not compiled.invertible:
        return "bidirectional search needs a goal that is one state and moves that can be undone"
    from .tables import why_not_tables

    plain = why_not_tables(compiled)
    if plain is not None:
        return f"the kernel searches from both ends only plain moves on cells, not {plain}"
    return why_not(compiled)


def choose(compiled: CompiledPuzzle, engine: str, depth_first: bool = False, any_width: bool = False) -> str | None:
    """Where to run this puzzle's search: "python", "compiled", or "probe" (the Python
    engine first, the kernel if it has not finished after PROBE_STATES states: a small
    search never waits for the kernel to load or compile, a large one loses a fraction of
    a second). `engine` is "python", "compiled" (the kernel where it applies) or "auto";
    the environment variable PUZINT_ENGINE gives the default for "auto". `depth_first`
    and `any_width`: a search that takes states of any number of words."""
    if engine == "auto":
        engine = os.environ.get("PUZINT_ENGINE", "auto")
    if engine == "python" or why_not(compiled, depth_first or any_width) is not None:
        return "python"
    return "compiled" if engine == "compiled" else "probe"


def announce(compiled: CompiledPuzzle, limits: Limits, machine: bool = True) -> None:
    """Tell the run (limits.notice) that the kernel is about to be compiled, where its cache
    does not hold it yet: the first compilation takes a while, once (see jit.CACHE_DIR).
    `machine`: the search runs on the machine (else on word tables, where the puzzle fits)."""
    if limits.notice is None:
        return
    from .jit import compiled_before
    from .tables import why_not_tables

    machine = machine or why_not_tables(compiled) is not None
    if not compiled_before("entry" if machine else "core"):
        how_long = "about half a minute" if machine else "a few seconds"
        limits.notice(f"compiling the search kernel: {how_long}, once; later runs load it at once")


def probe_limits(limits: Limits) -> Limits | None:
    """The limits of the Python engine's first try: the run's own, with the state limit
    lowered to PROBE_STATES (None when the run's state limit is that low already: then the
    Python engine answers alone)."""
    if limits.max_states is not None and limits.max_states <= PROBE_STATES:
        return None
    return dataclasses.replace(limits, max_states=PROBE_STATES, tripped=None)


def probed_out(probe: Limits, status: str) -> bool:
    """Whether the first try stopped at its own state limit (not at the run's limits)."""
    return status == "limit" and probe.tripped == f"state limit of {PROBE_STATES:,} reached"


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
