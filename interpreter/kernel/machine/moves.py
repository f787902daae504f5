"""The moves, safety rules and goal of a machine program (`kernel.machine.program`), run by
fixed numba code on the unpacked state in the workspace (`kernel.machine`).

`expand` gives a state's successors packed into rows of words, in the order the Python
engine gives them: the plain rewrites grouped as `compiler.rewrite.key_groups` groups them,
then each other move family in the spec's order — slides, carries, and the general family
(a form's choice, then every variable the actions introduce, the lets, the guard, the
effects in order), each child kept only if every safety rule holds in it. The rules are
those of the Python families, checked at the same points with the same states, so that an
error in a rule shows at the same move.
"""

from __future__ import annotations

import numpy as np
from numba import uint64

from ..compiling.jit import int64, njit
from .bytecode import HERE_BAG, LOAD_BAG
from .calls import int64_pointer
from .machine import bag_count, code_of, copy, counter_value, evaluate, fail, fill_bag, in_set, ray_range
from .records import (
    AMOUNTS,
    ANCHOR_CODES,
    ANCHOR_ITEMS,
    ANCHOR_START,
    AREA_FITS,
    AREA_START,
    AREAS,
    BINDS,
    BLOCKS,
    CARRY,
    CELLS,
    COUNTER_HIGH,
    COUNTER_LOW,
    COUNTER_OFFSET,
    COUNTER_WIDTH,
    CYCLE_PAIRS,
    DIRECTIONS_USED,
    EFFECT,
    EFFECT_ADVANCE,
    EFFECT_CYCLE,
    EFFECT_PUT,
    EFFECT_SET,
    EFFECT_TAKE,
    EFFECTS,
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
    FAMILIES,
    FAMILY,
    FIELD_MASK,
    FIELD_SHIFT,
    FIELD_WORD,
    FORM_CARRY,
    FORM_NONE,
    FORM_SLIDE,
    GENERAL,
    GOAL_CELLS,
    GOAL_CONDITIONS,
    GOAL_PLACES,
    GOAL_WANTED,
    GROUP_ITEMS,
    GROUP_START,
    INSTANCE,
    INSTANCE_KEY,
    INSTANCES,
    JUMPS,
    KEY_CODES,
    LETS,
    LOAD_RULES,
    LOC_CELL,
    LOC_CURSOR,
    LOC_PLACE,
    LOC_VAR_PLACE,
    MEMO_LOADS,
    MEMO_PLACES,
    MEMO_SHIFT,
    MOST_VALUES,
    NEXT_CELL,
    NFAMILIES,
    NO_START,
    NUMBER_COUNTERS,
    OCCUPIED,
    ORDER_START,
    ORDER_STATEMENT,
    PAIRS,
    PIECES,
    PLACE_LENGTH,
    PLACE_OFFSET,
    PLACE_RULES,
    PLACE_STACK,
    PLACES,
    REPEATED,
    ROUTE_START,
    ROUTE_TARGETS,
    SET_CODES,
    SET_START,
    SIZE,
    SLIDE,
    SLIDE_BLOCK,
    SLIDE_CODES,
    STATE_RULES,
    UNKEYED,
    VAR_CELL,
    VAR_COUNTER,
    VAR_PLACE,
    VAR_TAKE,
    VARS,
    WITH_SETS,
    WORDS,
    WS_BAGS,
    WS_CHILD,
    WS_COSTS,
    WS_COUNT,
    WS_ENV,
    WS_ERR,
    WS_INDEX,
    WS_KINDS,
    WS_LOG,
    WS_LOGGED,
    WS_MEMO,
    WS_ORDERS,
    WS_PARENT,
    WS_PATHS,
    WS_PICKED,
    WS_ROWS,
    WS_SIZE,
    WS_START,
    WS_STATE,
    WS_VALUES,
)

FULL = -2  # `expand` found more successors than `out` has rows for
FAILED = -1  # an error was found (it is in the workspace)
STEP, SLIDE_ANY, UNTIL, UNTIL_PIECE = 0, 1, 2, 3


# ---- safety rules and the goal


@njit(cache=True, inline="always")
def _all_hold(mp: np.ndarray, ws: np.ndarray, s: int, section: int) -> bool:
    """Whether every rule of a section (where each starts) holds on the state at ws[s:]."""
    for k in range(mp[section], mp[section + 1]):  # noqa: SIM110 - numba compiles loops, not generators
        if evaluate(mp, ws, s, mp[k]) == 0:
            return False
    return True


@njit(cache=True, inline="always")
def ok(mp: np.ndarray, ws: np.ndarray, s: int) -> bool:
    """Every safety rule holds: those on the whole state, then those on each place in turn."""
    if not _all_hold(mp, ws, s, STATE_RULES):
        return False
    if mp[PLACE_RULES + 1] == mp[PLACE_RULES]:
        return True
    for place in range(mp[PLACES]):
        fill_bag(mp, ws, s, place, HERE_BAG)
        if not _here_holds(mp, ws, s, PLACE_RULES):
            return False
    return True


@njit(cache=True)
def _here_holds(mp: np.ndarray, ws: np.ndarray, s: int, section: int) -> bool:
    """The rules of a section (places or loads) on the bag in `here`: remembered for each
    contents where they look at nothing else."""
    memo = mp[MEMO_PLACES] if section == PLACE_RULES else mp[MEMO_LOADS]
    if memo == 0:
        return _all_hold(mp, ws, s, section)
    here = mp[WS_BAGS] + HERE_BAG * (mp[PIECES] + 1)
    key = 0
    shifts = mp[MEMO_SHIFT]
    for code in range(1, mp[PIECES] + 1):
        key |= ws[here + code] << mp[shifts + code - 1]
    table = mp[WS_MEMO] + (0 if section == PLACE_RULES else (mp[WS_SIZE] - mp[WS_MEMO]) // 2)
    known = ws[table + key]
    if known != 0:
        return bool(known == 1)
    holds = _all_hold(mp, ws, s, section)
    if ws[mp[WS_ERR]] == 0:
        ws[table + key] = 1 if holds else 2
    return holds


@njit(cache=True, inline="always")
def any_rules(mp: np.ndarray) -> bool:
    return bool(mp[STATE_RULES + 1] > mp[STATE_RULES] or mp[PLACE_RULES + 1] > mp[PLACE_RULES])


@njit(cache=True, inline="always")
def is_goal(mp: np.ndarray, ws: np.ndarray, s: int) -> bool:
    """The goal: its cells, its places (exactly, or at least so many of each piece), then its
    conditions."""
    for k in range(mp[GOAL_CELLS], mp[GOAL_CELLS + 1], 2):
        if ws[s + mp[k]] != mp[k + 1]:
            return False
    for k in range(mp[GOAL_PLACES], mp[GOAL_PLACES + 1], 3):
        place, exact, wanted = mp[k], mp[k + 1], mp[GOAL_WANTED] + mp[k + 2]
        offset = mp[mp[PLACE_OFFSET] + place]
        if exact:
            for i in range(mp[mp[PLACE_LENGTH] + place]):
                if ws[s + offset + i] != mp[wanted + i]:
                    return False
        else:
            for code in range(1, mp[PIECES] + 1):
                if bag_count(mp, ws, s, place, code) < mp[wanted + code - 1]:
                    return False
    return _all_hold(mp, ws, s, GOAL_CONDITIONS)


# ---- the successors
#
# The state before the move is at ws_state, and never changes while its successors are made.
# Each move is made in place on a copy of it at ws_child, every field written going to a log
# (the field and what it held): the child is packed from the parent's words and the fields
# logged, and the log undoes the move before the next one. A move costs what it changes,
# not the size of the state.


@njit(cache=True, inline="always")
def _set(mp: np.ndarray, ws: np.ndarray, field: int, value: int) -> None:
    """Write a field of the child, logging what it held."""
    at = mp[WS_LOGGED]
    n = ws[at]
    log = mp[WS_LOG] + 2 * n
    child = mp[WS_CHILD]
    ws[log] = field
    ws[log + 1] = ws[child + field]
    ws[child + field] = value
    ws[at] = n + 1


@njit(cache=True, inline="always")
def _undo(mp: np.ndarray, ws: np.ndarray, mark: int) -> None:
    """Put back the fields logged after `mark`."""
    at = mp[WS_LOGGED]
    n = ws[at]
    child, log = mp[WS_CHILD], mp[WS_LOG]
    while n > mark:
        n -= 1
        ws[child + ws[log + 2 * n]] = ws[log + 2 * n + 1]
    ws[at] = mark


@njit(cache=True, inline="always")
def _logged(mp: np.ndarray, ws: np.ndarray) -> int:
    return int(ws[mp[WS_LOGGED]])


@njit(cache=True, inline="always")
def _unchanged(mp: np.ndarray, ws: np.ndarray) -> bool:
    """Whether the child is the state before the move (every field written holds its old value)."""
    s, child, log = mp[WS_STATE], mp[WS_CHILD], mp[WS_LOG]
    for k in range(ws[mp[WS_LOGGED]]):
        field = ws[log + 2 * k]
        if ws[child + field] != ws[s + field]:
            return False
    return True


@njit(cache=True, inline="always")
def _set_counter(mp: np.ndarray, ws: np.ndarray, c: int, value: int) -> bool:
    """Store a counter's value in the child; False if it is outside the counter's range."""
    low, high = mp[mp[COUNTER_LOW] + c], mp[mp[COUNTER_HIGH] + c]
    if value < low or value > high:
        return False
    raw = value - low
    offset = mp[mp[COUNTER_OFFSET] + c]
    for k in range(mp[mp[COUNTER_WIDTH] + c]):
        _set(mp, ws, offset + k, (raw >> (8 * k)) & 255)
    return True


@njit(cache=True, inline="always")
def _emit(mp: np.ndarray, ws: np.ndarray, out: np.ndarray, found: int, record: int) -> int:
    """The child, packed into row `found` of `out` (ws_rows rows of `words` words): the
    parent's words with the fields logged. Where costs are asked for (ws_costs), the cost of
    the move of family `record` (-1: a plain rewrite) too, evaluated as the Python engine
    evaluates it: on the state before the move, with the move's variables and load; where
    order keys are (ws_orders), the move's place in search any's order."""
    if found == ws[mp[WS_ROWS]]:
        return FULL
    costs = ws[mp[WS_COSTS]]
    if costs != 0:
        pc = mp[record + F_COST] if record >= 0 else -1
        cost = evaluate(mp, ws, mp[WS_STATE], pc) if pc >= 0 else 1
        if cost < 0:  # as CompiledPuzzle.expand_costed refuses it
            fail(ws, mp[WS_ERR], mp[record + F_COST_ERROR], 1, cost, 0)
        int64_pointer(costs)[found] = cost  # type: ignore[call-arg]
    orders = ws[mp[WS_ORDERS]]
    if orders != 0:
        int64_pointer(orders)[found] = _order_key(mp, ws, record)  # type: ignore[call-arg]
    parent, child, log = mp[WS_PARENT], mp[WS_CHILD], mp[WS_LOG]
    words = mp[WORDS]
    row = found * words
    for w in range(words):
        out[row + w] = uint64(ws[parent + w])
    fw, fs, fm = mp[FIELD_WORD], mp[FIELD_SHIFT], mp[FIELD_MASK]
    for k in range(ws[mp[WS_LOGGED]]):
        field = ws[log + 2 * k]
        at, shift = row + mp[fw + field], uint64(mp[fs + field])
        out[at] = (out[at] & ~(uint64(mp[fm + field]) << shift)) | (uint64(ws[child + field]) << shift)
    return found + 1


@njit(cache=True, inline="always")
def _order_key(mp: np.ndarray, ws: np.ndarray, record: int) -> int:
    """The move's place in search any's order (`CompiledPuzzle.order_of`): where it starts,
    its statement, and for a plain rewrite its instance number (the whole key, in ws_start)."""
    start = ws[mp[WS_START]]
    if record < 0:
        return int(start)
    how = mp[record + F_START]
    if how == NO_START:
        start = mp[CELLS]
    elif how >= 0:
        start = ws[mp[WS_ENV] + how]
    return int(start << ORDER_START | mp[record + F_STATEMENT] << ORDER_STATEMENT)


@njit(cache=True)
def expand(mp: np.ndarray, ws: np.ndarray, out: np.ndarray) -> int:
    """The successors of the state at ws[ws_state:] (its words at ws[ws_parent:]), packed
    into the rows of `out` (ws_rows rows of `words` words, one after the other): how many,
    or FULL (more than `out` holds: call again with more rows) or FAILED (an error, in the
    workspace). The machine's functions take the program, the workspace and `out` as
    pointers (`kernel.machine.entry`): a call passes three words, not three array structures
    of seven."""
    s, child = mp[WS_STATE], mp[WS_CHILD]
    copy(ws, s, child, mp[SIZE])
    ws[mp[WS_LOGGED]] = 0
    cells = mp[CELLS]
    checked = any_rules(mp)
    found = int64(0)  # not the literal 0: each literal a callee sees is compiled apart
    key_codes = mp[KEY_CODES]
    for k in range(mp[KEY_CODES + 1] - key_codes):
        code = mp[key_codes + k]
        for cell in range(cells):
            if ws[s + cell] != code:
                continue
            group = mp[GROUP_START] + k * cells + cell
            for g in range(mp[group], mp[group + 1]):
                i = mp[mp[GROUP_ITEMS] + g]
                if _rewrite(mp, ws, i):
                    if not checked or ok(mp, ws, child):
                        ws[mp[WS_START]] = mp[mp[INSTANCE_KEY] + i]
                        found = _emit(mp, ws, out, found, -1)
                    _undo(mp, ws, 0)
                    if found < 0:
                        return found
    for g in range(mp[UNKEYED], mp[UNKEYED + 1]):
        if _rewrite(mp, ws, mp[g]):
            if not checked or ok(mp, ws, child):
                ws[mp[WS_START]] = mp[mp[INSTANCE_KEY] + mp[g]]
                found = _emit(mp, ws, out, found, -1)
            _undo(mp, ws, 0)
            if found < 0:
                return found
    for f in range(mp[NFAMILIES]):
        record = mp[FAMILIES] + f * FAMILY
        kind = mp[record + F_KIND]
        if kind == SLIDE:
            found = _slides(mp, ws, record, out, found)
        elif kind == CARRY:
            found = _carries(mp, ws, record, out, found)
        else:
            found = _general(mp, ws, record, out, found)
        if found < 0:
            return found
    if ws[mp[WS_ERR]] != 0:
        return FAILED
    return found


@njit(cache=True, inline="always")
def _rewrite(mp: np.ndarray, ws: np.ndarray, i: int) -> bool:
    """Rewrite instance i, made on the child if it applies to the state before the move: its
    checks hold, its occupied cells hold a piece, its equal pairs are equal."""
    s = mp[WS_STATE]
    r = mp[INSTANCES] + i * INSTANCE
    pairs = mp[PAIRS]
    for k in range(mp[r], mp[r + 1]):
        if ws[s + mp[pairs + 2 * k]] != mp[pairs + 2 * k + 1]:
            return False
    for k in range(mp[r + 8], mp[r + 9]):
        if ws[s + mp[mp[OCCUPIED] + k]] == 0:
            return False
    for k in range(mp[r + 2], mp[r + 3]):
        if ws[s + mp[pairs + 2 * k]] != ws[s + mp[pairs + 2 * k + 1]]:
            return False
    for k in range(mp[r + 4], mp[r + 5]):
        _set(mp, ws, mp[pairs + 2 * k], mp[pairs + 2 * k + 1])
    for k in range(mp[r + 6], mp[r + 7]):
        _set(mp, ws, mp[pairs + 2 * k], ws[s + mp[pairs + 2 * k + 1]])
    return True


@njit(cache=True)
def _slides(mp: np.ndarray, ws: np.ndarray, record: int, out: np.ndarray, found: int) -> int:
    """A step or slide move of one-cell pieces or blocks: each code that moves (in the order
    Python tries them), each cell holding it, each direction, each cell reached. As a family
    of its own the guard and the safety rules decide; as a general family's form, each
    choice goes on to the actions."""
    s = mp[WS_STATE]
    cells = mp[CELLS]
    mode = mp[record + F_MODE]
    if mode >= REPEATED:
        return _paths(mp, ws, record, out, found)
    for ci in range(mp[record + F_CODES_FROM], mp[record + F_CODES_TO]):
        code = mp[mp[SLIDE_CODES] + ci]
        block = mp[mp[SLIDE_BLOCK] + ci]
        for cell in range(cells):
            if ws[s + cell] != code:
                continue
            if block >= 0:
                found = _block_slides(mp, ws, record, out, found, cell, mp[BLOCKS] + block)
                if found < 0:
                    return found
                continue
            allowed = int64(-1)  # the guard, asked at the first move from this cell
            for di in range(mp[record + F_DIRS_FROM], mp[record + F_DIRS_TO]):
                lo, hi = ray_range(mp, cell, mp[mp[DIRECTIONS_USED] + di])
                last = -1
                blocked = False
                for k in range(lo, hi):
                    t = mp[k]
                    if ws[s + t] != 0:
                        blocked = True
                        break
                    last = t
                    if mode < UNTIL:
                        found, allowed = _slide_to(mp, ws, record, out, found, cell, t, code, allowed, -1, -1)
                        if found < 0 or mode == STEP:
                            break
                if found < 0:
                    return found
                if last >= 0 and (mode == UNTIL or (mode == UNTIL_PIECE and blocked)):
                    found, allowed = _slide_to(mp, ws, record, out, found, cell, last, code, allowed, -1, -1)
                    if found < 0:
                        return found
    return found


@njit(cache=True)
def _block_slides(
    mp: np.ndarray, ws: np.ndarray, record: int, out: np.ndarray, found: int, cell: int, table: int
) -> int:
    """The moves of the block anchored at `cell` (its table in `blocks`, see program._block),
    as SlideFamily._block_moves makes them: along each direction, one more step while every
    cell the block would cover is on the board and empty or its own."""
    s = mp[WS_STATE]
    mode = mp[record + F_MODE]
    size = mp[table]
    own = table + mp[table + 1 + size + cell]
    at = own + size  # the first direction's steps
    allowed = int64(-1)
    for _ in range(mp[record + F_DIRS_FROM], mp[record + F_DIRS_TO]):
        steps = mp[at]
        last = -1
        blocked = False
        for k in range(steps):
            moved = at + 1 + k * size
            free = True
            for m in range(size):
                t = mp[moved + m]
                if ws[s + t] != 0 and not _covers(mp, own, size, t):
                    free = False
                    break
            if not free:
                blocked = True
                break
            last = moved
            if mode < UNTIL:
                found, allowed = _slide_to(mp, ws, record, out, found, cell, -1, -1, allowed, table, moved)
                if found < 0:
                    return found
                if mode == STEP:
                    break
        if last >= 0 and (mode == UNTIL or (mode == UNTIL_PIECE and blocked)):
            found, allowed = _slide_to(mp, ws, record, out, found, cell, -1, -1, allowed, table, last)
            if found < 0:
                return found
        at += 1 + steps * size
    return found


@njit(cache=True, inline="always")
def _covers(mp: np.ndarray, own: int, size: int, cell: int) -> bool:
    for m in range(size):  # noqa: SIM110 - numba compiles loops, not generators
        if mp[own + m] == cell:
            return True
    return False


@njit(cache=True, inline="always")
def _place(mp: np.ndarray, ws: np.ndarray, cell: int, reached: int, code: int, table: int, moved: int) -> None:
    """Make a slide on the child: a piece from `cell` to `reached`, or the block anchored at
    `cell` (its `table`) onto the cells listed at `moved`, its parts in shape order."""
    if table < 0:
        _set(mp, ws, cell, 0)
        _set(mp, ws, reached, code)
        return
    size = mp[table]
    own = table + mp[table + 1 + size + cell]
    for m in range(size):
        _set(mp, ws, mp[own + m], 0)
    for m in range(size):
        _set(mp, ws, mp[moved + m], mp[table + 1 + m])


@njit(cache=True)
def _slide_to(
    mp: np.ndarray,
    ws: np.ndarray,
    record: int,
    out: np.ndarray,
    found: int,
    cell: int,
    reached: int,
    code: int,
    allowed: int,
    table: int,
    moved: int,
) -> tuple:  # type: ignore[type-arg]
    """One slide from `cell` to `reached` (or of the block anchored there: see _place):
    (found, whether the guard allows moves from this cell)."""
    var, env = mp[record + F_VAR], mp[WS_ENV]
    mark = _logged(mp, ws)
    ws[mp[WS_START]] = cell
    if mp[record + F_KIND] == GENERAL:  # a general family's form
        _place(mp, ws, cell, reached, code, table, moved)
        if var >= 0:
            ws[env + var] = cell
        found = _choose(mp, ws, record, out, found)
        _undo(mp, ws, mark)
        return found, allowed
    if allowed < 0:
        allowed = 1
        guard = mp[record + F_GUARD]
        if guard >= 0:
            if var >= 0:
                ws[env + var] = cell
            allowed = 1 if evaluate(mp, ws, mp[WS_STATE], guard) != 0 else 0
    if allowed == 0:
        return found, allowed
    _place(mp, ws, cell, reached, code, table, moved)
    if not any_rules(mp) or ok(mp, ws, mp[WS_CHILD]):
        if var >= 0:
            ws[env + var] = cell  # for the cost
        found = _emit(mp, ws, out, found, record)
    _undo(mp, ws, mark)
    return found, allowed


# ---- a piece's whole path as one move (`repeated`)
#
# Only the one piece moves along its path, so an arrangement it reaches is where it is: its
# cell (a block: its anchor). The cells reached are marked with a stamp new for each piece
# (ws_paths: the stamp, then each cell's mark, then the stack of cells still to walk from),
# and every arrangement is made on the child from the state before the move: the piece
# taken from its first cell and put where it is.


@njit(cache=True)
def _paths(mp: np.ndarray, ws: np.ndarray, record: int, out: np.ndarray, found: int) -> int:
    """Each piece the family moves (in the order of _slides), every arrangement it reaches
    by any sequence of the family's steps, each once, in the order SlideFamily._paths finds
    them: depth first, walking on first from the last arrangement found."""
    s = mp[WS_STATE]
    for ci in range(mp[record + F_CODES_FROM], mp[record + F_CODES_TO]):
        code = mp[mp[SLIDE_CODES] + ci]
        block = mp[mp[SLIDE_BLOCK] + ci]
        table = mp[BLOCKS] + block if block >= 0 else -1
        for cell in range(mp[CELLS]):
            if ws[s + cell] == code:
                found = _piece_paths(mp, ws, record, out, found, cell, code, table)
                if found < 0:
                    return found
    return found


@njit(cache=True)
def _piece_paths(
    mp: np.ndarray, ws: np.ndarray, record: int, out: np.ndarray, found: int, start: int, code: int, table: int
) -> int:
    """The arrangements the piece on `start` reaches (a block: `table`, see _block_slides),
    each a successor; the guard is asked of each arrangement walked from, with the piece there."""
    paths, cells = mp[WS_PATHS], mp[CELLS]
    stamp = ws[paths] + 1
    ws[paths] = stamp
    ws[paths + 1 + start] = stamp
    stack = paths + 1 + cells
    ws[stack] = start
    top = int64(1)
    while top > 0:
        top -= 1
        at = ws[stack + top]
        if not _allowed_at(mp, ws, record, start, at, code, table):
            continue
        if table < 0:
            found, top = _cell_steps(mp, ws, record, out, found, start, at, code, top)
        else:
            found, top = _block_steps(mp, ws, record, out, found, start, at, table, top)
        if found < 0:
            return found
    return found


@njit(cache=True, inline="always")
def _own(mp: np.ndarray, table: int, anchor: int) -> int:
    """Where the cells a block anchored on `anchor` covers are listed."""
    return int(table + mp[table + 1 + mp[table] + anchor])


@njit(cache=True)
def _allowed_at(mp: np.ndarray, ws: np.ndarray, record: int, start: int, at: int, code: int, table: int) -> bool:
    """Whether the guard allows the piece's steps from `at`, asked of the arrangement with
    the piece there (its variable: that cell), as SlideFamily._guard is."""
    guard = mp[record + F_GUARD]
    if guard < 0:
        return True
    var = mp[record + F_VAR]
    if var >= 0:
        ws[mp[WS_ENV] + var] = at
    if at == start:
        return evaluate(mp, ws, mp[WS_STATE], guard) != 0
    mark = _logged(mp, ws)
    _place(mp, ws, start, at, code, table, _own(mp, table, at) if table >= 0 else -1)
    allowed = evaluate(mp, ws, mp[WS_CHILD], guard) != 0
    _undo(mp, ws, mark)
    return allowed


@njit(cache=True)
def _cell_steps(
    mp: np.ndarray, ws: np.ndarray, record: int, out: np.ndarray, found: int, start: int, at: int, code: int, top: int
) -> tuple:  # type: ignore[type-arg]
    """The steps of a one-cell piece on `at` (its first cell empty now), as
    SlideFamily._targets makes them: (found, the stack's height)."""
    s = mp[WS_STATE]
    mode = mp[record + F_MODE] - REPEATED
    for di in range(mp[record + F_DIRS_FROM], mp[record + F_DIRS_TO]):
        lo, hi = ray_range(mp, at, mp[mp[DIRECTIONS_USED] + di])
        for k in range(lo, hi):
            t = mp[k]
            if ws[s + t] != 0 and t != start:
                break
            found, top = _reached(mp, ws, record, out, found, start, t, code, -1, -1, top)
            if found < 0 or mode == STEP:
                break
        if found < 0:
            return found, top
    return found, top


@njit(cache=True)
def _block_steps(
    mp: np.ndarray, ws: np.ndarray, record: int, out: np.ndarray, found: int, start: int, at: int, table: int, top: int
) -> tuple:  # type: ignore[type-arg]
    """The steps of the block anchored on `at`, as _block_slides makes them from its first
    cells: a cell it moves onto must be empty, or its own where it is or where it was."""
    s = mp[WS_STATE]
    mode = mp[record + F_MODE] - REPEATED
    size = mp[table]
    first, own = _own(mp, table, start), _own(mp, table, at)
    step = own + size  # the first direction's steps
    for _ in range(mp[record + F_DIRS_FROM], mp[record + F_DIRS_TO]):
        steps = mp[step]
        for k in range(steps):
            moved = step + 1 + k * size
            free = True
            for m in range(size):
                t = mp[moved + m]
                if ws[s + t] != 0 and not _covers(mp, own, size, t) and not _covers(mp, first, size, t):
                    free = False
                    break
            if not free:
                break
            found, top = _reached(mp, ws, record, out, found, start, mp[moved], -1, table, moved, top)
            if found < 0:
                return found, top
            if mode == STEP:
                break
        step += 1 + steps * size
    return found, top


@njit(cache=True)
def _reached(
    mp: np.ndarray,
    ws: np.ndarray,
    record: int,
    out: np.ndarray,
    found: int,
    start: int,
    anchor: int,
    code: int,
    table: int,
    moved: int,
    top: int,
) -> tuple:  # type: ignore[type-arg]
    """The arrangement with the piece moved from `start` to `anchor` (a block: onto the
    cells listed at `moved`): where it was not reached before and the safety rules hold in
    it, a successor, and a cell to walk on from. (found, the stack's height)."""
    paths = mp[WS_PATHS]
    if ws[paths + 1 + anchor] == ws[paths]:
        return found, top
    mark = _logged(mp, ws)
    _place(mp, ws, start, anchor, code, table, moved)
    if not any_rules(mp) or ok(mp, ws, mp[WS_CHILD]):
        var = mp[record + F_VAR]
        if var >= 0:
            ws[mp[WS_ENV] + var] = start  # for the cost: the move starts there
        ws[mp[WS_START]] = start
        found = _emit(mp, ws, out, found, record)
        ws[paths + 1 + anchor] = ws[paths]
        ws[paths + 1 + mp[CELLS] + top] = anchor
        top += 1
    _undo(mp, ws, mark)
    return found, top


# ---- carries


@njit(cache=True)
def _loads_start(mp: np.ndarray, ws: np.ndarray, record: int, source: int) -> int:
    """The kinds of piece the carrier's place holds that may go aboard, with how many of
    each, in the workspace (kinds, counts, and the room left after each): how many kinds."""
    s, kinds = mp[WS_STATE], mp[WS_KINDS]
    stride = mp[PIECES] + 1
    only = mp[record + F_ONLY]
    offset = mp[mp[PLACE_OFFSET] + source]
    m = 0
    for code in range(1, mp[PIECES] + 1):
        n = ws[s + offset + code - 1]
        if n > 0 and (only < 0 or in_set(mp, only, code)):
            ws[kinds + m] = code
            ws[kinds + stride + m] = n
            m += 1
    room = kinds + 2 * stride
    ws[room + m] = 0
    for j in range(m - 1, -1, -1):
        ws[room + j] = ws[room + j + 1] + ws[kinds + stride + j]
    return m


@njit(cache=True)
def _first_load(mp: np.ndarray, ws: np.ndarray, m: int, size: int) -> None:
    """The first load of `size` pieces: as many of the first kind as there are, and so on.
    Python's combinations of the pieces give the loads (each once) in this order: the load
    whose kinds, listed in order, come first in the dictionary."""
    kinds, stride = mp[WS_KINDS], mp[PIECES] + 1
    chosen = kinds + 3 * stride
    left = size
    for j in range(m):
        take = min(ws[kinds + stride + j], left)
        ws[chosen + j] = take
        left -= take


@njit(cache=True)
def _next_load(mp: np.ndarray, ws: np.ndarray, m: int) -> bool:
    """The next load of the same size (one fewer of the last kind that can give one up, the
    rest filled from the left), or False after the last."""
    kinds, stride = mp[WS_KINDS], mp[PIECES] + 1
    counts, room, chosen = kinds + stride, kinds + 2 * stride, kinds + 3 * stride
    after = 0  # pieces chosen after position j
    for j in range(m - 1, -1, -1):
        if ws[chosen + j] > 0 and ws[room + j + 1] >= after + 1:
            ws[chosen + j] -= 1
            left = after + 1
            for k in range(j + 1, m):
                take = min(ws[counts + k], left)
                ws[chosen + k] = take
                left -= take
            return True
        after += ws[chosen + j]
    return False


@njit(cache=True)
def _load_into_bag(mp: np.ndarray, ws: np.ndarray, m: int) -> int:
    """The load chosen, as counts in the load's bag register (the other kinds are 0 since
    `_loads_start`); its key, for the answers remembered (see `_here_holds`)."""
    kinds, stride = mp[WS_KINDS], mp[PIECES] + 1
    load = mp[WS_BAGS] + LOAD_BAG * stride
    key = 0
    for j in range(m):
        code, n = ws[kinds + j], ws[kinds + 3 * stride + j]
        ws[load + code] = n
        key += n << mp[mp[MEMO_SHIFT] + code - 1]
    return key


@njit(cache=True, inline="always")
def _bag_key(mp: np.ndarray, ws: np.ndarray, s: int, place: int) -> int:
    """A place's contents (a bag) as the key of the answers remembered."""
    offset, shifts = mp[mp[PLACE_OFFSET] + place], mp[MEMO_SHIFT]
    key = 0
    for code in range(1, mp[PIECES] + 1):
        key += ws[s + offset + code - 1] << mp[shifts + code - 1]
    return key


@njit(cache=True)
def _load_has_with(mp: np.ndarray, ws: np.ndarray, record: int) -> bool:
    """Whether the load has one of each group the move names (`with`)."""
    load = mp[WS_BAGS] + LOAD_BAG * (mp[PIECES] + 1)
    for w in range(mp[record + F_WITH_FROM], mp[record + F_WITH_TO]):
        code_set = mp[mp[WITH_SETS] + w]
        met = False
        for k in range(mp[mp[SET_START] + code_set], mp[mp[SET_START] + code_set + 1]):
            if ws[load + mp[mp[SET_CODES] + k]] > 0:
                met = True
                break
        if not met:
            return False
    return True


@njit(cache=True, inline="always")
def _bag_rules(mp: np.ndarray, ws: np.ndarray, s: int, section: int, sign: int, place: int, key: int) -> bool:
    """The rules of a section (places or loads) on a bag as `here`, on the state at ws[s:]:
    the place's contents in the state before the move plus `sign` times the load
    (`place` >= 0), or the load alone (`place` < 0). `key` is that bag's key, where the
    answers are remembered (counts add up field by field in a key, none past its width)."""
    if mp[section + 1] == mp[section]:
        return True
    table = -1
    if (mp[MEMO_PLACES] if section == PLACE_RULES else mp[MEMO_LOADS]) == 1:
        table = mp[WS_MEMO] + (0 if section == PLACE_RULES else (mp[WS_SIZE] - mp[WS_MEMO]) // 2)
        known = ws[table + key]
        if known != 0:
            return bool(known == 1)
    stride = mp[PIECES] + 1
    here, load = mp[WS_BAGS] + HERE_BAG * stride, mp[WS_BAGS] + LOAD_BAG * stride
    before = mp[WS_STATE]
    for code in range(1, stride):
        have = ws[before + mp[mp[PLACE_OFFSET] + place] + code - 1] if place >= 0 else 0
        ws[here + code] = have + sign * ws[load + code] if place >= 0 else ws[load + code]
    holds = _all_hold(mp, ws, s, section)
    if table >= 0 and ws[mp[WS_ERR]] == 0:
        ws[table + key] = 1 if holds else 2
    return holds


@njit(cache=True)
def _carries(mp: np.ndarray, ws: np.ndarray, record: int, out: np.ndarray, found: int) -> int:
    """`carry LOW..HIGH in CARRIER`: every load from the carrier's place, in Python's order,
    along every route. As a family of its own (CarryFamily): the load and what stays behind
    are checked first, then the guard, then for each route the place reached and the rules
    on the whole state. As a general family's form: each load and route goes on to the
    actions once the rules on loads hold in the state it makes."""
    s, child = mp[WS_STATE], mp[WS_CHILD]
    form = mp[record + F_KIND] == GENERAL
    carrier = mp[record + F_CARRIER]
    source = counter_value(mp, ws, s, carrier)
    m = _loads_start(mp, ws, record, source)
    total = ws[mp[WS_KINDS] + 2 * (mp[PIECES] + 1)] if m > 0 else 0
    s_off = mp[mp[PLACE_OFFSET] + source]
    stride = mp[PIECES] + 1
    kinds, chosen = mp[WS_KINDS], mp[WS_KINDS] + 3 * stride
    load = mp[WS_BAGS] + LOAD_BAG * stride
    for code in range(stride):
        ws[load + code] = 0
    keyed = mp[MEMO_PLACES] == 1 or mp[MEMO_LOADS] == 1
    source_key = _bag_key(mp, ws, s, source) if keyed else 0
    mark = _logged(mp, ws)
    for size in range(mp[record + F_LOW], min(mp[record + F_HIGH], total) + 1):
        _first_load(mp, ws, m, size)
        while True:
            load_key = _load_into_bag(mp, ws, m)
            if _load_has_with(mp, ws, record) and (
                form
                or (
                    _bag_rules(mp, ws, s, LOAD_RULES, 0, -1, load_key)
                    and _bag_rules(mp, ws, s, PLACE_RULES, -1, source, source_key - load_key)
                    and _carry_guard(mp, ws, record)
                )
            ):
                for r in range(mp[mp[ROUTE_START] + source], mp[mp[ROUTE_START] + source + 1]):
                    target = mp[mp[ROUTE_TARGETS] + r]
                    if not form:
                        arrived_key = _bag_key(mp, ws, s, target) + load_key if keyed else 0
                        if not _bag_rules(mp, ws, s, PLACE_RULES, 1, target, arrived_key):
                            continue
                    t_off = mp[mp[PLACE_OFFSET] + target]
                    for j in range(m):
                        code, n = ws[kinds + j], ws[chosen + j]
                        if n:
                            _set(mp, ws, s_off + code - 1, ws[s + s_off + code - 1] - n)
                            _set(mp, ws, t_off + code - 1, ws[s + t_off + code - 1] + n)
                    _set_counter(mp, ws, carrier, target)
                    if form:
                        if _bag_rules(mp, ws, child, LOAD_RULES, 0, -1, load_key):
                            found = _choose(mp, ws, record, out, found)
                    elif _all_hold(mp, ws, child, STATE_RULES):
                        found = _emit(mp, ws, out, found, record)
                    _undo(mp, ws, mark)
                    if found < 0:
                        return found
            if not _next_load(mp, ws, m):
                break
    return found


@njit(cache=True, inline="always")
def _carry_guard(mp: np.ndarray, ws: np.ndarray, record: int) -> bool:
    guard = mp[record + F_GUARD]
    return guard < 0 or evaluate(mp, ws, mp[WS_STATE], guard) != 0


# ---- the general family: choose, check, change


@njit(cache=True, inline="always")
def _general(mp: np.ndarray, ws: np.ndarray, record: int, out: np.ndarray, found: int) -> int:
    """The form's choices, each going on to the variables the actions introduce."""
    form = mp[record + F_FORM]
    if mp[record + F_AMOUNTS] >= 0:
        return _placing(mp, ws, record, out, found)
    if form == FORM_NONE:
        return _choose(mp, ws, record, out, found)
    if form == FORM_SLIDE:
        return _slides(mp, ws, record, out, found)
    if form == FORM_CARRY:
        return _carries(mp, ws, record, out, found)
    mark = _logged(mp, ws)
    if mp[record + F_ANCHORS] < 0:
        for i in range(mp[record + F_INST_FROM], mp[record + F_INST_TO]):
            found = _placement(mp, ws, record, out, found, i, mark)
            if found < 0:
                return found
        return found
    picked = mp[WS_PICKED]
    for t in range(_picked(mp, ws, record)):
        found = _placement(mp, ws, record, out, found, ws[picked + t], mark)
        if found < 0:
            return found
    return found


@njit(cache=True, inline="always")
def _placement(mp: np.ndarray, ws: np.ndarray, record: int, out: np.ndarray, found: int, i: int, mark: int) -> int:
    """Placement i of a rewrite form, where it applies: its variables bound, then the rest of
    the move (`_choose`)."""
    if not _rewrite(mp, ws, i):
        return found
    ws[mp[WS_START]] = mp[mp[INSTANCE_KEY] + i]
    r = mp[INSTANCES] + i * INSTANCE
    env = mp[WS_ENV]
    for k in range(mp[r + 10], mp[r + 11]):
        ws[env + mp[mp[BINDS] + 2 * k]] = mp[mp[BINDS] + 2 * k + 1]
    found = _choose(mp, ws, record, out, found)
    _undo(mp, ws, mark)
    return found


@njit(cache=True, inline="always")
def _picked(mp: np.ndarray, ws: np.ndarray, record: int) -> int:
    """The placements of a rewrite form that may apply to the state (those anchored where it
    holds their anchor's value, and those that check no cell) into ws_picked, in their order
    (the order Python tries them in): how many."""
    s, cells, picked = mp[WS_STATE], mp[CELLS], mp[WS_PICKED]
    codes, items = mp[ANCHOR_CODES], mp[ANCHOR_ITEMS]
    table = mp[ANCHOR_START] + mp[record + F_ANCHORS]
    n = int64(0)
    first = mp[record + F_ANCHOR_CODES_FROM]
    for k in range(mp[record + F_ANCHOR_CODES_TO] - first):
        code = mp[codes + first + k]
        for cell in range(cells):
            if ws[s + cell] != code:
                continue
            group = table + k * cells + cell
            for g in range(mp[group], mp[group + 1]):
                ws[picked + n] = mp[items + g]
                n += 1
    for g in range(mp[record + F_LOOSE_FROM], mp[record + F_LOOSE_TO]):
        ws[picked + n] = mp[items + g]
        n += 1
    for a in range(1, n):  # a few placements: insertion sort
        value = ws[picked + a]
        b = a - 1
        while b >= 0 and ws[picked + b] > value:
            ws[picked + b + 1] = ws[picked + b]
            b -= 1
        ws[picked + b + 1] = value
    return n


@njit(cache=True, inline="always")
def _advanced(mp: np.ndarray, cell: int, k: int, direction: int, jumps: int) -> int:
    """Where a cursor on `cell` lands after k >= 0 steps (-1: off the board): along the
    order of the cells (no direction), or along a direction, from its table of jumps
    (`jumps` >= 0) or step by step, a walk round a loop cut short as `Direction.walk` does."""
    cells = mp[CELLS]
    if direction < 0:
        return cell + k if cell + k < cells else -1
    if jumps >= 0 and k <= cells:
        return int(mp[mp[JUMPS] + jumps + cell * (cells + 1) + k])
    steps = mp[NEXT_CELL] + direction * cells
    target = cell
    for _ in range(min(k, cells)):
        target = mp[steps + target]
        if target < 0:
            return -1
    if k <= cells:
        return int(target)
    loop, probe = 1, mp[steps + target]  # after `cells` steps the walk is on its loop (Direction.walk)
    while probe != target and probe >= 0:
        loop, probe = loop + 1, mp[steps + probe]
    for _ in range((k - cells) % loop):
        target = mp[steps + target]
    return int(target)


@njit(cache=True)
def _placing(mp: np.ndarray, ws: np.ndarray, record: int, out: np.ndarray, found: int) -> int:
    """`take ?t from BAG, put ?t at cursor, advance cursor by ?t (or N) [along D]`, as the
    Python engine runs it (GeneralFamily._placing_expander): no move where the cursor is
    off the board or its cell taken; else, for each piece in the bag, the guard, then the
    three changes at once (each piece's amount known in advance), then the safety rules."""
    s, env, cells = mp[WS_STATE], mp[WS_ENV], mp[CELLS]
    effects = mp[EFFECTS] + mp[record + F_EFFECTS_FROM] * EFFECT
    take, advance = effects, effects + 2 * EFFECT
    slot, bag = mp[take + 1], mp[mp[PLACE_OFFSET] + mp[take + 3]]
    counter, direction, jumps = mp[advance + 1], mp[advance + 3], mp[advance + 5]
    cell = counter_value(mp, ws, s, counter)
    if cell < 0 or ws[s + cell] != 0:
        return found
    guard, amounts = mp[record + F_GUARD], mp[AMOUNTS] + mp[record + F_AMOUNTS]
    checked = any_rules(mp)
    mark = _logged(mp, ws)
    for code in range(1, mp[PIECES] + 1):
        have = ws[s + bag + code - 1]
        if have == 0:
            continue
        ws[env + slot] = cells + code
        if guard >= 0 and evaluate(mp, ws, s, guard) == 0:
            continue
        target = _advanced(mp, cell, mp[amounts + code], direction, jumps)
        _set(mp, ws, bag + code - 1, have - 1)
        _set(mp, ws, cell, code)
        _set_counter(mp, ws, counter, target)
        if not checked or ok(mp, ws, mp[WS_CHILD]):
            found = _emit(mp, ws, out, found, record)
        _undo(mp, ws, mark)
        if found < 0:
            return found
    return found


@njit(cache=True, inline="always")
def _values(mp: np.ndarray, ws: np.ndarray, record: int, level: int) -> None:
    """The values the variable of this level can take in the state before the move."""
    s = mp[WS_STATE]
    v = mp[VARS] + 4 * (mp[record + F_VARS_FROM] + level)
    over, where, arg = mp[v + 1], mp[v + 2], mp[v + 3]
    values = mp[WS_VALUES] + level * mp[MOST_VALUES]
    n = 0
    if over == VAR_PLACE:
        for p in range(mp[PLACES]):
            ws[values + n] = p
            n += 1
    elif over == VAR_CELL:
        for c in range(mp[CELLS]):
            ws[values + n] = c
            n += 1
    elif over == VAR_COUNTER:
        for k in range(mp[NUMBER_COUNTERS], mp[NUMBER_COUNTERS + 1]):
            ws[values + n] = mp[k]
            n += 1
    else:
        kind, at = _where(mp, ws, s, where, arg)
        cells = mp[CELLS]
        if kind == LOC_CELL:
            if ws[s + at] != 0:
                ws[values] = at
                n = 1
        elif kind == LOC_PLACE:
            offset, length = mp[mp[PLACE_OFFSET] + at], mp[mp[PLACE_LENGTH] + at]
            if mp[mp[PLACE_STACK] + at]:
                for k in range(length - 1, -1, -1):
                    if ws[s + offset + k] != 0:
                        ws[values] = cells + ws[s + offset + k]
                        n = 1
                        break
            else:
                for i in range(length):
                    if ws[s + offset + i] != 0:
                        ws[values + n] = cells + i + 1
                        n += 1
    ws[mp[WS_COUNT] + level] = n


@njit(cache=True, inline="always")
def _where(mp: np.ndarray, ws: np.ndarray, s: int, where: int, arg: int) -> tuple:  # type: ignore[type-arg]
    """A location as (LOC_CELL or LOC_PLACE, index), or (-1, -1) where there is none (a
    cursor off the board)."""
    if where in (LOC_PLACE, LOC_CELL):
        return where, arg
    if where == LOC_CURSOR:
        cell = counter_value(mp, ws, s, arg)
        return (LOC_CELL, cell) if cell >= 0 else (-1, -1)
    value = ws[mp[WS_ENV] + arg]
    if value < 0:
        return -1, -1
    return (LOC_PLACE if where == LOC_VAR_PLACE else LOC_CELL), value


@njit(cache=True)
def _choose(mp: np.ndarray, ws: np.ndarray, record: int, out: np.ndarray, found: int) -> int:
    """Bind the variables the actions introduce one after the other (distinct places, cells
    and counters for distinct variables of one kind), and finish the move for each binding."""
    first, count = mp[record + F_VARS_FROM], mp[record + F_VARS_TO] - mp[record + F_VARS_FROM]
    if count == 0:
        return _finish(mp, ws, record, out, found)
    env, index, counts = mp[WS_ENV], mp[WS_INDEX], mp[WS_COUNT]
    most = mp[MOST_VALUES]
    level = int64(0)
    _values(mp, ws, record, level)
    ws[index] = 0
    while level >= 0:
        if ws[index + level] >= ws[counts + level]:
            level -= 1
            if level >= 0:
                ws[index + level] += 1
            continue
        v = mp[VARS] + 4 * (first + level)
        value = ws[mp[WS_VALUES] + level * most + ws[index + level]]
        taken = False
        if mp[v + 1] != VAR_TAKE:
            for j in range(level):
                w = mp[VARS] + 4 * (first + j)
                if mp[w + 1] == mp[v + 1] and ws[env + mp[w]] == value:
                    taken = True
                    break
        if taken:
            ws[index + level] += 1
            continue
        ws[env + mp[v]] = value
        if level == count - 1:
            found = _finish(mp, ws, record, out, found)
            if found < 0:
                return found
            ws[index + level] += 1
        else:
            level += 1
            _values(mp, ws, record, level)
            ws[index + level] = 0
    return found


@njit(cache=True)
def _finish(mp: np.ndarray, ws: np.ndarray, record: int, out: np.ndarray, found: int) -> int:
    """The lets and the guard on the state before the move, then the effects in order on the
    child (the state after the form's change), then the safety rules on the result."""
    s, env = mp[WS_STATE], mp[WS_ENV]
    for k in range(mp[record + F_LETS_FROM], mp[record + F_LETS_TO]):
        at = mp[LETS] + 2 * k
        ws[env + mp[at]] = evaluate(mp, ws, s, mp[at + 1])
    guard = mp[record + F_GUARD]
    if guard >= 0 and evaluate(mp, ws, s, guard) == 0:
        return found
    mark = _logged(mp, ws)
    possible = True
    for k in range(mp[record + F_EFFECTS_FROM], mp[record + F_EFFECTS_TO]):
        if not _effect(mp, ws, mp[EFFECTS] + k * EFFECT):
            possible = False
            break
    if (
        possible
        and (not any_rules(mp) or ok(mp, ws, mp[WS_CHILD]))
        and (mp[record + F_SAME_ALLOWED] == 1 or not _unchanged(mp, ws))
    ):
        found = _emit(mp, ws, out, found, record)
    _undo(mp, ws, mark)
    return found


@njit(cache=True, inline="always")
def _stack_height(ws: np.ndarray, at: int, length: int) -> int:
    """How many pieces a stack holds (its bytes, bottom first, padded with 0)."""
    for k in range(length - 1, -1, -1):
        if ws[at + k] != 0:
            return k + 1
    return 0


@njit(cache=True)
def _effect(mp: np.ndarray, ws: np.ndarray, e: int) -> bool:
    """One action, reading the state before the move and changing the child: whether the
    move is still possible."""
    s, new = mp[WS_STATE], mp[WS_CHILD]
    kind = mp[e]
    env, cells = mp[WS_ENV], mp[CELLS]
    if kind == EFFECT_TAKE:
        slot = mp[e + 1]
        where, at = _where(mp, ws, s, mp[e + 2], mp[e + 3])
        if where < 0:
            return False
        if where == LOC_CELL:
            if ws[new + at] == 0:
                return False
            _set(mp, ws, at, 0)
            return True
        code = code_of(mp, ws, s, ws[env + slot])
        offset = mp[mp[PLACE_OFFSET] + at]
        if mp[mp[PLACE_STACK] + at]:
            height = _stack_height(ws, new + offset, mp[mp[PLACE_LENGTH] + at])
            if height == 0 or ws[new + offset + height - 1] != code:
                return False
            _set(mp, ws, offset + height - 1, 0)
            return True
        if ws[new + offset + code - 1] == 0:
            return False
        _set(mp, ws, offset + code - 1, ws[new + offset + code - 1] - 1)
        return True
    if kind == EFFECT_PUT:
        where, arg, slot, fixed = mp[e + 1], mp[e + 2], mp[e + 3], mp[e + 4]
        if where == LOC_CURSOR:
            cell = counter_value(mp, ws, s, arg)
            if cell < 0 or ws[new + cell] != 0:
                return False
            if fixed >= 0:
                _set(mp, ws, cell, fixed)
            else:
                piece = ws[env + slot]
                _set(mp, ws, cell, piece - cells if piece >= cells else ws[s + piece])
            return True
        where, at = _where(mp, ws, s, where, arg)
        if where < 0:
            return False
        code = fixed if fixed >= 0 else code_of(mp, ws, s, ws[env + slot])
        if where == LOC_CELL:
            if ws[new + at] != 0:
                return False
            _set(mp, ws, at, code)
            return True
        offset, length = mp[mp[PLACE_OFFSET] + at], mp[mp[PLACE_LENGTH] + at]
        if mp[mp[PLACE_STACK] + at]:
            height = _stack_height(ws, new + offset, length)
            if height >= length:
                return False
            _set(mp, ws, offset + height, code)
            return True
        if ws[new + offset + code - 1] >= 255:
            return False
        _set(mp, ws, offset + code - 1, ws[new + offset + code - 1] + 1)
        return True
    if kind == EFFECT_ADVANCE:
        counter, amount, direction = mp[e + 1], mp[e + 2], mp[e + 3]
        cell = counter_value(mp, ws, s, counter)
        k = evaluate(mp, ws, s, amount)
        target = -1
        if cell >= 0:
            if direction < 0:
                target = cell + k if 0 <= cell + k < cells else -1
            elif k < 0:
                fail(ws, mp[WS_ERR], mp[e + 4], 1, k, 0)
                return False
            else:
                target = _advanced(mp, cell, k, direction, mp[e + 5])
        return _set_counter(mp, ws, counter, target)
    if kind == EFFECT_SET:
        counter, slot = mp[e + 1], mp[e + 2]
        which = counter if counter >= 0 else ws[env + slot]
        return _set_counter(mp, ws, which, evaluate(mp, ws, s, mp[e + 3]))
    if kind == EFFECT_CYCLE:  # what each cell of the cycles holds, to the next cell of its cycle
        pairs = mp[CYCLE_PAIRS]
        for k in range(mp[e + 1], mp[e + 2]):
            _set(mp, ws, mp[pairs + 2 * k + 1], ws[s + mp[pairs + 2 * k]])
        return True
    # a toggle: swap two codes on the cells around the anchor (no move where it does not fit)
    first, second, areas, anchor = mp[e + 1], mp[e + 2], mp[e + 3], ws[env + mp[e + 4]]
    if mp[mp[AREA_FITS] + areas + anchor] == 0:
        return False
    r = mp[AREA_START] + areas + anchor
    for k in range(mp[r], mp[r + 1]):
        c = mp[mp[AREAS] + k]
        if ws[new + c] == first:
            _set(mp, ws, c, second)
        elif ws[new + c] == second:
            _set(mp, ws, c, first)
    return True
