"""Every goal state, depth first, on the kernel: the walk of `search.depth.all_goal_states`
(the same states visited, in the same order, the same goal states found, each once) run by
fixed numba code on a machine program (`kernel.machine.program`), with states of any number
of words.

The walk keeps, for each depth, the successors of the state there (rows of `kids`, a stack)
and the state itself (`path`); the states on the path (unless no move sequence can come back
to a state: `CompiledPuzzle.acyclic`), the states remembered and the goal states found are
hash sets (`kernel.stores.sets`). As in Python, states are remembered until
`PROBE` states have been visited without any seen twice (a tree: remembering would only
cost), and never more than `remember`. Each call returns after a bounded number of states,
at a goal when goals are listed, or when an array needs more room, so that the Python
driver checks the limits, yields the solution, or grows the arrays, and calls again.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ...compiler import CompiledPuzzle
from ...search.depth import NO_MOVE, PROBE, REMEMBER, Path
from ...search.limits import Limits
from ...search.problem import steps
from ..compiling.jit import njit
from ..machine import calls
from ..machine.assembly import MachineProgram
from ..machine.assembly import build as build_program
from ..machine.machine import unowned, workspace
from ..machine.moves import FAILED as EXPAND_FAILED
from ..machine.moves import FULL
from ..stores import sets

# the walk's counters, in one array
DEPTH, VISITED, REVISITS, SEEN, SEEN_ON, GOALS, ON_PATH, PENDING, PHASE, CHECK_AT, KEEP, PROBE_AT, KEEP_PATH = range(13)
# what stopped a call
DONE, BUDGET, ROOM_KIDS, ROOM_PATH, ROOM_SEEN, ROOM_GOALS, ROOM_ON_PATH, GOAL, FAILED = range(9)
BIG_BUDGET = 1 << 16  # states between two returns when no state limit needs an exact count


@njit(cache=True)
def walk(
    mp: np.ndarray,
    ws: np.ndarray,
    kids: np.ndarray,
    frames: np.ndarray,
    path: np.ndarray,
    on_path: np.ndarray,
    seen: np.ndarray,
    goals: np.ndarray,
    c: np.ndarray,
    listing: bool,
) -> int:
    """Go on with the walk from where the counters `c` say it is; what stopped it."""
    mp, ws, kids, frames, path = unowned(mp), unowned(ws), unowned(kids), unowned(frames), unowned(path)
    on_path, seen, goals, c = unowned(on_path), unowned(seen), unowned(goals), unowned(c)
    while True:
        depth = c[DEPTH]
        if c[PHASE] == 1:  # a child visited just before the last return: finish with it
            c[PHASE] = 0
            status = _enter(mp, ws, frames, path, on_path, goals, c, depth, listing)
            if status >= 0:
                return status
            continue
        if depth < 0:
            return DONE
        if c[PENDING] > 0:  # 1: the state at this depth was entered; 2: it is entered now
            if c[PENDING] == 2:
                calls.put(mp, ws, path[depth])
                if calls.call(calls.ENTER, mp, ws) == EXPAND_FAILED:
                    return FAILED
            start = frames[depth, 0]
            n = calls.expand(calls.EXPAND_ENTERED, mp, ws, kids[start:])
            if n == FULL:
                return ROOM_KIDS
            if n == EXPAND_FAILED:
                return FAILED
            frames[depth, 1] = start + n
            frames[depth, 2] = start
            c[PENDING] = 0
        j = frames[depth, 2]
        if j >= frames[depth, 1]:
            if depth > 0 and c[KEEP_PATH] == 1:
                sets.remove(on_path, path, depth)
                c[ON_PATH] -= 1
            c[DEPTH] = depth - 1
            continue
        if depth + 2 > path.shape[0]:
            return ROOM_PATH
        if c[SEEN_ON] == 1 and sets.full(seen, c[SEEN]):
            return ROOM_SEEN
        if sets.full(goals, c[GOALS]):
            return ROOM_GOALS
        if c[KEEP_PATH] == 1 and sets.full(on_path, c[ON_PATH]):
            return ROOM_ON_PATH
        frames[depth, 2] = j + 1
        if c[KEEP_PATH] == 1 and sets.contains(on_path, kids, j):
            continue
        if c[SEEN_ON] == 1:
            if sets.contains(seen, kids, j):
                c[REVISITS] += 1
                continue
            if c[SEEN] < c[KEEP]:
                sets.add(seen, kids, j)
                c[SEEN] += 1
            if c[REVISITS] == 0 and c[SEEN] >= c[PROBE_AT]:
                c[SEEN_ON] = 0  # a tree so far: remembering would only cost
        c[VISITED] += 1
        for w in range(path.shape[1]):
            path[depth + 1, w] = kids[j, w]
        if c[VISITED] >= c[CHECK_AT]:
            c[PHASE] = 1
            return BUDGET
        status = _enter(mp, ws, frames, path, on_path, goals, c, depth, listing)
        if status >= 0:
            return status


@njit(cache=True, inline="always")
def _enter(
    mp: np.ndarray,
    ws: np.ndarray,
    frames: np.ndarray,
    path: np.ndarray,
    on_path: np.ndarray,
    goals: np.ndarray,
    c: np.ndarray,
    depth: int,
    listing: bool,
) -> int:
    """The child visited (at path[depth + 1]): a goal ends its path there (found once), any
    other state is walked from next. A status to return, or -1 to go on."""
    calls.put(mp, ws, path[depth + 1])
    goal = calls.call(calls.ENTER, mp, ws)
    if goal == EXPAND_FAILED:
        return FAILED
    if goal == 1:
        if sets.add(goals, path, depth + 1):
            c[GOALS] += 1
            if listing:
                return GOAL
        return -1
    if c[KEEP_PATH] == 1:
        sets.add(on_path, path, depth + 1)
        c[ON_PATH] += 1
    frames[depth + 1, 0] = frames[depth, 1]
    c[DEPTH] = depth + 1
    c[PENDING] = 1
    return -1


class Walk:
    """The arrays of a walk, grown as it needs."""

    def __init__(self, machine: MachineProgram, remember: int):
        words = machine.words
        self.machine = machine
        self.ws = workspace(machine.array)
        self.kids = np.zeros((1024, words), dtype=np.uint64)
        self.frames = np.zeros((64, 3), dtype=np.int64)
        self.path = np.zeros((64, words), dtype=np.uint64)
        self.on_path = sets.new_set(256, words)
        self.seen = sets.new_set(1 << 12, words)
        self.goals = sets.new_set(1 << 10, words)
        self.c = np.zeros(13, dtype=np.int64)
        self.path[0] = machine.start
        for table in (self.on_path, self.seen):  # the start is on the path, and seen
            sets.add(table, self.path, 0)
        self.c[ON_PATH] = self.c[SEEN] = self.c[SEEN_ON] = 1
        self.c[PENDING] = 2  # walked from first, entered there
        self.c[KEEP] = remember
        self.c[KEEP_PATH] = int(not machine.program.compiled.acyclic)  # else no path comes back to a state
        self.c[PROBE_AT] = PROBE
        self.c[CHECK_AT] = 1  # the first check, after the first state, arms the state limit

    def run(self, listing: bool) -> int:
        return int(
            walk(
                self.machine.array,
                self.ws,
                self.kids,
                self.frames,
                self.path,
                self.on_path,
                self.seen,
                self.goals,
                self.c,
                listing,
            )
        )

    def grow(self, why: int) -> None:
        if why == ROOM_KIDS:
            self.kids = np.concatenate([self.kids, np.zeros_like(self.kids)])
        elif why == ROOM_PATH:
            self.path = np.concatenate([self.path, np.zeros_like(self.path)])
            self.frames = np.concatenate([self.frames, np.zeros_like(self.frames)])
        elif why == ROOM_SEEN:
            self.seen = sets.grown(self.seen)
        elif why == ROOM_GOALS:
            self.goals = sets.grown(self.goals)
        else:
            self.on_path = sets.grown(self.on_path)

    def goal(self) -> bytes:
        """The goal state just found."""
        return self.machine.unpack(tuple(int(w) for w in self.path[int(self.c[DEPTH]) + 1]))

    def states(self) -> list[bytes]:
        """The states of the path to the goal just found, from the start."""
        return [self.machine.unpack(tuple(int(w) for w in self.path[d])) for d in range(int(self.c[DEPTH]) + 2)]

    def raise_error(self) -> None:
        self.machine.raise_recorded(self.ws)


def _walks(state: Walk, limits: Limits, counter: list[int], listing: bool) -> Iterator[Walk]:
    """Run the walk to its end, checking the limits where Python's walk checks them and
    keeping `counter[0]` at the states visited (and `counter[1]`, if there is one, at the
    goal states found); when `listing`, yield the walk at each new goal state (it waits
    meanwhile)."""
    c = state.c
    while True:
        why = state.run(listing)
        counter[0] = int(c[VISITED])
        counter[1:] = [int(c[GOALS])][: len(counter) - 1]
        if why == DONE:
            return
        if why == BUDGET:
            budget = limits.check(counter[0], stored=False)
            c[CHECK_AT] = counter[0] + (budget if limits.max_states is not None else max(budget, BIG_BUDGET))
            if c[SEEN_ON] == 0 and len(state.seen) > 4:
                state.seen = sets.new_set(4, state.machine.words)  # no longer remembered: freed
        elif why == GOAL:
            yield state
        elif why == FAILED:
            state.raise_error()
        else:
            state.grow(why)


def all_goal_states(
    compiled: CompiledPuzzle, limits: Limits, counter: list[int], remember: int = REMEMBER, moves: bool = True
) -> Iterator[Path]:
    """As `search.depth.all_goal_states`: one path to every goal state reachable from the
    start, each goal state once, as found. Without `moves`, each is only its goal state, as
    a path of one step whose move is NO_MOVE (the kernel stores no moves: they are found
    again by the Python engine, one expansion for each state of the path)."""
    if compiled.is_goal(compiled.start):
        yield []
        return
    walk = Walk(build_program(compiled), remember)
    for state in _walks(walk, limits, counter, listing=True):
        yield steps(compiled, state.states()) if moves else [(NO_MOVE, state.goal())]


def count_goal_states(compiled: CompiledPuzzle, limits: Limits, counter: list[int], remember: int = REMEMBER) -> int:
    """How many paths `all_goal_states` would yield, without making them; `counter` is
    [states visited, goal states found so far], kept up to date (a limit may stop the walk)."""
    if compiled.is_goal(compiled.start):
        counter[1:] = [1]
        return 1
    return int(_counted(compiled, limits, counter, remember).c[GOALS])


def _counted(compiled: CompiledPuzzle, limits: Limits, counter: list[int], remember: int) -> Walk:
    """The walk run to its end without listing its goal states (they stay in its set)."""
    walk = Walk(build_program(compiled), remember)
    for _ in _walks(walk, limits, counter, listing=False):
        raise AssertionError("a walk that does not list goals yields nothing")
    return walk


def goal_set(
    compiled: CompiledPuzzle, limits: Limits, counter: list[int], remember: int = REMEMBER
) -> tuple[list[bytes], bool]:
    """The goal states `all_goal_states` would yield, packed (see `unpacked`), read from the
    walk's own set once it ends (no return to Python for each): what a worker hands back for
    its subtrees, so that goal states found under several roots are counted once. With them, whether the walk still
    remembered states at its end (False: it met no state twice in its first PROBE states and
    stopped remembering; the next subtree of the same puzzle need not remember either)."""
    if compiled.is_goal(compiled.start):
        counter[1:] = [1]
        return [np.array(build_program(compiled).start, dtype=np.uint64).tobytes()], True
    walk = _counted(compiled, limits, counter, remember)
    goals = [row.tobytes() for row in walk.goals if row[0] != sets.EMPTY]
    return goals, bool(walk.c[SEEN_ON])


def unpacked(compiled: CompiledPuzzle, packed: bytes) -> bytes:
    """A state as `goal_set` gives it (its packed words), as the compiled puzzle's bytes."""
    words = np.frombuffer(packed, dtype=np.uint64)
    return build_program(compiled).unpack(tuple(int(w) for w in words))
