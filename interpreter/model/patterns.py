"""Pattern databases as data: the distances of an abstraction of the puzzle, one byte for
each placement of a few of its pieces (the pattern), and how the tables combine.

A placement of the pattern's pieces p0..p(k-1) on n cells is numbered by its *rank*: piece i
stands on the `digit(i)`-th cell among those the pieces before it do not hold, and the rank
is the mixed-radix number of those digits (radices n, n-1, ..., n-k+1). Reading the cells
once in order gives every digit: when piece i is met on cell c, its digit is c less the
pieces before it (in pattern order) met on earlier cells. The Python evaluator, the kernel's
machine and the kernel's table builder all number placements this way.

The tables are derived from the spec (`heuristics`), never written by hand; a heuristic that
reads them is the expression `Call("patterns")` of a puzzle whose `patterns` holds them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from math import perm

from . import expr as m

UNREACHED = 255  # a table's entry for a placement from which the pattern's goal cannot be reached
DEAD = 1 << 40  # the estimate of such a state: more than any solution (the state is pruned)


def is_dead(estimate: object) -> bool:
    """Whether an estimate says its state can never reach the goal (DEAD, or DEAD in the first
    part of an estimate of several parts)."""
    first = estimate[0] if isinstance(estimate, tuple) and estimate else estimate
    return isinstance(first, int) and first >= DEAD


@dataclass(frozen=True, eq=False)
class PatternTable:
    """The fewest moves (counted as `PatternSet.additive` says) from each placement of the
    pattern's pieces (`codes`, cell codes) on `cells` cells to the pattern's goal."""

    codes: tuple[int, ...]
    cells: int
    distances: bytes

    @cached_property
    def words(self) -> list[int]:
        """The distances eight to a word, as the kernel's machine keeps them (little-endian:
        entry r is byte r % 8 of word r // 8), made once for every search that reads them."""
        import numpy as np

        padded = self.distances + bytes(-len(self.distances) % 8)
        return np.frombuffer(padded, dtype="<i8").tolist()  # type: ignore[no-any-return]

    @property
    def weights(self) -> tuple[int, ...]:
        """The place value of each piece's digit in a rank."""
        n, k = self.cells, len(self.codes)
        return tuple(perm(n - i - 1, k - i - 1) for i in range(k))

    def rank(self, state: bytes | bytearray) -> int:
        index = {code: i for i, code in enumerate(self.codes)}
        weights = self.weights
        seen: list[int] = []
        rank = 0
        for cell in range(self.cells):
            i = index.get(state[cell])
            if i is not None:
                rank += (cell - sum(1 for j in seen if j < i)) * weights[i]
                seen.append(i)
        return rank


@dataclass(frozen=True)
class Symmetry:
    """A map of the puzzle onto itself that keeps every distance to the goal
    (`heuristics.symmetries`): the state seen through it holds on cell c what the state
    holds on cell `reads[c]`, each code x renamed `codes[x]` (256 entries)."""

    reads: tuple[int, ...]
    codes: tuple[int, ...]

    def image(self, state: bytes | bytearray) -> bytes:
        return bytes(self.codes[state[cell]] for cell in self.reads)


@dataclass(frozen=True, eq=False)
class PatternSet:
    """Tables over disjoint patterns. `additive`: each move moves one piece, and a table counts
    only the moves of its own pieces, so the tables add up (Korf and Felner's disjoint
    pattern databases); otherwise every table counts every move and the largest is taken.
    `symmetries`: maps of the puzzle onto itself the tables are also read through (the
    largest estimate kept). `about` says how they were chosen and built, for the output."""

    tables: tuple[PatternTable, ...]
    additive: bool
    about: str = ""
    symmetries: tuple[Symmetry, ...] = ()

    @property
    def size(self) -> int:
        """The bytes the tables hold."""
        return sum(len(t.distances) for t in self.tables)

    def estimate(self, state: bytes | bytearray) -> int:
        """The largest of the tables' estimates of the state and of its images."""
        return max(self.seen(state), *(self.seen(s.image(state)) for s in self.symmetries))

    def seen(self, state: bytes | bytearray) -> int:
        """The tables' estimate of this state alone."""
        values = [t.distances[t.rank(state)] for t in self.tables]
        if UNREACHED in values:
            return DEAD
        return sum(values) if self.additive else max(values, default=0)


def named_in(heuristic: m.Expr | None) -> m.Call | None:
    """The spec's own `patterns(...)` in a heuristic, if it has one (the tables it reads are
    built when a search starts, as the plan decides)."""
    if heuristic is None:
        return None
    if isinstance(heuristic, m.Call) and heuristic.name == "patterns":
        return heuristic
    return next((found for c in m.children(heuristic) if (found := named_in(c)) is not None), None)
