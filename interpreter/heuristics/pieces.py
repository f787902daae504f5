"""Dead positions and a bound per piece, derived from the spec: for each code the goal places
that several pieces share (Sokoban's boxes), the abstraction that keeps ONE piece of that
code and the unique pieces the moves name (Sokoban's worker), and takes every other piece off
the board (its cell reads as empty), searched backward from every abstract goal once.

Why it is a relaxation (so that its distances never exceed the puzzle's and a state it calls
dead is dead): the abstract moves are the images of the puzzle's own move instances. An
instance applies to an abstract state wherever some state of the puzzle that the abstract one
stands for could make it: a check of a removed piece (or of the kept piece's code) is met by
an empty-looking cell, a check of an empty cell only by an empty one, a check of a kept
unique piece only by that piece, a cell that must hold some piece by anything, and two cells
that must hold the same piece are not asked. Where the kept pieces go is read from the
instance's movers (`CompiledPuzzle.origins`: which cell each moving piece leaves and
reaches), so a removed piece that moves stays invisible. Any path of the puzzle is then a
path of the abstraction that follows one piece of the code (where two pieces of the code
move at once, the movers' pairing says which is which; pieces of a code are alike, so any
pairing is a path), of at most as many moves (an image that changes nothing is left out), and
it ends with that piece on a cell the goal allows it. The safety rules and the goal's other
conditions are dropped, which only relaxes it further.

Moves with costs: each abstract move costs what the move it is the image of costs (a move's
cost must be a constant, of 0 or more: Sokoban's `cost 0` walk and `cost 1` push), so an
abstract path costs at most what the puzzle's path does, and the tables count cost (the
least cost to a target, the least cost of the piece's own moves). A cost of several parts
(`cost 0, 1`) gets a table for each part alone (`model.pieces`).

Targets of their own: where the goal puts every piece of the code on a cell of its own, the
same abstraction is searched once more for each target cell alone (its own moves), so that
the evaluator can send the pieces to different targets at the least cost (`model.pieces`);
`MATCH_ENTRIES` bounds what those tables hold.

Frozen pieces: for each cell, the instances that take a piece of the code off it to a cell
that is not dead (its *exits*, each as its checks of the other cells) and whether a piece of
the code that never leaves the cell keeps the goal from being met (the goal wants something
else there, or every piece of the code must end on one of its cells and this is not one). The
evaluator finds the pieces that can never move (`model.pieces.PieceSet.frozen`): a state
where one of them is on such a cell is dead (Sokoban's freeze deadlocks, derived here from the
moves alone).

Refused, with the reason: a puzzle that is not pieces on a board moved by plain rewrites
(a move with a condition or an effect, or a cost that depends on the state, is not
abstracted), a move that makes or removes pieces, or an abstraction too large
(`MOST_STATES`).
"""

from __future__ import annotations

import dataclasses
import heapq
import time
from collections import Counter, deque
from itertools import product

from ..compiler import CompiledPuzzle
from ..compiler.rewrite import instance, movers, normalise, placements
from ..model import expr as m
from ..model.pieces import UNREACHED, PieceSet, PieceTable
from ..model.puzzle import ANY, EMPTY, Move, Rewrite
from .abstraction import arrangements, unfit

MOST_STATES = 1 << 21  # the most abstract states (placements of the kept pieces) one table holds
MATCH_ENTRIES = 1 << 22  # the most entries the tables to each target may hold in all (a code's matching)
LARGE = 300_000  # arrangements of the pieces from which `auto` uses the tables (a smaller puzzle is searched faster)

Cost = tuple[int, ...]  # a move's cost, part by part (one part where costs are plain numbers)
Step = tuple[tuple[tuple[int, int], ...], dict[int, int], Cost]  # an instance's checks, its movers, its cost


_last: list[tuple[CompiledPuzzle, PieceSet | str]] = []  # the last puzzle's tables: asked by `pays`, then used


def pays(compiled: CompiledPuzzle) -> bool:
    """Whether `auto` uses the tables: the puzzle has them, some cell is dead for a piece (the
    pruning is what pays: where none is, as in the frogs' jumps, the bound alone guided A*
    over more states than the search from both ends it replaced), and either its pieces can
    be arranged on its cells in more than `LARGE` ways (pieces of a code alike) or it asks
    for the cheapest solution: a search by costs takes each state many times longer than a
    breadth-first one (a heap, a cost per move), and on Microban's small levels in the
    pushes metric the tables cut its seconds 1.3-23-fold where breadth-first search, by
    moves, answered in milliseconds with or without them (docs/performance-sokoban.md)."""
    if compiled.puzzle.search != "cheapest" and arrangements(compiled) <= LARGE:
        return False
    made = piece_tables(compiled)
    return not isinstance(made, str) and any(t.dead_cells() for t in made.tables)


def piece_tables(compiled: CompiledPuzzle) -> PieceSet | str:
    """The tables of every code that several pieces share and the goal places, or why none
    (the last puzzle's are kept: `auto` asks whether they pay, then uses them)."""
    if _last and _last[0][0] is compiled:
        return _last[0][1]
    made = _piece_tables(compiled)
    _last[:] = [(compiled, made)]
    return made


def _piece_tables(compiled: CompiledPuzzle) -> PieceSet | str:
    began = time.monotonic()
    puzzle = compiled.puzzle
    why = unfit(compiled, "dead positions", costs=True)
    if why is not None:
        return why
    goal = puzzle.goal.cells
    assert goal is not None
    found = _steps(compiled)
    if isinstance(found, str):
        return found
    steps, parts = found
    n = compiled.cells
    counts = Counter(compiled.start[:n])
    named = {code for checks, _, _ in steps for _, code in checks if code != EMPTY}
    codes = sorted(code for code in set(goal) if code not in (EMPTY, ANY) and counts[code] >= 2)
    if not codes:
        return "no code the goal places is shared by several pieces on the board"
    tables = []
    for code in codes:
        kept = tuple(sorted(u for u in named if u != code and counts[u] == 1))
        if n ** (1 + len(kept)) > MOST_STATES:
            return (
                f"one piece and the {len(kept)} unique pieces the moves name have more than {MOST_STATES:,} placements"
            )
        tables.append(_table(steps, goal, counts, n, code, kept, parts))
    tables = [_with_exits(t, steps, goal, counts) for t in tables]
    made = PieceSet(tuple(tables), parts=parts)
    dead = sum(len(t.dead_cells()) for t in made.tables)
    costed = "" if not compiled.has_costs else " of cost" if parts == 1 else f" of each of the cost's {parts} parts"
    matched = sum(1 for t in made.tables if t.each)
    assigned = f", {matched} matched to targets of their own" if matched else ""
    frozen = ", frozen pieces looked for" if any(t.exits for t in made.tables) else ""
    about = (
        f"one-piece tables{costed} of {len(made.tables)} code(s){assigned}, {made.size:,} entries,"
        f" {dead} dead cell(s){frozen}, built in {time.monotonic() - began:.1f} s"
    )
    return PieceSet(made.tables, about, parts)


def _steps(compiled: CompiledPuzzle) -> tuple[list[Step], int] | str:
    """Each move instance as its checks, its movers (cell left -> cell reached) and its cost,
    and how many parts a cost has; or why the moves cannot be abstracted: every move must be
    a rewrite with no condition or effect and a constant cost of 0 or more, every cell an
    instance changes must have held nothing (it is checked empty) or a piece that moves (a
    mover's source), and every piece that moves must stay a piece (no mover without both
    ends)."""
    puzzle = compiled.puzzle
    assert puzzle.board is not None  # as unfit found
    steps: list[Step] = []
    seen: set[tuple[object, ...]] = set()
    parts = max((len(c) for c in (_cost(move) for move in puzzle.moves) if c is not None), default=1)
    for move in puzzle.moves:
        rule, name = move.form, move.name
        if not isinstance(rule, Rewrite):
            return f"the move {name} is not a rewrite of cells"
        if move.guard is not None or move.actions:
            return f"the move {name} has a condition or an effect, which the tables do not abstract"
        cost = _cost(move)
        if cost is None or len(cost) != parts:
            return f"the move {name}'s cost depends on the state (the tables take constant costs)"
        if min(cost) < 0:
            return f"the move {name} costs less than 0"
        lhs, rhs = normalise(rule)
        pairs = movers(lhs, rhs)
        for cells in placements(puzzle.board, move, rule):
            inst = instance(lhs, rhs, cells, 0)
            if inst is None or (inst[:5], cost) in seen:
                continue
            seen.add((inst[:5], cost))
            checks, _occupied, _same, writes, copies, _ = inst
            moved: dict[int, int] = {}
            for a, b in pairs:
                if a is None or b is None:
                    return f"the move {name} makes or removes pieces"
                moved[cells[a]] = cells[b]
            empty = {cell for cell, code in checks if code == EMPTY}
            changed = {cell for cell, _ in writes} | {cell for cell, _ in copies}
            if any(cell not in empty and cell not in moved for cell in changed):
                return f"the move {name} changes a cell whose piece does not move"
            if any(target not in empty and target not in moved for target in moved.values()):
                return f"the move {name} moves a piece onto a cell it does not empty"
            steps.append((checks, moved, cost))
    if not steps:
        return "the puzzle has no moves"
    return steps, parts


def _cost(move: Move) -> Cost | None:
    """A move's cost part by part where it is a constant (1 where the spec gives none), None
    where it depends on the state."""
    cost = move.cost
    if cost is None:
        return (1,)
    terms = cost.args if isinstance(cost, m.Call) and cost.name == "parts" else (cost,)
    values = [term.value if isinstance(term, m.Const) else None for term in terms]
    if not all(type(v) is int for v in values):
        return None
    return tuple(v for v in values if isinstance(v, int))


def _table(
    steps: list[Step], goal: tuple[int, ...], counts: Counter[int], n: int, code: int, kept: tuple[int, ...], parts: int
) -> PieceTable:
    """Search the abstraction of one piece of `code` with the `kept` unique pieces backward
    from every abstract goal, for each part of the cost: the least cost, and the least cost
    of the piece's own moves."""
    k = len(kept)
    slot = {u: i + 1 for i, u in enumerate(kept)}  # the kept piece is slot 0

    def index(where: tuple[int, ...]) -> int:
        i = 0
        for cell in where:
            i = i * n + cell
        return i

    # instances keyed by the cell a kept unique piece must stand on (most name the worker)
    keyed: dict[tuple[int, int], list[Step]] = {}
    free: list[Step] = []
    for step in steps:
        key = next(((slot[c], cell) for cell, c in step[0] if c in slot), None)
        (keyed.setdefault(key, []) if key is not None else free).append(step)

    # every abstract move, backward: back[to] holds (from, whether the kept piece moved, cost)
    size = n ** (k + 1)
    back: list[list[tuple[int, bool, Cost]]] = [[] for _ in range(size)]
    for where in product(range(n), repeat=k + 1):
        if len(set(where)) < k + 1:
            continue
        holder = {cell: i for i, cell in enumerate(where)}
        candidates = [s for i in range(1, k + 1) for s in keyed.get((i, where[i]), ())] + free
        for checks, moved, cost in candidates:
            if not all(_meets(holder.get(cell), c, code, slot) for cell, c in checks):
                continue
            after = tuple(moved.get(cell, cell) for cell in where)
            if after != where:
                back[index(after)].append((index(where), after[0] != where[0], cost))

    mine = Counter(goal)[code] >= counts[code]  # then every piece of the code ends on one of its cells
    targets = [c for c in range(n) if goal[c] == code or (not mine and goal[c] == ANY)]
    allowed = [[c for c in range(n) if goal[c] == u] or list(range(n)) for u in kept]
    goals = [index(w) for w in product(targets, *allowed) if len(set(w)) == k + 1]
    moves = tuple(tuple(_least(back, goals, size, p, own=False)) for p in range(parts))
    if not _one_at_a_time(steps, code):
        return PieceTable(code, kept, n, moves, None)
    own = tuple(tuple(_least(back, goals, size, p, own=True)) for p in range(parts))
    if not mine or len(targets) < 2 or size * len(targets) * parts > MATCH_ENTRIES:
        return PieceTable(code, kept, n, moves, own)
    alone = [[index(w) for w in product([t], *allowed) if len(set(w)) == k + 1] for t in targets]
    each = tuple(tuple(tuple(_least(back, at, size, p, own=True)) for at in alone) for p in range(parts))
    return PieceTable(code, kept, n, moves, own, tuple(targets), each)


def _with_exits(table: PieceTable, steps: list[Step], goal: tuple[int, ...], counts: Counter[int]) -> PieceTable:
    """The table with each cell's exits and whether a piece frozen there is stuck (see the
    module's docstring; none where no cell is stuck). An exit is an instance whose movers
    take the cell's piece to another cell, not dead, whose check of the cell allows the code;
    its checks of the other cells are kept (a check of `?`, anything, is none)."""
    code, n = table.code, table.cells
    mine = Counter(goal)[code] >= counts[code]
    stuck = tuple(goal[b] not in (code, ANY) or (mine and goal[b] != code) for b in range(n))
    if not any(stuck):
        return table
    dead = table.dead_cells()
    exits: list[set[tuple[tuple[int, int], ...]]] = [set() for _ in range(n)]
    for checks, moved, _ in steps:
        held = dict(checks)
        for source, target in moved.items():
            if target != source and target not in dead and held.get(source, code) in (code, ANY):
                exits[source].add(tuple((c, w) for c, w in checks if c != source and w != ANY))
    return dataclasses.replace(table, exits=tuple(tuple(sorted(e)) for e in exits), stuck=stuck)


def _meets(holder: int | None, wanted: int, code: int, slot: dict[int, int]) -> bool:
    """Whether a check of `wanted` on a cell can hold where the abstract cell holds the kept
    piece (holder 0), kept unique piece `holder`, or looks empty (None: empty, or a piece
    taken off)."""
    if wanted == EMPTY:
        return holder is None
    if wanted in slot:
        return holder == slot[wanted]
    if wanted == code:
        return holder is None or holder == 0
    return holder is None  # a piece taken off the board


def _one_at_a_time(steps: list[Step], code: int) -> bool:
    """Whether no instance can move two pieces of the code (then each piece's own moves are
    moves of their own, and they add up): a mover's source may hold the code unless it is
    checked to hold something else."""
    for checks, moved, _ in steps:
        held = dict(checks)
        if sum(1 for source in moved if held.get(source, code) == code) > 1:
            return False
    return True


def _least(back: list[list[tuple[int, bool, Cost]]], goals: list[int], size: int, part: int, own: bool) -> list[int]:
    """The least cost to the goals over the reversed edges, counting part `part` of each
    move's cost, or (own) only of the moves of the kept piece: breadth first where every
    such cost is 0 or 1 (a 0-1 search), else Dijkstra's."""
    far = [UNREACHED] * size
    if all(e[2][part] in (0, 1) for edges in back for e in edges):
        todo: deque[int] = deque()
        for g in goals:
            far[g] = 0
            todo.append(g)
        while todo:
            b = todo.popleft()
            for a, moved, cost in back[b]:
                step = cost[part] if moved or not own else 0
                d = far[b] + step
                if far[a] == UNREACHED or d < far[a]:
                    far[a] = d
                    if step == 0:
                        todo.appendleft(a)
                    else:
                        todo.append(a)
        return far
    queue = [(0, g) for g in goals]
    for g in goals:
        far[g] = 0
    while queue:
        d, b = heapq.heappop(queue)
        if d > far[b]:
            continue
        for a, moved, cost in back[b]:
            e = d + (cost[part] if moved or not own else 0)
            if far[a] == UNREACHED or e < far[a]:
                far[a] = e
                heapq.heappush(queue, (e, a))
    return far
