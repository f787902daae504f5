"""IDA* on the kernel: the search of `search.astar.idastar` (the same states visited, in the
same order, the same bounds, the same solution) run by fixed numba code on a machine
program, on states of any number of words, the estimate (the spec's `heuristic`) as
bytecode. Like the Python search it stores nothing but the current path.

Python's search is recursive; here each depth has a frame (its successors' range in `kids`,
the next one to try, and the least f found beyond the bound below it), and the frame of
depth d is row d + 1 of `frames`: row 0 stands for the start's caller, where each iteration's
answer arrives. The states on the path are a hash set (`kernel.stores.sets`), except where
no move sequence can come back to a state (`CompiledPuzzle.acyclic`). Each call returns
where the Python search checks the limits, at the goal, at the end of an iteration, or when
an array needs room.
"""

from __future__ import annotations

import numpy as np

from ...compiler import CompiledPuzzle
from ...search.limits import LimitReached, Limits, stop_reason
from ...search.problem import steps
from ...search.result import LIMIT, NO_SOLUTION, SOLVED, SearchResult
from ..compiling.jit import njit
from ..machine import calls
from ..machine.assembly import MachineProgram
from ..machine.assembly import build as build_program
from ..machine.machine import workspace
from ..machine.moves import FAILED as EXPAND_FAILED
from ..machine.moves import FULL
from ..machine.records import WS_ERR
from ..stores import sets

BEYOND = 1 << 60  # no f found beyond the bound: nothing left to try
# the counters, in one array (DEAD_LINE: the estimate from which a state is not entered, as
# `search.astar.idastar` says; 0: none)
DEPTH, VISITED, BOUND, BUDGET, PHASE, KEEP_PATH, ON_PATH, DEAD_LINE = range(8)
# a frame's columns
FIRST, END, NEXT, LEAST = range(4)
# what stopped a call
FOUND, ITERATED, CHECK, ROOM_KIDS, ROOM_PATH, ROOM_ON_PATH, FAILED = range(7)
# where a call goes on from
AT_NEXT, ENTER_CHILD, EXPAND_CHILD = range(3)


@njit(cache=True)
def run(
    mp: np.ndarray,
    ws: np.ndarray,
    kids: np.ndarray,
    frames: np.ndarray,
    path: np.ndarray,
    on_path: np.ndarray,
    c: np.ndarray,
) -> int:
    """Go on with the current iteration from where the counters say it is; what stopped it."""
    keep = c[KEEP_PATH] == 1
    while True:
        d = c[DEPTH]
        phase = c[PHASE]
        c[PHASE] = AT_NEXT
        if phase == ENTER_CHILD:
            status = _enter(mp, ws, kids, frames, path, on_path, c, d, keep)
            if status >= 0:
                return status
            continue
        if phase == EXPAND_CHILD:
            status = _expand(mp, ws, kids, frames, c, d)
            if status >= 0:
                return status
            continue
        if d < 0:
            return ITERATED  # the answer is in frames[0, LEAST]
        frame = d + 1
        j = frames[frame, NEXT]
        if j >= frames[frame, END]:  # every successor tried: back to the caller
            frames[d, LEAST] = min(frames[d, LEAST], frames[frame, LEAST])
            if keep and d > 0:
                sets.remove(on_path, path, d)
                c[ON_PATH] -= 1
            c[DEPTH] = d - 1
            continue
        if d + 3 > frames.shape[0] or d + 2 > path.shape[0]:
            return ROOM_PATH
        if keep and sets.full(on_path, c[ON_PATH]):
            return ROOM_ON_PATH
        frames[frame, NEXT] = j + 1
        if keep and sets.contains(on_path, kids, j):
            continue
        c[VISITED] += 1
        for w in range(path.shape[1]):
            path[d + 1, w] = kids[j, w]
        c[BUDGET] -= 1
        if c[BUDGET] <= 0:
            c[PHASE] = ENTER_CHILD
            return CHECK
        status = _enter(mp, ws, kids, frames, path, on_path, c, d, keep)
        if status >= 0:
            return status


@njit(cache=True, inline="always")
def _enter(
    mp: np.ndarray,
    ws: np.ndarray,
    kids: np.ndarray,
    frames: np.ndarray,
    path: np.ndarray,
    on_path: np.ndarray,
    c: np.ndarray,
    d: int,
    keep: bool,
) -> int:
    """Search from the state at path[d + 1], reached from depth d: its f beyond the bound goes
    to the caller's frame, a goal ends the search, any other state is expanded. A status to
    return, or -1 to go on."""
    if keep and d >= 0:
        sets.add(on_path, path, d + 1)
        c[ON_PATH] += 1
    calls.put(mp, ws, path[d + 1])
    calls.call(calls.UNPACK, mp, ws)
    estimate = calls.call(calls.ESTIMATE_ENTERED, mp, ws)
    if ws[mp[WS_ERR]] != 0:
        return FAILED
    f = d + 1 + estimate
    dead = c[DEAD_LINE] > 0 and estimate >= c[DEAD_LINE]  # no goal can be reached from it
    if dead or f > c[BOUND]:
        if not dead:
            frames[d + 1, LEAST] = min(frames[d + 1, LEAST], f)
        if keep and d >= 0:
            sets.remove(on_path, path, d + 1)
            c[ON_PATH] -= 1
        return -1
    goal = calls.call(calls.GOAL_ENTERED, mp, ws)
    if goal == EXPAND_FAILED:
        return FAILED
    if goal == 1:
        c[DEPTH] = d + 1
        return FOUND
    return _expand(mp, ws, kids, frames, c, d)


@njit(cache=True, inline="always")
def _expand(mp: np.ndarray, ws: np.ndarray, kids: np.ndarray, frames: np.ndarray, c: np.ndarray, d: int) -> int:
    """The successors of the state entered (at depth d + 1), after the caller's in `kids`."""
    first = frames[d + 1, END]
    n = calls.expand(calls.EXPAND_ENTERED, mp, ws, kids[first:])
    if n == FULL:
        c[PHASE] = EXPAND_CHILD
        return ROOM_KIDS
    if n == EXPAND_FAILED:
        return FAILED
    frame = d + 2
    frames[frame, FIRST], frames[frame, END], frames[frame, NEXT] = first, first + n, first
    frames[frame, LEAST] = BEYOND
    c[DEPTH] = d + 1
    return -1


class _Search:
    """The arrays of the search, grown as it needs."""

    def __init__(self, machine: MachineProgram, acyclic: bool) -> None:
        words = machine.words
        self.machine = machine
        self.ws = workspace(machine.array)
        self.kids = np.zeros((1024, words), dtype=np.uint64)
        self.frames = np.zeros((64, 4), dtype=np.int64)
        self.path = np.zeros((64, words), dtype=np.uint64)
        self.path[0] = machine.start
        self.on_path = sets.new_set(256, words)
        sets.add(self.on_path, self.path, 0)  # the start stays on the path
        self.c = np.zeros(8, dtype=np.int64)
        self.c[KEEP_PATH] = int(not acyclic)
        self.c[ON_PATH] = 1

    def iterate(self, bound: int) -> None:
        """Start an iteration with this bound: from the start, entered as the caller's child."""
        self.frames[0] = (0, 0, 0, BEYOND)
        self.c[BOUND], self.c[DEPTH], self.c[PHASE] = bound, -1, ENTER_CHILD

    def run(self) -> int:
        return int(run(self.machine.array, self.ws, self.kids, self.frames, self.path, self.on_path, self.c))

    def grow(self, why: int) -> None:
        if why == ROOM_KIDS:
            self.kids = np.concatenate([self.kids, np.zeros_like(self.kids)])
        elif why == ROOM_PATH:
            self.path = np.concatenate([self.path, np.zeros_like(self.path)])
            self.frames = np.concatenate([self.frames, np.zeros_like(self.frames)])
        else:
            self.on_path = sets.grown(self.on_path)

    def states(self) -> list[bytes]:
        """The states of the path found, from the start."""
        return [self.machine.unpack(tuple(int(w) for w in self.path[d])) for d in range(int(self.c[DEPTH]) + 1)]


def idastar(compiled: CompiledPuzzle, limits: Limits) -> SearchResult:
    """As `search.astar.idastar` (on the kernel the path may grow as deep as memory allows)."""
    method = "IDA*, compiled"
    assert compiled.estimate is not None
    search = _Search(build_program(compiled), compiled.acyclic)
    c = search.c
    bound = compiled.estimate(compiled.start)
    c[DEAD_LINE] = compiled.dead or 0
    if compiled.dead is not None and bound >= compiled.dead:
        return SearchResult(NO_SOLUTION, 0, method=method)
    try:
        while True:
            search.iterate(bound)
            while True:
                why = search.run()
                if why in (FOUND, ITERATED):
                    break
                if why == CHECK:
                    c[BUDGET] = limits.check(int(c[VISITED]), stored=False)
                elif why == FAILED:
                    search.machine.raise_recorded(search.ws)
                else:
                    search.grow(why)
            if why == FOUND:
                path = steps(compiled, search.states())
                return SearchResult(SOLVED, int(c[VISITED]), path=path, method=method)
            found = int(search.frames[0, 3])
            if found >= BEYOND:
                return SearchResult(NO_SOLUTION, int(c[VISITED]), method=method)
            bound = found
    except (LimitReached, KeyboardInterrupt) as exc:
        return SearchResult(LIMIT, int(c[VISITED]), limit_reason=stop_reason(exc), method=method)
