"""Rewrite moves compiled into tables: every rule expanded once into concrete *instances*
(which cells it reads and writes), so that the search never looks at rules, anchors or
directions again.

Each instance is run in one of three shapes, chosen when the puzzle is compiled so that the
common moves cost the fewest Python operations:
  literal: every cell from the first to the last one the move reads or writes is checked
           against a literal (frog's B W _ -> _ W B): one slice comparison tests the move and
           the successor is state[:lo] + after + state[hi:], both at C speed;
  mover:   one piece ?x moves from cell m to cell t, leaving a literal behind, and nothing
           else is checked but the index key (?k _ -> _ ?k);
  general: anything else (several variables, copies, ? cells), with the checks that are
           left after the index key shared by consecutive instances that have the same ones.
Instances are indexed by one cell they need to hold a given content (the content rarest at
the start, usually the blank), found with `bytes.find` over the cells at C speed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import product
from math import prod
from typing import Any

from ..errors import Diagnostic, SpecError
from ..model.board import Board
from ..model.puzzle import EMPTY, AnyCell, Bind, CellPattern, Lit, Move, Rewrite

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
Expander = Callable[[bytes], list[Successor]]
MAX_PLACEMENTS = 2_000_000
WINDOWS_REMEMBERED = 4096  # a cell's literal moves: window contents whose outcome is remembered


@dataclass(frozen=True)
class Origin:
    """Where instance i came from: its move, the cells of its pattern (in pattern order),
    which cells its movers left and reached, and the cells it changes."""

    move: int
    cells: tuple[int, ...]
    movers: tuple[tuple[int | None, int | None], ...]
    touched: tuple[int, ...]


def normalise(rule: Rewrite) -> tuple[list[CellPattern], list[CellPattern]]:
    """Flatten the windows; a ? on the right means "as it was", so copy the left item there."""
    lhs = [c for w in rule.lhs for c in w]
    rhs = [c for w in rule.rhs for c in w]
    rhs = [left if isinstance(right, AnyCell) else right for left, right in zip(lhs, rhs, strict=True)]
    return lhs, rhs


def invertible(lhs: list[CellPattern], rhs: list[CellPattern]) -> bool:
    """Can the move be run backwards? Only if the right side tells what the left side held."""
    right_vars = {c.name for c in rhs if isinstance(c, Bind)}
    for left, right in zip(lhs, rhs, strict=True):
        if isinstance(left, AnyCell) and not isinstance(right, AnyCell):
            return False
        if isinstance(left, Bind) and left.name not in right_vars:
            return False
    return True


def movers(lhs: list[CellPattern], rhs: list[CellPattern]) -> list[tuple[int | None, int | None]]:
    """Pair the pattern positions a piece leaves with those it reaches (None: it appears, or
    it leaves the board: `?b -> _` takes the matched piece off)."""
    pairs: list[tuple[int | None, int | None]] = []
    first: dict[str, int] = {}
    for i, c in enumerate(lhs):
        if isinstance(c, Bind):
            first.setdefault(c.name, i)
    for j, c in enumerate(rhs):
        if isinstance(c, Bind) and first[c.name] != j:
            pairs.append((first[c.name], j))
    kept = {c.name for c in rhs if isinstance(c, Bind)}
    for i, c in enumerate(lhs):  # a matched piece the right side does not keep: it leaves its cell
        if isinstance(c, Bind) and rhs[i] != c and (c.name not in kept or first[c.name] != i):
            pairs.append((i, None))
    codes = {c.code for c in lhs + rhs if isinstance(c, Lit) and c.code != EMPTY}
    for code in sorted(codes):
        lit = Lit(code)
        sources = [i for i, c in enumerate(lhs) if c == lit and rhs[i] != lit]
        targets = [j for j, c in enumerate(rhs) if c == lit and lhs[j] != lit]
        for k in range(max(len(sources), len(targets))):
            pairs.append((sources[k] if k < len(sources) else None, targets[k] if k < len(targets) else None))
    pairs.sort(key=lambda p: (p[0] if p[0] is not None else 1 << 30, p[1] or 0))
    return pairs


def instance(lhs: list[CellPattern], rhs: list[CellPattern], cells: tuple[int, ...], index: int) -> Instance | None:
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


def _windows(board: Board, rule: Rewrite, length: int) -> Iterator[tuple[int, tuple[int, ...]]]:
    """(direction number, cells) of every window of `length` cells: along each direction (on a
    graph, every path of distinct cells), or over the shape's cells."""
    if rule.shape is not None:
        for anchor in range(board.size):
            found = [board.step(anchor, v) for v in rule.shape]
            cells = tuple(c for c in found if c is not None)
            if len(cells) == len(found) and len(set(cells)) == len(cells):
                yield 0, cells
        return
    for d, direction in enumerate(rule.directions):
        for anchor in range(board.size):
            paths: list[tuple[int, ...]] = [(anchor,)]
            for _ in range(length - 1):
                paths = [(*p, n) for p in paths for n in direction.steps[p[-1]] if n not in p]
            for path in paths:
                if len(path) == length:
                    yield d, path


def placements(board: Board, move: Move, rule: Rewrite) -> Iterator[tuple[int, ...]]:
    """Every way to lay the rule's windows on the board: same direction, no shared cells."""
    lengths = [len(w) for w in rule.lhs]
    seen: set[tuple[int, ...]] = set()
    count = max(1, len(rule.directions))
    per_direction: list[list[list[tuple[int, ...]]]] = [[[] for _ in lengths] for _ in range(count)]
    for k, length in enumerate(lengths):
        for d, cells in _windows(board, rule, length):
            if k == 0 and rule.anchors is not None and cells[0] not in rule.anchors:
                continue  # `from CELL`: the pattern starts there only
            per_direction[d][k].append(cells)
    for per_window in per_direction:
        total = prod(len(spots) for spots in per_window)
        if total > MAX_PLACEMENTS:
            raise SpecError(
                [
                    Diagnostic(
                        move.pos,
                        f"move {move.name} has {total:,} placements on {board.describe()}; "
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


# ---- the hot loop
_LITERAL, _MOVER, _GENERAL = 0, 1, 2

Checks = tuple[tuple[int, int], ...]
LiteralItem = tuple[int, int, bytes, bytes, int]  # lo, hi, before, after, index
MoverItem = tuple[int, int, int, int]  # m, what m holds after the move, t, index
GeneralItem = tuple[tuple[int, ...], Checks, Checks, Checks, int]  # occupied, same, writes, copies, index
# shape, checks left after the key, cells found empty by the key and those checks, items of that shape
Block = tuple[int, Checks, int, tuple[Any, ...]]


def _shape(inst: Instance, key: tuple[int, int] | None) -> tuple[int, Checks, LiteralItem | MoverItem | GeneralItem]:
    """The shape an instance runs in, the checks its block must make, and its flattened form."""
    checks, occupied, same, writes, copies, index = inst
    if not occupied and not same and not copies and checks:
        known = dict(checks)
        cells = [c for c, _ in checks] + [c for c, _ in writes]
        lo, hi = min(cells), max(cells) + 1
        if all(c in known for c in range(lo, hi)):
            after = known | dict(writes)
            return (
                _LITERAL,
                (),
                (lo, hi, bytes(known[c] for c in range(lo, hi)), bytes(after[c] for c in range(lo, hi)), index),
            )
    rest = tuple(cv for cv in checks if cv != key)
    if not rest and not same and len(occupied) == 1 and len(writes) == 1 and len(copies) == 1:
        (m,), ((w, left),), ((t, source),) = occupied, writes, copies
        if w == m and source == m:
            return _MOVER, (), (m, left, t, index)
    return _GENERAL, rest, (occupied, same, writes, copies, index)


def _blocks(instances: list[tuple[Instance, tuple[int, int] | None]]) -> tuple[Block, ...]:
    """Consecutive instances of one shape (and, for general ones, the same remaining checks)
    in one block; the order of the instances, and so of the successors, is kept."""
    blocks: list[tuple[int, Checks, int, list[LiteralItem | MoverItem | GeneralItem]]] = []
    for inst, key in instances:
        kind, rest, item = _shape(inst, key)
        if blocks and blocks[-1][0] == kind and blocks[-1][1] == rest:
            blocks[-1][3].append(item)
        else:
            found_empty = {c for c, v in (*rest, key or (-1, -1)) if v == EMPTY}
            blocks.append((kind, rest, len(found_empty), [item]))
    return tuple((kind, rest, blanks, tuple(items)) for kind, rest, blanks, items in blocks)


def index(instances: list[Instance], cells: int, rarity: Counter[int], single: bytes | None) -> Expander:
    """Group instances by one required (cell, content), choosing the content rarest at the
    start (usually the blank): a state is then matched only against instances whose key
    content it actually has at that cell, found with bytes.find at C speed. `single`, when
    the puzzle has blocks, says which codes a `?x` may match (pieces of one cell)."""
    keyed, unkeyed = key_groups(instances, cells, rarity)
    table = [(code, [_blocks(at_cell) for at_cell in by_cell]) for code, by_cell in keyed]
    return _expander(table, _blocks(unkeyed), cells, single)


Keyed = list[tuple[Instance, tuple[int, int] | None]]


def key_groups(
    instances: list[Instance], cells: int, rarity: Counter[int]
) -> tuple[list[tuple[int, list[Keyed]]], Keyed]:
    """The instances keyed by (content, cell), contents rarest first, and those with no check.
    The order here is the order of the successors, for every engine that runs the tables."""
    keyed: dict[int, list[Keyed]] = {}
    unkeyed: Keyed = []
    for inst in instances:
        checks = inst[0]
        if not checks:
            unkeyed.append((inst, None))
            continue
        cell, code = min(checks, key=lambda cv: (rarity.get(cv[1], 0), cv[0]))
        if code not in keyed:  # (not setdefault: that would build a board-sized list per instance)
            keyed[code] = [[] for _ in range(cells)]
        keyed[code][cell].append((inst, (cell, code)))
    return sorted(keyed.items(), key=lambda kv: rarity.get(kv[0], 0)), unkeyed


def _expander(
    keyed: list[tuple[int, list[tuple[Block, ...]]]], unkeyed: tuple[Block, ...], cells: int, single: bytes | None
) -> Expander:
    """The successor function: a loop specialised to the one shape all instances share, when
    they do and one key content covers them all, else the loop that handles every shape."""
    kinds = {block[0] for _, by_cell in keyed for blocks in by_cell for block in blocks}
    if len(keyed) == 1 and not unkeyed and len(kinds) == 1 and single is None:
        code, by_cell = keyed[0]
        kind = kinds.pop()
        items = [tuple(i for b in blocks for i in b[3]) for blocks in by_cell]
        if kind == _LITERAL:
            return _literal_expander(code, items, cells)
        if kind == _MOVER:
            return _mover_expander(code, items, cells)
    return _mixed_expander(keyed, unkeyed, cells, single)


def _literal_expander(code: int, by_cell: list[tuple[LiteralItem, ...]], cells: int) -> Expander:
    """Literal moves, looked up by the content of the window of cells that the moves keyed at
    a cell read: which moves apply, and what they make of the window, is worked out the first
    time a window is seen and remembered (up to WINDOWS_REMEMBERED windows a cell)."""
    windows: list[tuple[int, int, dict[bytes, tuple[tuple[bytes, int], ...]], tuple[LiteralItem, ...]]] = [
        (min(i[0] for i in items), max(i[1] for i in items), {}, items) if items else (0, 0, {}, ())
        for items in by_cell
    ]

    def hits(window: bytes, lo: int, items: tuple[LiteralItem, ...]) -> tuple[tuple[bytes, int], ...]:
        return tuple(
            (window[: a - lo] + after + window[b - lo :], index)
            for a, b, before, after, index in items
            if window[a - lo : b - lo] == before
        )

    def expand(state: bytes) -> list[Successor]:
        out: list[Successor] = []
        i = state.find(code, 0, cells)
        while i >= 0:
            lo, hi, table, items = windows[i]
            window = state[lo:hi]
            found = table.get(window)
            if found is None:
                found = hits(window, lo, items)
                if len(table) < WINDOWS_REMEMBERED:
                    table[window] = found
            if found:
                head, tail = state[:lo], state[hi:]
                for new, index in found:
                    out.append((head + new + tail, index))
            i = state.find(code, i + 1, cells)
        return out

    return expand


def _mover_expander(code: int, by_cell: list[tuple[MoverItem, ...]], cells: int) -> Expander:
    def expand(state: bytes) -> list[Successor]:
        out: list[Successor] = []
        append = out.append
        i = state.find(code, 0, cells)
        while i >= 0:
            for m, left, t, index in by_cell[i]:
                piece = state[m]
                if piece:
                    new = bytearray(state)
                    new[m] = left
                    new[t] = piece
                    append((bytes(new), index))
            i = state.find(code, i + 1, cells)
        return out

    return expand


def _mixed_expander(
    keyed: list[tuple[int, list[tuple[Block, ...]]]], unkeyed: tuple[Block, ...], cells: int, single: bytes | None
) -> Expander:
    """Any mix of shapes and key contents, and instances with no check to key them on."""

    def expand(state: bytes) -> list[Successor]:
        out: list[Successor] = []
        for code, by_cell in keyed:
            i = state.find(code, 0, cells)
            while i >= 0:
                blocks = by_cell[i]
                if blocks:
                    _run(state, blocks, out, cells, single)
                i = state.find(code, i + 1, cells)
        if unkeyed:
            _run(state, unkeyed, out, cells, single)
        return out

    return expand


def _run(state: bytes, blocks: tuple[Block, ...], out: list[Successor], cells: int, single: bytes | None) -> None:
    """Append to `out` the successors the blocks give (their key, if any, already found)."""
    append = out.append
    for kind, rest, blanks, items in blocks:
        if kind == _LITERAL:
            for lo, hi, before, after, index in items:
                if state[lo:hi] == before:
                    append((state[:lo] + after + state[hi:], index))
        elif kind == _MOVER:
            for m, left, t, index in items:
                piece = state[m]
                if piece and (single is None or single[piece]):
                    new = bytearray(state)
                    new[m] = left
                    new[t] = piece
                    append((bytes(new), index))
        else:
            for c, v in rest:
                if state[c] != v:
                    break
            else:
                if single is None and state.count(EMPTY, 0, cells) == blanks:
                    # The only empty cells are those the checks found empty: every variable's
                    # cell holds a piece, no need to look.
                    for _occupied, same, writes, copies, index in items:
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
                    continue
                for occupied, same, writes, copies, index in items:
                    for c in occupied:
                        if not state[c] or (single is not None and not single[state[c]]):
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
