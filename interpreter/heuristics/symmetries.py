"""Symmetries of a puzzle that its pattern databases may be read through: a map of the board's
cells onto themselves, with a renaming of the pieces, that takes every move to a move and the
goal to itself.

Such a map σ carries every state s to a state σ(s) exactly as far from the goal (a solution
of one, mapped, is a solution of the other), so a table's estimate of σ(s) bounds s too,
and the largest of the estimates seen through each symmetry is still admissible. On the
fifteen puzzle the reflection about the main diagonal is one (Korf and Felner's "reflected
lookup"): the same tables, read twice, bound far more states.

The maps tried are the grid's eight (turns and reflections of its frame); each is kept only
where it is checked on the puzzle itself: the pieces' renaming is read off the goal (the piece
the goal puts on cell c becomes the one it puts on σ(c)), no piece changes how many times it
is on the board, and the set of the puzzle's moves (as the abstraction has them, reversed) is
mapped onto itself. The checks are made on the relaxed puzzle the tables bound (the safety
rules and the goal's conditions left out), whose distances are the ones that must agree.
"""

from __future__ import annotations

from collections import Counter

from ..compiler import CompiledPuzzle
from ..compiler.rewrite import Instance
from ..model.patterns import Symmetry
from ..model.puzzle import ANY, EMPTY
from .abstraction import Abstraction

CODES = 256


def symmetries(compiled: CompiledPuzzle, found: Abstraction) -> tuple[Symmetry, ...]:
    """Every symmetry of the puzzle other than the identity (see above), in a fixed order."""
    board = compiled.puzzle.board
    if board is None or not board.has_frame:
        return ()
    counts = Counter(compiled.start[: found.cells])
    moves = {_canonical(m) for m in found.reversed_moves}
    kept = []
    for goes in _frame_maps(board.rows, board.cols, board.frame, board.wraps):
        codes = _renaming(goes, found.goal)
        if codes is None or any(counts[code] != counts[codes[code]] for code in counts):
            continue
        if {_canonical(_mapped(m, goes, codes)) for m in found.reversed_moves} != moves:
            continue
        reads = [0] * len(goes)
        for cell, target in enumerate(goes):
            reads[target] = cell
        kept.append(Symmetry(tuple(reads), tuple(codes)))
    return tuple(kept)


def _frame_maps(rows: int, cols: int, frame: tuple[int, ...], ring: bool) -> list[tuple[int, ...]]:
    """The grid's turns and reflections that map its cells onto its cells (cell i to
    result[i]), the identity left out. On a ring only its reflection is tried (its turns
    are not moves of the frame)."""
    square = rows == cols
    transforms = [
        lambda r, c: (r, cols - 1 - c),
        lambda r, c: (rows - 1 - r, c),
        lambda r, c: (rows - 1 - r, cols - 1 - c),
    ]
    if square and not ring:
        transforms += [
            lambda r, c: (c, r),
            lambda r, c: (cols - 1 - c, rows - 1 - r),
            lambda r, c: (c, rows - 1 - r),
            lambda r, c: (cols - 1 - c, r),
        ]
    found = []
    for transform in transforms[:1] if ring else transforms:
        goes: list[int] = []
        for square_at, cell in enumerate(frame):
            if cell < 0:
                continue
            r, c = transform(*divmod(square_at, cols))
            target = frame[r * cols + c] if 0 <= r < rows and 0 <= c < cols else -1
            if target < 0:
                break
            goes.append(target)
        else:
            if goes != list(range(len(goes))) and len(set(goes)) == len(goes):
                found.append(tuple(goes))
    return found


def _renaming(goes: tuple[int, ...], goal: tuple[int, ...]) -> list[int] | None:
    """The renaming of the codes that takes the goal onto itself under the cell map, or None
    where there is none (a cell the goal leaves open or empty mapped to one it fills, or one
    code asked to become two). Codes the goal does not place keep their names."""
    codes = list(range(CODES))
    given: dict[int, int] = {}
    for cell, target in enumerate(goes):
        here, there = goal[cell], goal[target]
        if (here in (EMPTY, ANY) or there in (EMPTY, ANY)) and here != there:
            return None
        if here in (EMPTY, ANY):
            continue
        if given.setdefault(here, there) != there:
            return None
    if len(set(given.values())) != len(given) or set(given.values()) != set(given):
        return None
    for code, becomes in given.items():
        codes[code] = becomes
    return codes


def _mapped(inst: Instance, goes: tuple[int, ...], codes: list[int]) -> Instance:
    checks, occupied, same, writes, copies, index = inst

    def code(c: int) -> int:
        return c if c in (EMPTY, ANY) else codes[c]

    return (
        tuple((goes[cell], code(c)) for cell, c in checks),
        tuple(goes[cell] for cell in occupied),
        tuple((goes[a], goes[b]) for a, b in same),
        tuple((goes[cell], code(c)) for cell, c in writes),
        tuple((goes[cell], goes[source]) for cell, source in copies),
        index,
    )


def _canonical(inst: Instance) -> tuple[object, ...]:
    """An instance as a value that does not depend on the order its parts were listed in (two
    cells the same as a set of the pair)."""
    checks, occupied, same, writes, copies, _ = inst
    return (
        frozenset(checks),
        frozenset(occupied),
        frozenset(frozenset(pair) for pair in same),
        frozenset(writes),
        frozenset(copies),
    )
