"""Puzzle model -> CompiledPuzzle: states as `bytes` (one byte per cell, 0 = empty) and every
move rule expanded once into concrete instances (which cells it reads and writes), so that
the search never looks at rules, anchors or directions again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import product
from math import prod

from .. import topology
from ..errors import Diagnostic, SpecError
from ..model import EMPTY, AnyCell, Bind, CellPattern, Lit, Puzzle, RewriteRule
from .symmetry import SymmetryGroup

# An instance, flattened for the hot loop:
# (checks, occupied, same, writes, copies, index)
#   checks:   ((cell, code), ...)  the cell must hold exactly this
#   occupied: (cell, ...)          the cell must hold some piece (a ?x on the left)
#   same:     ((cell, cell), ...)  both cells hold the same piece (?x used twice on the left)
#   writes:   ((cell, code), ...)  put this content into the cell
#   copies:   ((cell, source), ...) put what the source cell held before the move
Instance = tuple[
    tuple[tuple[int, int], ...],
    tuple[int, ...],
    tuple[tuple[int, int], ...],
    tuple[tuple[int, int], ...],
    tuple[tuple[int, int], ...],
    int,
]
Successor = tuple[bytes, int]
MAX_PLACEMENTS = 2_000_000


@dataclass(frozen=True)
class MoveLabel:
    """A move as a person reads it: the rule, and each piece that moved (or appeared/vanished)."""

    rule: str
    movers: tuple[tuple[str, str | None, str | None], ...]  # (symbol, from cell, to cell)
    cells: tuple[int, ...]  # board cells the move touched, for highlighting


@dataclass(frozen=True)
class _Origin:
    """Where instance i came from: its rule, and which cells its movers left and reached."""

    rule: int
    movers: tuple[tuple[int | None, int | None], ...]
    touched: tuple[int, ...]


def _normalise(rule: RewriteRule) -> tuple[list[CellPattern], list[CellPattern]]:
    """Flatten the windows; a ? on the right means "as it was", so copy the left item there."""
    lhs = [c for w in rule.lhs for c in w]
    rhs = [c for w in rule.rhs for c in w]
    rhs = [left if isinstance(right, AnyCell) else right for left, right in zip(lhs, rhs, strict=True)]
    return lhs, rhs


def _invertible(lhs: list[CellPattern], rhs: list[CellPattern]) -> bool:
    """Can the move be run backwards? Only if the right side tells what the left side held."""
    right_vars = {c.name for c in rhs if isinstance(c, Bind)}
    for left, right in zip(lhs, rhs, strict=True):
        if isinstance(left, AnyCell) and not isinstance(right, AnyCell):
            return False
        if isinstance(left, Bind) and left.name not in right_vars:
            return False
    return True


def _movers(lhs: list[CellPattern], rhs: list[CellPattern]) -> list[tuple[int | None, int | None]]:
    """Pair the pattern positions a piece leaves with those it reaches."""
    pairs: list[tuple[int | None, int | None]] = []
    first: dict[str, int] = {}
    for i, c in enumerate(lhs):
        if isinstance(c, Bind):
            first.setdefault(c.name, i)
    for j, c in enumerate(rhs):
        if isinstance(c, Bind) and first[c.name] != j:
            pairs.append((first[c.name], j))
    codes = {c.code for c in lhs + rhs if isinstance(c, Lit) and c.code != EMPTY}
    for code in sorted(codes):
        lit = Lit(code)
        sources = [i for i, c in enumerate(lhs) if c == lit and rhs[i] != lit]
        targets = [j for j, c in enumerate(rhs) if c == lit and lhs[j] != lit]
        for k in range(max(len(sources), len(targets))):
            pairs.append((sources[k] if k < len(sources) else None, targets[k] if k < len(targets) else None))
    pairs.sort(key=lambda p: (p[0] if p[0] is not None else 1 << 30, p[1] or 0))
    return pairs


def _instance(lhs: list[CellPattern], rhs: list[CellPattern], cells: tuple[int, ...], index: int) -> Instance | None:
    checks: list[tuple[int, int]] = []
    occupied: list[int] = []
    same: list[tuple[int, int]] = []
    writes: list[tuple[int, int]] = []
    copies: list[tuple[int, int]] = []
    bound: dict[str, int] = {}
    for cell, c in zip(cells, lhs, strict=True):
        if isinstance(c, Lit):
            checks.append((cell, c.code))
        elif isinstance(c, Bind):
            if c.name in bound:
                same.append((bound[c.name], cell))
            else:
                bound[c.name] = cell
                occupied.append(cell)
    for cell, left, right in zip(cells, lhs, rhs, strict=True):
        if right == left:
            continue
        if isinstance(right, Lit):
            writes.append((cell, right.code))
        elif isinstance(right, Bind) and bound[right.name] != cell:
            copies.append((cell, bound[right.name]))
    if not writes and not copies:
        return None
    return (
        tuple(sorted(checks)),
        tuple(sorted(occupied)),
        tuple(sorted(same)),
        tuple(sorted(writes)),
        tuple(sorted(copies)),
        index,
    )


def _placements(puzzle: Puzzle, rule: RewriteRule) -> Iterator[tuple[int, ...]]:
    """Every way to lay the rule's windows on the board: same direction, no shared cells."""
    board = puzzle.board
    lengths = [len(w) for w in rule.lhs]
    seen: set[tuple[int, ...]] = set()
    for vector in rule.directions:
        per_window = []
        for length in lengths:
            spots: list[tuple[int, ...]] = []
            for anchor in range(board.size):
                found = [topology.step(board, anchor, vector, j) for j in range(length)]
                cells = tuple(c for c in found if c is not None)
                if len(cells) == length and len(set(cells)) == length:
                    spots.append(cells)
            per_window.append(spots)
        total = prod(len(spots) for spots in per_window)
        if total > MAX_PLACEMENTS:
            raise SpecError(
                [
                    Diagnostic(
                        rule.pos,
                        f"move {rule.name} has {total:,} placements on {topology.describe(board)}; "
                        f"puzint takes at most {MAX_PLACEMENTS:,} a move",
                        "fewer '...' windows, or a smaller board",
                    )
                ]
            )
        for combo in product(*per_window):
            flat = tuple(c for cells in combo for c in cells)
            if len(set(flat)) == len(flat) and flat not in seen:
                seen.add(flat)
                yield flat


class CompiledPuzzle:
    """States, successors and goal test of one puzzle: all the search engine needs."""

    def __init__(self, puzzle: Puzzle):
        self.puzzle = puzzle
        self.start: bytes = bytes(puzzle.start)
        self.goal_state: bytes | None = (
            bytes(c.code for c in puzzle.goal if isinstance(c, Lit)) if puzzle.goal_is_concrete else None
        )
        self._goal_checks = tuple((i, c.code) for i, c in enumerate(puzzle.goal) if isinstance(c, Lit))
        self.invertible = True
        forward: list[Instance] = []
        backward: list[Instance] = []
        self._origins: list[_Origin] = []
        keys: set[tuple[object, ...]] = set()
        for r, rule in enumerate(puzzle.rules):
            lhs, rhs = _normalise(rule)
            invertible = _invertible(lhs, rhs)
            self.invertible = self.invertible and invertible
            pairs = _movers(lhs, rhs)
            for cells in _placements(puzzle, rule):
                inst = _instance(lhs, rhs, cells, len(forward))
                if inst is None or inst[:5] in keys:
                    continue
                keys.add(inst[:5])
                forward.append(inst)
                if invertible:
                    back = _instance(rhs, lhs, cells, inst[5])
                    assert back is not None
                    backward.append(back)
                movers = tuple(
                    (cells[a] if a is not None else None, cells[b] if b is not None else None) for a, b in pairs
                )
                touched = tuple(sorted({cells[i] for i in range(len(cells)) if lhs[i] != rhs[i]}))
                self._origins.append(_Origin(r, movers, touched))
        self.symmetry = SymmetryGroup(puzzle, keys, self.start) if puzzle.symmetries else None
        self._instances = forward
        self.instance_count = len(forward)
        rarity = Counter(self.start)
        self._forward = _index(forward, puzzle.board.size, rarity)
        self._backward = _index(backward, puzzle.board.size, rarity) if self.invertible else None

    # ---- what the search engine calls
    def expand(self, state: bytes) -> list[Successor]:
        return _expand(state, *self._forward)

    def expand_back(self, state: bytes) -> list[Successor]:
        """Predecessors (with the forward move that leads from each to `state`)."""
        assert self._backward is not None
        return _expand(state, *self._backward)

    def is_goal(self, state: bytes) -> bool:
        if self.goal_state is not None:
            return state == self.goal_state
        return all(state[c] == v for c, v in self._goal_checks)

    # ---- what the renderers call
    def label(self, index: int, before: bytes) -> MoveLabel:
        origin = self._origins[index]
        rule = self.puzzle.rules[origin.rule]
        board = self.puzzle.board
        movers = []
        for src, dst in origin.movers:
            code = before[src] if src is not None else None
            if code is None and dst is not None:
                code = _written(self._instances[index], dst)
            movers.append(
                (
                    self.puzzle.symbol(code or EMPTY),
                    topology.cell_name(board, src) if src is not None else None,
                    topology.cell_name(board, dst) if dst is not None else None,
                )
            )
        return MoveLabel(rule.name, tuple(movers), origin.touched)

    def initial_trajectories(self) -> Trajectories:
        """Every piece's trajectory so far, at the start: just its cell."""
        return tuple(sorted((code, (cell,)) for cell, code in enumerate(self.start) if code))

    def extend_trajectories(self, trajectories: Trajectories, move: int) -> Trajectories:
        """Each piece's own sequence of cells (-1: removed), extended by one move; kept as a
        sorted tuple of (piece code, cells), so interchangeable pieces are not told apart and
        two solutions differing only in the order of independent moves end up equal."""
        tracks = list(trajectories)
        by_cell = {track[-1]: i for i, (_, track) in enumerate(tracks) if track[-1] >= 0}
        inst = self._instances[move]
        for src, dst in self._origins[move].movers:
            if src is None:
                tracks.append((_written(inst, dst) if dst is not None else 0, (-1 if dst is None else dst,)))
                continue
            i = by_cell[src]
            code, track = tracks[i]
            tracks[i] = (code, (*track, -1 if dst is None else dst))
        return tuple(sorted(tracks))


Trajectories = tuple[tuple[int, tuple[int, ...]], ...]


def _written(inst: Instance, cell: int) -> int:
    return dict(inst[3]).get(cell, EMPTY)


Index = tuple[int, list[tuple[int, list[list[Instance]]]], list[Instance]]


def _index(instances: list[Instance], size: int, rarity: Counter[int]) -> Index:
    """Group instances by one required (cell, content), choosing the content rarest at the
    start (usually the blank): a state is then matched only against instances whose key
    content it actually has at that cell, found with bytes.find at C speed."""
    keyed: dict[int, list[list[Instance]]] = {}
    unkeyed: list[Instance] = []
    for inst in instances:
        checks = inst[0]
        if not checks:
            unkeyed.append(inst)
            continue
        cell, code = min(checks, key=lambda cv: (rarity.get(cv[1], 0), cv[0]))
        rest = tuple(cv for cv in checks if cv != (cell, code))
        slot = keyed.setdefault(code, [[] for _ in range(size)])
        slot[cell].append((rest, *inst[1:]))  # type: ignore[arg-type]
    return size, sorted(keyed.items(), key=lambda kv: rarity.get(kv[0], 0)), unkeyed


def _expand(
    state: bytes, size: int, keyed: list[tuple[int, list[list[Instance]]]], unkeyed: list[Instance]
) -> list[Successor]:
    out: list[Successor] = []
    append = out.append
    for code, by_cell in keyed:
        i = state.find(code)
        while i >= 0:
            for checks, occupied, same, writes, copies, index in by_cell[i]:
                for c, v in checks:
                    if state[c] != v:
                        break
                else:
                    for c in occupied:
                        if not state[c]:
                            break
                    else:
                        for a, b in same:
                            if state[a] != state[b]:
                                break
                        else:
                            new = bytearray(state)
                            for c, v in writes:
                                new[c] = v
                            for c, f in copies:
                                new[c] = state[f]
                            append((bytes(new), index))
            i = state.find(code, i + 1)
    for _checks, occupied, same, writes, copies, index in unkeyed:
        for c in occupied:
            if not state[c]:
                break
        else:
            for a, b in same:
                if state[a] != state[b]:
                    break
            else:
                new = bytearray(state)
                for c, v in writes:
                    new[c] = v
                for c, f in copies:
                    new[c] = state[f]
                append((bytes(new), index))
    return out


def compile_puzzle(puzzle: Puzzle) -> CompiledPuzzle:
    return CompiledPuzzle(puzzle)
