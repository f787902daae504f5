"""A compiled puzzle as the program of the kernel's machine: the state's layout packed into
64-bit words, every move family, the safety rules and the goal as integer sections, and every
expression as bytecode (`kernel.machine.bytecode`). `kernel.machine` and
`kernel.machine.moves` run it.

The machine runs any puzzle of the one model — cells, places, counters; rewrites, slides,
carries, actions with guards; safety rules, goals of every kind — except what `why_not`
names. It is what the kernel runs where the word tables of `kernel.tables` (plain moves on
cells, no rules) do not apply. The successors come in the order the Python engine gives
them, so that both engines find the same solution.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ...compiler import CompiledPuzzle
from ...compiler.families import CarryFamily, GeneralFamily, SlideFamily
from ...compiler.families.effects import toggle_areas
from ...compiler.layout import StateLayout
from ...compiler.rewrite import key_groups
from ...model.expr import COUNTER as COUNTER_TYPE
from ...model.expr import NONE, Call
from ...model.puzzle import (
    ANY,
    NUMBER,
    Advance,
    CellLoc,
    CursorLoc,
    Cycle,
    Let,
    Loc,
    PlaceLoc,
    Put,
    Rewrite,
    SetCounter,
    Take,
    Toggle,
    VarLoc,
)
from .bytecode import ERR_ADVANCE, ERR_NEGATIVE_COST, WIDTH, Assembly, ErrorSite, Unsupported
from .cost_parts import packing
from .records import (
    CARRY,
    CODES,
    EFFECT,
    EFFECT_ADVANCE,
    EFFECT_CYCLE,
    EFFECT_PUT,
    EFFECT_SET,
    EFFECT_TAKE,
    EFFECT_TOGGLE,
    F_AMOUNTS,
    F_ANCHOR_CODES_FROM,
    F_ANCHOR_CODES_TO,
    F_ANCHORS,
    F_CARRIER,
    F_CODES_FROM,
    F_CODES_TO,
    F_COST,
    F_COST_ERROR,
    F_DIRS_FROM,
    F_DIRS_TO,
    F_EFFECTS_FROM,
    F_EFFECTS_TO,
    F_FORM,
    F_GUARD,
    F_HIGH,
    F_INST_FROM,
    F_INST_TO,
    F_KIND,
    F_LETS_FROM,
    F_LETS_TO,
    F_LOOSE_FROM,
    F_LOOSE_TO,
    F_LOW,
    F_MODE,
    F_ONLY,
    F_SAME_ALLOWED,
    F_START,
    F_STATEMENT,
    F_VAR,
    F_VARS_FROM,
    F_VARS_TO,
    F_WITH_FROM,
    F_WITH_TO,
    FAMILY,
    FORM_CARRY,
    FORM_REWRITE,
    FORM_SLIDE,
    GENERAL,
    INSTANCE,
    JUMP_CELLS,
    LOC_CELL,
    LOC_CURSOR,
    LOC_PLACE,
    LOC_VAR_CELL,
    LOC_VAR_PLACE,
    MEMO_BITS,
    NO_START,
    ORDER_START,
    ORDER_STATEMENT,
    REPEATED,
    SLIDE,
    SLIDE_MODES,
    START_SET,
    VAR_CELL,
    VAR_COUNTER,
    VAR_PLACE,
    VAR_TAKE,
    WORD,
)


class Program:
    """The sections of the machine's program, built from a compiled puzzle."""

    def __init__(self, compiled: CompiledPuzzle):
        self.compiled = compiled
        puzzle = compiled.puzzle
        self.layout: StateLayout = compiled.layout
        self.cells = compiled.cells
        self.pieces = len(puzzle.pieces)
        if any(slot.stack for slot in self.layout.places) and any(
            isinstance(f, CarryFamily) or (isinstance(f, GeneralFamily) and f._carry is not None)
            for f in compiled.families
        ):
            raise Unsupported("carrying between stacks")
        if puzzle.has_blocks and (compiled.instances or any(isinstance(m.form, Rewrite) for m in puzzle.moves)):
            raise Unsupported("rewrites on a board with blocks")  # their ?x are one-cell pieces only
        if puzzle.fill is not None:
            raise Unsupported("a filling (a logic puzzle), which the kernel does not fill yet")
        if puzzle.has_blocks and compiled.symmetry is not None:
            raise Unsupported("symmetries on a board with blocks")  # a block's image is anchored again
        if any(m.counters_named and any(v.type == COUNTER_TYPE for v in m.variables) for m in puzzle.moves):
            raise Unsupported("a move that chooses a counter and changes one by name")  # the choice leaves it out
        move_env = max([2, *(m.slots for m in puzzle.moves)])
        rule_env = max([2, *(r.slots for r in puzzle.safety)])
        goal_env = max(2, puzzle.goal_slots)
        self.bases = {
            "move": 0,
            "rule": move_env,
            "goal": move_env + rule_env,
            "heuristic": move_env + rule_env + goal_env,
        }
        self.asm = Assembly(puzzle, env_size=self.bases["heuristic"] + max(2, puzzle.heuristic_slots))
        self.cost_packing = packing(puzzle)  # costs of several parts, as one word
        if self.cost_packing is not None:  # the one-piece tables' estimate is packed as the costs are
            self.asm.cost_shifts, self.asm.cost_field = self.cost_packing.shifts, self.cost_packing.field
        self.s: dict[str, list[int]] = {}
        self._pack()
        self._rules()
        self._goal()
        self.heuristic = (
            self.asm.function(puzzle.heuristic, self.bases["heuristic"]) if puzzle.heuristic is not None else -1
        )
        self._moves()
        self._symmetries()

    # ---- the state, packed
    def _pack(self) -> None:
        """Each byte of the Python layout is a field of as many bits as its largest value
        needs; fields are laid in words in order, none across two words. Cells come first,
        each of the same width, so that a state of one word has cell c at bit c * bits."""
        layout, puzzle = self.layout, self.compiled.puzzle
        code_bits = max(1, (len(puzzle.parts) - 1).bit_length())
        widths = [code_bits] * layout.cells
        for counter in layout.counters:
            span = counter.high - counter.low
            for k in range(counter.width):
                widths.append(min(8, max(1, (span >> (8 * k)).bit_length())))
        # a move that puts new pieces: bags may hold any number of them
        self.creates = creates = any(isinstance(a, Put) and a.code is not None for m in puzzle.moves for a in m.actions)
        totals = [puzzle.start.cells.count(code + 1) for code in range(self.pieces)]
        for place, contents in zip(puzzle.places, puzzle.start.places, strict=True):
            if place.stack:
                for code in contents:
                    totals[code - 1] += 1
            else:
                for i, n in enumerate(contents):
                    totals[i] += n
        self.totals = totals
        for place_slot in layout.places:
            if place_slot.stack:
                widths.extend([code_bits] * place_slot.length)
            else:
                widths.extend(8 if creates else max(1, totals[i].bit_length()) for i in range(place_slot.length))
        words, shifts, used = [], [], 0
        word = 0
        for width in widths:
            if used + width > WORD:
                word, used = word + 1, 0
            words.append(word)
            shifts.append(used)
            used += width
        self.words = word + 1 if widths else 1
        self.bits = sum(widths)
        self.code_bits = code_bits
        self.s["field_word"] = words
        self.s["field_shift"] = shifts
        self.s["field_mask"] = [(1 << w) - 1 for w in widths]
        self.s["place_offset"] = [p.offset for p in layout.places]
        self.s["place_length"] = [p.length for p in layout.places]
        self.s["place_stack"] = [int(p.stack) for p in layout.places]
        self.s["counter_offset"] = [c.offset for c in layout.counters]
        self.s["counter_width"] = [c.width for c in layout.counters]
        self.s["counter_low"] = [c.low for c in layout.counters]
        self.s["counter_high"] = [c.high for c in layout.counters]
        self.s["number_counters"] = [i for i, c in enumerate(puzzle.counters) if c.role == NUMBER]
        self.s["base"] = [part.piece for part in puzzle.parts]
        board = puzzle.board
        self.s["rows"] = [c.row or 0 for c in board.cells] if board is not None else []
        self.s["cols"] = [c.col or 0 for c in board.cells] if board is not None else []
        self.s["frame"] = list(board.frame) if board is not None and board.has_frame else []
        self.rows = board.rows if board is not None and board.has_frame else 0
        self.cols = board.cols if board is not None and board.has_frame else 0

    def pack(self, state: bytes) -> list[int]:
        """A state of the Python layout as words."""
        out = [0] * self.words
        for i, byte in enumerate(state):
            out[self.s["field_word"][i]] |= byte << self.s["field_shift"][i]
        return out

    def unpack(self, words: list[int]) -> bytes:
        word, shift, mask = self.s["field_word"], self.s["field_shift"], self.s["field_mask"]
        return bytes((words[word[i]] >> shift[i]) & mask[i] for i in range(len(word)))

    # ---- rules and goal
    def _rules(self) -> None:
        asm, base = self.asm, self.bases["rule"]
        rules = self.compiled.puzzle.safety
        self._memo()
        self.s["state_rules"] = [asm.function(r.condition, base) for r in rules if r.scope == "state"]
        self.s["place_rules"] = [asm.function(r.condition, base) for r in rules if r.scope in ("places", "everywhere")]
        self.s["load_rules"] = [asm.function(r.condition, base) for r in rules if r.scope in ("loads", "everywhere")]

    def _memo(self) -> None:
        """Rules on places and loads that look only at the contents of `here` are answered
        once for each contents, as the Python engine remembers them: the contents as a key
        of a few bits (how many of each piece), the answers in a table of the workspace."""
        safety = self.compiled.safety
        shifts, bits = [], 0
        for total in self.totals:
            shifts.append(bits)
            bits += max(1, total.bit_length())
        fits = bits <= MEMO_BITS and not self.creates
        self.memo_bits = bits if fits else 0
        self.memo_places = int(fits and bool(safety.place_rules) and safety.places_local)
        self.memo_loads = int(fits and bool(safety.load_rules) and safety.loads_local)
        self.s["memo_shift"] = shifts

    def _goal(self) -> None:
        goal, layout = self.compiled.puzzle.goal, self.layout
        self.s["goal_cells"] = [x for cell, code in enumerate(goal.cells or ()) if code != ANY for x in (cell, code)]
        places: list[int] = []
        wanted: list[int] = []
        for g in goal.places:
            slot = layout.places[g.place]
            if g.sequence is not None:
                places.extend((g.place, 1, len(wanted)))
                wanted.extend([*g.sequence, *([0] * (slot.length - len(g.sequence)))])
            else:
                assert g.at_least is not None
                places.extend((g.place, 0, len(wanted)))
                wanted.extend(g.at_least)
        self.s["goal_places"] = places
        self.s["goal_wanted"] = wanted
        base = self.bases["goal"]
        self.s["goal_conditions"] = [self.asm.function(c, base) for c in goal.conditions]

    # ---- moves
    def _moves(self) -> None:
        compiled, cells = self.compiled, self.cells
        for name in ("pairs", "occupied", "instances", "binds"):
            self.s[name] = []
        self.s["instance_key"] = []  # a plain rewrite's order key; a form's rewrite: its first cell
        keyed, unkeyed = key_groups(compiled.instances, cells, compiled.rarity)
        self.s["key_codes"] = [code for code, _ in keyed]
        self.s["group_start"] = [0]
        self.s["group_items"] = []
        for _, by_cell in keyed:
            for at_cell in by_cell:
                self.s["group_items"].extend(inst[5] for inst, _ in at_cell)
                self.s["group_start"].append(len(self.s["group_items"]))
        self.s["unkeyed"] = [inst[5] for inst, _ in unkeyed]
        for i, inst in enumerate(compiled.instances):
            origin = compiled.origins[i]
            key = origin.cells[0] << ORDER_START | origin.move << ORDER_STATEMENT | i
            self._instance(inst, (), key)
        for name in (
            "families",
            "slide_codes",
            "slide_block",
            "blocks",
            "directions_used",
            "with_sets",
            "vars",
            "lets",
            "effects",
            "jumps",
            "amounts",
            "anchor_codes",
            "anchor_start",
            "anchor_items",
        ):
            self.s[name] = []
        self.most_picked = 0  # the most placements of one rewrite form that may apply (ws_picked)
        self.s["areas"], self.s["area_start"], self.s["area_fits"] = [], [0], []
        self.s["cycle_pairs"] = []  # a cycle's cells: (from, to), one pair after another
        routes = compiled.puzzle.routes
        self.s["route_start"], self.s["route_targets"] = [0], []
        for place in range(len(self.layout.places)):
            self.s["route_targets"].extend(sorted(b for a, b in routes if a == place))
            self.s["route_start"].append(len(self.s["route_targets"]))
        for family in compiled.families:
            self._family(family)

    def _instance(self, inst: Any, binds: tuple[tuple[int, int], ...], key: int) -> None:
        self.s["instance_key"].append(key)
        checks, occupied, same, writes, copies, _ = inst
        record: list[int] = []
        pairs = self.s["pairs"]
        for group in (checks, same, writes, copies):
            record.append(len(pairs) // 2)
            for a, b in group:
                pairs.extend((a, b))
            record.append(len(pairs) // 2)
        record.extend((len(self.s["occupied"]), len(self.s["occupied"]) + len(occupied)))
        self.s["occupied"].extend(occupied)
        record.extend((len(self.s["binds"]) // 2, len(self.s["binds"]) // 2 + len(binds)))
        for slot, cell in binds:
            self.s["binds"].extend((self.bases["move"] + slot, cell))
        self.s["instances"].extend(record)

    def _family(self, family: Any) -> None:
        record = [0] * FAMILY
        record[F_GUARD] = -1
        record[F_VAR] = -1
        record[F_ONLY] = -1
        record[F_ANCHORS] = -1
        base = self.bases["move"]
        cost = family.move.cost
        if self.cost_packing is not None and isinstance(cost, Call):
            cost = self.cost_packing.packed(cost)
        record[F_COST] = self.asm.function(cost, base) if cost is not None else -1
        record[F_COST_ERROR] = self.asm.error(ERR_NEGATIVE_COST, cost.pos) if cost is not None else -1
        record[F_STATEMENT] = self.compiled.statement_of[family.index]
        record[F_START] = self._start(family)
        if isinstance(family, SlideFamily):
            record[F_KIND] = SLIDE
            self._slide(record, family)
        elif isinstance(family, CarryFamily):
            record[F_KIND] = CARRY
            self._carry(record, family)
        else:
            assert isinstance(family, GeneralFamily)
            record[F_KIND] = GENERAL
            move = family.move
            if isinstance(move.form, Rewrite):
                record[F_FORM] = FORM_REWRITE
                record[F_INST_FROM] = len(self.s["instances"]) // INSTANCE
                for inst, pattern, binds in family.form_instances:
                    self._instance(inst, binds, pattern[0])
                record[F_INST_TO] = len(self.s["instances"]) // INSTANCE
                self._anchors(record, family)
            elif family._slide is not None:
                record[F_FORM] = FORM_SLIDE
                self._slide(record, family._slide)
            elif family._carry is not None:
                record[F_FORM] = FORM_CARRY
                self._carry(record, family._carry)
            record[F_VARS_FROM] = len(self.s["vars"]) // 4
            for slot, kind, extra in family.bound_by_actions:
                over = {"place": VAR_PLACE, "cell": VAR_CELL, "counter": VAR_COUNTER, "take": VAR_TAKE}[kind]
                where, arg = self._loc(extra) if kind == "take" else (0, 0)
                self.s["vars"].extend((base + slot, over, where, arg))
            record[F_VARS_TO] = len(self.s["vars"]) // 4
            record[F_LETS_FROM] = len(self.s["lets"]) // 2
            for action in move.actions:
                if isinstance(action, Let):
                    self.s["lets"].extend((base + action.slot, self.asm.function(action.value, base)))
            record[F_LETS_TO] = len(self.s["lets"]) // 2
            if move.guard is not None:
                record[F_GUARD] = self.asm.function(move.guard, base)
            record[F_EFFECTS_FROM] = len(self.s["effects"]) // EFFECT
            for action in move.actions:
                if not isinstance(action, Let):
                    self.s["effects"].extend(self._effect(action))
            record[F_EFFECTS_TO] = len(self.s["effects"]) // EFFECT
            record[F_SAME_ALLOWED] = int(family._bag_take is not None)
            record[F_AMOUNTS] = -1
            if family._placing is not None and family._bag_take is not None:
                record[F_AMOUNTS] = len(self.s["amounts"])
                self.s["amounts"].extend([0, *family._placing[2]])  # by piece code
        self.s["families"].extend(record)

    def _anchors(self, record: list[int], family: GeneralFamily) -> None:
        """A rewrite form's placements under their anchors, as Python's engine indexes them
        (`GeneralFamily._anchor_index`, on the start: each under the checked cell whose value
        the start holds least often, e.g. Sokoban's worker), so that a state tries only the
        placements anchored where it holds their anchor's value (moves._picked): a walk on a
        board of 100 cells tried 400 placements a state, of which the four round the worker
        can match. None where Python tries every placement, or where an anchor is not a cell
        of the board (`_picked` looks on the board)."""
        found = family._anchor_index(self.compiled.start)
        if not found:
            return
        anchored, loose = found
        cells, first = self.cells, record[F_INST_FROM]
        if any(cell >= cells for by_cell in anchored.values() for cell in by_cell):
            return
        items, starts = self.s["anchor_items"], self.s["anchor_start"]
        record[F_ANCHOR_CODES_FROM] = len(self.s["anchor_codes"])
        self.s["anchor_codes"].extend(anchored)
        record[F_ANCHOR_CODES_TO] = len(self.s["anchor_codes"])
        record[F_ANCHORS] = len(starts)
        for by_cell in anchored.values():
            for cell in range(cells):
                starts.append(len(items))
                items.extend(first + number for number in by_cell.get(cell, ()))
        starts.append(len(items))
        record[F_LOOSE_FROM] = len(items)
        items.extend(first + number for number in loose)
        record[F_LOOSE_TO] = len(items)
        self.most_picked = max(self.most_picked, len(family.form_instances))

    def _start(self, family: Any) -> int:
        """Where a family's moves start (`CompiledPuzzle.order_of`): the form's cell (the piece
        that slides, a rewrite's first cell), a toggle's anchor, or no cell."""
        if isinstance(family, SlideFamily) or (
            isinstance(family, GeneralFamily) and (family._slide is not None or isinstance(family.move.form, Rewrite))
        ):
            return START_SET
        if isinstance(family, GeneralFamily):
            for slot, kind, _ in family.bound_by_actions:
                if kind == "cell" and any(isinstance(a, Toggle) and a.slot == slot for a in family.move.actions):
                    return self.bases["move"] + slot
        return NO_START

    def _slide(self, record: list[int], family: SlideFamily) -> None:
        record[F_CODES_FROM] = len(self.s["slide_codes"])
        for code in family.codes:  # in the order Python tries them
            self.s["slide_codes"].append(code)
            self.s["slide_block"].append(self._block(family, code) if code in family.shapes else -1)
        record[F_CODES_TO] = len(self.s["slide_codes"])
        record[F_MODE] = SLIDE_MODES.index(family.mode) + (REPEATED if family.repeated else 0)
        record[F_DIRS_FROM] = len(self.s["directions_used"])
        self.s["directions_used"].extend(self.asm.direction(d) for d in family.directions)
        record[F_DIRS_TO] = len(self.s["directions_used"])
        if family.variable_slot is not None:
            record[F_VAR] = self.bases["move"] + family.variable_slot
        if family.guard is not None:
            assert family.move.guard is not None
            record[F_GUARD] = self.asm.function(family.move.guard, self.bases["move"])

    def _block(self, family: SlideFamily, code: int) -> int:
        """Where a block's table starts in `blocks`: the cells of its shape (L), the codes of
        its parts in shape order, then for each anchor cell where its data starts (relative
        to the table): the cells the block covers from there (L, -1 off the board), and for
        each of the family's directions how many steps it can take on the board, then the
        cells it covers after each step (L a step), as SlideFamily._block_moves walks them."""
        board, parts = family.board, self.compiled.puzzle.parts
        shape = family.shapes[code]
        piece = parts[code].piece
        part_code = {(part.piece, part.offset): c for c, part in enumerate(parts)}
        table: list[int] = [len(shape), *(part_code[(piece, k)] for k in range(len(shape)))]
        anchors = len(table)
        table.extend([0] * self.cells)
        for anchor in range(self.cells):
            table[anchors + anchor] = len(table)
            origin = board.cells[anchor]
            own = [board.at(origin.row + dr, origin.col + dc) for dr, dc in shape]  # type: ignore[operator]
            table.extend(c if c is not None else -1 for c in own)
            for direction in family.directions:
                steps: list[list[int]] = []
                while direction.vector is not None and None not in own:
                    moved = [board.step(c, direction.vector, len(steps) + 1) for c in own]  # type: ignore[arg-type]
                    if None in moved:
                        break
                    steps.append(moved)  # type: ignore[arg-type]
                table.append(len(steps))
                table.extend(c for moved in steps for c in moved)
        start = len(self.s["blocks"])
        self.s["blocks"].extend(table)
        return start

    def _carry(self, record: list[int], family: CarryFamily) -> None:
        form = family.form
        record[F_CARRIER] = form.carrier
        record[F_LOW], record[F_HIGH] = form.low, form.high
        if form.only is not None:
            record[F_ONLY] = self.asm.code_set(form.only)
        record[F_WITH_FROM] = len(self.s["with_sets"])
        self.s["with_sets"].extend(self.asm.code_set(codes) for codes in form.with_)
        record[F_WITH_TO] = len(self.s["with_sets"])
        if family.guard is not None:
            assert family.move.guard is not None
            record[F_GUARD] = self.asm.function(family.move.guard, self.bases["move"])

    def _loc(self, loc: Loc) -> tuple[int, int]:
        if isinstance(loc, PlaceLoc):
            return LOC_PLACE, loc.place
        if isinstance(loc, CellLoc):
            return LOC_CELL, loc.cell
        if isinstance(loc, CursorLoc):
            return LOC_CURSOR, loc.counter
        assert isinstance(loc, VarLoc)
        return (LOC_VAR_PLACE if loc.over == "place" else LOC_VAR_CELL), self.bases["move"] + loc.slot

    def _effect(self, action: Any) -> list[int]:
        base = self.bases["move"]
        out = [0] * EFFECT
        if isinstance(action, Take):
            out[:4] = [EFFECT_TAKE, base + action.slot, *self._loc(action.source)]
        elif isinstance(action, Put):
            where, arg = self._loc(action.target)
            slot = base + action.slot if action.slot is not None else -1
            code = action.code if action.code is not None else -1
            out[:5] = [EFFECT_PUT, where, arg, slot, code]
        elif isinstance(action, Advance):
            direction = self.asm.direction(action.direction) if action.direction is not None else -1
            amount = self.asm.function(action.amount, base)
            error = self.asm.error(ERR_ADVANCE, action.amount.pos)
            out[:6] = [EFFECT_ADVANCE, action.counter, amount, direction, error, self._jumps(action)]
        elif isinstance(action, SetCounter):
            counter = action.counter if action.counter is not None else -1
            slot = base + action.slot if action.slot is not None else -1
            out[:4] = [EFFECT_SET, counter, slot, self.asm.function(action.value, base)]
        elif isinstance(action, Cycle):
            at = len(self.s["cycle_pairs"]) // 2
            self.s["cycle_pairs"].extend(cell for pair in action.pairs() for cell in pair)
            out[:3] = [EFFECT_CYCLE, at, len(self.s["cycle_pairs"]) // 2]
        else:
            assert isinstance(action, Toggle)
            board = self.compiled.puzzle.board
            assert board is not None
            at = len(self.s["area_fits"])
            for area in toggle_areas(board, action):
                self.s["area_fits"].append(int(area is not None))
                self.s["areas"].extend(area or ())
                self.s["area_start"].append(len(self.s["areas"]))
            out[:5] = [EFFECT_TOGGLE, action.first, action.second, at, base + action.slot]
        return out

    def _jumps(self, action: Advance) -> int:
        """Where the cursor lands from each cell after k steps along the advance's direction,
        for k = 0..cells, in `jumps` (cells + 1 a cell), so that an advance is one lookup;
        -1 when there is no direction, or the board is too large for such a table."""
        cells = self.cells
        if action.direction is None or cells > JUMP_CELLS:
            return -1
        at = len(self.s["jumps"])
        for cell in range(cells):
            reached: int | None = cell
            for _ in range(cells + 1):
                self.s["jumps"].append(reached if reached is not None else NONE)
                reached = action.direction.next(reached) if reached is not None else None
        return at

    # ---- symmetries
    def _symmetries(self) -> None:
        """Each element of the symmetry group but the identity, field by field: the field of
        the state its image's field takes its value from, and whether that value is a piece
        code to translate (cells and stacks; a bag's counts move between codes instead, and
        counters stay), as `compiler.symmetry.image_function` maps a state; and the element's
        translation of codes."""
        group, layout = self.compiled.symmetry, self.layout
        elements = group.elements[1:] if group is not None else []
        self.symmetries = len(elements)
        self.s["sym_source"], self.s["sym_translate"], self.s["sym_codes"] = [], [], []
        for element in elements:
            source = list(range(layout.size))
            translate = [0] * layout.size
            for cell, target in enumerate(element.cells):
                source[target], translate[target] = cell, 1
            pieces = layout.pieces
            bag_order = [0] * pieces  # as in image_function: the count of code c comes from this code's
            for code in range(1, pieces + 1):
                bag_order[element.codes[code] - 1] = code - 1
            for place, target in enumerate(element.places):
                here, there = layout.places[place], layout.places[target]
                for k in range(there.length):
                    if here.stack:
                        source[there.offset + k], translate[there.offset + k] = here.offset + k, 1
                    else:
                        source[there.offset + k] = here.offset + bag_order[k]
            self.s["sym_source"].extend(source)
            self.s["sym_translate"].extend(translate)
            self.s["sym_codes"].extend([*element.codes, *range(len(element.codes), CODES)])

    # ---- the tables every expression shares
    def shared(self) -> None:
        """The assembly's tables as sections (once every expression is compiled)."""
        asm, cells = self.asm, self.cells
        codes = 256
        member: list[int] = []
        for code_set in asm.code_sets:
            row = [0] * codes
            for code in code_set:
                row[code] = 1
            member.extend(row)
        self.s["set_member"] = member
        self.s["set_start"] = [0]
        self.s["set_codes"] = []
        for code_set in asm.code_sets:
            self.s["set_codes"].extend(sorted(code_set))
            self.s["set_start"].append(len(self.s["set_codes"]))
        self.s["values"] = asm.values
        self.s["code"] = asm.code
        self.s["attributes"] = [v for row in asm.attributes for v in row]
        nexts: list[int] = []
        ray_start, ray_cells = [0], list[int]()
        for direction in asm.directions:
            for cell in range(cells):
                following = direction.next(cell)
                nexts.append(following if following is not None else NONE)
                ray_cells.extend(direction.ray(cell))
                ray_start.append(len(ray_cells))
        self.s["next"] = nexts
        self.s["ray_start"] = ray_start
        self.s["ray_cells"] = ray_cells

    @property
    def errors(self) -> list[ErrorSite]:
        return self.asm.errors

    @property
    def stack_size(self) -> int:
        return len(self.asm.code) // WIDTH + 8

    @property
    def env_size(self) -> int:
        return self.asm.env_size + self.asm.hidden


def why_not(compiled: CompiledPuzzle) -> str | None:
    """Why the machine cannot run this puzzle (None: it can)."""
    try:
        program_of(compiled)
    except Unsupported as exc:
        return str(exc)
    return None


@lru_cache(maxsize=4)
def program_of(compiled: CompiledPuzzle) -> Program:
    program = Program(compiled)
    program.shared()
    return program
