"""The cheapest solution: uniform-cost search (Dijkstra), or A* when an estimate of the cost
still to pay is given; with `count`, also the number of distinct cheapest solutions.

Costs are whole numbers of 0 or more, so a state's cheapest cost is final when it leaves the
queue. A cheapest solution is a path to a goal of the least cost that never repeats a state
(see `dag.ShortestDag`): with `count`, every state of that cost or less is settled, each
with its cheapest predecessors, and the paths are counted on that graph (`dag.count_paths`:
moves of cost 0 may join states of one cost in loops, which a path enters only once).

Among states of one f, the deepest (the largest cost so far) is taken first: with a good
estimate A* then follows one path down to the goal instead of widening every cost on the
way (Sokoban's pushes, where walking costs nothing and the estimate is often the answer
itself). Counting takes the cheapest first instead, so that a state's cheapest predecessors
are all settled before it is.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable

from .bfs import trace
from .costs import LexCost
from .dag import count_paths
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
    dead: int | None = None,
) -> SearchResult:
    """`dead`: the estimate (its first part, for a cost of several parts) from which a derived
    estimate says no goal can be reached from a state (`search.astar`): such a state is not
    stored."""
    method = "A*" if estimate is not None else "uniform cost"
    if count:
        method += " with path counts"
    h = estimate or (lambda state: 0)
    cost: dict[State, int] = {start: 0}
    parents: dict[State, tuple[State, int] | None] = {start: None}
    links: dict[State, list[tuple[State, int]]] = {start: []}  # with `count`: each state's cheapest predecessors
    closed: set[State] = set()
    queue: list[tuple[int, int, int, State]] = [(h(start), 0, 0, start)]
    tie = 0
    best: int | None = None
    goals: list[State] = []
    budget = 0  # the first check comes after the first state: it arms the exact state limit
    try:
        while queue:
            f, key, _, state = heapq.heappop(queue)
            g = key if count else -key
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
                    hc = h(child)
                    if old is None and dead is not None and _first(hc) >= dead:
                        continue
                    cost[child] = new
                    parents[child] = (state, move)
                    if count:
                        links[child] = [(state, move)]
                    tie += 1
                    heapq.heappush(queue, (new + hc, new if count else -new, tie, child))
                elif new == old and count and child != state and (not links[child] or links[child][-1][0] != state):
                    links[child].append((state, move))
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
        cheapest_goals = [s for s in goals if cost[s] == best]
        settled = {s: [(p, m) for p, m in links[s] if p in closed] for s in closed}
        try:
            result.count = count_paths(start, cheapest_goals, settled, limits)
        except (LimitReached, KeyboardInterrupt) as exc:
            return SearchResult(LIMIT, len(cost), limit_reason=stop_reason(exc), method=method)
    return result


def _first(estimate: object) -> int:
    """An estimate's first part (a cost of one part: the estimate)."""
    return estimate[0] if isinstance(estimate, LexCost) else estimate  # type: ignore[return-value]


def fixed_by(image: Callable[[State], State]) -> Callable[[State], bool]:
    def unchanged(state: State) -> bool:
        return bool(image(state) == state)

    return unchanged
