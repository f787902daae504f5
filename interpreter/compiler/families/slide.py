"""`step`, `slide` and `slide ... until blocked`: one-cell pieces and blocks, along straight
directions, with precomputed rays."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...model.board import Board, Direction
from ...model.puzzle import (
    EMPTY,
    Move,
    Puzzle,
    Slide,
)
from ..evaluate import Evaluator
from ..safety import Safety
from .base import Change, MoveIds, Successor


class SlideFamily:
    """One `step` / `slide` move: each piece it may move, in each direction, by 1 (step),
    any distance through empty cells (slide), or as far as it goes (until blocked)."""

    def __init__(self, index: int, move: Move, puzzle: Puzzle, ids: MoveIds, safety: Safety, evaluator: Evaluator):
        form = move.form
        assert isinstance(form, Slide) and puzzle.board is not None
        self.index, self.move, self.ids, self.safety = index, move, ids, safety
        self.board: Board = puzzle.board
        self.cells = puzzle.cell_count
        self.codes = form.codes
        self.mode = form.mode
        self.repeated = form.repeated
        self.directions = form.directions
        self.guard = evaluator.function(move.guard) if move.guard is not None else None
        self.variable_slot = move.variables[0].slot if form.variable is not None else None
        self.slots = move.slots
        self.shapes = {p.code: p.shape for p in puzzle.pieces if p.shape is not None}
        self.parts = puzzle.parts
        self.part_code = {(part.piece, part.offset): code for code, part in enumerate(puzzle.parts)}
        self.evaluator = evaluator
        self.cost = evaluator.function(move.cost) if move.cost is not None else None
        self.invertible = self.mode in ("step", "slide") and self.guard is None and not move.actions
        self._rays: dict[tuple[int, int], tuple[int, ...]] = {}
        self._back: list[Direction] | None = None

    def ray(self, cell: int, d: int) -> tuple[int, ...]:
        key = (cell, d)
        found = self._rays.get(key)
        if found is None:
            found = self._rays[key] = self.directions[d].ray(cell)
        return found

    def back_ray(self, cell: int, d: int) -> tuple[int, ...]:
        """The cells a piece on `cell` may have come from along direction d (the ray of the
        reversed direction), as expand_back walks them."""
        if self._back is None:
            self._back = [_reverse(d, self.board) for d in self.directions]
        return self._back[d].ray(cell)

    def _targets(self, state: bytes, cell: int, d: int) -> Iterator[int]:
        """Where a one-cell piece on `cell` can go along direction d."""
        ray = self.ray(cell, d)
        mode = self.mode
        last = None
        blocked = False
        for target in ray:
            if state[target]:
                blocked = True
                break
            if mode == "step":
                yield target
                return
            if mode == "slide":
                yield target
            last = target
        if last is not None and (mode == "until" or (mode == "until_piece" and blocked)):
            yield last

    def moves(self, state: bytes) -> Iterator[tuple[int, int, bytearray]]:
        """Every move the form allows, before the guard and the safety rules: (the cell the
        piece leaves (a block: its anchor), the cell it reaches, the state after)."""
        cells = self.cells
        for code in self.codes:
            if code in self.shapes:
                yield from self._block_moves(state, code)
                continue
            i = state.find(code, 0, cells)
            while i >= 0:
                for d in range(len(self.directions)):
                    for t in self._targets(state, i, d):
                        new = bytearray(state)
                        new[i] = EMPTY
                        new[t] = code
                        yield i, t, new
                i = state.find(code, i + 1, cells)

    def expand(self, state: bytes) -> list[Successor]:
        if self.repeated:
            return self._paths(state)
        out: list[Successor] = []
        guard, safe = self.guard, self.safety
        checked, allowed = -1, True
        for source, target, new in self.moves(state):
            if guard is not None:
                if source != checked:
                    checked, allowed = source, self._guard(state, source)
                if not allowed:
                    continue
            if safe.anything and not safe.ok(new):
                continue
            out.append((bytes(new), self.ids.number((self.index, source, target))))
        return out

    def _guard(self, state: bytes, cell: int) -> bool:
        env: list[Any] = [None] * self.slots
        if self.variable_slot is not None:
            env[self.variable_slot] = cell
        assert self.guard is not None
        return bool(self.guard(state, env))

    def _block_moves(self, state: bytes, code: int) -> Iterator[tuple[int, int, bytearray]]:
        """A block moves as one: every cell it moves onto must be empty or its own."""
        shape = self.shapes[code]
        board, cells = self.board, self.cells
        i = state.find(code, 0, cells)
        while i >= 0:
            origin = board.cells[i]
            own = [board.at(origin.row + dr, origin.col + dc) for dr, dc in shape]  # type: ignore[operator]
            for direction in self.directions:
                vector = direction.vector
                if vector is None:
                    continue
                k = 0
                last = None
                blocked = False
                while True:
                    k += 1
                    moved = [board.step(c, vector, k) if c is not None else None for c in own]
                    if None in moved:
                        break
                    if any(state[c] and c not in own for c in moved):  # type: ignore[index]
                        blocked = True
                        break
                    last = moved
                    if self.mode in ("slide", "step"):
                        yield i, moved[0], self._placed(state, code, own, moved)  # type: ignore[arg-type,misc]
                    if self.mode == "step":
                        break
                if last is not None and (self.mode == "until" or (self.mode == "until_piece" and blocked)):
                    yield i, last[0], self._placed(state, code, own, last)  # type: ignore[arg-type,misc]
            i = state.find(code, i + 1, cells)

    def _placed(self, state: bytes, code: int, own: list[int], moved: list[int]) -> bytearray:
        new = bytearray(state)
        for c in own:
            new[c] = EMPTY
        for k, c in enumerate(moved):
            new[c] = self.part_code[(code, k)]
        return new

    def _paths(self, state: bytes) -> list[Successor]:
        """`repeated`: every arrangement one piece reaches by any sequence of this move's
        steps (each one a move: its condition and the safety rules hold at every step), each
        once, as one move from where the piece was to where it ends."""
        out: list[Successor] = []
        cells, safe = self.cells, self.safety
        for code in self.codes:
            start = state.find(code, 0, cells)
            while start >= 0:
                seen = {state}
                frontier = [(state, start)]
                while frontier:
                    before, at = frontier.pop()
                    if self.guard is not None and not self._guard(before, at):
                        continue
                    for _, target, new in self._piece_moves(before, code, at):
                        child = bytes(new)
                        if child in seen or (safe.anything and not safe.ok(new)):
                            continue
                        seen.add(child)
                        out.append((child, self.ids.number((self.index, start, target))))
                        frontier.append((child, target))
                start = state.find(code, start + 1, cells)
        return out

    def _piece_moves(self, state: bytes, code: int, at: int) -> Iterator[tuple[int, int, bytearray]]:
        """The moves of the one piece whose anchor is on cell `at`."""
        if code in self.shapes:
            yield from ((i, t, new) for i, t, new in self._block_moves(state, code) if i == at)
            return
        for d in range(len(self.directions)):
            for t in self._targets(state, at, d):
                new = bytearray(state)
                new[at] = EMPTY
                new[t] = code
                yield at, t, new

    def expand_back(self, state: bytes) -> list[Successor]:
        """Predecessors: a piece on cell t came from a cell behind it, through empty cells
        (with `repeated`, by any number of such steps back)."""
        out: list[Successor] = []
        cells = self.cells
        for code in self.codes:
            if code in self.shapes:
                continue  # blocks are searched forwards only
            t = state.find(code, 0, cells)
            while t >= 0:
                if not self.repeated:
                    out.extend(
                        (new, self.ids.number((self.index, source, t))) for new, source in self._back_steps(state, t)
                    )
                else:
                    seen = {state}
                    frontier = [(state, t)]
                    while frontier:
                        after, at = frontier.pop()
                        for new, source in self._back_steps(after, at):
                            if new not in seen:
                                seen.add(new)
                                out.append((new, self.ids.number((self.index, source, t))))
                                frontier.append((new, source))
                t = state.find(code, t + 1, cells)
        return out

    def _back_steps(self, state: bytes, t: int) -> Iterator[tuple[bytes, int]]:
        """Where the piece on cell t was one move before (the state then, the cell)."""
        if self._back is None:
            self._back = [_reverse(d, self.board) for d in self.directions]
        code = state[t]
        for back in self._back:
            for k, source in enumerate(back.ray(t)):
                if state[source]:
                    break
                if self.mode == "step" and k > 0:
                    break
                new = bytearray(state)
                new[t] = EMPTY
                new[source] = code
                if self.safety.anything and not self.safety.ok(new):
                    continue
                yield bytes(new), source

    def expand_costed(self, state: bytes) -> list[tuple[bytes, int, int]]:
        out = []
        for child, number in self.expand(state):
            cost = 1
            if self.cost is not None:
                env: list[Any] = [None] * self.slots
                if self.variable_slot is not None:
                    env[self.variable_slot] = self.ids.key(number)[1]
                cost = self.cost(state, env)
            out.append((child, number, cost))
        return out

    def change(self, key: tuple[Any, ...], before: bytes, puzzle: Puzzle) -> Change:
        _, source, target = key
        board = self.board
        return Change(((puzzle.symbol(before[source]), board.name(source), board.name(target)),))


def _reverse(direction: Direction, board: Board) -> Direction:
    steps: list[list[int]] = [[] for _ in range(board.size)]
    for cell, following in enumerate(direction.steps):
        for n in following:
            steps[n].append(cell)
    return Direction(direction.name, None, tuple(tuple(s) for s in steps))
