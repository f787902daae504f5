"""The compiled kernel: fixed code, compiled once by numba and cached on disk, that runs a
puzzle given as integer tables. Nothing here depends on a spec: a spec only fills the tables
(`kernel.tables`), and no Python source is ever generated from one.

A state is one unsigned 64-bit word, `bits` bits per cell (cell c at bit c * bits). The
states found are kept in one array in the order they were found (so a breadth-first layer is
a range of it), with an open-addressing hash table of indices into that array (at most half
full) and, where a solution is wanted, the index of each state's parent; counting paths adds
each state's count.

Each kernel call does a bounded amount of work and returns, so that the Python driver can
check the run's limits (time, memory, Ctrl-C), show progress, and grow the arrays.
"""

from __future__ import annotations

import numpy as np
from numba import njit, uint64

# what a call to `run_layer` stopped on
LAYER_DONE, BUDGET_SPENT, NEEDS_ROOM, GOAL_FOUND, COUNT_OVERFLOW = 0, 1, 2, 3, 4
NO_PARENT = -1


@njit(cache=True, inline="always")
def _hash(state: np.uint64) -> np.uint64:
    z = state + uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> uint64(30))) * uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> uint64(27))) * uint64(0x94D049BB133111EB)
    return z ^ (z >> uint64(31))


@njit(cache=True)
def find_or_add(slots: np.ndarray, states: np.ndarray, count: int, state: np.uint64) -> int:
    """The index of `state` if already found; else -1 - its new index (`count`), added."""
    mask = uint64(len(slots) - 1)
    at = _hash(state) & mask
    while True:
        index = slots[at]
        if index < 0:
            slots[at] = count
            states[count] = state
            return -1 - count
        if states[index] == state:
            return index  # type: ignore[no-any-return]
        at = (at + uint64(1)) & mask


@njit(cache=True)
def rehash(slots: np.ndarray, states: np.ndarray, count: int) -> None:
    slots[:] = -1
    mask = uint64(len(slots) - 1)
    for index in range(count):
        at = _hash(states[index]) & mask
        while slots[at] >= 0:
            at = (at + uint64(1)) & mask
        slots[at] = index


@njit(cache=True)
def successors(
    state: np.uint64,
    tables: tuple,  # type: ignore[type-arg]
    out_states: np.ndarray,
    out_moves: np.ndarray,
) -> int:
    """The successors of `state`, in the order the Python tables give them: for each key
    content (rarest first), each cell holding it in order, the instances keyed there; then the
    instances with no check. Returns how many were written to out_states / out_moves."""
    bits, cells, key_codes, group_start, group_items, unkeyed = (
        tables[0],
        tables[1],
        tables[2],
        tables[3],
        tables[4],
        tables[5],
    )
    mask = uint64((1 << bits) - 1)
    found = 0
    for k in range(len(key_codes)):
        code = uint64(key_codes[k])
        for cell in range(cells):
            if (state >> uint64(cell * bits)) & mask != code:
                continue
            group = k * cells + cell
            for g in range(group_start[group], group_start[group + 1]):
                found = _apply(state, group_items[g], tables, mask, out_states, out_moves, found)
    for g in range(len(unkeyed)):
        found = _apply(state, unkeyed[g], tables, mask, out_states, out_moves, found)
    return _slide(state, tables, mask, out_states, out_moves, found)


@njit(cache=True)
def _slide(
    state: np.uint64,
    tables: tuple,  # type: ignore[type-arg]
    mask: np.uint64,
    out_states: np.ndarray,
    out_moves: np.ndarray,
    found: int,
) -> int:
    """The step and slide moves, in the order Python tries them: for each move, each code
    that moves, each cell holding it, each direction, each cell along the ray."""
    bits, cells = tables[0], tables[1]
    code_start, codes, modes, directions, ray_base, ray_start, ray_cells = (
        tables[20],
        tables[21],
        tables[22],
        tables[23],
        tables[24],
        tables[25],
        tables[26],
    )
    for f in range(len(modes)):
        mode, count = modes[f], directions[f]
        for ci in range(code_start[f], code_start[f + 1]):
            code = uint64(codes[ci])
            for cell in range(cells):
                if (state >> uint64(cell * bits)) & mask != code:
                    continue
                emptied = state & ~(mask << uint64(cell * bits))
                for d in range(count):
                    r = ray_base[f] + cell * count + d
                    last = -1
                    for k in range(ray_start[r], ray_start[r + 1]):
                        target = ray_cells[k]
                        if (state >> uint64(target * bits)) & mask != uint64(0):
                            break
                        if mode != 2:  # step or slide: every empty cell reached (step: the first)
                            out_states[found] = emptied | (code << uint64(target * bits))
                            out_moves[found] = -1
                            found += 1
                            if mode == 0:
                                break
                        last = target
                    if mode == 2 and last >= 0:  # until blocked: the last one only
                        out_states[found] = emptied | (code << uint64(last * bits))
                        out_moves[found] = -1
                        found += 1
    return found


@njit(cache=True, inline="always")
def _apply(
    state: np.uint64,
    i: int,
    tables: tuple,  # type: ignore[type-arg]
    mask: np.uint64,
    out_states: np.ndarray,
    out_moves: np.ndarray,
    found: int,
) -> int:
    bits = tables[0]
    check_start, check_cell, check_code = tables[6], tables[7], tables[8]
    occupied_start, occupied_cell = tables[9], tables[10]
    same_start, same_a, same_b = tables[11], tables[12], tables[13]
    write_start, write_cell, write_code = tables[14], tables[15], tables[16]
    copy_start, copy_cell, copy_source = tables[17], tables[18], tables[19]
    for j in range(check_start[i], check_start[i + 1]):
        if (state >> uint64(check_cell[j] * bits)) & mask != uint64(check_code[j]):
            return found
    for j in range(occupied_start[i], occupied_start[i + 1]):
        if (state >> uint64(occupied_cell[j] * bits)) & mask == uint64(0):
            return found
    for j in range(same_start[i], same_start[i + 1]):
        if (state >> uint64(same_a[j] * bits)) & mask != (state >> uint64(same_b[j] * bits)) & mask:
            return found
    child = state
    for j in range(write_start[i], write_start[i + 1]):
        shift = uint64(write_cell[j] * bits)
        child = (child & ~(mask << shift)) | (uint64(write_code[j]) << shift)
    for j in range(copy_start[i], copy_start[i + 1]):
        shift = uint64(copy_cell[j] * bits)
        piece = (state >> uint64(copy_source[j] * bits)) & mask
        child = (child & ~(mask << shift)) | (piece << shift)
    out_states[found] = child
    out_moves[found] = i
    return found + 1


@njit(cache=True)
def run_layer(
    tables: tuple,  # type: ignore[type-arg]
    states: np.ndarray,
    slots: np.ndarray,
    parents: np.ndarray,
    ways: np.ndarray,
    count: int,
    at: int,
    layer_end: int,
    budget: int,
    room: int,
    links: bool,
    counting: bool,
    stop_at_goal: bool,
    goal_mask: np.uint64,
    goal_value: np.uint64,
    keep_cells: np.ndarray,
    keep_codes: np.ndarray,
    out_states: np.ndarray,
    out_moves: np.ndarray,
) -> tuple:  # type: ignore[type-arg]
    """Expand the states of the current layer from `at` (up to `layer_end`), adding new ones
    after `count`. Stops when the layer is done, after `budget` states generated, when fewer
    than `room` free places are left (the driver grows the arrays), at the first goal
    generated (`stop_at_goal`), or when a path count would overflow 64 bits. With `keep_cells`
    (a symmetry: cell i goes to keep_cells[i], code c becomes keep_codes[c]), only the states
    that the symmetry leaves unchanged are kept. Returns (why, count, at, generated, goal index)."""
    generated = 0
    capacity = len(states)
    while at < layer_end:
        if generated >= budget:
            return BUDGET_SPENT, count, at, generated, -1
        if count + room > capacity or 2 * (count + room) > len(slots):
            return NEEDS_ROOM, count, at, generated, -1
        state = states[at]
        n = successors(state, tables, out_states, out_moves)
        if counting:
            n = _distinct(out_states, out_moves, n)
        generated += n + 1
        bits = tables[0]
        for j in range(n):
            child = out_states[j]
            if len(keep_cells) and image(child, bits, keep_cells, keep_codes) != child:
                continue
            index = find_or_add(slots, states, count, child)
            if index < 0:
                index = count
                count += 1
                if links:
                    parents[index] = at
                if counting:
                    ways[index] = ways[at]
                if stop_at_goal and child & goal_mask == goal_value:
                    return GOAL_FOUND, count, at + 1, generated, index
            elif counting and index >= layer_end:
                total = ways[index] + ways[at]
                if total < ways[index]:
                    return COUNT_OVERFLOW, count, at, generated, -1
                ways[index] = total
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
def count_goals(states: np.ndarray, count: int, goal_mask: np.uint64, goal_value: np.uint64, lo: int) -> int:
    found = 0
    for i in range(lo, count):
        if states[i] & goal_mask == goal_value:
            found += 1
    return found


@njit(cache=True)
def first_goal(states: np.ndarray, lo: int, hi: int, goal_mask: np.uint64, goal_value: np.uint64) -> int:
    for i in range(lo, hi):
        if states[i] & goal_mask == goal_value:
            return i
    return -1


@njit(cache=True)
def sum_ways(
    states: np.ndarray, ways: np.ndarray, lo: int, hi: int, goal_mask: np.uint64, goal_value: np.uint64
) -> tuple:  # type: ignore[type-arg]
    """The path counts of the goal states in [lo, hi), and whether the sum overflowed."""
    total = uint64(0)
    for i in range(lo, hi):
        if states[i] & goal_mask == goal_value:
            following = total + ways[i]
            if following < total:
                return total, True
            total = following
    return total, False


@njit(cache=True)
def image(state: np.uint64, bits: int, cells: np.ndarray, codes: np.ndarray) -> np.uint64:
    """The state under a symmetry: the content of cell i, translated, goes to cell cells[i]."""
    mask = uint64((1 << bits) - 1)
    out = uint64(0)
    for i in range(len(cells)):
        code = (state >> uint64(i * bits)) & mask
        out |= uint64(codes[code]) << uint64(cells[i] * bits)
    return out


@njit(cache=True)
def canonical_forms(states: np.ndarray, count: int, bits: int, cells: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """Each state's least image under the group (`cells`, `codes`: one row per element)."""
    out = np.empty(count, dtype=np.uint64)
    for i in range(count):
        best = states[i]
        for e in range(cells.shape[0]):
            other = image(states[i], bits, cells[e], codes[e])
            if other < best:
                best = other
        out[i] = best
    return out


@njit(cache=True)
def closed_under(
    states: np.ndarray, slots: np.ndarray, count: int, bits: int, cells: np.ndarray, codes: np.ndarray
) -> bool:
    """Whether the symmetry maps every state found to a state found."""
    mask = uint64(len(slots) - 1)
    for i in range(count):
        other = image(states[i], bits, cells, codes)
        at = _hash(other) & mask
        while True:
            index = slots[at]
            if index < 0:
                return False
            if states[index] == other:
                break
            at = (at + uint64(1)) & mask
    return True


@njit(cache=True)
def moves_mapped(
    tables: tuple,  # type: ignore[type-arg]
    states: np.ndarray,
    count: int,
    cells: np.ndarray,
    codes: np.ndarray,
    mine: np.ndarray,
    theirs: np.ndarray,
    moves: np.ndarray,
) -> bool:
    """Whether, from every state found, the symmetry maps the moves onto the moves from the
    state's image (as sets of successors)."""
    bits = tables[0]
    for i in range(count):
        n = successors(states[i], tables, mine, moves)
        for j in range(n):
            mine[j] = image(mine[j], bits, cells, codes)
        m = successors(image(states[i], bits, cells, codes), tables, theirs, moves)
        a = np.unique(mine[:n])
        b = np.unique(theirs[:m])
        if len(a) != len(b) or not np.all(a == b):
            return False
    return True
