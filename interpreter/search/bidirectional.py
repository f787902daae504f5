"""Bidirectional breadth-first search, for a goal that is one concrete state and moves that
can be run backwards: two searches of half the depth meet in the middle. They also count the
shortest solutions (`count`): each side carries, for the states of its last layer, how many
shortest move sequences join them to its end, and the two counts multiply where they meet."""

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


def count(problem: Problem[Any], limits: Limits) -> SearchResult:
    """The shortest solutions counted from both ends, whole layers at a time (the smaller
    side's next). Where the layer just made at depth a meets the other side, whose last layer
    is at depth b, the shortest solutions are a + b moves long and meet nowhere else: a
    solution of fewer moves would have met one layer earlier, and each solution passes
    exactly one state a moves from the start, which is then b moves from the goal. So their
    number is the sum, over the states where the layers meet, of the paths to each times the
    paths from each. As in `layers.explore`, the solutions are sequences of states (a state
    reached from one state by two moves is one way)."""
    start, goal = problem.start, problem.goal_state
    assert goal is not None and problem.invertible
    method = "bidirectional with path counts"
    if start == goal:
        return SearchResult(SOLVED, 1, count=1, method=method)
    forward: dict[State, tuple[State, int] | None] = {start: None}
    backward: dict[State, tuple[State, int] | None] = {goal: None}
    front: dict[State, int] = {start: 1}  # the last layer of each side, with its path counts
    back: dict[State, int] = {goal: 1}
    budget = 0  # the first check comes after the first state: it arms the exact state limit
    try:
        while front and back:
            grow_forward = len(front) <= len(back)
            layer, other = (front, back) if grow_forward else (back, front)
            seen = forward if grow_forward else backward
            expand = problem.expand if grow_forward else problem.expand_back
            following: dict[State, int] = {}
            for state, ways in layer.items():
                children: dict[State, int] = {}
                for child, move in expand(state):
                    children.setdefault(child, move)  # the first move to a child, as `shortest` records it
                for child, move in children.items():
                    if child in following:
                        following[child] += ways
                    elif child not in seen:
                        seen[child] = (state, move)
                        following[child] = ways
                budget -= len(children) + 1
                if budget <= 0:
                    budget = limits.check(len(forward) + len(backward))
            if grow_forward:
                front = following
            else:
                back = following
            meeting = [state for state in following if state in other]
            if meeting:
                return SearchResult(
                    SOLVED,
                    len(forward) + len(backward),
                    path=_join(forward, backward, meeting[0]),
                    count=sum(front[state] * back[state] for state in meeting),
                    method=method,
                )
    except (LimitReached, KeyboardInterrupt) as exc:
        reason = stop_reason(exc)
        return SearchResult(LIMIT, len(forward) + len(backward), limit_reason=reason, method=method)
    reachable = len(forward) if not front else None
    return SearchResult(NO_SOLUTION, len(forward) + len(backward), reachable=reachable, method=method)


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
