"""The whole state graph of a small puzzle: every reachable state and every move between two
states, for drawing (`puzint graph`). Breadth first from the start, so the states are
numbered by their distance from it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .limits import LimitReached, Limits, stop_reason
from .problem import Problem, State


@dataclass
class StateGraph:
    states: list[State] = field(default_factory=list)  # state i; 0 is the start
    depth: list[int] = field(default_factory=list)  # moves from the start to state i
    edges: list[tuple[int, int, int]] = field(default_factory=list)  # (from, to, move number)
    complete: bool = True
    limit_reason: str | None = None


def state_graph(problem: Problem[Any], limits: Limits, cap: int) -> StateGraph:
    """Every state reachable from the start, and every move (two moves between the same two
    states are one edge). Stops, incomplete, past `cap` states or at a limit of the run."""
    graph = StateGraph(states=[problem.start], depth=[0])
    index: dict[State, int] = {problem.start: 0}
    at = 0
    try:
        while at < len(graph.states):
            state = graph.states[at]
            seen: set[int] = set()
            for child, move in problem.expand(state):
                number = index.get(child)
                if number is None:
                    if len(graph.states) >= cap:
                        graph.complete, graph.limit_reason = False, f"more than {cap:,} states"
                        return graph
                    number = index[child] = len(graph.states)
                    graph.states.append(child)
                    graph.depth.append(graph.depth[at] + 1)
                if number not in seen:
                    seen.add(number)
                    graph.edges.append((at, number, move))
            at += 1
            if at % 256 == 0:
                limits.check(len(graph.states), at=f"depth {graph.depth[at - 1]}")
    except (LimitReached, KeyboardInterrupt) as exc:
        graph.complete, graph.limit_reason = False, stop_reason(exc)
    return graph
