"""Depth-first search: one solution fast (`any`), or every goal state (`all`), streamed.

Both remember the states already explored, so that a state reached again (by moves in
another order) is not explored twice: for `any` a state explored once without reaching the
goal is a dead end; for `all`, a state's goal states have all been found already. Where the
state space is a tree (every state reached one way only), remembering costs time and memory
and saves nothing: `all` stops remembering after `PROBE` states if none was reached twice,
and never remembers more than `remember`. Its answers stay exact either way (goal states are
always remembered, and a state already on the current path is never entered again); only the
time can grow."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from .limits import LimitReached, Limits, stop_reason
from .problem import Problem, State
from .result import LIMIT, NO_SOLUTION, SOLVED, SearchResult

REMEMBER = 2_000_000
PROBE = 100_000
NO_MOVE = -1  # a solution given by its goal state alone (see kernel.searches.depth.all_goal_states)

Path = list[tuple[int, State]]
Order = Callable[[list[tuple[State, int]]], list[tuple[State, int]]]  # a state's successors, reordered


def any_solution(
    problem: Problem[Any],
    limits: Limits,
    canonical: Callable[[State], State] | None = None,
    order: Order | None = None,
) -> SearchResult:
    """The first solution found depth first, trying each state's moves in `order`. With
    `canonical`, states equal up to symmetry are explored once. Every state met is remembered
    (a dead end is never explored twice), and the memory limit bounds them, not the default
    limit of stored states: a walk for one solution may meet many more than a breadth-first
    search could hold, a few bytes each."""
    start = problem.start
    key = canonical or (lambda state: state)
    if problem.is_goal(start):
        return SearchResult(SOLVED, 1, method="depth first")
    seen = {key(start)}
    path: Path = []
    plain, is_goal = problem.expand, problem.is_goal
    expand = (lambda state: order(list(plain(state)))) if order is not None else plain
    stack = [iter(expand(start))]
    budget = 0  # the first check comes after the first state: it arms the exact state limit
    try:
        while stack:
            step = next(stack[-1], None)
            if step is None:
                stack.pop()
                if path:
                    path.pop()
                continue
            child, move = step
            k = key(child)
            if k in seen:
                continue
            seen.add(k)
            budget -= 1
            if budget <= 0:
                budget = limits.check(len(seen), stored=False)
            path.append((move, child))
            if is_goal(child):
                return SearchResult(SOLVED, len(seen), path=list(path), method="depth first")
            stack.append(iter(expand(child)))
    except (LimitReached, KeyboardInterrupt) as exc:
        reason = stop_reason(exc)
        return SearchResult(LIMIT, len(seen), limit_reason=reason, method="depth first")
    return SearchResult(
        NO_SOLUTION, len(seen), reachable=len(seen) if canonical is None else None, method="depth first"
    )


def all_goal_states(
    problem: Problem[Any], limits: Limits, counter: list[int], remember: int = REMEMBER, order: Order | None = None
) -> Iterator[Path]:
    """Yield one path to every goal state reachable from the start, each goal state once, as
    they are found; a path ends at the first goal it reaches. `counter[0]` counts the states
    visited (for reports, even after a limit). Each state's moves are tried in `order`."""
    start = problem.start
    plain, is_goal = problem.expand, problem.is_goal
    expand = (lambda state: order(list(plain(state)))) if order is not None else plain
    seen: set[State] | None = {start}
    revisits = 0
    goals: set[State] = set()
    if is_goal(start):
        goals.add(start)
        yield []
        return
    path: Path = []
    on_path = {start}  # never entered twice on one path, whatever is remembered
    keep_path = not problem.acyclic  # else no path can come back to a state on it
    stack = [iter(expand(start))]
    budget = 0  # the first check comes after the first state: it arms the exact state limit
    while stack:
        step = next(stack[-1], None)
        if step is None:
            stack.pop()
            if path:
                on_path.discard(path.pop()[1])
            continue
        child, move = step
        if keep_path and child in on_path:
            continue
        if seen is not None:
            if child in seen:
                revisits += 1
                continue
            if len(seen) < remember:
                seen.add(child)
            if not revisits and len(seen) >= PROBE:
                seen = None  # a tree so far: remembering would only cost
        counter[0] += 1
        budget -= 1
        if budget <= 0:
            budget = limits.check(counter[0], stored=False)
        path.append((move, child))
        if is_goal(child):  # a solution ends where the goal is reached
            if child not in goals:
                goals.add(child)
                yield list(path)
            path.pop()
            continue
        if keep_path:
            on_path.add(child)
        stack.append(iter(expand(child)))
