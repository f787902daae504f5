"""A move's actions compiled into effects: functions (state before, state being built,
environment) -> whether the move is still possible. Locations known before the search are
resolved when the effect is built, and the commonest ones get a function of their own."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...model import expr as m
from ...model.board import Board
from ...model.puzzle import EMPTY, Advance, CursorLoc, Cycle, Loc, PlaceLoc, Put, Puzzle, SetCounter, Take, Toggle
from ..evaluate import EvalError, Evaluator
from ..layout import StateLayout

Effect = Callable[[bytes, bytearray, list[Any]], bool]
NONE = m.NONE


def toggle_areas(board: Board, action: Toggle) -> list[tuple[int, ...] | None]:
    """The cells a toggle changes from each anchor cell. A neighbourhood: the cells on the
    board; a shape: all its cells, or None (no move there) where it does not fit."""
    found = [[board.step(a, v) for v in action.shape] for a in range(board.size)]
    return [tuple(c for c in cells if c is not None) if action.cut or None not in cells else None for cells in found]


class Effects:
    def __init__(
        self,
        puzzle: Puzzle,
        layout: StateLayout,
        evaluator: Evaluator,
        where: Callable[[Loc, bytes | bytearray, list[Any]], tuple[str, int] | None],
    ):
        self.puzzle, self.layout, self.evaluator, self._where = puzzle, layout, evaluator, where
        self.cells = layout.cells

    def effect(self, action: Any) -> Callable[[bytes, bytearray, list[Any]], bool]:
        """One action as a function (state before, state being built, env) -> still possible?
        Locations known before the search are resolved here, once."""
        layout, ev = self.layout, self.evaluator
        if isinstance(action, Take):
            return self._take(action)
        if isinstance(action, Put):
            return self._put(action)
        if isinstance(action, Advance):
            return self._advance(action)
        if isinstance(action, SetCounter):
            new_value = ev.function(action.value)
            counter, counter_slot = action.counter, action.slot

            def set_counter(before: bytes, new: bytearray, env: list[Any]) -> bool:
                which = counter if counter is not None else env[counter_slot]  # type: ignore[index]
                return layout.write_counter(new, which, new_value(before, env))

            return set_counter
        if isinstance(action, Toggle):
            board = self.puzzle.board
            assert board is not None
            areas = toggle_areas(board, action)
            flip = list(range(256))
            flip[action.first], flip[action.second] = action.second, action.first

            def toggle(before: bytes, new: bytearray, env: list[Any]) -> bool:
                area = areas[env[action.slot]]
                if area is None:
                    return False  # the shape does not fit here
                for c in area:
                    new[c] = flip[new[c]]
                return True

            return toggle
        if isinstance(action, Cycle):
            pairs = action.pairs()

            def cycle(before: bytes, new: bytearray, env: list[Any]) -> bool:
                for source, target in pairs:
                    new[target] = before[source]
                return True

            return cycle
        return lambda before, new, env: True  # a let: computed before the guard

    def _take(self, action: Take) -> Callable[[bytes, bytearray, list[Any]], bool]:
        layout, cells, slot, where = self.layout, self.cells, action.slot, self._where
        source = action.source
        if isinstance(source, PlaceLoc) and not layout.places[source.place].stack:
            base = layout.places[source.place].offset - 1 - cells  # + piece value -> its count

            def take_from_bag(before: bytes, new: bytearray, env: list[Any]) -> bool:
                at = base + env[slot]
                if not new[at]:
                    return False
                new[at] -= 1
                return True

            return take_from_bag

        def take(before: bytes, new: bytearray, env: list[Any]) -> bool:
            found = where(source, before, env)
            if found is None:
                return False
            kind, at = found
            if kind == "cell":
                if not new[at]:
                    return False
                new[at] = EMPTY
                return True
            code = self.evaluator.code_of(before, env[slot])
            pslot = layout.places[at]
            if pslot.stack:
                contents = layout.stack(new, at)
                if not contents or contents[-1] != code:
                    return False
                new[pslot.offset + len(contents) - 1] = 0
                return True
            if not new[pslot.offset + code - 1]:
                return False
            new[pslot.offset + code - 1] -= 1
            return True

        return take

    def _put(self, action: Put) -> Callable[[bytes, bytearray, list[Any]], bool]:
        layout, where, code_of = self.layout, self._where, self.evaluator.code_of
        target, slot, fixed = action.target, action.slot, action.code
        if isinstance(target, CursorLoc):
            read = layout.reader(target.counter)
            cells = self.cells
            counter = layout.counters[target.counter]
            if counter.width == 1 and fixed is None:
                at = counter.offset  # the cursor's byte holds its cell + 1 (0: off the board)

                def put_taken_at_cursor(before: bytes, new: bytearray, env: list[Any]) -> bool:
                    cell = before[at] - 1
                    if cell < 0 or new[cell]:
                        return False
                    piece = env[slot]  # type: ignore[index]
                    new[cell] = piece - cells if piece >= cells else before[piece]
                    return True

                return put_taken_at_cursor

            def put_at_cursor(before: bytes, new: bytearray, env: list[Any]) -> bool:
                cell = read(before)
                if cell < 0 or new[cell]:
                    return False
                piece = env[slot]  # type: ignore[index]
                new[cell] = fixed if fixed is not None else (piece - cells if piece >= cells else before[piece])
                return True

            return put_at_cursor

        def put(before: bytes, new: bytearray, env: list[Any]) -> bool:
            found = where(target, before, env)
            if found is None:
                return False
            code = fixed if fixed is not None else code_of(before, env[slot])  # type: ignore[index]
            kind, at = found
            if kind == "cell":
                if new[at]:
                    return False
                new[at] = code
                return True
            pslot = layout.places[at]
            if pslot.stack:
                contents = layout.stack(new, at)
                if len(contents) >= pslot.length:
                    return False
                new[pslot.offset + len(contents)] = code
                return True
            if new[pslot.offset + code - 1] >= 255:
                return False
            new[pslot.offset + code - 1] += 1
            return True

        return put

    def _advance(self, action: Advance) -> Callable[[bytes, bytearray, list[Any]], bool]:
        layout, cells, pos = self.layout, self.cells, action.amount.pos
        amount = self.evaluator.function(action.amount)
        read = layout.reader(action.counter)
        direction = action.direction
        top = 64
        table: list[list[int]] | None = None
        if direction is not None:
            table = []
            for c in range(cells):
                row = [c]
                at: int | None = c
                for _ in range(top):
                    at = direction.next(at) if at is not None else None
                    row.append(at if at is not None else NONE)
                table.append(row)

        counter = layout.counters[action.counter]
        if counter.width == 1 and table is not None:
            at = counter.offset  # the cursor's byte holds its cell + 1 (0: off the board)

            def advance_one_byte(before: bytes, new: bytearray, env: list[Any]) -> bool:
                cell = before[at] - 1
                if cell < 0:
                    return True  # off the board it stays off
                k = amount(before, env)
                row = table[cell]  # type: ignore[index]
                if 0 <= k < len(row):
                    new[at] = row[k] + 1
                    return True
                if k < 0:
                    raise EvalError(
                        pos, f"the cursor advances along a direction by a number of cells, not {k}", "0 or more"
                    )
                reached = direction.walk(cell, k)  # type: ignore[union-attr]
                new[at] = (reached if reached is not None else NONE) + 1
                return True

            return advance_one_byte

        def advance(before: bytes, new: bytearray, env: list[Any]) -> bool:
            cell = read(before)
            k = amount(before, env)
            if cell < 0:
                target = NONE
            elif table is None:
                target = cell + k if 0 <= cell + k < cells else NONE
            else:
                if k < 0:
                    raise EvalError(
                        pos, f"the cursor advances along a direction by a number of cells, not {k}", "0 or more"
                    )
                if k < len(table[cell]):
                    target = table[cell][k]
                else:
                    reached = direction.walk(cell, k)  # type: ignore[union-attr]
                    target = reached if reached is not None else NONE
            return layout.write_counter(new, action.counter, target)

        return advance
