"""The abstraction of a puzzle that pattern databases search: which puzzles have one, the
pieces a pattern can keep, and the puzzle's moves reversed as operations on abstract states.

An abstract state keeps a few pieces (the pattern) as they are and makes every other piece
alike ("another piece", which still fills its cell). A move of the puzzle is a move of the
abstraction wherever some concrete state could make it (a check of a piece that is not kept
is met by "another piece"), so every solution of the puzzle is a path of the abstraction
at least as long, and the abstract distance to the goal is a lower bound (admissible). The
safety rules and the goal's conditions are left out: dropping a constraint only relaxes the
puzzle, so the bound holds.

The abstraction is built for puzzles whose moves are rewrite tables that move pieces among
their own cells (each move a permutation of what its cells hold: the number of empty cells
and of every piece stays as it is), with unit costs and a goal that places pieces on cells:
sliding-tile puzzles, rotation puzzles, Sokoban's worker and boxes. Anything else is not
abstracted, and the reason is given.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations
from math import factorial, prod
from typing import TYPE_CHECKING

from ..compiler import CompiledPuzzle
from ..compiler.rewrite import Instance, instance, invertible, normalise, placements
from ..model.puzzle import ANY, EMPTY, Carry, Cycle, Move, Rewrite, Slide

if TYPE_CHECKING:
    import numpy as np

CHECK, OCCUPIED, SAME, WRITE, COPY = range(5)  # as kernel.patterns.build reads them
OTHER = -1


@dataclass(frozen=True)
class Abstraction:
    """What every pattern database of the puzzle is built from. `reversed_moves`: each move
    of the puzzle backward, as a rewrite instance; `single_piece`: every move moves one piece
    (then disjoint patterns add up); `candidates`: the pieces a pattern may keep (each on the
    board once at the start and placed on one cell by the goal), with their goal cells;
    `empties`: the empty cells (as many in every state)."""

    cells: int
    reversed_moves: tuple[Instance, ...]
    single_piece: bool
    candidates: tuple[tuple[int, int], ...]  # (code, goal cell), in reading order of the goal
    empties: int
    goal: tuple[int, ...]


def arrangements(compiled: CompiledPuzzle) -> int:
    """How many ways the pieces on the board can be arranged on its cells (pieces of one code
    alike): a bound on the states, and the size that decides whether tables pay."""
    counts = Counter(compiled.start[: compiled.cells])
    return factorial(compiled.cells) // prod(factorial(c) for c in counts.values())


def unfit(compiled: CompiledPuzzle, tables: str, costs: bool = False) -> str | None:
    """Why no table of the kind named (`pattern databases`, `dead positions`) abstracts this
    puzzle's pieces and moves, before its moves are looked at (None: they may). `costs`: the
    tables take rewrites with constant costs (`pieces` checks each move itself); else every
    move must be a plain rewrite."""
    puzzle = compiled.puzzle
    if puzzle.fill is not None:
        return "a filling is searched by its rules, not by moves"
    if puzzle.board is None or puzzle.places or puzzle.counters:
        return f"{tables} abstract pieces on a board, and this puzzle has places or counters"
    if compiled.families and not costs:
        move = compiled.families[0].move
        return (
            f"{tables} need every move to be a plain rewrite (a pattern -> pattern, with no condition, "
            f"action or cost), and {move.name!r} is {_not_plain(move)}"
        )
    if puzzle.symmetries:
        return "the spec's symmetries join states, and the tables are not checked against them"
    if puzzle.goal.cells is None or puzzle.goal.places:
        return f"{tables} need a goal that places pieces on cells"
    return None


def _not_plain(move: Move) -> str:
    """What makes a move more than a plain rewrite, in the spec's words."""
    if isinstance(move.form, Slide):
        return "a slide"
    if isinstance(move.form, Carry):
        return "a carry"
    if any(isinstance(action, Cycle) for action in move.actions):
        return "a permutation of cells (cycle, rotate or reverse)"
    if move.guard is not None:
        return "a move with a condition"
    if move.cost is not None:
        return "a move with a cost"
    if move.actions:
        return "a move with actions"
    return "not a rewrite"


def abstraction(compiled: CompiledPuzzle) -> Abstraction | str:
    """The puzzle's abstraction, or why it has none."""
    puzzle = compiled.puzzle
    why = unfit(compiled, "pattern databases")
    if why is not None:
        return why
    goal = puzzle.goal.cells
    assert goal is not None and puzzle.board is not None  # as unfit found
    moves: list[Instance] = []
    seen: set[tuple[object, ...]] = set()
    for move in puzzle.moves:
        rule = move.form
        assert isinstance(rule, Rewrite)
        lhs, rhs = normalise(rule)
        if not invertible(lhs, rhs):
            return f"the move {move.name} cannot be run backward (its right side does not say what it replaced)"
        for cells in placements(puzzle.board, move, rule):
            back = instance(rhs, lhs, cells, 0)
            if back is None or back[:5] in seen:
                continue
            seen.add(back[:5])
            if not _permutes(back):
                return f"the move {move.name} does not only move pieces among its cells"
            moves.append(back)
    if not moves:
        return "the puzzle has no moves"
    start = compiled.start[: compiled.cells]
    on_board = Counter(start)
    in_goal = Counter(goal)
    candidates = tuple(
        (code, cell)
        for cell, code in enumerate(goal)
        if code not in (EMPTY, ANY) and on_board[code] == 1 and in_goal[code] == 1
    )
    return Abstraction(
        cells=compiled.cells,
        reversed_moves=tuple(moves),
        single_piece=all(_moves_one_piece(m) for m in moves),
        candidates=candidates,
        empties=on_board[EMPTY],
        goal=goal,
    )


def changed_cells(inst: Instance) -> dict[int, object]:
    """What each cell the instance changes holds after it: a code, or ("from", cell)."""
    after: dict[int, object] = {cell: code for cell, code in inst[3]}
    after.update({cell: ("from", source) for cell, source in inst[4]})
    return after


def held_before(inst: Instance, cell: int) -> object:
    """What a cell holds before the instance, as far as it says: a code, ("from", cell) for a
    piece it names by a variable, or None (unknown)."""
    checks = dict(inst[0])
    if cell in checks:
        return checks[cell]
    if cell in inst[1] or any(cell == b for _, b in inst[2]):
        bound = next((a for a, b in inst[2] if b == cell), cell)
        return ("from", bound)
    return None


def _permutes(inst: Instance) -> bool:
    """Whether the instance only moves what its changed cells hold among them (nothing made,
    lost or copied twice): then pieces and empty cells keep their numbers."""
    after = changed_cells(inst)
    before = [held_before(inst, cell) for cell in after]
    if any(b is None for b in before):
        return False
    return Counter(map(repr, before)) == Counter(map(repr, after.values()))


def _moves_one_piece(inst: Instance) -> bool:
    """Whether at most one of the changed cells held a piece before the move."""
    return sum(1 for cell in changed_cells(inst) if held_before(inst, cell) != EMPTY) <= 1


def operations(
    abstraction: Abstraction, codes: tuple[int, ...]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The reversed moves as operations on abstract states for a pattern keeping `codes`: the
    operations (kind, x, y), where each move's start in them, and the moves grouped by an
    empty cell they need (those that need none last), with where each group starts."""
    import numpy as np  # here, not at the top: a run that builds no pattern table does not load numpy

    symbol = {code: i + 1 for i, code in enumerate(codes)}

    def sym(code: int) -> int:
        return 0 if code == EMPTY else symbol.get(code, OTHER)

    ops: list[tuple[int, int, int]] = []
    starts: list[int] = []
    groups: list[list[int]] = [[] for _ in range(abstraction.cells + 1)]
    for m, (checks, occupied, same, writes, copies, _) in enumerate(abstraction.reversed_moves):
        starts.append(len(ops))
        ops.extend((CHECK, cell, sym(code)) for cell, code in checks)
        ops.extend((OCCUPIED, cell, 0) for cell in occupied)
        ops.extend((SAME, a, b) for a, b in same)
        ops.extend((WRITE, cell, sym(code)) for cell, code in writes)
        ops.extend((COPY, cell, source) for cell, source in copies)
        empty = next((cell for cell, code in checks if code == EMPTY), abstraction.cells)
        groups[empty].append(m)
    starts.append(len(ops))
    grouped = [m for group in groups for m in group]
    group_starts = np.cumsum([0] + [len(g) for g in groups])
    return (
        np.array(ops, dtype=np.int64).reshape(-1, 3),
        np.array(starts, dtype=np.int64),
        np.array(grouped, dtype=np.int64),
        group_starts.astype(np.int64),
    )


def goal_states(abstraction: Abstraction, codes: tuple[int, ...]) -> list[list[int]]:
    """Every abstract goal state of a pattern (as cell arrays of symbols): its pieces on their
    goal cells, the cells the goal leaves empty empty, and the other empty cells on any of the
    cells the goal leaves open."""
    n, k = abstraction.cells, len(codes)
    where = dict(abstraction.candidates)
    base = [k + 1] * n
    for i, code in enumerate(codes):
        base[where[code]] = i + 1
    must = [c for c in range(n) if abstraction.goal[c] == EMPTY]
    may = [c for c in range(n) if abstraction.goal[c] == ANY and base[c] == k + 1]
    wanted = abstraction.empties - len(must)
    if wanted < 0 or wanted > len(may):
        return []
    found = []
    for chosen in combinations(may, wanted):
        cells = list(base)
        for c in (*must, *chosen):
            cells[c] = 0
        found.append(cells)
    return found
