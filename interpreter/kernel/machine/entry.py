"""The machine's one entry point (see `kernel.machine.calls`): every op the searches ask of
a machine program, compiled once as a C-callable function, its address in ADDRESS. The
machine's functions take the program and the workspace as pointers, not arrays: numba passes
an array as a structure of seven words, and the machine's many small calls cost four to ten
times more that way. Importing this
module compiles the machine, or loads it from the cache: only `machine.assemble` does, when
a machine program is built."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import types

from ..compiling.jit import cfunc, njit
from . import machine, moves, records
from .calls import (
    ARGUMENTS,
    CANONICAL,
    ENTER,
    ESTIMATE,
    ESTIMATE_ENTERED,
    EXPAND,
    EXPAND_ENTERED,
    GOAL,
    GOAL_ENTERED,
    OP,
    UNPACK,
    WITH_COSTS,
    WITH_ORDERS,
    int64_pointer,
    uint64_pointer,
)


@njit(cache=True, inline="always")
def _unpack_input(mp: np.ndarray, ws: np.ndarray, at: int) -> None:
    """The input words, unpacked into ws[at:]."""
    fw, fs, fm, source = mp[records.FIELD_WORD], mp[records.FIELD_SHIFT], mp[records.FIELD_MASK], mp[records.WS_INPUT]
    for i in range(mp[records.SIZE]):
        ws[at + i] = np.int64((np.uint64(ws[source + mp[fw + i]]) >> np.uint64(mp[fs + i])) & np.uint64(mp[fm + i]))


@njit(cache=True, inline="always")
def _enter(mp: np.ndarray, ws: np.ndarray) -> None:
    """The input state becomes the state to expand: unpacked at ws_state, its words at ws_parent."""
    _unpack_input(mp, ws, mp[records.WS_STATE])
    source, parent = mp[records.WS_INPUT], mp[records.WS_PARENT]
    for w in range(mp[records.WORDS]):
        ws[parent + w] = ws[source + w]


@cfunc(types.int64(*([types.int64] * ARGUMENTS)), cache=True)
def _entry(flagged, mp_address, mp_length, ws_address, ws_length, out_address, rows, extra):  # type: ignore[no-untyped-def]
    mp: Any = int64_pointer(mp_address)  # type: ignore[call-arg]
    ws: Any = int64_pointer(ws_address)  # type: ignore[call-arg]
    op = flagged & OP
    if op in (EXPAND, EXPAND_ENTERED):
        if op == EXPAND:
            _enter(mp, ws)
        ws[mp[records.WS_ROWS]] = rows
        ws[mp[records.WS_COSTS]] = extra if flagged & WITH_COSTS else 0
        ws[mp[records.WS_ORDERS]] = extra if flagged & WITH_ORDERS else 0
        return moves.expand(mp, ws, uint64_pointer(out_address))  # type: ignore[call-arg]
    if op == CANONICAL:
        _unpack_input(mp, ws, mp[records.WS_CHILD])
        machine.canonical(mp, ws, mp[records.WS_CHILD], uint64_pointer(out_address))  # type: ignore[call-arg]
        return 0
    if op == ESTIMATE:
        _unpack_input(mp, ws, mp[records.WS_CHILD])
        return machine.evaluate(mp, ws, mp[records.WS_CHILD], mp[records.HEURISTIC])
    if op == ESTIMATE_ENTERED:
        return machine.evaluate(mp, ws, mp[records.WS_STATE], mp[records.HEURISTIC])
    if op == UNPACK:
        _enter(mp, ws)
        return 0
    if op in (ENTER, GOAL_ENTERED):
        if op == ENTER:
            _enter(mp, ws)
        goal = moves.is_goal(mp, ws, mp[records.WS_STATE])
    elif op == GOAL:
        _unpack_input(mp, ws, mp[records.WS_CHILD])
        goal = moves.is_goal(mp, ws, mp[records.WS_CHILD])
    else:
        return moves.FAILED  # no such op: cannot happen
    if ws[mp[records.WS_ERR]] != 0:
        return moves.FAILED
    return 1 if goal else 0


ADDRESS = int(_entry.address)
