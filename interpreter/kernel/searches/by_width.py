"""The kernel's searches, each run by the implementation that fits the puzzle's states: on
states of one 64-bit word, word tables and a hash table of words (`breadth_first`, `astar`);
on wider states, rows of words (`wide`, `best_first`). The engine (`engines.compiled`) asks
here, and never needs to know which it was.

The searches of wider states run on the machine only, whose code numba compiles (or loads
from its cache) when they are imported: they are imported where a puzzle needs them, so that
a search on word tables never waits for the machine."""

from __future__ import annotations

from collections.abc import Sequence

from ...compiler import CompiledPuzzle
from ...compiler.symmetry import Element
from ...errors import Pos
from ...model.puzzle import Symmetry
from ...search.limits import Limits
from ...search.result import SearchResult
from ..tables.tables import why_not
from . import breadth_first


def wide_states(compiled: CompiledPuzzle) -> bool:
    """Whether the puzzle's states take more than a word."""
    return why_not(compiled) is not None


def shortest(compiled: CompiledPuzzle, limits: Limits) -> SearchResult:
    """As `search.bfs.shortest`."""
    if wide_states(compiled):
        from . import wide

        return wide.shortest(compiled, limits)
    return breadth_first.shortest(compiled, limits)


def explore(
    compiled: CompiledPuzzle,
    limits: Limits,
    count: bool = False,
    exhaustive: bool = False,
    keep: Element | None = None,
    orbits: bool = False,
    generators: Sequence[tuple[str, Pos, Symmetry]] = (),
) -> SearchResult:
    """As `search.layers.explore` (see `kernel.searches.breadth_first.explore`); symmetries
    on states wider than a word are left to Python (`engines.compiled` does not send them
    here)."""
    if wide_states(compiled):
        from . import wide

        assert keep is None and not generators, "symmetry on states wider than a word runs in Python"
        return wide.explore(compiled, limits, count, exhaustive)
    return breadth_first.explore(compiled, limits, count, exhaustive, keep, orbits, generators)


def to_goal(compiled: CompiledPuzzle, limits: Limits) -> SearchResult:
    """Every state that can reach the goal (see `kernel.searches.breadth_first.to_goal`)."""
    if wide_states(compiled):
        from . import wide

        return wide.to_goal(compiled, limits)
    return breadth_first.to_goal(compiled, limits)


def astar(compiled: CompiledPuzzle, limits: Limits) -> SearchResult:
    """As `search.astar.astar`."""
    if wide_states(compiled):
        from . import best_first

        return best_first.astar(compiled, limits)
    from . import astar as one_word_astar  # its estimate runs on the machine

    return one_word_astar.astar(compiled, limits)
