"""The cheapest solution: uniform-cost search (Dijkstra), or A* when an estimate of the cost
still to pay is given; with `count`, also the number of distinct cheapest solutions.

Costs are whole numbers of at least 1, so a state's cheapest cost is final when it leaves
the queue, and the number of cheapest ways to reach it is the sum over its cheapest
predecessors, all of which left the queue before it.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable

from .bfs import trace
from .limits import LimitReached, Limits, stop_reason
from .problem import State
from .result import LIMIT, NO_SOLUTION, SOLVED, SearchResult

Expand = Callable[[State], list[tuple[State, int, int]]]


def cheapest(
    start: State,
    expand: Expand,
    is_goal: Callable[[State], bool],
    limits: Limits,
    estimate: Callable[[State], int] | None = None,
    count: bool = False,
    keep: Callable[[State], bool] | None = None,
) -> SearchResult:
    method = "A*" if estimate is not None else "uniform cost"
    if count:
        method += " with path counts"
    h = estimate or (lambda state: 0)
    cost: dict[State, int] = {start: 0}
    parents: dict[State, tuple[State, int] | None] = {start: None}
    ways: dict[State, int] = {start: 1}
    closed: set[State] = set()
    queue: list[tuple[int, int, int, State]] = [(h(start), 0, 0, start)]
    tie = 0
    best: int | None = None
    goals: list[State] = []
    budget = 0  # the first check comes after the first state: it arms the exact state limit
    try:
        while queue:
            f, g, _, state = heapq.heappop(queue)
            if state in closed or g > cost[state]:
                continue
            if best is not None and (f > best or not count):
                break
            closed.add(state)
            if is_goal(state):
                if best is None:
                    best = g
                goals.append(state)
                if not count:
                    break
                continue
            children = expand(state)
            for child, move, step in children:
                if keep is not None and not keep(child):
                    continue
                new = g + step
                old = cost.get(child)
                if old is None or new < old:
                    cost[child] = new
                    parents[child] = (state, move)
                    ways[child] = ways[state]
                    tie += 1
                    heapq.heappush(queue, (new + h(child), new, tie, child))
                elif new == old and count and child not in closed:
                    ways[child] += ways[state]
            budget -= len(children) + 1
            if budget <= 0:
                budget = limits.check(len(cost), at=f"cost {g}")
    except (LimitReached, KeyboardInterrupt) as exc:
        reason = stop_reason(exc)
        return SearchResult(LIMIT, len(cost), limit_reason=reason, method=method)
    if best is None:
        return SearchResult(NO_SOLUTION, len(cost), reachable=len(cost) if not queue else None, method=method)
    result = SearchResult(SOLVED, len(cost), path=trace(parents, goals[0]), method=method)
    result.cost = best
    if count:
        result.count = sum(ways[s] for s in goals if cost[s] == best)
    return result


def fixed_by(image: Callable[[State], State]) -> Callable[[State], bool]:
    def unchanged(state: State) -> bool:
        return bool(image(state) == state)

    return unchanged
