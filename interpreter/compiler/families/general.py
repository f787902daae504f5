"""The general family: the core itself — choose, check, change — for guarded rewrites,
actions, and anything combined with them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from ...errors import SpecError
from ...model import expr as m
from ...model.puzzle import (
    EMPTY,
    NUMBER,
    Advance,
    Carry,
    CellLoc,
    CursorLoc,
    Cycle,
    Let,
    Loc,
    Move,
    PlaceLoc,
    Put,
    Puzzle,
    Rewrite,
    SetCounter,
    Slide,
    Take,
    Toggle,
    VarLoc,
)
from ..evaluate import LOAD, Evaluator
from ..layout import StateLayout
from ..rewrite import Instance, instance, movers, normalise, placements
from ..safety import Safety
from .base import NONE, Change, MoveIds, Successor
from .carry import CarryFamily
from .effects import Effects
from .slide import SlideFamily

Chooser = Callable[[bytes, list[Any]], Iterator[tuple[Any, ...]]]


class GeneralFamily:
    """Any move, run by the core: its form's choices, then every variable its actions
    introduce, then lets and the guard on the state before the move, then the effects."""

    def __init__(
        self,
        index: int,
        move: Move,
        puzzle: Puzzle,
        layout: StateLayout,
        ids: MoveIds,
        safety: Safety,
        evaluator: Evaluator,
    ):
        self.index, self.move, self.puzzle, self.layout, self.ids, self.safety = (
            index,
            move,
            puzzle,
            layout,
            ids,
            safety,
        )
        self.evaluator = evaluator
        self.cells = layout.cells
        self.slots = move.slots
        self.guard = evaluator.function(move.guard) if move.guard is not None else None
        self.cost = evaluator.function(move.cost) if move.cost is not None else None
        self.invertible = False
        self.cycle = next((a for a in move.actions if isinstance(a, Cycle)), None)  # a permutation move's
        self.undo = self.cycle.inverse().pairs() if self.cycle is not None else None  # ... run backwards
        self.form_instances: list[tuple[Instance, tuple[int, ...], tuple[tuple[int, int], ...]]] = []
        self._anchors: tuple[dict[int, dict[int, list[int]]], list[int]] | tuple[()] | None = None  # see _candidates
        if isinstance(move.form, Rewrite):
            self._rewrite(move.form)
        # a slide or a carry followed by actions: their own families make the form's choices
        self._slide = SlideFamily(index, move, puzzle, ids, safety, evaluator) if isinstance(move.form, Slide) else None
        self._carry = (
            CarryFamily(index, move, puzzle, layout, ids, safety, evaluator) if isinstance(move.form, Carry) else None
        )
        self._form_key = {Rewrite: 1, Slide: 2, Carry: 3}.get(type(move.form), 0)
        self.single = bytes(
            [1 if part.piece and puzzle.pieces[part.piece - 1].shape is None else 0 for part in puzzle.parts]
            + [0] * (256 - len(puzzle.parts))
        )
        self.bound_by_actions = self._action_variables()
        kinds = [kind for _, kind, _ in self.bound_by_actions]
        self._same_kind = [
            [self.bound_by_actions[j][0] for j in range(i) if kinds[j] == kinds[i] and kinds[i] != "take"]
            for i in range(len(kinds))
        ]
        self._all_places = list(range(len(layout.places)))
        self._all_cells = list(range(layout.cells))
        named = move.counters_named
        self._number_counters = [i for i, c in enumerate(puzzle.counters) if c.role == NUMBER and i not in named]
        self._env: list[Any] = [None] * self.slots
        self.effects = [Effects(puzzle, layout, evaluator, self._where).effect(a) for a in move.actions]
        self.lets = [(a.slot, evaluator.function(a.value)) for a in move.actions if isinstance(a, Let)]
        self._bag_take = self._bag_take_shape()
        self._bag_numbers: list[int | None] = [None] * layout.pieces
        self._placing = self._place_and_advance_shape()
        if self._placing is not None:
            self.expand = self._placing_expander()  # type: ignore[method-assign,assignment]

    # ---- choices
    def _rewrite(self, rule: Rewrite) -> None:
        assert self.puzzle.board is not None
        lhs, rhs = normalise(rule)
        var_slots = {v.name: v.slot for v in self.move.variables}
        names = [c.name for c in lhs if hasattr(c, "name")]
        order = list(dict.fromkeys(names))
        self.pairs = movers(lhs, rhs)
        for cells in placements(self.puzzle.board, self.move, rule):
            inst = instance(lhs, rhs, cells, len(self.form_instances))
            if inst is None:
                continue
            where = {n: cells[[getattr(c, "name", None) for c in lhs].index(n)] for n in order}
            self.form_instances.append((inst, cells, tuple((var_slots[n], where[n]) for n in order)))

    def _action_variables(self) -> list[tuple[int, str, Any]]:
        """(slot, what it ranges over, extra) for each variable the actions introduce, in order."""
        form_vars = set()
        if isinstance(self.move.form, (Rewrite, Slide)):
            form_vars = {v.slot for v in self.move.variables if v.type == m.PIECE}
        out: list[tuple[int, str, Any]] = []
        seen: set[int] = set()
        for action in self.move.actions:
            if isinstance(action, Take):
                if isinstance(action.source, VarLoc) and action.source.slot not in seen:
                    seen.add(action.source.slot)
                    out.append((action.source.slot, action.source.over, None))
                if action.slot not in seen and action.slot not in form_vars:
                    seen.add(action.slot)
                    out.append((action.slot, "take", action.source))
            elif isinstance(action, Put) and isinstance(action.target, VarLoc) and action.target.slot not in seen:
                seen.add(action.target.slot)
                out.append((action.target.slot, action.target.over, None))
            elif isinstance(action, SetCounter) and action.slot is not None and action.slot not in seen:
                seen.add(action.slot)
                out.append((action.slot, "counter", None))
            elif isinstance(action, Toggle) and action.slot not in seen:
                seen.add(action.slot)
                out.append((action.slot, "cell", None))
        return out

    def _form_states(self, state: bytes, env: list[Any]) -> Iterator[tuple[bytearray, tuple[Any, ...]]]:
        """The form's choices: the state with the form's change made, and the choice's key
        (the form's variables are set in `env`)."""
        form = self.move.form
        if self._slide is not None:
            slot = self._slide.variable_slot
            for source, target, new in self._slide.moves(state):
                if slot is not None:
                    env[slot] = source
                yield new, (source, target)
            return
        if self._carry is not None:
            source = self._carry.read_carrier(state)
            for load, target, child, _ in self._carry.candidates(state):
                if self.safety.failing("loads", load, child) is not None:
                    continue
                env[LOAD] = load
                yield bytearray(child), (load, source, target)
            return
        if not isinstance(form, Rewrite):
            yield bytearray(state), ()
            return
        single = self.single if self.puzzle.has_blocks else None
        instances = self.form_instances
        for number in self._candidates(state):
            inst, _cells, where = instances[number]
            checks, occupied, same, writes, copies, _ = inst
            if any(state[c] != v for c, v in checks):
                continue
            if any(not state[c] or (single is not None and not single[state[c]]) for c in occupied):
                continue
            if any(state[a] != state[b] for a, b in same):
                continue
            new = bytearray(state)
            for c, v in writes:
                new[c] = v
            for c, f in copies:
                new[c] = state[f]
            for slot, cell in where:
                env[slot] = cell
            yield new, (number,)

    def _candidates(self, state: bytes) -> Iterable[int]:
        """The numbers of the form's placements that may match this state, in order: those
        whose anchor (`_anchor_index`) is where the state holds its value, else all of them."""
        anchors = self._anchors
        if anchors is None:
            anchors = self._anchors = self._anchor_index(state)
        if not anchors:
            return range(len(self.form_instances))
        index, loose = anchors
        numbers = list(loose)
        for value, at in index.items():
            i = state.find(value)
            while i >= 0:
                found = at.get(i)
                if found is not None:
                    numbers.extend(found)
                i = state.find(value, i + 1)
        numbers.sort()
        return numbers

    def _anchor_index(self, state: bytes) -> tuple[dict[int, dict[int, list[int]]], list[int]] | tuple[()]:
        """Each placement of the form under one of the cells it checks (its anchor: the one
        whose value is rarest in the first state expanded, e.g. Sokoban's worker), so that a
        state is matched against the placements anchored where it holds their anchor's value,
        not against every placement: a walk on a board of 476 cells tried some 1,900
        placements a state, of which the four round the worker can match. Placements that
        check no cell are always tried. Empty (all placements tried) where the anchors'
        values are common enough that looking them up costs more than it saves."""
        counts = Counter(state)
        index: dict[int, dict[int, list[int]]] = {}
        loose: list[int] = []
        for number, (inst, _cells, _where) in enumerate(self.form_instances):
            checks = inst[0]
            if not checks:
                loose.append(number)
                continue
            cell, value = min(checks, key=lambda check: counts[check[1]])
            index.setdefault(value, {}).setdefault(cell, []).append(number)
        looked = sum(counts[value] for value in index) + len(loose)
        if 2 * looked >= len(self.form_instances):
            return ()
        return index, loose

    def _values(self, kind: str, extra: Any, state: bytes, env: list[Any]) -> list[Any]:
        """The values a variable can take in this state (before the move)."""
        cells = self.cells
        if kind == "place":
            return self._all_places
        if kind == "cell":
            return self._all_cells
        if kind == "counter":
            return self._number_counters
        # a piece taken from a location, as it is before the move
        where = self._where(extra, state, env)
        if where is None:
            return []
        kind_of, at = where
        if kind_of == "cell":
            return [at] if state[at] else []
        slot = self.layout.places[at]
        if slot.stack:
            contents = state[slot.offset : slot.offset + slot.length].rstrip(b"\0")
            return [cells + contents[-1]] if contents else []
        offset = slot.offset
        return [cells + i + 1 for i in range(slot.length) if state[offset + i]]

    def _where(self, loc: Loc, state: bytes | bytearray, env: list[Any]) -> tuple[str, int] | None:
        if isinstance(loc, PlaceLoc):
            return "place", loc.place
        if isinstance(loc, CellLoc):
            return "cell", loc.cell
        if isinstance(loc, CursorLoc):
            cell = self.layout.reader(loc.counter)(state)
            return ("cell", cell) if cell >= 0 else None
        value = env[loc.slot]
        return (loc.over, value) if value is not None and value >= 0 else None

    def bindings(self, state: bytes) -> Iterator[tuple[bytearray, list[Any], tuple[Any, ...]]]:
        """Every choice of the move (its form's and its variables'), with the state after the
        form, before the actions: for labels and checks, not the hot path."""
        env: list[Any] = [None] * self.slots
        found: list[tuple[bytearray, list[Any], tuple[Any, ...]]] = []

        def collect(state: bytes, base: bytearray, env: list[Any], key: tuple[Any, ...]) -> None:
            found.append((bytearray(base), list(env), key))

        for base, key in self._form_states(state, env):
            self._choose(0, state, base, env, key, collect)
        return iter(found)

    def _choose(self, i: int, state: bytes, base: bytearray, env: list[Any], key: tuple[Any, ...], finish: Any) -> None:
        """Bind the variables the actions introduce, one after the other (distinct places,
        cells and counters for distinct variables), then `finish` the move."""
        if i == len(self.bound_by_actions):
            finish(state, base, env, key)
            return
        slot, kind, extra = self.bound_by_actions[i]
        others = self._same_kind[i]
        for value in self._values(kind, extra, state, env):
            if others and any(env[o] == value for o in others):
                continue
            env[slot] = value
            self._choose(i + 1, state, base, env, (*key, value), finish)

    # ---- effects
    # ---- running the move
    def expand(self, state: bytes) -> list[Successor]:
        out: list[Successor] = []
        self.run(state, out.append, with_cost=False)
        return out

    def expand_costed(self, state: bytes) -> list[tuple[bytes, int, int]]:
        out: list[tuple[bytes, int, int]] = []
        self.run(state, out.append, with_cost=True)
        return out

    def moves_to(self, before: bytes, after: bytes) -> list[Successor]:
        """`expand(before)`'s successors that are `after`: where the move has no actions, the
        form's change alone makes the successor, and the condition is asked only of the
        choices that make `after` (a path of 100,000 moves, named again, asks it 100,000
        times, not once for every choice of every state)."""
        out: list[Successor] = []
        self.run(before, out.append, with_cost=False, target=after)
        return [successor for successor in out if successor[0] == after]

    def expand_back(self, state: bytes) -> list[Successor]:
        """Toggles and cycles are undone: a toggle undoes itself (its predecessors are its
        successors); a cycle's predecessor is the state its cycles run backwards make, where
        that state keeps the safety rules and the move (its condition) leads from it to `state`."""
        assert self.invertible, "expand_back on a move that cannot be undone"
        if self.undo is None:
            return self.expand(state)
        before = bytearray(state)
        for source, target in self.undo:
            before[target] = state[source]
        if self.safety.anything and not self.safety.check(before):
            return []  # a state that breaks a safety rule is never entered, nor left
        earlier = bytes(before)
        return [(earlier, move) for child, move in self.expand(earlier) if child == state]

    def run(self, state: bytes, emit: Callable[[Any], None], with_cost: bool, target: bytes | None = None) -> None:
        """Each successor, emitted; `target`: only those that may be it are finished (the
        others may be left out)."""
        guard, effects, lets, safety = self.guard, self.effects, self.lets, self.safety
        skip_others = target is not None and not effects
        seeking = target is not None and bool(effects) and guard is not None
        wanted = target or b""

        def _may_make(state: bytes, base: bytearray, env: list[Any]) -> bool:
            """With actions and a condition, the successor sought: the actions made before the
            condition is asked (a path named again asks a costly condition, such as a count
            over the board, only of the choice that makes the next state). An action that
            fails or raises here says nothing: the choice is then finished in the usual order,
            which raises only where the condition holds."""
            try:
                for slot, value in lets:
                    env[slot] = value(state, env)
                new = bytearray(base)
                for effect in effects:
                    if not effect(state, new, env):
                        return False  # the usual order ends the same way, the condition asked or not
                return new == wanted
            except SpecError:
                return True

        check = safety.check if safety.anything else None
        number, index, cost = self.ids.number, self.index, self.cost
        env = self._env

        def finish(state: bytes, base: bytearray, env: list[Any], key: tuple[Any, ...]) -> None:
            if skip_others and base != wanted:
                return  # no action follows the form: `base` is the successor, and not the one sought
            if seeking and not _may_make(state, base, env):
                return
            for slot, value in lets:
                env[slot] = value(state, env)
            if guard is not None and not guard(state, env):
                return
            new = bytearray(base)
            for effect in effects:
                if not effect(state, new, env):
                    return
            if check is not None and not check(new):
                return
            child = bytes(new)
            if child == state:
                return
            move = number((index, *key))
            if with_cost:
                emit((child, move, cost(state, env) if cost is not None else 1))
            else:
                emit((child, move))

        if self._placing is not None and self._bag_take is not None:
            slot = self._bag_take[0]
            for child, move in self.expand(state):
                if with_cost:
                    env[slot] = self.ids.key(move)[1]
                    emit((child, move, self.cost(state, env) if self.cost is not None else 1))
                else:
                    emit((child, move))
            return
        if self._bag_take is not None:
            self._run_bag_take(state, emit, with_cost)
            return
        for base, key in self._form_states(state, env):
            self._choose(0, state, base, env, key, finish)

    def _bag_take_shape(self) -> tuple[int, int] | None:
        """(slot, offset) when the move's only choice is a piece taken from one bag (and the
        take comes first): the shape of "place the next token", run by a flat loop."""
        if self.move.form is not None or len(self.bound_by_actions) != 1:
            return None
        slot, kind, source = self.bound_by_actions[0]
        first = self.move.actions[0]
        if kind != "take" or not isinstance(first, Take) or first.slot != slot:
            return None
        if not isinstance(source, PlaceLoc) or self.layout.places[source.place].stack:
            return None
        return slot, self.layout.places[source.place].offset

    def _place_and_advance_shape(self) -> tuple[int, int, list[int], list[list[int]]] | None:
        """When the move is `take ?t from BAG, put ?t at cursor, advance cursor by (?t | N)
        [along D]` (a one-byte cursor): (cursor byte, amount of each piece, where the cursor
        goes from each cell by each amount): the whole move is then a few table lookups."""
        if self._bag_take is None or len(self.move.actions) != 3 or self.lets:
            return None
        take, put, advance = self.move.actions
        if not (isinstance(put, Put) and isinstance(advance, Advance)):
            return None
        if not isinstance(put.target, CursorLoc) or put.slot != take.slot or put.target.counter != advance.counter:  # type: ignore[union-attr]
            return None
        counter = self.layout.counters[advance.counter]
        if counter.width != 1:
            return None
        amount = advance.amount
        if isinstance(amount, m.ValueOf) and isinstance(amount.piece, m.Local) and amount.piece.slot == take.slot:  # type: ignore[union-attr]
            amounts = [p.value if p.value is not None else -1 for p in self.puzzle.pieces]
        elif isinstance(amount, m.Const) and isinstance(amount.value, int):
            amounts = [int(amount.value)] * len(self.puzzle.pieces)
        else:
            return None
        if not amounts or min(amounts) < 0:
            return None
        top = max(amounts)
        cells = self.cells
        table: list[list[int]] = []
        for cell in range(cells):
            row = []
            for k in range(top + 1):
                if advance.direction is None:
                    row.append(cell + k if cell + k < cells else NONE)
                else:
                    at: int | None = cell
                    for _ in range(k):
                        at = advance.direction.next(at) if at is not None else None
                    row.append(at if at is not None else NONE)
            table.append(row)
        return counter.offset, 0, amounts, table

    def _placing_expander(self) -> Callable[[bytes], list[Successor]]:
        """`expand` for the place-and-advance shape: one loop over the pieces in the bag."""
        assert self._bag_take is not None and self._placing is not None
        slot, offset = self._bag_take
        at, _, amounts, table = self._placing
        guard, env, cells, numbers = self.guard, self._env, self.cells, self._bag_numbers
        safety = self.safety
        rule, rule_env = safety.single_rule if safety.single_rule is not None else (None, [])
        check = safety.check if safety.anything and rule is None else None
        kinds = range(self.layout.pieces)

        def expand(state: bytes) -> list[Successor]:
            out: list[Successor] = []
            cursor = state[at] - 1
            if cursor < 0 or state[cursor]:
                return out  # nothing can be put where the cursor is
            row = table[cursor]
            for i in kinds:
                if not state[offset + i]:
                    continue
                if guard is not None:
                    env[slot] = cells + i + 1
                    if not guard(state, env):
                        continue
                new = bytearray(state)
                new[offset + i] -= 1
                new[cursor] = i + 1
                new[at] = row[amounts[i]] + 1
                if rule is not None and not rule(new, rule_env):
                    continue
                if check is not None and not check(new):
                    continue
                move = numbers[i]
                if move is None:
                    move = numbers[i] = self.ids.number((self.index, cells + i + 1))
                out.append((bytes(new), move))
            return out

        return expand

    def _run_bag_take(self, state: bytes, emit: Callable[[Any], None], with_cost: bool) -> None:
        assert self._bag_take is not None
        slot, offset = self._bag_take
        guard, lets, cost, env, cells = self.guard, self.lets, self.cost, self._env, self.cells
        effects = self.effects[1:]  # the take itself is done here
        check = self.safety.check if self.safety.anything else None
        numbers = self._bag_numbers
        for i in range(self.layout.pieces):
            if not state[offset + i]:
                continue
            env[slot] = cells + i + 1
            for let_slot, value in lets:
                env[let_slot] = value(state, env)
            if guard is not None and not guard(state, env):
                continue
            new = bytearray(state)
            new[offset + i] -= 1
            for effect in effects:
                if not effect(state, new, env):
                    break
            else:
                if check is not None and not check(new):
                    continue
                child = bytes(new)
                move = numbers[i]
                if move is None:
                    move = numbers[i] = self.ids.number((self.index, cells + i + 1))
                emit((child, move, cost(state, env) if cost is not None else 1) if with_cost else (child, move))

    def change(self, key: tuple[Any, ...], before: bytes, puzzle: Puzzle) -> Change:
        """Who moved: the form's pieces (a rewrite's pairs of cells, the piece that slid, the
        load carried), and each piece taken and put."""
        out: list[tuple[str, str | None, str | None]] = []
        board = puzzle.board
        form_key, values = key[1 : 1 + self._form_key], key[1 + self._form_key :]
        env: list[Any] = [None] * self.slots
        if isinstance(self.move.form, Rewrite):
            (number,) = form_key
            inst, cells, where = self.form_instances[number]
            assert board is not None
            for a, b in self.pairs:
                src = cells[a] if a is not None else None
                dst = cells[b] if b is not None else None
                code = before[src] if src is not None else dict(inst[3]).get(dst, EMPTY)  # type: ignore[arg-type]
                out.append(
                    (
                        puzzle.symbol(code),
                        board.name(src) if src is not None else None,
                        board.name(dst) if dst is not None else None,
                    )
                )
            for slot, cell in where:
                env[slot] = cell
        elif self._slide is not None:
            out.extend(self._slide.change((self.index, *form_key), before, puzzle).movers)
            if self._slide.variable_slot is not None:
                env[self._slide.variable_slot] = form_key[0]
        elif self._carry is not None:
            out.extend(self._carry.change((self.index, *form_key), before, puzzle).movers)
        for (slot, _, _), value in zip(self.bound_by_actions, values, strict=False):
            env[slot] = value
        taken: dict[int, tuple[str, str | None]] = {}
        for action in self.move.actions:
            if isinstance(action, Take):
                found = self._where(action.source, before, env)
                code = self.evaluator.code_of(before, env[action.slot]) if env[action.slot] is not None else 0
                taken[action.slot] = (puzzle.pieces[code - 1].symbol if code else "?", self._name(found))
            elif isinstance(action, Put):
                found = self._where(action.target, before, env)
                if action.slot is not None and action.slot in taken:
                    symbol, source = taken.pop(action.slot)
                    out.append((symbol, source, self._name(found)))
                elif action.code is not None:
                    out.append((puzzle.pieces[action.code - 1].symbol, None, self._name(found)))
        for symbol, source in taken.values():
            out.append((symbol, source, None))
        return Change(tuple(out))

    def _name(self, found: tuple[str, int] | None) -> str | None:
        if found is None:
            return None
        kind, at = found
        if kind == "cell":
            assert self.puzzle.board is not None
            return self.puzzle.board.name(at)
        return self.puzzle.places[at].name

    def start_cell(self, key: tuple[Any, ...]) -> int | None:
        """The cell where the move starts: its pattern's first cell, the piece that slides,
        or a toggle's anchor."""
        if isinstance(self.move.form, Rewrite):
            return int(self.form_instances[key[1]][1][0])
        if self._slide is not None:
            return int(key[1])
        return self.anchor_of(key)

    def anchor_of(self, key: tuple[Any, ...]) -> int | None:
        """A toggle's anchor cell, for labels."""
        for (slot, kind, _), value in zip(self.bound_by_actions, key[1 + self._form_key :], strict=False):
            if kind == "cell" and any(isinstance(a, Toggle) and a.slot == slot for a in self.move.actions):
                return int(value)
        return None
