"""The amida-kuji drawing: a solution whose moves each swap two neighbouring cells of a line
is a ladder; each move is a rung across one gap. Rungs are packed into rows by the seed
article's rule: a rung joins the current row unless an earlier rung still waiting touches
the same gap or a neighbouring one."""

from __future__ import annotations

from ..compiler import CompiledPuzzle


def rungs(compiled: CompiledPuzzle, path: list[tuple[int, bytes]]) -> list[int] | None:
    """The gap (0 = between the first two verticals) of each move, or None if some move is
    not a swap of two neighbouring cells."""
    gaps = []
    before = compiled.start
    for move, after in path:
        cells = compiled.label(move, before, after).cells
        if len(cells) != 2 or cells[1] - cells[0] != 1:
            return None
        gaps.append(cells[0])
        before = after
    return gaps


def pack(gaps: list[int]) -> list[list[int]]:
    """Rows of rungs, top to bottom, as the seed packs them."""
    waiting = list(gaps)
    rows = []
    while waiting:
        chosen = [i for i in range(len(waiting)) if not any(abs(waiting[i] - waiting[j]) < 2 for j in range(i))]
        rows.append(sorted(waiting[i] for i in chosen))
        waiting = [g for i, g in enumerate(waiting) if i not in set(chosen)]
    return rows


def row_text(row: list[int], verticals: int) -> str:
    """`| |-| |`: verticals, with a rung drawn across each gap of the row."""
    line = list("| " * (verticals - 1) + "|")
    for gap in row:
        line[gap * 2 + 1] = "-"
    return "".join(line)


def ladder_lines(compiled: CompiledPuzzle, path: list[tuple[int, bytes]]) -> list[str] | None:
    gaps = rungs(compiled, path)
    if gaps is None:
        return None
    puzzle = compiled.puzzle
    verticals = compiled.cells
    top = " ".join(puzzle.symbol(c) for c in compiled.start[:verticals])
    final = path[-1][1] if path else compiled.start
    bottom = " ".join(puzzle.symbol(c) for c in final[:verticals])
    return [top, *(row_text(row, verticals) for row in pack(gaps)), bottom]
