"""The compiled search kernel (numba): the same searches as `search/`, on puzzles that are
integer tables, many times faster than Python. The Python engine stays the reference: both
give the same answers, and the kernel is used only where it applies and is worth its start-up.

Nothing here is imported until a search asks for it, so that `puzint run` on a small puzzle
never pays for numba."""

from __future__ import annotations

import importlib.util
import math
import os
from collections import Counter

from ..compiler import CompiledPuzzle
from ..model.puzzle import Toggle

ENGINES = ("auto", "python", "compiled")
WORTH_IT = 50_000  # arrangements of the start's pieces from which the kernel pays for its start-up


def installed() -> bool:
    """Whether numba can be imported here (it is not on every platform or Python)."""
    return importlib.util.find_spec("numba") is not None


def why_not(compiled: CompiledPuzzle) -> str | None:
    """Why the kernel cannot run this puzzle (None: it can)."""
    if not installed():
        return "numba is not installed (pip install numba)"
    from .tables import why_not as tables_why_not

    return tables_why_not(compiled)


def worth_it(compiled: CompiledPuzzle) -> bool:
    """Whether the puzzle may have enough states for the kernel to pay for loading itself."""
    if os.environ.get("PUZINT_ENGINE") == "compiled":
        return True
    return state_bound(compiled) >= WORTH_IT


def state_bound(compiled: CompiledPuzzle) -> int:
    """A bound on the puzzle's states: the number of arrangements of the start's contents on
    the cells (moves that only move pieces about), or, where moves change what a cell holds
    (toggles), the number of ways to fill the cells with the codes they may hold."""
    changed = {
        code
        for move in compiled.puzzle.moves
        for a in move.actions
        if isinstance(a, Toggle)
        for code in (a.first, a.second)
    }
    if changed:
        codes = len(changed | set(compiled.start[: compiled.cells]))
        return int(codes**compiled.cells)
    contents = Counter(compiled.start[: compiled.cells])
    arrangements = math.factorial(compiled.cells)
    for n in contents.values():
        arrangements //= math.factorial(n)
    return arrangements


def choose(compiled: CompiledPuzzle, engine: str) -> bool:
    """Whether to run this puzzle's search on the kernel. `engine` is "python", "compiled"
    (the kernel where it applies) or "auto" (the kernel where it applies and is worth it);
    the environment variable PUZINT_ENGINE gives the default for "auto"."""
    if engine == "auto":
        engine = os.environ.get("PUZINT_ENGINE", "auto")
    if engine == "python" or why_not(compiled) is not None:
        return False
    return engine == "compiled" or worth_it(compiled)
