"""Breadth-first search: the shortest solution, stopping as soon as the goal is generated."""

from __future__ import annotations

from typing import Any

from .limits import LimitReached, Limits, stop_reason
from .problem import Problem, State
from .result import LIMIT, NO_SOLUTION, SOLVED, SearchResult


def trace(parents: dict[State, tuple[State, int] | None], state: State) -> list[tuple[int, State]]:
    """Follow parent links back to the start: [(move, state after it), ...] from the start on."""
    path: list[tuple[int, State]] = []
    link = parents[state]
    while link is not None:
        previous, move = link
        path.append((move, state))
        state = previous
        link = parents[state]
    path.reverse()
    return path


def shortest(problem: Problem[Any], limits: Limits) -> SearchResult:
    start = problem.start
    parents: dict[State, tuple[State, int] | None] = {start: None}
    if problem.is_goal(start):
        return SearchResult(SOLVED, 1, method="bfs")
    expand, is_goal, goal = problem.expand, problem.is_goal, problem.goal_state
    frontier = [start]
    budget = 0  # the first check comes after the first state: it arms the exact state limit
    depth = 0
    try:
        while frontier:
            depth += 1
            layer: list[State] = []
            append = layer.append
            for state in frontier:
                children = expand(state)
                for child, move in children:
                    if child not in parents:
                        parents[child] = (state, move)
                        if (child == goal) if goal is not None else is_goal(child):  # one goal: just compare
                            return SearchResult(SOLVED, len(parents), path=trace(parents, child), method="bfs")
                        append(child)
                budget -= len(children) + 1
                if budget <= 0:
                    budget = limits.check(len(parents), at=f"depth {depth}")
            frontier = layer
    except (LimitReached, KeyboardInterrupt) as exc:
        return SearchResult(LIMIT, len(parents), limit_reason=stop_reason(exc), method="bfs")
    return SearchResult(NO_SOLUTION, len(parents), reachable=len(parents), method="bfs")
