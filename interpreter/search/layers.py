"""Layer-by-layer breadth-first search that also counts: the number of distinct shortest
solutions (summing path counts over the layers, never listing the paths), and the number of
states reachable from the start (which, with no goal among them, proves there is no solution).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .bfs import trace
from .limits import LimitReached, Limits, stop_reason
from .problem import Problem, State
from .result import LIMIT, NO_SOLUTION, SOLVED, NotASymmetry, SearchResult


def explore(
    problem: Problem[Any],
    limits: Limits,
    count: bool = False,
    exhaustive: bool = False,
    keep: Callable[[State], bool] | None = None,
    canonical: Callable[[State], State] | None = None,
    verify: Callable[[dict[State, Any]], None] | None = None,
) -> SearchResult:
    """Breadth-first by layers. With `count`, each state carries how many shortest move
    sequences reach it; with `exhaustive`, go on past the goal to every reachable state.
    `keep` restricts the search to the states it accepts; `canonical` (a state's
    representative under symmetry) lets the exhaustive search also count states up to symmetry."""
    start = problem.start
    parents: dict[State, tuple[State, int] | None] = {start: None}
    paths: dict[State, int] = {start: 1}
    layer: list[State] = [start]
    goal_layer: list[State] = [start] if problem.is_goal(start) else []
    goal_paths: dict[State, int] = dict(paths) if goal_layer else {}
    expand, is_goal, goal = problem.expand, problem.is_goal, problem.goal_state
    budget = 0  # the first check comes after the first state: it arms the exact state limit
    method = "layered bfs" + (" with path counts" if count else "")
    depth = 0
    sizes = [1]  # how many states each layer holds
    farthest = start
    try:
        while layer and (exhaustive or not goal_layer):
            depth += 1
            if count:
                following: dict[State, int] = {}
                for state in layer:
                    ways = paths[state]
                    children = {child: move for child, move in expand(state)}
                    for child, move in children.items():
                        if child in following:
                            following[child] += ways
                        elif child not in parents and (keep is None or keep(child)):
                            parents[child] = (state, move)
                            following[child] = ways
                    budget -= len(children) + 1
                    if budget <= 0:
                        budget = limits.check(len(parents), at=f"depth {depth}")
                for state in layer:
                    del paths[state]
                paths.update(following)
                layer = list(following)
            else:
                # Without counts a new state is one not seen before: one lookup, one store.
                layer, frontier = [], layer
                append = layer.append
                for state in frontier:
                    successors = expand(state)
                    for child, move in successors:
                        if child not in parents and (keep is None or keep(child)):
                            parents[child] = (state, move)
                            append(child)
                    budget -= len(successors) + 1
                    if budget <= 0:
                        budget = limits.check(len(parents), at=f"depth {depth}")
            if layer:
                sizes.append(len(layer))
                farthest = layer[0]
            if not goal_layer:
                if goal is not None:  # one goal state: it is new in this layer if it is known now
                    goal_layer = [goal] if goal in parents else []
                else:
                    goal_layer = [s for s in layer if is_goal(s)]
                if goal_layer and count:
                    goal_paths = {s: paths[s] for s in goal_layer}
    except (LimitReached, KeyboardInterrupt) as exc:
        reason = stop_reason(exc)
        return SearchResult(LIMIT, len(parents), limit_reason=reason, method=method)
    reachable = len(parents) if exhaustive or not goal_layer else None
    note = None
    if verify is not None and reachable is not None:
        try:
            verify(parents)  # symmetries that only the states found can confirm
        except NotASymmetry as exc:
            note = exc.reason()
    orbits = None
    if canonical is not None and reachable is not None and note is None:
        orbits = len(set(map(canonical, parents)))
    goals = (sum(1 for s in parents if is_goal(s)) if goal is None else int(goal in parents)) if exhaustive else None
    result = SearchResult(
        SOLVED if goal_layer else NO_SOLUTION,
        len(parents),
        path=trace(parents, goal_layer[0]) if goal_layer else [],
        count=sum(goal_paths.values()) if count and goal_layer else None,
        reachable=reachable,
        reachable_up_to_symmetry=orbits,
        reachable_goals=goals,
        method=method,
        symmetry_note=note,
    )
    if exhaustive:
        result.layers, result.farthest = sizes, farthest
    return result
