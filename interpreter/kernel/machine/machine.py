"""The kernel's machine: fixed code, compiled once by numba and cached, that runs a puzzle
given as a program of integers (`kernel.machine.program`): states unpacked from and packed
into 64-bit words, and expressions run as bytecode (`kernel.machine.bytecode`) on a stack of
integers. Nothing here depends on a spec, and no Python source is ever generated from one.

A state being worked on is unpacked into the workspace `ws`, one integer for each byte of
the Python engine's layout (cells, counters, places: `compiler.layout`), so that every rule
reads it as the Python evaluator reads its bytes. The workspace also holds the environment
of variables, the stack, the two bags an expression may look at (`here`, a carry's load), an
error found during the search (its number, and values for its message), and the scratch of
the move families (`kernel.machine.moves`). Every function takes the program `mp` and the
workspace, and finds its parts from the program's header, so that no array is ever taken
apart during a search.
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.extending import intrinsic
from numba.np.numpy_support import carray

from ...model.pieces import NO_WAY
from ..compiling.jit import njit
from .bytecode import (
    ABS,
    ACC_MAX,
    ACC_MIN,
    ADD,
    ALONE,
    AT_BAG,
    AT_PLACE,
    ATTR,
    CELL_AT,
    CELL_OF,
    CELL_ROW,
    CONTENT,
    COUNTER,
    COUNTER_BOUND,
    COUNTER_DYN,
    DEAD,
    DISPLACEMENT,
    DIV,
    EMPTY_AT_COUNTER,
    EMPTY_BAG,
    EMPTY_CELL,
    EMPTY_PIECE,
    EMPTY_PLACE,
    EMPTY_PLACE_AT,
    END,
    EQ,
    FAIL,
    FIRST,
    GE,
    GT,
    IN_LIST,
    INVERSIONS,
    IS_KIND,
    ITER_BAG,
    ITER_CELLS,
    ITER_LINE,
    ITER_LIST,
    ITER_PLACE,
    ITER_PLACES,
    ITER_RAY,
    ITER_TABLE,
    JUMP,
    JUMP_IF_FALSE,
    JUMP_IF_TRUE,
    LE,
    LOAD,
    LT,
    MAX2,
    MIN2,
    MISPLACED,
    MISSING,
    MOD,
    MUL,
    NE,
    NEG,
    NEXT,
    NEXT_ITEM,
    NOT,
    PATTERNS,
    PIECE_CONST,
    PIECE_ROW,
    POP,
    PUSH,
    RETURN_IF_FALSE,
    RETURN_IF_TRUE,
    SKIP_CELL,
    SKIP_PIECE,
    STORE,
    SUB,
    TOGETHER,
    TOP,
    UNREACHED,
    VALUE_OF,
    VALUE_OF_LOCAL,
    WIDTH,
)
from .records import (
    ATTRIBUTES,
    BASE,
    CELLS,
    CODE,
    CODE_SPACE,
    COL_OF,
    COLS,
    COUNTER_HIGH,
    COUNTER_LOW,
    COUNTER_OFFSET,
    COUNTER_WIDTH,
    FIELD_SHIFT,
    FIELD_WORD,
    FRAME,
    NEXT_CELL,
    NONE,
    PIECES,
    PLACE_LENGTH,
    PLACE_OFFSET,
    PLACE_STACK,
    PLACES,
    RAY_CELLS,
    RAY_START,
    ROW_OF,
    ROWS,
    SET_CODES,
    SET_MEMBER,
    SET_START,
    SIZE,
    SYM_CODES,
    SYM_SOURCE,
    SYM_TRANSLATE,
    SYMMETRIES,
    VALUES,
    WORDS,
    WS_BAGS,
    WS_ENV,
    WS_ERR,
    WS_IMAGE,
    WS_SIZE,
    WS_STACK,
    WS_TRIAL,
)


def workspace(mp: np.ndarray) -> np.ndarray:
    return np.zeros(int(mp[WS_SIZE]), dtype=np.int64)


# ---- arrays that are not reference counted


@intrinsic
def _pointer(typingctx, address, like):  # type: ignore[no-untyped-def]
    """An address as a pointer to the items of arrays like `like`."""
    signature = types.CPointer(like.dtype)(address, like)

    def codegen(context, builder, sig, args):  # type: ignore[no-untyped-def]
        return builder.inttoptr(args[0], context.get_value_type(sig.return_type))

    return signature, codegen


@njit(cache=True, inline="always")
def unowned(array: np.ndarray) -> np.ndarray:
    """A view of an array's memory that numba does not reference-count: passing it from
    function to function costs no atomic operations. The array itself must outlive it (the
    search functions take the arrays as arguments and make their views on entry)."""
    return carray(_pointer(array.ctypes.data, array), array.shape)  # type: ignore[call-arg]


# ---- the workspace


@njit(cache=True, inline="always")
def pack(mp: np.ndarray, ws: np.ndarray, at: int, words: int) -> None:
    """The state unpacked at ws[at:], packed into ws[words:] (as signed words)."""
    fw, fs = mp[FIELD_WORD], mp[FIELD_SHIFT]
    for w in range(mp[WORDS]):
        ws[words + w] = 0
    for i in range(mp[SIZE]):
        ws[words + mp[fw + i]] |= ws[at + i] << mp[fs + i]


@njit(cache=True)
def canonical(mp: np.ndarray, ws: np.ndarray, s: int, out: np.ndarray) -> None:
    """The least, word by word, of the state at ws[s:] (unpacked) and its images under the
    symmetry group (see program._symmetries), packed into out[0:words]. Two states have the
    same canonical form exactly when one is an image of the other, as with Python's
    `SymmetryGroup.canonical` (whose representative may be another of the class)."""
    size, words = mp[SIZE], mp[WORDS]
    image, trial = mp[WS_IMAGE], mp[WS_TRIAL]
    pack(mp, ws, s, trial)
    for w in range(words):
        out[w] = np.uint64(ws[trial + w])
    for e in range(mp[SYMMETRIES]):
        source, translate = mp[SYM_SOURCE] + e * size, mp[SYM_TRANSLATE] + e * size
        codes = mp[SYM_CODES] + e * CODE_SPACE
        for f in range(size):
            value = ws[s + mp[source + f]]
            ws[image + f] = mp[codes + value] if mp[translate + f] else value
        pack(mp, ws, image, trial)
        for w in range(words):
            candidate = np.uint64(ws[trial + w])
            if candidate != out[w]:
                if candidate < out[w]:
                    for k in range(words):
                        out[k] = np.uint64(ws[trial + k])
                break


@njit(cache=True, inline="always")
def copy(ws: np.ndarray, source: int, target: int, size: int) -> None:
    for i in range(size):
        ws[target + i] = ws[source + i]


# ---- what a state holds


@njit(cache=True, inline="always")
def counter_value(mp: np.ndarray, ws: np.ndarray, s: int, c: int) -> int:
    """A counter's value (a cursor: its cell, or -1 off the board)."""
    offset, width = mp[mp[COUNTER_OFFSET] + c], mp[mp[COUNTER_WIDTH] + c]
    raw = 0
    for k in range(width):
        raw |= ws[s + offset + k] << (8 * k)
    return int(raw + mp[mp[COUNTER_LOW] + c])


@njit(cache=True, inline="always")
def code_of(mp: np.ndarray, ws: np.ndarray, s: int, piece: int) -> int:
    """The piece code of a piece value (0 for none)."""
    cells = mp[CELLS]
    if piece < 0:
        return 0
    if piece < cells:
        return int(mp[mp[BASE] + ws[s + piece]])
    return int(piece - cells)


@njit(cache=True, inline="always")
def bag_count(mp: np.ndarray, ws: np.ndarray, s: int, place: int, code: int) -> int:
    """How many pieces of a code a place holds (a stack's are counted)."""
    offset = mp[mp[PLACE_OFFSET] + place]
    if mp[mp[PLACE_STACK] + place] == 0:
        return int(ws[s + offset + code - 1])
    n = 0
    for k in range(mp[mp[PLACE_LENGTH] + place]):
        if ws[s + offset + k] == code:
            n += 1
    return n


@njit(cache=True, inline="always")
def fill_bag(mp: np.ndarray, ws: np.ndarray, s: int, place: int, register: int) -> None:
    """Copy a place's counts into a bag register (what `here` reads)."""
    bags = mp[WS_BAGS] + register * (mp[PIECES] + 1)
    for code in range(1, mp[PIECES] + 1):
        ws[bags + code] = bag_count(mp, ws, s, place, code)


@njit(cache=True, inline="always")
def place_of(mp: np.ndarray, ws: np.ndarray, s: int, piece: int) -> int:
    """The first place holding a piece that is in the places, or -1."""
    cells = mp[CELLS]
    if piece < cells:
        return NONE
    for p in range(mp[PLACES]):
        if bag_count(mp, ws, s, p, piece - cells) > 0:
            return p
    return NONE


@njit(cache=True, inline="always")
def in_set(mp: np.ndarray, code_set: int, code: int) -> bool:
    if code < 0 or code >= 256:
        return False
    return bool(mp[mp[SET_MEMBER] + code_set * 256 + code] != 0)


@njit(cache=True, inline="always")
def ray_range(mp: np.ndarray, cell: int, direction: int) -> tuple:  # type: ignore[type-arg]
    """Where in ray_cells the ray from a cell along a direction is (empty from no cell)."""
    if cell < 0:
        return 0, 0
    r = mp[RAY_START] + direction * mp[CELLS] + cell
    return mp[RAY_CELLS] + mp[r], mp[RAY_CELLS] + mp[r + 1]


@njit(cache=True, inline="always")
def fail(ws: np.ndarray, errors: int, error: int, count: int, v0: int, v1: int) -> None:
    """Record the first error of a search: its number (from 1), and `count` values for its
    message."""
    if ws[errors] == 0:
        ws[errors] = error + 1
        ws[errors + 1] = count
        ws[errors + 2] = v0
        ws[errors + 3] = v1


# ---- expressions


@njit(cache=True)
def evaluate(mp: np.ndarray, ws: np.ndarray, s: int, pc: int) -> int:
    """Run the bytecode from instruction pc on the state at ws[s:], and return its value.
    An error (a division by zero, a cell off the board, ...) is recorded in the workspace
    and 0 returned: callers look at ws[ws_err] when they are done. Every branch tests the
    opcode for equality only, so that the compiler makes one jump table of them."""
    code = mp[CODE]
    env = mp[WS_ENV]
    errors = mp[WS_ERR]
    top = mp[WS_STACK] - 1  # the last value pushed
    while True:
        at = code + pc * WIDTH
        op, a = mp[at], mp[at + 1]
        pc += 1
        if op == END:
            return int(ws[top])
        elif op == PUSH:
            top += 1
            ws[top] = a
        elif op == LOAD:
            top += 1
            ws[top] = ws[env + a]
        elif op == STORE:
            ws[env + a] = ws[top]
            top -= 1
        elif op == POP:
            top -= 1
        elif op == JUMP:
            pc = a
        elif op == JUMP_IF_FALSE:
            top -= 1
            if ws[top + 1] == 0:
                pc = a
        elif op == JUMP_IF_TRUE:
            top -= 1
            if ws[top + 1] != 0:
                pc = a
        elif op == ADD:
            top -= 1
            ws[top] += ws[top + 1]
        elif op == SUB:
            top -= 1
            ws[top] -= ws[top + 1]
        elif op == MUL:
            top -= 1
            ws[top] *= ws[top + 1]
        elif op == DIV:
            top -= 1
            if ws[top + 1] == 0:
                fail(ws, errors, a, 0, 0, 0)
                return 0
            ws[top] //= ws[top + 1]  # as in Python: rounded down (numba keeps Python's meaning)
        elif op == MOD:
            top -= 1
            if ws[top + 1] == 0:
                fail(ws, errors, a, 0, 0, 0)
                return 0
            ws[top] %= ws[top + 1]  # the remainder with the divisor's sign, as in Python
        elif op == NEG:
            ws[top] = -ws[top]
        elif op == NOT:
            ws[top] = 1 if ws[top] == 0 else 0
        elif op == EQ:
            top -= 1
            ws[top] = 1 if ws[top] == ws[top + 1] else 0
        elif op == NE:
            top -= 1
            ws[top] = 1 if ws[top] != ws[top + 1] else 0
        elif op == LT:
            top -= 1
            ws[top] = 1 if ws[top] < ws[top + 1] else 0
        elif op == LE:
            top -= 1
            ws[top] = 1 if ws[top] <= ws[top + 1] else 0
        elif op == GT:
            top -= 1
            ws[top] = 1 if ws[top] > ws[top + 1] else 0
        elif op == GE:
            top -= 1
            ws[top] = 1 if ws[top] >= ws[top + 1] else 0
        elif op == ABS:
            ws[top] = abs(ws[top])
        elif op == MIN2:
            top -= 1
            ws[top] = min(ws[top], ws[top + 1])
        elif op == MAX2:
            top -= 1
            ws[top] = max(ws[top], ws[top + 1])
        elif op == COUNTER:
            top += 1
            ws[top] = counter_value(mp, ws, s, a)
        elif op == EMPTY_AT_COUNTER:
            cell = counter_value(mp, ws, s, a)
            top += 1
            ws[top] = 1 if cell >= 0 and ws[s + cell] == 0 else 0
        elif op == EMPTY_PLACE_AT:
            top += 1
            ws[top] = _place_empty(mp, ws, s, a)
        elif op == EMPTY_PLACE:
            ws[top] = _place_empty(mp, ws, s, ws[top])
        elif op == EMPTY_CELL:
            cell = ws[top]
            ws[top] = 1 if cell >= 0 and ws[s + cell] == 0 else 0
        elif op == EMPTY_PIECE:
            ws[top] = 1 if ws[top] < 0 else 0
        elif op == VALUE_OF_LOCAL:
            found = mp[mp[ATTRIBUTES] + mp[at + 3] * (mp[PIECES] + 1) + code_of(mp, ws, s, ws[env + a])]
            if found == MISSING:
                fail(ws, errors, mp[at + 2], 0, 0, 0)
                return 0
            top += 1
            ws[top] = found
        elif op == NEXT_ITEM:
            if not _next_item(mp, ws, s, env + a, mp[at + 2]):
                pc = mp[at + 3]
        elif op == RETURN_IF_TRUE:
            top -= 1
            if ws[top + 1] != 0:
                return int(a)
        elif op == RETURN_IF_FALSE:
            top -= 1
            if ws[top + 1] == 0:
                return int(a)
        else:
            top, pc = _rare(mp, ws, s, op, a, mp[at + 2], mp[at + 3], top, pc)
            if top < 0:
                return 0


@njit(cache=True)
def _rare(mp: np.ndarray, ws: np.ndarray, s: int, op: int, a: int, b: int, c: int, top: int, pc: int) -> tuple:  # type: ignore[type-arg]
    """The instructions met less often (a separate function keeps `evaluate` small): the new
    (top, pc), or top -1 after an error."""
    env = mp[WS_ENV]
    errors = mp[WS_ERR]
    cells = mp[CELLS]
    if op == EMPTY_BAG:
        bags = mp[WS_BAGS] + a * (mp[PIECES] + 1)
        empty = 1
        for k in range(1, mp[PIECES] + 1):
            if ws[bags + k] != 0:
                empty = 0
                break
        top += 1
        ws[top] = empty
    elif op == IS_KIND:
        ws[top] = 1 if in_set(mp, a, code_of(mp, ws, s, ws[top])) else 0
    elif op == CONTENT:
        cell = ws[top]
        ws[top] = NONE if cell < 0 or ws[s + cell] == 0 else cell
    elif op == CELL_OF:
        piece = ws[top]
        ws[top] = piece if 0 <= piece < cells else NONE
    elif op == PIECE_CONST:
        found = NONE
        for cell in range(cells):
            if ws[s + cell] == a:
                found = cell
                break
        if found < 0:
            for p in range(mp[PLACES]):
                if bag_count(mp, ws, s, p, a) > 0:
                    found = cells + a
                    break
        top += 1
        ws[top] = found
    elif op in (VALUE_OF, ATTR):
        table = b if op == VALUE_OF else a
        error = a if op == VALUE_OF else b
        found = mp[mp[ATTRIBUTES] + table * (mp[PIECES] + 1) + code_of(mp, ws, s, ws[top])]
        if found == MISSING:
            fail(ws, errors, error, 0, 0, 0)
            return -1, pc
        ws[top] = found
    elif op == IN_LIST:
        top -= 1
        items, x = mp[VALUES] + ws[top + 1], ws[top]
        member = 0
        for k in range(mp[items]):
            if mp[items + 1 + k] == x:
                member = 1
                break
        ws[top] = member
    elif op == COUNTER_DYN:
        ws[top] = counter_value(mp, ws, s, ws[top])
    elif op == COUNTER_BOUND:
        ws[top] = mp[(mp[COUNTER_HIGH] if a == 1 else mp[COUNTER_LOW]) + ws[top]]
    elif op == CELL_AT:
        if a == 1:
            row, col = 1, ws[top]
        else:
            top -= 1
            row, col = ws[top], ws[top + 1]
        found = NONE
        if 1 <= row <= mp[ROWS] and 1 <= col <= mp[COLS]:
            found = mp[mp[FRAME] + (row - 1) * mp[COLS] + col - 1]
        if found < 0:
            fail(ws, errors, b, a, row if a == 2 else col, col)
            return -1, pc
        ws[top] = found
    elif op in (PIECE_ROW, CELL_ROW):
        at = ws[top]
        if not (0 <= at < cells if op == PIECE_ROW else at >= 0):
            fail(ws, errors, b, 0, 0, 0)
            return -1, pc
        ws[top] = mp[(mp[COL_OF] if a == 1 else mp[ROW_OF]) + at]
    elif op == AT_BAG:
        piece = ws[top]
        inside = 0
        if piece >= cells and ws[mp[WS_BAGS] + a * (mp[PIECES] + 1) + piece - cells] > 0:
            inside = 1
        ws[top] = inside
    elif op == AT_PLACE:
        top -= 1
        piece, place = ws[top], ws[top + 1]
        ws[top] = 1 if piece >= cells and bag_count(mp, ws, s, place, piece - cells) > 0 else 0
    elif op == FIRST:
        top -= 1
        lo, hi = ray_range(mp, ws[top], ws[top + 1])
        found = NONE
        for k in range(lo, hi):
            if ws[s + mp[k]] != 0:
                found = mp[k]
                break
        ws[top] = found
    elif op == NEXT:
        top -= 1
        cell = ws[top]
        ws[top] = NONE if cell < 0 else mp[mp[NEXT_CELL] + ws[top + 1] * cells + cell]
    elif op == TOP:
        place = ws[top]
        offset, length = mp[mp[PLACE_OFFSET] + place], mp[mp[PLACE_LENGTH] + place]
        found = NONE
        for k in range(length - 1, -1, -1):
            if ws[s + offset + k] != 0:
                found = cells + ws[s + offset + k]
                break
        ws[top] = found
    elif op == TOGETHER:
        first = place_of(mp, ws, s, ws[top - a + 1])
        together = 1
        for k in range(top - a + 2, top + 1):
            if place_of(mp, ws, s, ws[k]) != first:
                together = 0
        top -= a - 1
        ws[top] = together
    elif op == MISPLACED:
        pairs = mp[VALUES] + a
        n = 0
        for k in range(mp[pairs]):
            if ws[s + mp[pairs + 1 + 2 * k]] != mp[pairs + 2 + 2 * k]:
                n += 1
        top += 1
        ws[top] = n
    elif op == INVERSIONS:
        rank = mp[VALUES] + a
        n = 0
        for i in range(cells):
            if ws[s + i] == 0:
                continue
            r = mp[rank + ws[s + i]]
            for j in range(i):
                if ws[s + j] != 0 and mp[rank + ws[s + j]] >= r:
                    n += 1
        top += 1
        ws[top] = n
    elif op == PATTERNS:
        top += 1
        ws[top] = _patterns(mp, ws, s, mp[VALUES] + a, env + b, cells)
    elif op == ALONE:
        top += 1
        ws[top] = _pieces(mp, ws, s, mp[VALUES] + a, env, cells)
    elif op == DISPLACEMENT:
        far = mp[VALUES] + a
        n = 0
        for i in range(cells):
            if ws[s + i] != 0:
                n += mp[far + ws[s + i] * cells + i]
        top += 1
        ws[top] = n
    elif op == SKIP_CELL:
        cell = ws[env + b]
        if not (cell >= 0 and in_set(mp, a, mp[mp[BASE] + ws[s + cell]])):
            pc = c
    elif op == SKIP_PIECE:
        if not in_set(mp, a, code_of(mp, ws, s, ws[env + b])):
            pc = c
    elif op in (ACC_MIN, ACC_MAX):
        value = ws[top]
        top -= 1
        if ws[env + a + 1] == 0 or (value < ws[env + a] if op == ACC_MIN else value > ws[env + a]):
            ws[env + a] = value
            ws[env + a + 1] = 1
    elif op == FAIL:
        fail(ws, errors, a, 0, 0, 0)
        return -1, pc
    elif op >= ITER_CELLS and op <= ITER_RAY:
        top = _start_loop(mp, ws, s, op, a, b, c, top)
    else:
        fail(ws, errors, 0, 0, 0, 0)  # cannot happen: the assembly emits no other opcode
        return -1, pc
    return top, pc


@njit(cache=True)
def _patterns(mp: np.ndarray, ws: np.ndarray, s: int, at: int, scratch: int, cells: int) -> int:
    """The estimate of the pattern databases laid out at `at` (`bytecode.Compiler._patterns`):
    the largest of the tables' estimates of the state and of its images through the
    puzzle's symmetries (`_seen`); DEAD where one says its pattern's goal cannot be reached."""
    tables, symmetries = mp[at], mp[at + 2]
    view = at + 3 + 4 * 256 + tables
    best = _seen(mp, ws, s, at, scratch, cells, -1)
    for _ in range(symmetries):
        if best == DEAD:
            return DEAD
        best = max(best, _seen(mp, ws, s, at, scratch, cells, view))
        view += cells + 256
    return best


@njit(cache=True, inline="always")
def _seen(mp: np.ndarray, ws: np.ndarray, s: int, at: int, scratch: int, cells: int, view: int) -> int:
    """The tables' estimate of the state seen through the symmetry laid out at `view` (-1:
    the state itself): each table's distance at the rank of its pieces' placement
    (`model.patterns`), all ranks counted in one reading of the cells, added up or the
    largest."""
    tables, additive = mp[at], mp[at + 1]
    codes = at + 3
    for t in range(2 * tables):
        ws[scratch + t] = 0
    for c in range(cells):
        code = ws[s + c] if view < 0 else mp[view + cells + ws[s + mp[view + c]]]
        entry = codes + 4 * code
        t = mp[entry]
        if t >= 0:
            seen = ws[scratch + 2 * t + 1]
            ws[scratch + 2 * t] += (c - _bits(seen & mp[entry + 1])) * mp[entry + 3]
            ws[scratch + 2 * t + 1] = seen | mp[entry + 2]
    offsets = codes + 4 * 256
    total = 0
    for t in range(tables):
        rank = ws[scratch + 2 * t]
        words = mp[VALUES] + mp[offsets + t]
        value = (mp[words + (rank >> 3)] >> ((rank & 7) * 8)) & 255
        if value == UNREACHED:
            return DEAD
        total = total + value if additive else max(total, value)
    return total


@njit(cache=True)
def _pieces(mp: np.ndarray, ws: np.ndarray, s: int, at: int, env: int, cells: int) -> int:
    """The estimate of the one-piece tables laid out at `at` (`bytecode.Compiler._pieces`), as
    `model.pieces.PieceSet.each_part`: for each part of the cost and each table, the largest
    entry of its code's pieces or the sum of their own entries (the least assignment of the
    pieces to targets of their own, where the table has a table for each target), whichever
    is larger; the largest over the tables; the parts packed at their shifts (one part: shift
    0). The dead estimate laid out with them where a piece's entry is unreached, or where
    the pieces have no targets of their own."""
    tables, parts, dead, scratch = mp[at], mp[at + 1], mp[at + 2], env + mp[at + 3]
    values = mp[VALUES]
    packed = 0
    for p in range(parts):
        best = 0
        h = at + 5 + parts
        for _ in range(tables):
            code, k, count, targets = mp[h], mp[h + 1], mp[h + 2], mp[h + 3]
            moves, own, each = mp[h + 5 + p], mp[h + 5 + parts + p], mp[h + 5 + 2 * parts + p]
            kept = h + 5 + 3 * parts
            base = 0
            stride = 1
            for i in range(k):
                where = 0
                for c in range(cells):
                    if ws[s + c] == mp[kept + i]:
                        where = c
                        break
                base = base * cells + where
                stride *= cells
            most = 0
            total = 0
            row = 0
            table = stride * cells
            for b in range(cells):
                if ws[s + b] != code:
                    continue
                d = mp[values + moves + b * stride + base]
                if d < 0:
                    return int(dead)
                most = max(most, d)
                if own >= 0:
                    total += mp[values + own + b * stride + base]
                if each >= 0 and row < count:
                    for j in range(targets):
                        e = mp[values + each + j * table + b * stride + base]
                        ws[scratch + row * targets + j] = NO_WAY if e < 0 else e
                    row += 1
            if each >= 0 and row == count and row > 0:
                total = _least_assignment(ws, scratch, row, targets)
                if total >= NO_WAY:
                    return int(dead)
            best = max(best, most, total)
            h += 5 + 3 * parts + k
        packed += best << mp[at + 5 + p]
    if mp[at + 4] >= 0 and _frozen_stuck(mp, ws, s, at, env + mp[at + 4], cells):
        return int(dead)
    return packed


@njit(cache=True)
def _frozen_stuck(mp: np.ndarray, ws: np.ndarray, s: int, at: int, scratch: int, cells: int) -> bool:
    """`model.pieces.PieceSet.frozen_stuck` of the tables laid out at `at`: each cell holding
    a piece of a table with exits is marked with where those exits are (plus 1), and listed;
    a piece with an exit that no marked cell blocks is unmarked, until none is; whether a
    piece still marked is stuck where it stands."""
    tables, parts = mp[at], mp[at + 1]
    values = mp[VALUES]
    listed = scratch + cells
    pieces = 0
    stuck = False
    for c in range(cells):
        ws[scratch + c] = 0
    h = at + 5 + parts
    for _ in range(tables):
        code, k, exits = mp[h], mp[h + 1], mp[h + 4]
        if exits >= 0:
            for c in range(cells):
                if ws[s + c] == code:
                    ws[scratch + c] = values + exits + 1
                    ws[listed + pieces] = c
                    pieces += 1
                    stuck = stuck or mp[values + exits + c] != 0
        h += 5 + 3 * parts + k
    if not stuck:
        return False
    changed = True
    while changed:
        changed = False
        for i in range(pieces):
            b = ws[listed + i]
            laid = ws[scratch + b] - 1
            if laid < 0:
                continue
            way = laid + mp[laid + cells + b]
            end = laid + mp[laid + cells + b + 1]
            while way < end:
                checks = mp[way]
                blocked = False
                for j in range(checks):
                    c = mp[way + 1 + 2 * j]
                    if ws[scratch + c] != 0 and ws[s + c] != mp[way + 2 + 2 * j]:
                        blocked = True
                        break
                if not blocked:
                    ws[scratch + b] = 0
                    changed = True
                    break
                way += 1 + 2 * checks
    for i in range(pieces):
        b = ws[listed + i]
        laid = ws[scratch + b] - 1
        if laid >= 0 and mp[laid + b] != 0:
            return True
    return False


@njit(cache=True)
def _least_assignment(ws: np.ndarray, at: int, rows: int, columns: int) -> int:
    """`model.pieces.least_assignment` of the rows x columns costs at ws[at:] (row by row),
    its working arrays in the slots after them (`bytecode.assignment_slots`)."""
    far = 1 << 62
    u = at + rows * columns
    v = u + rows + 1
    owner = v + columns + 1
    way = owner + columns + 1
    least = way + columns + 1
    used = least + columns + 1
    for i in range(rows + 1):
        ws[u + i] = 0
    for j in range(columns + 1):
        ws[v + j] = 0
        ws[owner + j] = 0
        ws[way + j] = 0
    for i in range(1, rows + 1):
        ws[owner] = i
        j0 = 0
        for j in range(columns + 1):
            ws[least + j] = far
            ws[used + j] = 0
        while True:
            ws[used + j0] = 1
            i0 = ws[owner + j0]
            delta = far
            j1 = 0
            for j in range(1, columns + 1):
                if ws[used + j] == 0:
                    cur = ws[at + (i0 - 1) * columns + j - 1] - ws[u + i0] - ws[v + j]
                    if cur < ws[least + j]:
                        ws[least + j] = cur
                        ws[way + j] = j0
                    if ws[least + j] < delta:
                        delta = ws[least + j]
                        j1 = j
            for j in range(columns + 1):
                if ws[used + j] != 0:
                    ws[u + ws[owner + j]] += delta
                    ws[v + j] -= delta
                else:
                    ws[least + j] -= delta
            j0 = j1
            if ws[owner + j0] == 0:
                break
        while j0 != 0:
            j1 = ws[way + j0]
            ws[owner + j0] = ws[owner + j1]
            j0 = j1
    return int(-ws[v])


@njit(cache=True, inline="always")
def _bits(x: int) -> int:
    """How many bits of x are set (x below 2**32)."""
    x = x - ((x >> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
    return (((x + (x >> 4)) & 0x0F0F0F0F) * 0x01010101 & 0xFFFFFFFF) >> 24


@njit(cache=True, inline="always")
def _place_empty(mp: np.ndarray, ws: np.ndarray, s: int, place: int) -> int:
    offset = mp[mp[PLACE_OFFSET] + place]
    for k in range(mp[mp[PLACE_LENGTH] + place]):
        if ws[s + offset + k] != 0:
            return 0
    return 1


# the kinds of loop, kept in a loop's first hidden slot
LOOP_CELLS, LOOP_BAG, LOOP_PLACE, LOOP_PLACES, LOOP_RANGE = 0, 1, 2, 3, 4


@njit(cache=True)
def _start_loop(mp: np.ndarray, ws: np.ndarray, s: int, op: int, a: int, b: int, c: int, top: int) -> int:
    """Set up a loop's hidden slots (kind, i, j, k, weight) for NEXT_ITEM; pops what the
    loop's collection was computed from. Returns the new top of the stack."""
    h = mp[WS_ENV]
    if op == ITER_CELLS:  # by code, then cell: i the code's place in the set, j the cell
        h += b
        ws[h], ws[h + 1], ws[h + 2], ws[h + 3] = LOOP_CELLS, mp[mp[SET_START] + a], -1, a
    elif op == ITER_BAG:  # i: the next code's place in the set; k: the bag register
        h += c
        ws[h], ws[h + 1], ws[h + 2], ws[h + 3] = LOOP_BAG, mp[mp[SET_START] + b], a, b
    elif op == ITER_PLACE:  # the place popped; the codes of set a
        h += b
        ws[h], ws[h + 1], ws[h + 2], ws[h + 3] = LOOP_PLACE, mp[mp[SET_START] + a], ws[top], a
        top -= 1
    elif op == ITER_PLACES:  # j: the place, i: the code's place in the set
        h += b
        ws[h], ws[h + 1], ws[h + 2], ws[h + 3] = LOOP_PLACES, mp[mp[SET_START] + a], 0, a
    elif op == ITER_TABLE:  # a run of the values section: i the next, j the end
        h += c
        start = mp[VALUES] + a
        ws[h], ws[h + 1], ws[h + 2] = LOOP_RANGE, start + 1, start + 1 + mp[start]
    elif op in (ITER_LIST, ITER_LINE):
        h += b
        start = mp[VALUES] + ws[top]
        top -= 1
        ws[h], ws[h + 1], ws[h + 2] = LOOP_RANGE, start + 1, start + 1 + mp[start]
    else:  # ITER_RAY: a run of ray_cells
        h += b
        top -= 1
        lo, hi = ray_range(mp, ws[top], ws[top + 1])
        top -= 1
        ws[h], ws[h + 1], ws[h + 2] = LOOP_RANGE, lo, hi
    return top


@njit(cache=True)
def _next_item(mp: np.ndarray, ws: np.ndarray, s: int, h: int, slot: int) -> bool:
    """The loop's next item into env[slot] and its weight into hidden slot 4; False when
    there is none left."""
    env = mp[WS_ENV]
    kind = ws[h]
    cells = mp[CELLS]
    if kind == LOOP_RANGE:
        if ws[h + 1] >= ws[h + 2]:
            return False
        ws[env + slot] = mp[ws[h + 1]]
        ws[h + 1] += 1
        ws[h + 4] = 1
        return True
    end = mp[mp[SET_START] + ws[h + 3] + 1]
    if kind == LOOP_CELLS:
        while ws[h + 1] < end:
            code = mp[mp[SET_CODES] + ws[h + 1]]
            for cell in range(ws[h + 2] + 1, cells):
                if ws[s + cell] == code:
                    ws[h + 2] = cell
                    ws[env + slot] = cell
                    ws[h + 4] = 1
                    return True
            ws[h + 1] += 1
            ws[h + 2] = -1
        return False
    if kind == LOOP_BAG:
        bags = mp[WS_BAGS] + ws[h + 2] * (mp[PIECES] + 1)
        while ws[h + 1] < end:
            code = mp[mp[SET_CODES] + ws[h + 1]]
            ws[h + 1] += 1
            n = ws[bags + code]
            if n > 0:
                ws[env + slot] = cells + code
                ws[h + 4] = n
                return True
        return False
    if kind == LOOP_PLACE:
        return _next_in_place(mp, ws, s, h, slot, end)
    # LOOP_PLACES: each place in turn, each code of the set in it
    first = mp[mp[SET_START] + ws[h + 3]]
    while ws[h + 2] < mp[PLACES]:
        if _next_in_place(mp, ws, s, h, slot, end):
            return True
        ws[h + 2] += 1
        ws[h + 1] = first
    return False


@njit(cache=True, inline="always")
def _next_in_place(mp: np.ndarray, ws: np.ndarray, s: int, h: int, slot: int, end: int) -> bool:
    """The loop's next piece of the code set in place ws[h + 2], from the set's i-th code."""
    while ws[h + 1] < end:
        code = mp[mp[SET_CODES] + ws[h + 1]]
        ws[h + 1] += 1
        n = bag_count(mp, ws, s, ws[h + 2], code)
        if n > 0:
            ws[mp[WS_ENV] + slot] = mp[CELLS] + code
            ws[h + 4] = n
            return True
    return False
