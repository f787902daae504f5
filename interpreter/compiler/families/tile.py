"""A tiling as moves (`TileForm`): from a state, place one more piece over the first cell
still open (in reading order), in each way it fits — every cell it covers open and to be
covered, the piece not yet placed.

Every cell before the first open one is covered, so a piece placed over it has that cell as
its own first square: only placements *anchored* there are tried. Each tiling is reached by
exactly one sequence of moves (its pieces in the order of their first cells), so the goal
states (every piece placed) are the tilings, each once. The same placements, as an exact
cover problem (`Cover`), are what the tiling engines search: the Python exact cover
(`search.cover`), the kernel's (`kernel.fill.cover`) and the constraint solver's model.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...model.puzzle import EMPTY, Move, Puzzle, TileForm
from ..layout import StateLayout
from ..safety import Safety
from .base import Change, MoveIds, Successor


@dataclass(frozen=True)
class Placement:
    """One way to lay one piece: the piece (its place in the tiling), its cell code, and the
    cells it covers in reading order (the first is its anchor)."""

    piece: int
    code: int
    cells: tuple[int, ...]


class TileFamily:
    def __init__(self, index: int, move: Move, puzzle: Puzzle, layout: StateLayout, ids: MoveIds, safety: Safety):
        form = move.form
        assert isinstance(form, TileForm) and puzzle.board is not None
        self.index, self.move, self.ids, self.safety, self.layout = index, move, ids, safety, layout
        self.form = form
        self.cells = form.cells
        self.pieces = form.pieces
        self.progress = form.progress
        self.read_progress = layout.reader(form.progress)
        self.invertible = False
        self.placements = placements(puzzle, form)
        self.anchored: dict[int, list[int]] = {}
        for number, placement in enumerate(self.placements):
            self.anchored.setdefault(placement.cells[0], []).append(number)
        self.cell_count = puzzle.cell_count
        self.board = puzzle.board

    def expand(self, state: bytes) -> list[Successor]:
        return [(child, number) for child, number in self._children(state)]

    def expand_costed(self, state: bytes) -> list[tuple[bytes, int, int]]:
        return [(child, number, 1) for child, number in self._children(state)]

    def expand_back(self, state: bytes) -> list[Successor]:
        raise AssertionError("a tiling's moves are not undone")

    def _children(self, state: bytes) -> list[Successor]:
        placed = self.read_progress(state)
        if placed >= len(self.pieces):
            return []
        anchor = next((c for c in self.cells if state[c] == EMPTY), None)
        if anchor is None:
            return []
        found: list[Successor] = []
        for number in self.anchored.get(anchor, ()):
            placement = self.placements[number]
            if state.find(placement.code, 0, self.cell_count) >= 0:
                continue  # placed already
            if any(state[c] != EMPTY for c in placement.cells):
                continue
            found.append((self.placed(state, number, placed + 1), self.ids.number((self.index, number))))
        return found

    def placed(self, state: bytes, number: int, progress: int) -> bytes:
        """The state with placement `number` laid, and `progress` pieces placed."""
        placement = self.placements[number]
        child = bytearray(state)
        for c in placement.cells:
            child[c] = placement.code
        self.layout.write_counter(child, self.progress, progress)
        return bytes(child)

    def final(self, start: bytes, chosen: list[int]) -> list[tuple[int, bytes]]:
        """A tiling as the last step of its path alone (the last piece laid, and the board)."""
        state = bytearray(start)
        for number in chosen:
            placement = self.placements[number]
            for c in placement.cells:
                state[c] = placement.code
        self.layout.write_counter(state, self.progress, len(chosen))
        last = max(chosen, key=lambda n: self.placements[n].cells[0])
        return [(self.ids.number((self.index, last)), bytes(state))]

    def path(self, start: bytes, chosen: list[int]) -> list[tuple[int, bytes]]:
        """A tiling (its placements, in any order) as the moves from the start that reach
        it: by first cell."""
        state, out = start, []
        for k, number in enumerate(sorted(chosen, key=lambda n: self.placements[n].cells[0])):
            state = self.placed(state, number, k + 1)
            out.append((self.ids.number((self.index, number)), state))
        return out

    def exact_cover(self) -> tuple[list[tuple[int, ...]], int]:
        """The tiling as an exact cover problem: a row per placement, covering a column per
        cell (its place among the cells to cover) and one for its piece (after the cells);
        and the number of columns."""
        column = {cell: i for i, cell in enumerate(self.cells)}
        after = len(self.cells)
        rows = [(*(column[c] for c in p.cells), after + p.piece) for p in self.placements]
        return rows, after + len(self.pieces)

    def change(self, key: tuple[Any, ...], before: bytes, puzzle: Puzzle) -> Change:
        placement = self.placements[key[1]]
        assert puzzle.board is not None
        return Change(((puzzle.symbol(placement.code), None, puzzle.board.name(placement.cells[0])),))

    def start_cell(self, key: tuple[Any, ...]) -> int | None:
        placement: Placement = self.placements[key[1]]
        return placement.cells[0]

    def anchor_of(self, key: tuple[Any, ...]) -> int | None:
        return None


def placements(puzzle: Puzzle, form: TileForm) -> list[Placement]:
    """Every way to lay each piece on the cells to cover: each of its ways, at each cell of
    the board, where all its squares are cells to cover."""
    board = puzzle.board
    assert board is not None
    cover = set(form.cells)
    found: list[Placement] = []
    for i, piece in enumerate(form.pieces):
        for way in piece.ways:
            for anchor in form.cells:
                cell = board.cells[anchor]
                assert cell.row is not None and cell.col is not None
                squares = [board.at(cell.row + dr, cell.col + dc) for dr, dc in way]
                if all(c is not None and c in cover for c in squares):
                    found.append(Placement(i, piece.code, tuple(sorted(c for c in squares if c is not None))))
    return found
