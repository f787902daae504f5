"""A* and IDA*: shortest solutions guided by an admissible estimate of the moves still needed
(`estimate(state)`, never more than the true distance). A* keeps every state it has seen;
IDA* keeps only the current path, deepening the bound on g + estimate step by step, for
problems too large to store.

`dead`: where the estimate is a derived one (`CompiledPuzzle.dead`), the value from which it
says that no goal can be reached from a state (model.patterns.DEAD): such a state is not
stored (A*) or entered (IDA*), and does not set the next bound; None: every estimate is a
distance."""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterator
from typing import Any

from .bfs import trace
from .limits import LimitReached, Limits, stop_reason
from .problem import Problem, State
from .result import LIMIT, NO_SOLUTION, SOLVED, SearchResult


def astar(
    problem: Problem[Any], estimate: Callable[[State], int], limits: Limits, dead: int | None = None
) -> SearchResult:
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
                h = estimate(child)
                if dead is not None and h >= dead:
                    continue
                cost[child] = g
                parents[child] = (state, move)
                tie += 1
                heapq.heappush(queue, (g + h, -g, tie, child))
            budget -= len(children) + 1
            if budget <= 0:
                budget = limits.check(len(parents))
    except (LimitReached, KeyboardInterrupt) as exc:
        return SearchResult(LIMIT, len(parents), limit_reason=stop_reason(exc), method="A*")
    return SearchResult(NO_SOLUTION, len(parents), reachable=len(parents), method="A*")


def idastar(
    problem: Problem[Any], estimate: Callable[[State], int], limits: Limits, dead: int | None = None
) -> SearchResult:
    """IDA*, walked with a stack of its own (not Python's): a path of any length fits, as
    far as the memory limit lets the path and its children's lists grow."""
    start = problem.start
    visited = 0
    budget = 0
    path: list[tuple[int, State]] = []
    on_path = {start}

    def one_pass(bound: int) -> tuple[bool, int | None]:
        """Whether the goal is reached (`path` leads to it), and the least f beyond the bound
        (None when nothing was cut off by the bound: every path was tried to its end)."""
        nonlocal visited, budget
        if problem.is_goal(start):
            return True, None
        least: int | None = None
        children: list[Iterator[tuple[State, int]]] = [iter(problem.expand(start))]
        while children:
            step = next(children[-1], None)
            if step is None:  # every child of the path's last state tried: back up a move
                children.pop()
                if path:
                    on_path.discard(path.pop()[1])
                continue
            child, move = step
            if child in on_path:
                continue
            visited += 1
            budget -= 1
            if budget <= 0:
                budget = limits.check(visited, stored=False)
            h = estimate(child)
            if dead is not None and h >= dead:
                continue
            f = len(path) + 1 + h
            if f > bound:
                least = f if least is None or f < least else least
                continue
            path.append((move, child))
            on_path.add(child)
            if problem.is_goal(child):
                return True, None
            children.append(iter(problem.expand(child)))
        return False, least

    try:
        bound = estimate(start)
        if dead is not None and bound >= dead:
            return SearchResult(NO_SOLUTION, visited, method="IDA*")
        while True:
            reached, beyond = one_pass(bound)
            if reached:
                return SearchResult(SOLVED, visited, path=list(path), method="IDA*")
            if beyond is None:  # no path was cut off by the bound: there is none to the goal
                return SearchResult(NO_SOLUTION, visited, method="IDA*")
            bound = beyond
    except (LimitReached, KeyboardInterrupt) as exc:
        return SearchResult(LIMIT, visited, limit_reason=stop_reason(exc), method="IDA*")
