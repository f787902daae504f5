"""A* and IDA*: shortest solutions guided by an admissible estimate of the moves still needed
(`estimate(state)`, never more than the true distance). A* keeps every state it has seen;
IDA* keeps only the current path, deepening the bound on g + estimate step by step, for
problems too large to store."""

from __future__ import annotations

import heapq
from collections.abc import Callable
from enum import Enum
from typing import Any

from .bfs import trace
from .limits import LimitReached, Limits, stop_reason
from .problem import Problem, State
from .result import LIMIT, NO_SOLUTION, SOLVED, SearchResult


def astar(problem: Problem[Any], estimate: Callable[[State], int], limits: Limits) -> SearchResult:
    start = problem.start
    parents: dict[State, tuple[State, int] | None] = {start: None}
    cost: dict[State, int] = {start: 0}
    tie = 0
    queue: list[tuple[int, int, int, State]] = [(estimate(start), 0, tie, start)]
    closed: set[State] = set()
    budget = 0  # the first check comes after the first state: it arms the exact state limit
    try:
        while queue:
            _, negative_g, _, state = heapq.heappop(queue)
            if state in closed:
                continue
            if problem.is_goal(state):
                return SearchResult(SOLVED, len(parents), path=trace(parents, state), method="A*")
            closed.add(state)
            g = -negative_g + 1
            children = problem.expand(state)
            for child, move in children:
                if child in closed or cost.get(child, g + 1) <= g:
                    continue
                cost[child] = g
                parents[child] = (state, move)
                tie += 1
                heapq.heappush(queue, (g + estimate(child), -g, tie, child))
            budget -= len(children) + 1
            if budget <= 0:
                budget = limits.check(len(parents))
    except (LimitReached, KeyboardInterrupt) as exc:
        return SearchResult(LIMIT, len(parents), limit_reason=stop_reason(exc), method="A*")
    return SearchResult(NO_SOLUTION, len(parents), reachable=len(parents), method="A*")


class _Reached(Enum):
    """What the recursive search returns at the goal (any int is an f beyond the bound)."""

    GOAL = 0


FOUND = _Reached.GOAL


def idastar(problem: Problem[Any], estimate: Callable[[State], int], limits: Limits) -> SearchResult:
    start = problem.start
    bound = estimate(start)
    visited = [0]
    budget = [0]
    path: list[tuple[int, State]] = []
    on_path = {start}

    def search(state: State, g: int) -> int | _Reached | None:
        """FOUND when the goal is reached; otherwise the least f beyond the bound (None when
        nothing was cut off by the bound: every path from here was tried to its end)."""
        f = g + estimate(state)
        if f > bound:
            return f
        if problem.is_goal(state):
            return FOUND
        least: int | None = None
        for child, move in problem.expand(state):
            if child in on_path:
                continue
            visited[0] += 1
            budget[0] -= 1
            if budget[0] <= 0:
                budget[0] = limits.check(visited[0], stored=False)
            path.append((move, child))
            on_path.add(child)
            found = search(child, g + 1)
            if found is FOUND:
                return FOUND
            if found is not None and (least is None or found < least):
                least = found
            path.pop()
            on_path.discard(child)
        return least

    try:
        while True:
            found = search(start, 0)
            if found is FOUND:
                return SearchResult(SOLVED, visited[0], path=list(path), method="IDA*")
            if found is None:  # no path was cut off by the bound: there is none to the goal
                return SearchResult(NO_SOLUTION, visited[0], method="IDA*")
            bound = found
    except (LimitReached, KeyboardInterrupt, RecursionError) as exc:
        reason = "the path grew too deep" if isinstance(exc, RecursionError) else stop_reason(exc)
        return SearchResult(LIMIT, visited[0], limit_reason=reason, method="IDA*")
