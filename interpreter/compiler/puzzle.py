"""Puzzle model -> CompiledPuzzle: states as `bytes` (see `layout`), every move compiled into
a family behind one interface, safety rules and the goal compiled into functions. This is all
the search engine sees: `start`, `expand`, `expand_back`, `is_goal`, `goal_state`, and, for
cheapest search, `expand_costed`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ..errors import Diagnostic, SpecError
from ..model.patterns import DEAD
from ..model.puzzle import (
    ANY,
    CURSOR,
    EMPTY,
    PROGRESS,
    Carry,
    FillForm,
    Move,
    Puzzle,
    Rewrite,
    Slide,
    State,
    TileForm,
    Toggle,
)
from .evaluate import Evaluator, negative_cost
from .families import CarryFamily, FillFamily, GeneralFamily, MoveIds, Safety, SlideFamily, TileFamily
from .layout import StateLayout
from .progress import never_returns
from .ranges import Wide, first_wide
from .rewrite import Expander, Instance, Origin, index, instance, invertible, movers, normalise, placements
from .symmetry import SymmetryGroup

Successor = tuple[bytes, int]
Family = SlideFamily | CarryFamily | FillFamily | TileFamily | GeneralFamily


@dataclass(frozen=True)
class MoveLabel:
    """A move as a person reads it: the rule, each piece that moved (symbol, from, to: cell or
    place names; None where a piece appears or vanishes), the cells it changed, the counters
    it changed (name, before, after) and, for a toggle, where it was made."""

    rule: str
    movers: tuple[tuple[str, str | None, str | None], ...]
    cells: tuple[int, ...]
    changes: tuple[tuple[str, str, str], ...] = ()
    at: str | None = None


def _table_move(move: Move) -> bool:
    return isinstance(move.form, Rewrite) and move.guard is None and not move.actions and move.cost is None


class CompiledPuzzle:
    def __repr__(self) -> str:
        return f"<CompiledPuzzle {self.puzzle.summary}>"

    def __init__(self, puzzle: Puzzle):
        self.puzzle = puzzle
        self.layout = layout = StateLayout(puzzle)
        self.evaluator = Evaluator(puzzle, layout)
        self.safety = Safety(puzzle, layout, self.evaluator)
        self.start: bytes = layout.encode(puzzle.start)
        self._check_start()
        self.cells = layout.cells
        self.has_costs = any(m.cost is not None for m in puzzle.moves)

        # rewrite tables: every plain rewrite of the spec in one table, numbered 0..
        self._instances: list[Instance] = []
        self._origins: list[Origin] = []
        keys: set[tuple[object, ...]] = set()
        reverses: set[tuple[object, ...]] = set()
        self._table_invertible = True
        one_way: str | None = None
        for r, move in enumerate(puzzle.moves):
            if not _table_move(move):
                continue
            rule = move.form
            assert isinstance(rule, Rewrite) and puzzle.board is not None
            lhs, rhs = normalise(rule)
            undo = invertible(lhs, rhs)
            self._table_invertible = self._table_invertible and undo
            if not undo and one_way is None:
                one_way = move.name
            pairs = movers(lhs, rhs)
            for cells in placements(puzzle.board, move, rule):
                inst = instance(lhs, rhs, cells, len(self._instances))
                if inst is None or inst[:5] in keys:
                    continue
                keys.add(inst[:5])
                self._instances.append(inst)
                reverse = instance(rhs, lhs, cells, 0) if undo else None
                if reverse is not None:
                    reverses.add(reverse[:5])
                moved = tuple(
                    (cells[a] if a is not None else None, cells[b] if b is not None else None) for a, b in pairs
                )
                touched = tuple(sorted({cells[i] for i in range(len(cells)) if lhs[i] != rhs[i]}))
                self._origins.append(Origin(r, cells, moved, touched))
        self.instance_count = len(self._instances)

        # every other move: a family of its own
        self.ids = MoveIds(first=len(self._instances))
        self._orders: dict[int, tuple[int, int, int]] = {}
        self.families: list[Family] = []
        self.statement_of: list[int] = []  # each family's move: its place among the spec's moves
        for statement, move in enumerate(puzzle.moves):
            if _table_move(move):
                continue
            self.families.append(self._family(len(self.families), move))
            self.statement_of.append(statement)

        self.goal_state = self._goal_state()
        self._goal = self._goal_test()
        only_tables = not self.families
        self.symmetry = (
            SymmetryGroup(puzzle, layout, self.start, keys if only_tables else None) if puzzle.symmetries else None
        )
        filling = self.filling
        if self.symmetry is not None and isinstance(filling, FillFamily):
            decoded = layout.decode(self.start)
            self.symmetry.unread_rules = _fill_symmetries(puzzle, filling, decoded.cells, decoded.counters)
            self.symmetry.on_rules = self.symmetry.unread_rules is None
        self.estimate: Callable[[bytes], int] | None = None
        # a heuristic that reads tables derived from the spec says DEAD (its first part, for a
        # cost of several parts) of a state from which no goal can be reached: the searches
        # store no such state (`search.astar`). None: every estimate is a distance.
        tables = puzzle.alone is not None or puzzle.patterns is not None
        self.dead: int | None = DEAD if puzzle.heuristic is not None and tables else None
        if puzzle.heuristic is not None:
            fn = self.evaluator.function(puzzle.heuristic)
            slots = max(2, puzzle.heuristic_slots)
            self.estimate = lambda state: fn(state, [None] * slots)  # type: ignore[no-any-return]

        # a filling's objective (`maximize EXPR`): its value on a complete filling
        self.objective_value: Callable[[bytes], int] | None = None
        if puzzle.objective is not None:
            worth = self.evaluator.function(puzzle.objective.value)
            room = max(2, puzzle.objective.slots)
            self.objective_value = lambda state: int(worth(state, [None] * room))

        self.rarity = rarity = Counter(self.start[: self.cells])
        single = None
        if puzzle.has_blocks:
            single = bytes(
                [1 if p.piece and puzzle.pieces[p.piece - 1].shape is None else 0 for p in puzzle.parts]
                + [0] * (256 - len(puzzle.parts))
            )
        table = index(self._instances, self.cells, rarity, single) if self._instances else None
        backward = None
        self.invertible = self._table_invertible and all(f.invertible for f in self.families)
        # the first move that cannot be run backwards, named where a search from the goal is refused
        self.one_way = one_way or next((f.move.name for f in self.families if not f.invertible), None)
        # Every move undone by a move: then a breadth-first layer's successors all lie in the
        # layer before it, itself or the next (the kernel keeps only those three in its table).
        self.undirected = self._table_invertible and reverses <= keys and self._families_undone()
        # No move sequence comes back to a state it left: a depth-first walk keeps no set of
        # the states on its path (see `progress`).
        rewritten = [[i for i, _, _ in f.form_instances] if isinstance(f, GeneralFamily) else [] for f in self.families]
        self.acyclic = puzzle.fill is not None or never_returns(
            len(puzzle.places),
            self._instances,
            [(f.move, instances) for f, instances in zip(self.families, rewritten, strict=True)],
            puzzle.has_blocks,
        )
        self.back_instances: list[Instance] = []  # the plain rewrites run backwards (expand_back's)
        if self.invertible and self._instances:
            back = [
                instance(*_flip(self._instances[i], puzzle, self._origins[i]), i) for i in range(len(self._instances))
            ]
            self.back_instances = [b for b in back if b is not None]
            backward = index(self.back_instances, self.cells, rarity, single)
        # ---- what the search engine calls: expand(state) gives the successors, each with the
        # number of the move that produces it; expand_back(state) the predecessors, each with
        # the forward move that leads from it to `state`.
        self.raw_table = table  # the plain rewrites before any safety rule (for --explain)
        self._table = self._safe_table(table)
        self.expand: Expander = self._combine(self._table, [f.expand for f in self.families])
        self.evaluator.successors[0] = self.expand  # `moves()` in the heuristic
        if self.invertible:
            self.expand_back: Expander = self._combine(
                self._safe_table(backward),
                [f.expand_back for f in self.families],
            )
        else:
            self.expand_back = _not_invertible

    @property
    def filling(self) -> FillFamily | TileFamily | None:
        """A logic puzzle's filling or tiling (its one move family): its solutions are its
        complete boards, which the logic engines search for."""
        return next((f for f in self.families if isinstance(f, (FillFamily, TileFamily))), None)

    @property
    def tiling(self) -> TileFamily | None:
        """A tiling's family, for the exact cover searches."""
        return next((f for f in self.families if isinstance(f, TileFamily)), None)

    @cached_property
    def wide(self) -> Wide | None:
        """The first value of the puzzle that may leave 64 bits (see `ranges`): the compiled
        kernel does not run such a puzzle."""
        return first_wide(self.puzzle)

    @property
    def instances(self) -> list[Instance]:
        """The plain rewrites as concrete instances, instance i being move number i."""
        return self._instances

    @property
    def origins(self) -> list[Origin]:
        """Where each plain rewrite instance comes from (its move, its pattern's cells)."""
        return self._origins

    # ---- building
    def _family(self, index: int, move: Move) -> Family:
        if isinstance(move.form, FillForm):
            return FillFamily(index, move, self.puzzle, self.layout, self.ids, self.safety, self.evaluator)
        if isinstance(move.form, TileForm):
            return TileFamily(index, move, self.puzzle, self.layout, self.ids, self.safety)
        if isinstance(move.form, Slide) and not move.actions:
            return SlideFamily(index, move, self.puzzle, self.ids, self.safety, self.evaluator)
        if isinstance(move.form, Carry) and not move.actions:
            return CarryFamily(index, move, self.puzzle, self.layout, self.ids, self.safety, self.evaluator)
        family = GeneralFamily(index, move, self.puzzle, self.layout, self.ids, self.safety, self.evaluator)
        toggles = all(isinstance(a, Toggle) for a in move.actions) and move.guard is None  # each undoes itself
        family.invertible = move.form is None and (toggles or family.cycle is not None)
        return family

    def _families_undone(self) -> bool:
        """Whether every move that is not a plain rewrite is undone by a move: a toggle by
        itself, a cycle by a move of the opposite cycles (neither with a condition)."""
        plain = [f for f in self.families if isinstance(f, GeneralFamily) and f.move.guard is None]
        permutations = {frozenset(f.cycle.pairs()) for f in plain if f.cycle is not None}
        for family in self.families:
            if not isinstance(family, GeneralFamily) or not family.invertible:
                return False
            cycle = family.cycle
            if cycle is not None and (
                family.move.guard is not None or frozenset(cycle.inverse().pairs()) not in permutations
            ):
                return False
        return True

    def _safe_table(self, table: Expander | None) -> Expander | None:
        safety = self.safety
        if table is None or not safety.anything:
            return table
        plain = table
        return lambda state: [(child, move) for child, move in plain(state) if safety.ok(child)]

    def _combine(self, table: Expander | None, others: list[Expander]) -> Expander:
        parts = ([table] if table is not None else []) + others
        if len(parts) == 1:
            return parts[0]

        def expand(state: bytes) -> list[Successor]:
            out: list[Successor] = []
            for part in parts:
                out.extend(part(state))
            return out

        return expand

    def _check_start(self) -> None:
        safety, puzzle = self.safety, self.puzzle
        env: list[Any] = [None] * safety.slots
        for rule in puzzle.safety:
            if rule.scope == "state" and not self.evaluator.function(rule.condition)(self.start, env):
                raise SpecError(
                    [
                        Diagnostic(
                            rule.pos,
                            "the start already breaks this safety rule",
                            "a start where every safety rule holds",
                        )
                    ]
                )
        for place in range(len(puzzle.places)):
            failed = safety.failing("places", self.layout.bag(self.start, place), self.start)
            if failed is not None:
                raise SpecError(
                    [
                        Diagnostic(
                            puzzle.safety[failed].pos,
                            f"the start already breaks this safety rule (at {puzzle.places[place].name})",
                            "a start where every safety rule holds",
                        )
                    ]
                )

    def _goal_state(self) -> bytes | None:
        goal = self.puzzle.goal
        if not goal.one_state_of_cells or self.layout.size != self.cells:
            return None
        return bytes(goal.cells or ())

    def _goal_test(self) -> Callable[[bytes], bool]:
        goal, layout = self.puzzle.goal, self.layout
        checks = tuple((i, c) for i, c in enumerate(goal.cells or ()) if c != ANY)
        place_checks: list[tuple[str, int, int, Any, int]] = []
        for g in goal.places:
            slot = layout.places[g.place]
            if g.sequence is not None:
                want = bytes(g.sequence) + bytes(slot.length - len(g.sequence))
                place_checks.append(("exact", slot.offset, slot.offset + slot.length, want, g.place))
            else:
                place_checks.append(("at least", slot.offset, 0, g.at_least, g.place))
        conditions = [self.evaluator.function(c) for c in goal.conditions]
        env: list[Any] = [None] * max(2, self.puzzle.goal_slots)  # goal tests run one at a time
        if not checks and not place_checks and len(conditions) == 1:
            (only,) = conditions
            return lambda state: bool(only(state, env))

        def is_goal(state: bytes) -> bool:
            for c, v in checks:
                if state[c] != v:
                    return False
            for kind, lo, hi, want, place in place_checks:
                if kind == "exact":
                    if state[lo:hi] != want:
                        return False
                else:
                    bag = layout.bag(state, place)
                    if any(have < need for have, need in zip(bag, want, strict=True)):  # type: ignore[call-overload]
                        return False
            return all(c(state, env) for c in conditions)

        return is_goal

    # ---- what the engine calls
    def is_goal(self, state: bytes) -> bool:
        if self.goal_state is not None:
            return state == self.goal_state
        return self._goal(state)

    def in_reading_order(self, successors: list[Successor]) -> list[Successor]:
        """The successors as a person scanning the board would try them: by the cell where
        each move starts (the first cell of its pattern, the piece that slides, the anchor of
        a toggle), in reading order, then in the order the spec gives its moves, then in the
        order their placements or choices come (a sort that keeps the order of equals: the
        order never depends on what the search has met before)."""
        return sorted(successors, key=lambda item: self.order_of(item[1]))

    def in_search_order(self, successors: list[Successor]) -> list[Successor]:
        """The order `search any` tries the successors in: reading order, and with a
        heuristic, first the successors it rates lowest (equal ones in reading order):
        `heuristic moves()` is Warnsdorff's rule, the fewest onward moves first."""
        return self.by_heuristic(self.in_reading_order(successors))

    def by_heuristic(self, successors: list[Successor]) -> list[Successor]:
        """The successors the heuristic rates lowest first, equal ones in the order given
        (all of them in that order where the spec gives no heuristic)."""
        estimate = self.estimate
        if estimate is None:
            return successors
        return sorted(successors, key=lambda item: estimate(item[0]))

    def order_of(self, move: int) -> tuple[int, int, int]:
        """A move's place in `in_reading_order`: (the cell it starts from, or the number of
        cells where it has none; its statement's place in the spec; a plain rewrite's
        instance number, 0 for the others, which keep the order they were made in)."""
        found = self._orders.get(move)
        if found is None:
            if move < self.instance_count:
                origin = self._origins[move]
                found = (origin.cells[0], origin.move, move)
            else:
                family, key = self.family_of(move)
                assert family is not None
                start = self.cells
                if isinstance(family, SlideFamily):
                    start = key[1]
                elif isinstance(family, (FillFamily, TileFamily)):
                    cell = family.start_cell(key)
                    start = cell if cell is not None else self.cells
                elif isinstance(family, GeneralFamily):
                    anchor = family.start_cell(key)
                    start = anchor if anchor is not None else self.cells
                found = (start, self.statement_of[family.index], 0)
            self._orders[move] = found
        return found

    def family_of(self, move: int) -> tuple[Family | None, tuple[Any, ...]]:
        if move < self.instance_count:
            return None, ()
        key = self.ids.key(move)
        return self.families[key[0]], key

    def expand_costed(self, state: bytes) -> list[tuple[bytes, int, int]]:
        """Successors with the cost of the move that makes each (1 unless the spec says). A
        cost below 0 is refused where it is met: the cheapest search, whose costs only add
        up, would go round a cycle that lowers them for ever."""
        out: list[tuple[bytes, int, int]] = []
        if self._table is not None:
            out.extend((child, move, 1) for child, move in self._table(state))
        for family in self.families:
            costed = family.expand_costed(state)
            for _, _, cost in costed:
                if cost < 0:
                    assert family.move.cost is not None
                    raise negative_cost(family.move.cost.pos, cost)
            out.extend(costed)
        return out

    def moves_to(self, before: bytes, after: bytes) -> list[Successor]:
        """`expand(before)`'s successors that are `after`, in its order: the moves of a path
        that a search kept as states, named again (`search.problem.steps`). A carry checks only
        the load the two states differ by, not each of its hundreds of loads."""
        found = []
        if self._table is not None:
            found = [successor for successor in self._table(before) if successor[0] == after]
        for family in self.families:
            if isinstance(family, (CarryFamily, GeneralFamily)):
                found.extend(family.moves_to(before, after))
            else:
                found.extend(successor for successor in family.expand(before) if successor[0] == after)
        return found

    # ---- what the renderers call
    def successor(self, before: bytes, move: int) -> bytes:
        for child, number in self.expand(before):
            if number == move:
                return child
        raise AssertionError(f"move {move} does not apply to this state")

    def label(self, move: int, before: bytes, after: bytes | None = None) -> MoveLabel:
        """What a move does, in words: its rule, the pieces that move, the cells and counters
        it changes. `after`: the state the move leads to, where the caller has it (the
        successors of a state listed one by one: finding it again expands the state anew,
        once for each move, which is quadratic on a state of 60,000 moves)."""
        puzzle, board = self.puzzle, self.puzzle.board
        if move < self.instance_count:
            origin = self._origins[move]
            rule = puzzle.moves[origin.move]
            out = []
            for src, dst in origin.movers:
                code = before[src] if src is not None else None
                if code is None and dst is not None:
                    code = dict(self._instances[move][3]).get(dst, EMPTY)
                assert board is not None
                out.append(
                    (
                        puzzle.symbol(code or EMPTY),
                        board.name(src) if src is not None else None,
                        board.name(dst) if dst is not None else None,
                    )
                )
            return MoveLabel(rule.name, tuple(out), origin.touched)
        family, key = self.family_of(move)
        assert family is not None
        if after is None:
            after = self.successor(before, move)
        change = family.change(key, before, puzzle)
        cells = tuple(c for c in range(self.cells) if before[c] != after[c])
        changes = self._counter_changes(before, after)
        at = None
        if isinstance(family, GeneralFamily):
            anchor = family.anchor_of(key)
            at = board.name(anchor) if anchor is not None and board is not None else None
        if at is None and family.move.named and not change.movers:
            at = family.move.named  # a run's extent: what tells the moves of one name apart
        return MoveLabel(family.move.name, change.movers, cells, changes, at)

    def _counter_changes(self, before: bytes, after: bytes) -> tuple[tuple[str, str, str], ...]:
        old, new = self.layout.decode(before), self.layout.decode(after)
        out = []
        for counter, a, b in zip(self.puzzle.counters, old.counters, new.counters, strict=True):
            if a != b and counter.role not in ("carrier", PROGRESS):
                out.append((counter.name, self.counter_text(counter.role, a), self.counter_text(counter.role, b)))
        return tuple(out)

    def counter_text(self, role: str, value: int) -> str:
        board = self.puzzle.board
        if role == CURSOR:
            return board.name(value) if value >= 0 and board is not None else "off the board"
        if role == "carrier":
            return self.puzzle.places[value].name
        return str(value)

    def starting_at(self, state: bytes) -> CompiledPuzzle:
        """The same puzzle with `state` as its start: compiled again, because what is worked
        out from the start (the symmetries that fix it, the tables' order) must be worked out
        from the new one."""
        if state == self.start:
            return self
        moved = CompiledPuzzle(self.puzzle._replace(start=self.decode(state)))
        assert moved.start == state, "a state decodes and encodes to itself"
        return moved

    def decode(self, state: bytes) -> State:
        return self.layout.decode(state)

    def cell_moves(self, move: int, before: bytes) -> tuple[tuple[int | None, int | None], ...]:
        """Each piece's (from cell, to cell) in a move on a board (None: appears / vanishes)."""
        if move < self.instance_count:
            return self._origins[move].movers
        board = self.puzzle.board
        assert board is not None
        family, key = self.family_of(move)
        assert family is not None
        change = family.change(key, before, self.puzzle)
        return tuple(
            (board.by_name(a) if a is not None else None, board.by_name(b) if b is not None else None)
            for _, a, b in change.movers
        )

    def written(self, move: int, cell: int, before: bytes) -> int:
        """The code a move writes into a cell."""
        if move < self.instance_count:
            return dict(self._instances[move][3]).get(cell, EMPTY)
        return self.successor(before, move)[cell]


def _flip(inst: Instance, puzzle: Puzzle, origin: Origin) -> tuple[list[Any], list[Any], tuple[int, ...]]:
    move = puzzle.moves[origin.move]
    assert isinstance(move.form, Rewrite)
    lhs, rhs = normalise(move.form)
    return rhs, lhs, origin.cells


def _not_invertible(state: bytes) -> list[Successor]:
    raise AssertionError("expand_back on a puzzle whose moves cannot all be undone")


def _fill_symmetries(puzzle: Puzzle, filling: FillFamily, cells: Sequence[int], counters: Sequence[int]) -> str | None:
    """`fill_symmetry.check_fill_symmetries`, imported here: only a logic puzzle with symmetries
    needs it, and its import (the fill terms with it) would cost every run of a puzzle of moves
    0.02 s of its start-up."""
    from .fill_symmetry import check_fill_symmetries

    return check_fill_symmetries(puzzle, filling, cells, counters)
