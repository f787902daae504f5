"""Tables of one piece alone, as data: for a code the goal places (Sokoban's boxes), the
fewest moves that bring ONE piece of that code onto one of its target cells when the other
pieces of its code (and every other piece the moves do not name) are taken off the board,
given where that piece and the unique pieces the moves name (the worker) stand.

The tables are derived from the spec (`heuristics.pieces`), never written by hand. A piece
of the code on a cell from which its table says no target can be reached cannot reach one in
the puzzle either (taking pieces away only makes moves easier), so the state is dead: its
estimate is `DEAD`, more than any solution. Otherwise every piece of the code needs at least
its table's moves (the largest of them bounds the moves left) and, where each move moves at
most one piece of the code, the moves that move each piece add up (the sum of the pieces'
own moves bounds them too). A heuristic that reads the tables is the expression
`Call("pieces")` of a puzzle whose `pieces` holds them.

A table's entry for the piece on cell b and the kept unique pieces on cells u1..uk (in the
order of `kept`) is at b * n**k + u1 * n**(k-1) + ... + uk (n cells).
"""

from __future__ import annotations

from dataclasses import dataclass

from .patterns import DEAD

UNREACHED = -1  # an entry from which no target can be reached (the piece is dead there)


@dataclass(frozen=True, eq=False)
class PieceTable:
    """The tables of one code. `moves`: the fewest moves to a target; `own`: the fewest moves
    of the piece itself (None where a move may move several pieces of the code, so that the
    pieces' own moves need not add up)."""

    code: int
    kept: tuple[int, ...]
    cells: int
    moves: tuple[int, ...]
    own: tuple[int, ...] | None

    def base(self, state: bytes | bytearray) -> int:
        """The part of an entry's index the kept pieces' cells give."""
        n, where = self.cells, {}
        for c in range(n):
            if state[c] in self.kept:
                where[state[c]] = c
        index = 0
        for code in self.kept:
            index = index * n + where[code]
        return index

    def dead_cells(self) -> frozenset[int]:
        """The cells from which the piece reaches no target wherever the kept pieces stand."""
        n, stride = self.cells, self.cells ** len(self.kept)
        return frozenset(b for b in range(n) if all(d == UNREACHED for d in self.moves[b * stride : (b + 1) * stride]))


@dataclass(frozen=True, eq=False)
class PieceSet:
    """The tables of every code the goal places that has them; `about` says what they are."""

    tables: tuple[PieceTable, ...]
    about: str = ""

    @property
    def size(self) -> int:
        """The entries the tables hold."""
        return sum(len(t.moves) + len(t.own or ()) for t in self.tables)

    def estimate(self, state: bytes | bytearray) -> int:
        best = 0
        for t in self.tables:
            at, stride = t.base(state), t.cells ** len(t.kept)
            most = total = 0
            for b in range(t.cells):
                if state[b] != t.code:
                    continue
                d = t.moves[b * stride + at]
                if d == UNREACHED:
                    return DEAD
                most = max(most, d)
                if t.own is not None:
                    total += t.own[b * stride + at]
            best = max(best, most, total)
        return best
