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

Where moves have costs (`search cheapest`), the tables count cost, not moves: each move its
own constant cost, walking for free where the spec says so (Sokoban's `pushes`). A cost of
several parts compared in order (`cost 1, 1`: the fewest pushes, then the fewest moves) has
tables for each part alone: each part of the estimate bounds that part of any solution's cost,
so the estimate is at most every solution's cost part by part, and so in the order the parts
are compared (`each_part`, DEAD in its first part where the state is dead; the evaluator
makes it a `search.costs.LexCost`).

A table's entry for the piece on cell b and the kept unique pieces on cells u1..uk (in the
order of `kept`) is at b * n**k + u1 * n**(k-1) + ... + uk (n cells).
"""

from __future__ import annotations

from dataclasses import dataclass

from .patterns import DEAD

Exit = tuple[tuple[int, int], ...]  # a way off a cell: the (cell, code) checks it makes of other cells
UNREACHED = -1  # an entry from which no target can be reached (the piece is dead there)
NO_WAY = 1 << 40  # an assignment's cost through an unreached entry (more than any sum of entries)
DEAD_PACKED = 1 << 57  # a dead state's estimate on the kernel where a cost's parts are packed in one word


@dataclass(frozen=True, eq=False)
class PieceTable:
    """The tables of one code, one for each part of the cost (one part where costs are plain
    numbers). `moves[p]`: the least part p of the cost that brings the piece to a target;
    `own[p]`: the least part p of the cost of the moves that move the piece itself (None where
    a move may move several pieces of the code, so that the pieces' own costs need not add
    up). Every part's table is unreached at the same entries. `each[p][j]`: as `own[p]`, to
    the target cell `targets[j]` alone (empty where the goal does not give every piece a
    cell of its own, or the tables would not fit `heuristics.pieces.MATCH_ENTRIES`).
    `exits[b]`: the ways a piece of the code can leave cell b for a cell that is not dead, each
    as the checks the move makes of other cells; `stuck[b]`: whether a piece of the code
    that never leaves b keeps the goal from being met (both empty where no cell is stuck)."""

    code: int
    kept: tuple[int, ...]
    cells: int
    moves: tuple[tuple[int, ...], ...]
    own: tuple[tuple[int, ...], ...] | None
    targets: tuple[int, ...] = ()
    each: tuple[tuple[tuple[int, ...], ...], ...] = ()
    exits: tuple[tuple[Exit, ...], ...] = ()
    stuck: tuple[bool, ...] = ()

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
        n, stride, moves = self.cells, self.cells ** len(self.kept), self.moves[0]
        return frozenset(b for b in range(n) if all(d == UNREACHED for d in moves[b * stride : (b + 1) * stride]))

    def largest(self, count: int) -> tuple[int, ...]:
        """Each part's largest estimate the table can give with `count` pieces of its code (the
        kernel checks that they fit its word)."""
        most = []
        for p, moves in enumerate(self.moves):
            top = max((d for d in moves if d != UNREACHED), default=0)
            for table in (self.own[p],) + (self.each[p] if self.each else ()) if self.own is not None else ():
                top = max(top, count * max((d for d in table if d != UNREACHED), default=0))
            most.append(top)
        return tuple(most)


@dataclass(frozen=True, eq=False)
class PieceSet:
    """The tables of every code the goal places that has them; `about` says what they are;
    `parts`: how many parts the cost has (1: a plain number, and the estimate is one)."""

    tables: tuple[PieceTable, ...]
    about: str = ""
    parts: int = 1

    @property
    def size(self) -> int:
        """The entries the tables hold."""
        return sum(
            sum(map(len, t.moves)) + sum(map(len, t.own or ())) + sum(len(e) for part in t.each for e in part)
            for t in self.tables
        )

    def estimate(self, state: bytes | bytearray) -> int:
        """The estimate of a cost of one part (DEAD where a piece reaches no target)."""
        return self.each_part(state)[0]

    def each_part(self, state: bytes | bytearray) -> tuple[int, ...]:
        """Each part of the estimate: the largest over the tables of the largest entry of their
        pieces and the sum of their own entries (the least assignment's, where there are
        tables to each target); DEAD in the first part (0 in the others) where a piece
        reaches no target, or the pieces no targets of their own."""
        parts = self.parts
        best = [0] * parts
        dead = (DEAD,) + (0,) * (parts - 1)
        for t in self.tables:
            at, stride = t.base(state), t.cells ** len(t.kept)
            most = [0] * parts
            total = [0] * parts
            entries = []
            for b in range(t.cells):
                if state[b] != t.code:
                    continue
                entry = b * stride + at
                if t.moves[0][entry] == UNREACHED:
                    return dead
                entries.append(entry)
                for p in range(parts):
                    most[p] = max(most[p], t.moves[p][entry])
                    if t.own is not None:
                        total[p] += t.own[p][entry]
            for p in range(parts if t.each else 0):
                costs = [[NO_WAY if e[entry] == UNREACHED else e[entry] for e in t.each[p]] for entry in entries]
                total[p] = least_assignment(costs)
                if total[p] >= NO_WAY:
                    return dead
            for p in range(parts):
                best[p] = max(best[p], most[p], total[p])
        if self.frozen_stuck(state):
            return dead
        return tuple(best)

    def frozen_stuck(self, state: bytes | bytearray) -> bool:
        """Whether a piece that can never move again stands on a cell where it is stuck. The
        pieces that never move are the largest set F of the tables' pieces such that every
        exit of each piece in F checks a cell that a piece of F holds for something else (the
        greatest fixpoint, found by taking out every piece with an exit that no piece of F
        blocks until none is left to take out). Why it is right: before the first move that
        moved a piece of F, every piece of F stood where it stands now, so that move's checks
        were met by them, and it was an exit of its piece (or it took the piece to a dead
        cell, and the state after it is dead): F would not have kept that piece. So in any
        solution no piece of F ever moves, and one that is stuck keeps the goal from being met."""
        exits: dict[int, tuple[tuple[Exit, ...], ...]] = {}
        stuck = False
        for t in self.tables:
            if not t.exits:
                continue
            for b in range(t.cells):
                if state[b] == t.code:
                    exits[b] = t.exits
                    stuck = stuck or t.stuck[b]
        if not stuck:
            return False
        frozen = set(exits)
        changed = True
        while changed:
            changed = False
            for b in sorted(frozen):
                if any(all(c not in frozen or state[c] == w for c, w in way) for way in exits[b][b]):
                    frozen.discard(b)
                    changed = True
        return any(t.stuck[b] for t in self.tables if t.exits for b in frozen if state[b] == t.code)


def least_assignment(costs: list[list[int]]) -> int:
    """The least sum of costs[i][j] over the ways of giving each row i a column j of its own
    (rows no more than columns): the Hungarian method with potentials, in O(rows^2 columns),
    as `kernel.machine.machine._least_assignment` runs it on the kernel."""
    rows = len(costs)
    if rows == 0:
        return 0
    columns = len(costs[0])
    far = 1 << 62
    u = [0] * (rows + 1)
    v = [0] * (columns + 1)
    owner = [0] * (columns + 1)  # the row given column j (0: none yet)
    way = [0] * (columns + 1)
    for i in range(1, rows + 1):
        owner[0] = i
        j0 = 0
        least = [far] * (columns + 1)
        used = [False] * (columns + 1)
        while True:
            used[j0] = True
            i0, delta, j1 = owner[j0], far, 0
            for j in range(1, columns + 1):
                if not used[j]:
                    cur = costs[i0 - 1][j - 1] - u[i0] - v[j]
                    if cur < least[j]:
                        least[j], way[j] = cur, j0
                    if least[j] < delta:
                        delta, j1 = least[j], j
            for j in range(columns + 1):
                if used[j]:
                    u[owner[j]] += delta
                    v[j] -= delta
                else:
                    least[j] -= delta
            j0 = j1
            if owner[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            owner[j0] = owner[j1]
            j0 = j1
    return -v[0]
