"""How a search calls the machine (`kernel.machine.entry`): by the address in the program's
header.

Why an address: numba links every function a compiled function calls into it and optimizes
the whole again, so each search that called the machine directly compiled the whole machine
once more (the breadth-first search, A*, the depth-first walk, each goal scan: about a
minute in all). Behind an address the machine is compiled once, and a search compiles only
its own loop. This module is cheap to import: nothing here compiles the machine.

The ops read the state they work on from the workspace's input words (ws[ws_input:]), which
the caller writes first (`put`):

- EXPAND: the state's successors, packed into the rows of `out` (as `moves.expand`);
- EXPAND_COSTED (EXPAND | WITH_COSTS): the same, and each one's move's cost in `extra`;
  EXPAND | WITH_ORDERS, or EXPAND_ENTERED | WITH_ORDERS: each one's order key in `extra`
  (search any's order, `CompiledPuzzle.order_of`, as one integer);
- ENTER: unpack the state to be expanded next (ws_state), and say whether it is a goal;
- EXPAND_ENTERED: the successors of the state last entered;
- GOAL: whether the state is a goal (ws_state is left as it was);
- ESTIMATE: the spec's heuristic of the state;
- UNPACK: as ENTER, without the goal test; then GOAL_ENTERED and ESTIMATE_ENTERED ask the
  goal test and the heuristic of the state entered;
- CANONICAL: the state's canonical form under the puzzle's symmetries, into the first row of
  `out` (`machine.canonical`).

EXPAND, EXPAND_COSTED and EXPAND_ENTERED return how many successors, or `moves.FULL` (more
than `out` has rows for) or `moves.FAILED`; GOAL, ENTER and GOAL_ENTERED return 1 or 0, or
FAILED; ESTIMATE and ESTIMATE_ENTERED return the estimate. After FAILED (and after an
estimate, always) the caller looks at ws[ws_err]: an error found in a rule or an expression
is kept there.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from ..compiling.jit import njit
from . import records

EXPAND, ENTER, EXPAND_ENTERED, GOAL, ESTIMATE, UNPACK, GOAL_ENTERED, ESTIMATE_ENTERED, CANONICAL = range(9)
OP = 15  # the op, below its flags:
WITH_COSTS, WITH_ORDERS = 16, 32  # EXPAND and EXPAND_ENTERED also write each move's cost, or order key
EXPAND_COSTED = EXPAND | WITH_COSTS
ARGUMENTS = 8  # op, program (address, length), workspace (address, length), out (address, rows), extra
NOTHING = np.zeros((0, 1), dtype=np.uint64)


@intrinsic
def int64_pointer(typingctx, address):  # type: ignore[no-untyped-def]
    """An address as a pointer to 64-bit integers."""
    signature = types.CPointer(types.int64)(address)

    def codegen(context, builder, sig, args):  # type: ignore[no-untyped-def]
        return builder.inttoptr(args[0], context.get_value_type(sig.return_type))

    return signature, codegen


@intrinsic
def uint64_pointer(typingctx, address):  # type: ignore[no-untyped-def]
    """An address as a pointer to unsigned 64-bit integers."""
    signature = types.CPointer(types.uint64)(address)

    def codegen(context, builder, sig, args):  # type: ignore[no-untyped-def]
        return builder.inttoptr(args[0], context.get_value_type(sig.return_type))

    return signature, codegen


@intrinsic
def _call_address(typingctx, address, op, mp, mp_len, ws, ws_len, out, rows, extra):  # type: ignore[no-untyped-def]
    """Call the function at `address` with eight 64-bit integers; its 64-bit result."""
    signature = types.int64(types.int64, *([types.int64] * ARGUMENTS))

    def codegen(context, builder, sig, args):  # type: ignore[no-untyped-def]
        word = ir.IntType(64)
        function = builder.inttoptr(args[0], ir.FunctionType(word, [word] * ARGUMENTS).as_pointer())
        return builder.call(function, list(args[1:]))

    return signature, codegen


@njit(cache=True, inline="always")
def _run(op: int, mp: np.ndarray, ws: np.ndarray, out: int, rows: int, extra: int) -> int:
    """Call the entry of the machine program `mp` (its address in the header)."""
    return int(
        _call_address(  # type: ignore[call-arg]
            mp[records.ENTRY],
            np.int64(op),
            np.int64(mp.ctypes.data),
            np.int64(len(mp)),
            np.int64(ws.ctypes.data),
            np.int64(len(ws)),
            np.int64(out),
            np.int64(rows),
            np.int64(extra),
        )
    )


@njit(cache=True, inline="always")
def expand(op: int, mp: np.ndarray, ws: np.ndarray, out: np.ndarray) -> int:
    """Run EXPAND or EXPAND_ENTERED of the machine program `mp`, the successors into the
    rows of `out` (a 2D array of words); or CANONICAL, into its first row."""
    return _run(op, mp, ws, out.ctypes.data, out.shape[0], 0)


@njit(cache=True, inline="always")
def expand_with(op: int, mp: np.ndarray, ws: np.ndarray, out: np.ndarray, extra: np.ndarray) -> int:
    """Run EXPAND or EXPAND_ENTERED with a flag: the successors into the rows of `out`, their
    moves' costs (WITH_COSTS) or order keys (WITH_ORDERS) into `extra` (as many integers as
    `out` has rows)."""
    return _run(op, mp, ws, out.ctypes.data, out.shape[0], extra.ctypes.data)


@njit(cache=True, inline="always")
def call(op: int, mp: np.ndarray, ws: np.ndarray) -> int:
    """Run an op of the machine program `mp` that makes no successors (ENTER, GOAL, ...)."""
    return _run(op, mp, ws, 0, 0, 0)


@njit(cache=True, inline="always")
def put(mp: np.ndarray, ws: np.ndarray, words: np.ndarray) -> None:
    """The words of a state (a row) as the input of the next op."""
    at = mp[records.WS_INPUT]
    for w in range(len(words)):
        ws[at + w] = np.int64(words[w])


@njit(cache=True, inline="always")
def put_word(mp: np.ndarray, ws: np.ndarray, word: np.uint64) -> None:
    """A state of one word as the input of the next op."""
    ws[mp[records.WS_INPUT]] = np.int64(word)
