"""Bidirectional breadth-first search, for a goal that is one concrete state and moves that
can be run backwards: two searches of half the depth meet in the middle."""

from __future__ import annotations

from typing import Any

from .bfs import trace
from .limits import LimitReached, Limits, stop_reason
from .problem import Problem, State
from .result import LIMIT, NO_SOLUTION, SOLVED, SearchResult


def shortest(problem: Problem[Any], limits: Limits) -> SearchResult:
    start, goal = problem.start, problem.goal_state
    assert goal is not None and problem.invertible
    if start == goal:
        return SearchResult(SOLVED, 1, method="bidirectional")
    forward: dict[State, tuple[State, int] | None] = {start: None}
    backward: dict[State, tuple[State, int] | None] = {goal: None}
    front, back = [start], [goal]
    budget = 0  # the first check comes after the first state: it arms the exact state limit
    try:
        while front and back:
            grow_forward = len(front) <= len(back)
            frontier = front if grow_forward else back
            seen, other = (forward, backward) if grow_forward else (backward, forward)
            expand = problem.expand if grow_forward else problem.expand_back
            layer: list[State] = []
            append = layer.append
            best: tuple[State, State, int] | None = None  # (from, to, move) of a meeting edge
            for state in frontier:
                children = expand(state)
                for child, move in children:
                    if child not in seen:
                        seen[child] = (state, move)
                        append(child)
                        if child in other and best is None:
                            best = (state, child, move)
                budget -= len(children) + 1
                if budget <= 0:
                    budget = limits.check(len(forward) + len(backward))
            if best is not None:
                meet = best[1]
                return SearchResult(
                    SOLVED,
                    len(forward) + len(backward),
                    path=_join(forward, backward, meet),
                    method="bidirectional",
                )
            if grow_forward:
                front = layer
            else:
                back = layer
    except (LimitReached, KeyboardInterrupt) as exc:
        reason = stop_reason(exc)
        return SearchResult(LIMIT, len(forward) + len(backward), limit_reason=reason, method="bidirectional")
    reachable = len(forward) if not front else None
    return SearchResult(NO_SOLUTION, len(forward) + len(backward), reachable=reachable, method="bidirectional")


def _join(
    forward: dict[State, tuple[State, int] | None],
    backward: dict[State, tuple[State, int] | None],
    meet: State,
) -> list[tuple[int, State]]:
    path = trace(forward, meet)
    state = meet
    link = backward[state]
    while link is not None:
        following, move = link
        path.append((move, following))
        state = following
        link = backward[state]
    return path
