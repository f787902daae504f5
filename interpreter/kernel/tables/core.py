"""The compiled kernel: fixed code, compiled once by numba and cached on disk, that runs a
puzzle given as integer tables. Nothing here depends on a spec: a spec only fills the tables
(`kernel.tables`), and no Python source is ever generated from one.

A state is one unsigned 64-bit word, `bits` bits per cell (cell c at bit c * bits). The
states found are kept in one array in the order they were found (so a breadth-first layer is
a range of it) and, where a solution is wanted, with the index of each state's parent. An
open-addressing hash table (linear probing, at most three quarters full) holds the states
themselves, so that finding a state already seen reads one place of memory; counting paths
adds each state's count, and a second table with the index of each state in the first.
Where a state has few bits (`direct` in `kernel.searches.breadth_first`), a bitmap with one
bit for every possible state takes the table's place: one bit a state, small enough to stay
in the processor's cache.

Each kernel call does a bounded amount of work and returns, so that the Python driver can
check the run's limits (time, memory, Ctrl-C), show progress, and grow the arrays.
"""

from __future__ import annotations

import numpy as np
from numba import uint64
from numba.extending import overload

from ..compiling.jit import njit
from ..machine import calls
from ..machine.moves import FAILED as MACHINE_FAILED

# what a call to `run_layer` stopped on
LAYER_DONE, BUDGET_SPENT, NEEDS_ROOM, GOAL_FOUND, COUNT_OVERFLOW, FAILED, OUT_FULL = 0, 1, 2, 3, 4, 5, 6
NO_PARENT = -1
EMPTY = uint64(0xFFFFFFFFFFFFFFFF)

# The puzzle is one array of integers, `prog`: prog[BITS] and prog[CELLS], then where each
# section starts (section s is prog[prog[s]:prog[s + 1]]), then the sections. One array
# rather than many keeps every successor call free of reference counting.
SECTIONS = (
    "key_codes",  # the rewrite instances, grouped as the Python engine groups them
    "group_start",
    "group_items",
    "unkeyed",
    "instances",  # each rewrite instance as INSTANCE words (see the offsets below)
    "same_a",  # pairs of cells that must hold the same
    "same_b",
    "copy_cell",  # cells given another cell's content
    "copy_source",
    "kinds",  # each other move family: slide (0) or toggle (1), and its number in its kind
    "numbers",
    "code_start",  # each slide family: the codes that move, its mode, its rays
    "codes",
    "modes",
    "directions",
    "ray_base",
    "ray_start",
    "ray_cells",
    "toggle_start",  # each toggle family: its toggles, each with its two codes and areas
    "first",
    "second",
    "area_base",
    "area_start",
    "area_cells",
    "fits",
    "exact",
    "area_xor",
)
BITS, CELLS = 0, 1
(
    KEY_CODES,
    GROUP_START,
    GROUP_ITEMS,
    UNKEYED,
    INSTANCES,
    SAME_A,
    SAME_B,
    COPY_CELL,
    COPY_SOURCE,
    KINDS,
    NUMBERS,
    CODE_START,
    CODES,
    MODES,
    DIRECTIONS,
    RAY_BASE,
    RAY_START,
    RAY_CELLS,
    TOGGLE_START,
    FIRST,
    SECOND,
    AREA_BASE,
    AREA_START,
    AREA_CELLS,
    FITS,
    EXACT,
    AREA_XOR,
) = range(2, 2 + len(SECTIONS))

# A rewrite instance's words: the cells that must hold a code (a mask and the value under it);
# the cells that must hold a piece (each one's low bits and top bit: see `_apply`); the codes
# it writes (a mask and a value); its equal pairs and its copies (ranges of their sections).
(
    CHECK_MASK,
    CHECK_VALUE,
    OCCUPIED_LOW,
    OCCUPIED_HIGH,
    WRITE_MASK,
    WRITE_VALUE,
    SAME_FROM,
    SAME_TO,
    COPY_FROM,
    COPY_TO,
) = range(10)
INSTANCE = 10


def program(bits: int, cells: int, sections: dict[str, list[int]]) -> np.ndarray:
    """The sections as one array, in the order of SECTIONS."""
    header = 2 + len(SECTIONS) + 1
    starts = [header]
    for name in SECTIONS:
        starts.append(starts[-1] + len(sections[name]))
    body = [value for name in SECTIONS for value in sections[name]]
    return np.array(
        [bits, cells, *starts, *body], dtype=np.int64
    )  # a free slot of the table: no state, whose top bit is always 0


@njit(cache=True, inline="always")
def _hash(state: np.uint64) -> np.uint64:
    z = state + uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> uint64(30))) * uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> uint64(27))) * uint64(0x94D049BB133111EB)
    return z ^ (z >> uint64(31))


@njit(cache=True, inline="always")
def home(keys: np.ndarray, state: np.uint64) -> np.uint64:
    """The slot where a state's search starts: the top half of its hash scaled to the table's
    size (a multiplication, so that the table may have any size below 2**32, not only
    powers of two, and grow by half rather than double)."""
    return ((_hash(state) >> uint64(32)) * uint64(len(keys))) >> uint64(32)


@njit(cache=True, inline="always")
def slot(keys: np.ndarray, state: np.uint64) -> int:
    """Where `state` is in the table, or the empty slot where it belongs."""
    return _slot_from(keys, state, home(keys, state))


@njit(cache=True, inline="always")
def _slot_from(keys: np.ndarray, state: np.uint64, at: np.uint64) -> int:
    """As `_slot`, from the state's home slot `at`."""
    size = uint64(len(keys))
    while True:
        key = keys[at]
        if key == EMPTY:
            return int(at)
        if key == state:
            return int(at)
        at += uint64(1)
        if at == size:
            at = uint64(0)


@njit(cache=True, inline="always")
def _bit(state: np.uint64) -> np.uint64:
    return uint64(1) << (state & uint64(63))


@njit(cache=True, inline="always")
def _known(keys: np.ndarray, seen: np.ndarray, state: np.uint64) -> bool:
    """Whether a state is in the bitmap `seen` (when there is one) or the table."""
    if len(seen):
        return bool(seen[state >> uint64(6)] & _bit(state) != uint64(0))
    return bool(keys[slot(keys, state)] != EMPTY)


@njit(cache=True)
def add(
    keys: np.ndarray, indices: np.ndarray, seen: np.ndarray, states: np.ndarray, count: int, state: np.uint64
) -> None:
    """Add a state known to be new, as state number `count`."""
    if len(seen):
        seen[state >> uint64(6)] |= _bit(state)
    else:
        at = slot(keys, state)
        keys[at] = state
        if len(indices):
            indices[at] = count
    states[count] = state


@njit(cache=True)
def rehash(keys: np.ndarray, indices: np.ndarray, states: np.ndarray, lo: int, count: int) -> None:
    """Fill the table with the states lo..count-1 (and nothing else)."""
    keys[:] = EMPTY
    for index in range(lo, count):
        at = slot(keys, states[index])
        keys[at] = states[index]
        if len(indices):
            indices[at] = index


@njit(cache=True)
def successors(state: np.uint64, prog: np.ndarray, out_states: np.ndarray, out_moves: np.ndarray) -> int:
    """The successors of `state`, in the order the Python engine gives them: for each key
    content (rarest first), each cell holding it in order, the rewrite instances keyed there;
    then the instances with no check; then each other move family in the spec's order.
    Returns how many were written to out_states / out_moves."""
    bits, cells = prog[BITS], prog[CELLS]
    mask = uint64((1 << bits) - 1)
    key_codes, group_start, group_items = prog[KEY_CODES], prog[GROUP_START], prog[GROUP_ITEMS]
    found = 0
    for k in range(prog[KEY_CODES + 1] - key_codes):
        code = uint64(prog[key_codes + k])
        for cell in range(cells):
            if (state >> uint64(cell * bits)) & mask != code:
                continue
            group = group_start + k * cells + cell
            for g in range(prog[group], prog[group + 1]):
                found = _apply(state, prog[group_items + g], prog, mask, out_states, out_moves, found)
    for g in range(prog[UNKEYED], prog[UNKEYED + 1]):
        found = _apply(state, prog[g], prog, mask, out_states, out_moves, found)
    kinds, numbers = prog[KINDS], prog[NUMBERS]
    for f in range(prog[KINDS + 1] - kinds):
        if prog[kinds + f] == 0:
            found = _slide(state, prog[numbers + f], prog, mask, out_states, out_moves, found)
        else:
            found = _toggle(state, prog[numbers + f], prog, mask, out_states, out_moves, found)
    return found


@njit(cache=True, inline="always")
def _slide(
    state: np.uint64,
    f: int,
    prog: np.ndarray,
    mask: np.uint64,
    out_states: np.ndarray,
    out_moves: np.ndarray,
    found: int,
) -> int:
    """One step or slide move, in the order Python tries it: each code that moves, each cell
    holding it, each direction, each cell along the ray."""
    bits, cells = prog[BITS], prog[CELLS]
    code_start, codes, ray_start, ray_cells = prog[CODE_START], prog[CODES], prog[RAY_START], prog[RAY_CELLS]
    mode, count, ray_base = prog[prog[MODES] + f], prog[prog[DIRECTIONS] + f], prog[prog[RAY_BASE] + f]
    for ci in range(prog[code_start + f], prog[code_start + f + 1]):
        code = uint64(prog[codes + ci])
        for cell in range(cells):
            if (state >> uint64(cell * bits)) & mask != code:
                continue
            emptied = state & ~(mask << uint64(cell * bits))
            for d in range(count):
                r = ray_start + ray_base + cell * count + d
                last = -1
                blocked = False
                for k in range(prog[r], prog[r + 1]):
                    target = prog[ray_cells + k]
                    if (state >> uint64(target * bits)) & mask != uint64(0):
                        blocked = True
                        break
                    if mode < 2:  # step or slide: every empty cell reached (step: the first)
                        out_states[found] = emptied | (code << uint64(target * bits))
                        out_moves[found] = -1
                        found += 1
                        if mode == 0:
                            break
                    last = target
                # until blocked: the last one only (by pieces: where a piece, not the edge, stopped it)
                if last >= 0 and (mode == 2 or (mode == 3 and blocked)):
                    out_states[found] = emptied | (code << uint64(last * bits))
                    out_moves[found] = -1
                    found += 1
    return found


@njit(cache=True, inline="always")
def _toggle(
    state: np.uint64,
    f: int,
    prog: np.ndarray,
    mask: np.uint64,
    out_states: np.ndarray,
    out_moves: np.ndarray,
    found: int,
) -> int:
    """One toggle move, from each anchor cell in order: each of its toggles swaps two codes
    on the cells around the anchor (no move where a shape does not fit, or nothing changes)."""
    bits, cells = prog[BITS], prog[CELLS]
    first, second, area_base, area_start = prog[FIRST], prog[SECOND], prog[AREA_BASE], prog[AREA_START]
    area_cells, fits, exact, area_xor = prog[AREA_CELLS], prog[FITS], prog[EXACT], prog[AREA_XOR]
    lo, hi = prog[prog[TOGGLE_START] + f], prog[prog[TOGGLE_START] + f + 1]
    for anchor in range(cells):
        child = state
        fitted = True
        for t in range(lo, hi):
            area = prog[area_base + t] + anchor
            if not prog[fits + area]:
                fitted = False
                break
            if prog[exact + t]:
                child ^= uint64(prog[area_xor + area])
                continue
            a, b = uint64(prog[first + t]), uint64(prog[second + t])
            for k in range(prog[area_start + area], prog[area_start + area + 1]):
                shift = uint64(prog[area_cells + k] * bits)
                code = (child >> shift) & mask
                if code == a:
                    child = (child & ~(mask << shift)) | (b << shift)
                elif code == b:
                    child = (child & ~(mask << shift)) | (a << shift)
        if fitted and child != state:
            out_states[found] = child
            out_moves[found] = -1
            found += 1
    return found


@njit(cache=True, inline="always")
def _apply(
    state: np.uint64,
    i: int,
    prog: np.ndarray,
    mask: np.uint64,
    out_states: np.ndarray,
    out_moves: np.ndarray,
    found: int,
) -> int:
    """Rewrite instance i, if it applies: its checks, occupied cells and equal pairs hold.
    A cell holds a piece when its field is not 0: adding its low bits to themselves (all but
    its top bit) carries into the top bit exactly when one of them is set, so one addition
    tests every cell the instance needs occupied."""
    bits = prog[BITS]
    r = prog[INSTANCES] + i * INSTANCE
    if state & uint64(prog[r + CHECK_MASK]) != uint64(prog[r + CHECK_VALUE]):
        return found
    low, high = uint64(prog[r + OCCUPIED_LOW]), uint64(prog[r + OCCUPIED_HIGH])
    if (state | ((state & low) + low)) & high != high:
        return found
    same_a, same_b = prog[SAME_A], prog[SAME_B]
    for j in range(prog[r + SAME_FROM], prog[r + SAME_TO]):
        if (state >> uint64(prog[same_a + j] * bits)) & mask != (state >> uint64(prog[same_b + j] * bits)) & mask:
            return found
    child = (state & ~uint64(prog[r + WRITE_MASK])) | uint64(prog[r + WRITE_VALUE])
    copy_cell, copy_source = prog[COPY_CELL], prog[COPY_SOURCE]
    for j in range(prog[r + COPY_FROM], prog[r + COPY_TO]):
        shift = uint64(prog[copy_cell + j] * bits)
        piece = (state >> uint64(prog[copy_source + j] * bits)) & mask
        child = (child & ~(mask << shift)) | (piece << shift)
    out_states[found] = child
    out_moves[found] = i
    return found + 1


# A puzzle of word tables has no machine program: NO_MACHINE, a 2D array, stands for none,
# so that numba compiles the functions below apart for each (the two array types), and a
# puzzle of word tables never waits for the machine to compile.
NO_MACHINE = np.zeros((0, 0), dtype=np.int64)


def expand_state(
    state: np.uint64, prog: np.ndarray, mp: np.ndarray, ws: np.ndarray, out: np.ndarray, moves: np.ndarray
) -> int:
    """A state's successors by the word tables (`prog`) or the machine (`mp`, with its
    workspace `ws`, called by its address: see `kernel.machine.calls`; then moves.FULL or
    FAILED may come back instead of a count)."""
    raise NotImplementedError("compiled by numba only")


@overload(expand_state)
def _expand_for(state, prog, mp, ws, out, moves):  # type: ignore[no-untyped-def]
    if mp.ndim == 2:
        return lambda state, prog, mp, ws, out, moves: successors(state, prog, out, moves)

    def on_machine(state, prog, mp, ws, out, moves):  # type: ignore[no-untyped-def]
        calls.put_word(mp, ws, state)
        return calls.expand(calls.EXPAND, mp, ws, out.reshape((len(out), 1)))

    return on_machine


def is_goal(state: np.uint64, mp: np.ndarray, ws: np.ndarray, mask: np.uint64, value: np.uint64) -> bool:
    """A goal state: a pattern of cells (a mask and the value under it), or the machine's
    goal test."""
    raise NotImplementedError("compiled by numba only")


@overload(is_goal)
def _is_goal_for(state, mp, ws, mask, value):  # type: ignore[no-untyped-def]
    if mp.ndim == 2:
        return lambda state, mp, ws, mask, value: state & mask == value

    def on_machine(state, mp, ws, mask, value):  # type: ignore[no-untyped-def]
        calls.put_word(mp, ws, state)
        return calls.call(calls.GOAL, mp, ws) == 1

    return on_machine


@njit(cache=True)
def run_layer(
    prog: np.ndarray,
    mp: np.ndarray,
    ws: np.ndarray,
    states: np.ndarray,
    keys: np.ndarray,
    indices: np.ndarray,
    seen: np.ndarray,
    parents: np.ndarray,
    ways: np.ndarray,
    ways_base: int,
    count: int,
    window: int,
    at: int,
    layer_end: int,
    budget: int,
    room: int,
    links: bool,
    stop_at_goal: bool,
    goal_mask: np.uint64,
    goal_value: np.uint64,
    keep: np.ndarray,
    out_states: np.ndarray,
    out_moves: np.ndarray,
) -> tuple:  # type: ignore[type-arg]
    """Expand the states of the current layer from `at` (up to `layer_end`), adding new ones
    after `count`. The table holds the states from `window` on (0: all of them); where the
    bitmap `seen` is given, it holds every state found instead (paths are not counted then).
    Stops when the layer is done, after `budget` states generated, when fewer than `room`
    free places are left in `states` (or in `ways`), or the table would be more than three
    quarters full (the driver grows them), at the first goal generated (`stop_at_goal`), or
    when a path count would overflow 64 bits. Paths are counted where `ways` is given (with
    `indices`): it holds the counts of the states from `ways_base` on, the layer expanded and
    the next (older counts are never read again). With `keep` (a symmetry, as `image` takes
    it), only the states that the symmetry leaves unchanged are kept. Returns
    (why, count, at, generated, goal index)."""
    generated = 0
    capacity = len(states)
    most = len(keys) // 4 * 3
    counting = len(ways) > 0
    direct = len(seen) > 0
    symmetric = keep.shape[0] > 0
    homes = np.empty(len(out_states) + 1, dtype=np.uint64)
    while at < layer_end:
        if generated >= budget:
            return BUDGET_SPENT, count, at, generated, -1
        if count + room > capacity or (not direct and count - window + room > most):
            return NEEDS_ROOM, count, at, generated, -1
        if counting and count - ways_base + room > len(ways):
            return NEEDS_ROOM, count, at, generated, -1
        n = expand_state(states[at], prog, mp, ws, out_states, out_moves)
        if n < 0:
            return (FAILED if n == MACHINE_FAILED else OUT_FULL), count, at, generated, -1
        if counting:
            n = _distinct(out_states, out_moves, n)
        generated += n + 1
        if direct:
            _touch_bits(seen, out_states, homes, n)
            for j in range(n):
                child = out_states[j]
                if symmetric and image(child, keep) != child:
                    continue
                word, bit = child >> uint64(6), _bit(child)
                if seen[word] & bit == uint64(0):
                    seen[word] |= bit
                    states[count] = child
                    if links:
                        parents[count] = at
                    count += 1
                    if stop_at_goal and is_goal(child, mp, ws, goal_mask, goal_value):
                        return GOAL_FOUND, count, at + 1, generated, count - 1
            at += 1
            continue
        _touch(keys, out_states, homes, n)
        for j in range(n):
            child = out_states[j]
            if symmetric and image(child, keep) != child:
                continue
            slot = _slot_from(keys, child, homes[j])
            if keys[slot] == EMPTY:
                keys[slot] = child
                states[count] = child
                if links:
                    parents[count] = at
                if counting:
                    indices[slot] = count
                    ways[count - ways_base] = ways[at - ways_base]
                count += 1
                if stop_at_goal and is_goal(child, mp, ws, goal_mask, goal_value):
                    return GOAL_FOUND, count, at + 1, generated, count - 1
            elif counting:
                index = indices[slot]
                if index >= layer_end:
                    had = ways[index - ways_base]
                    total = had + ways[at - ways_base]
                    if total < had:
                        return COUNT_OVERFLOW, count, at, generated, -1
                    ways[index - ways_base] = total
        at += 1
    return LAYER_DONE, count, at, generated, -1


@njit(cache=True, inline="always")
def _distinct(out_states: np.ndarray, out_moves: np.ndarray, n: int) -> int:
    """One entry per distinct successor, where it first appears, with the last move that gives
    it (as a Python dict built from the successors keeps them)."""
    kept = 0
    for j in range(n):
        seen = -1
        for k in range(kept):
            if out_states[k] == out_states[j]:
                seen = k
                break
        if seen >= 0:
            out_moves[seen] = out_moves[j]
        else:
            out_states[kept] = out_states[j]
            out_moves[kept] = out_moves[j]
            kept += 1
    return kept


@njit(cache=True)
def count_goals(
    states: np.ndarray,
    count: int,
    mp: np.ndarray,
    ws: np.ndarray,
    goal_mask: np.uint64,
    goal_value: np.uint64,
    lo: int,
) -> int:
    found = 0
    for i in range(lo, count):
        if is_goal(states[i], mp, ws, goal_mask, goal_value):
            found += 1
    return found


@njit(cache=True)
def first_goal(
    states: np.ndarray,
    lo: int,
    hi: int,
    mp: np.ndarray,
    ws: np.ndarray,
    goal_mask: np.uint64,
    goal_value: np.uint64,
) -> int:
    for i in range(lo, hi):
        if is_goal(states[i], mp, ws, goal_mask, goal_value):
            return i
    return -1


@njit(cache=True)
def sum_ways(
    states: np.ndarray,
    ways: np.ndarray,
    ways_base: int,
    lo: int,
    hi: int,
    mp: np.ndarray,
    ws: np.ndarray,
    goal_mask: np.uint64,
    goal_value: np.uint64,
) -> tuple:  # type: ignore[type-arg]
    """The path counts of the goal states in [lo, hi) (their counts from ways[lo - ways_base]
    on), and whether the sum overflowed."""
    total = uint64(0)
    for i in range(lo, hi):
        if is_goal(states[i], mp, ws, goal_mask, goal_value):
            following = total + ways[i - ways_base]
            if following < total:
                return total, True
            total = following
    return total, False


@njit(cache=True, inline="always")
def image(state: np.uint64, table: np.ndarray) -> np.uint64:
    """The state under a symmetry given as a table: row r says, for each value of the r-th
    chunk of the state (a few whole cells, at most 8 bits), where its contents go."""
    entries = table.shape[1]
    width = uint64(0)
    while (1 << width) < entries:
        width += uint64(1)
    chunk = uint64(entries - 1)
    out = uint64(0)
    for r in range(table.shape[0]):
        out |= table[r, (state >> (uint64(r) * width)) & chunk]
    return out


@njit(cache=True)
def count_classes(states: np.ndarray, keys: np.ndarray, seen: np.ndarray, count: int, group: np.ndarray) -> int:
    """The number of classes of the states found, two states being of one class when an
    element of the group (one `image` table per element) maps one to the other: each
    class counted once, at its least state found (a state none of whose smaller images was
    found)."""
    classes = 0
    for i in range(count):
        state = states[i]
        least = True
        for e in range(group.shape[0]):
            other = image(state, group[e])
            if other < state and _known(keys, seen, other):
                least = False
                break
        if least:
            classes += 1
    return classes


@njit(cache=True)
def closed_under(states: np.ndarray, keys: np.ndarray, seen: np.ndarray, count: int, symmetry: np.ndarray) -> bool:
    """Whether the symmetry maps every state found to a state found."""
    batch = 64
    images = np.empty(batch, dtype=np.uint64)
    homes = np.empty(batch + 1, dtype=np.uint64)
    for lo in range(0, count, batch):
        n = min(batch, count - lo)
        for k in range(n):
            images[k] = image(states[lo + k], symmetry)
        if len(seen):
            for k in range(n):
                if not _known(keys, seen, images[k]):
                    return False
        elif _all_found(keys, images, homes, n) >= 0:
            return False
    return True


@njit(cache=True, inline="always")
def _touch(keys: np.ndarray, wanted: np.ndarray, homes: np.ndarray, n: int) -> None:
    """Read the home slot of each of the n states wanted, before any lookup: the reads do
    not wait on each other, so their memory fetches overlap (the lookups then find them in
    the cache). What was read is kept in homes' last place, so that the reads are not left
    out by the compiler."""
    touched = uint64(0)
    for k in range(n):
        homes[k] = home(keys, wanted[k])
        touched |= keys[homes[k]]
    homes[len(homes) - 1] = touched


@njit(cache=True, inline="always")
def _touch_bits(seen: np.ndarray, wanted: np.ndarray, homes: np.ndarray, n: int) -> None:
    """As `_touch`, for the bitmap: read each state's word before any is tested."""
    touched = uint64(0)
    for k in range(n):
        touched |= seen[wanted[k] >> uint64(6)]
    homes[len(homes) - 1] = touched


@njit(cache=True, inline="always")
def _all_found(keys: np.ndarray, wanted: np.ndarray, homes: np.ndarray, n: int) -> int:
    """The first of the n states wanted that is not in the table, or -1."""
    _touch(keys, wanted, homes, n)
    for k in range(n):
        if keys[_slot_from(keys, wanted[k], homes[k])] == EMPTY:
            return k
    return -1


@njit(cache=True)
def moves_mapped(
    prog: np.ndarray,
    mp: np.ndarray,
    ws: np.ndarray,
    states: np.ndarray,
    count: int,
    symmetry: np.ndarray,
    mine: np.ndarray,
    theirs: np.ndarray,
    moves: np.ndarray,
) -> bool:
    """Whether, from every state found, the symmetry maps the moves onto the moves from the
    state's image (as sets of successors)."""
    for i in range(count):
        n = expand_state(states[i], prog, mp, ws, mine, moves)
        for j in range(n):
            mine[j] = image(mine[j], symmetry)
        m = expand_state(image(states[i], symmetry), prog, mp, ws, theirs, moves)
        a = np.unique(mine[:n])
        b = np.unique(theirs[:m])
        if len(a) != len(b) or not np.all(a == b):
            return False
    return True
