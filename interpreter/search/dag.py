"""All shortest (or cheapest) solutions, one at a time: a search that keeps, for every state,
every predecessor on a shortest (cheapest) path to it; the solutions are then walked back
from the goal states without ever being stored all at once."""

from __future__ import annotations

import heapq
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

from .limits import CHECK_EVERY, LimitReached, Limits, stop_reason
from .problem import Problem, State
from .result import LIMIT, NO_SOLUTION, SOLVED


@dataclass
class ShortestDag:
    status: str
    states: int
    goals: list[State]
    predecessors: dict[State, list[tuple[State, int]]]
    limit_reason: str | None = None
    cost: int | None = None  # of every solution, when moves have costs

    def paths(self) -> Iterator[list[tuple[int, State]]]:
        """Every shortest solution as [(move, state after it), ...], depth first."""
        for goal in self.goals:
            yield from self._paths_to(goal)

    def _paths_to(self, goal: State) -> Iterator[list[tuple[int, State]]]:
        stack: list[tuple[State, list[tuple[int, State]]]] = [(goal, [])]
        while stack:
            state, suffix = stack.pop()
            links = self.predecessors[state]
            if not links:
                yield suffix[::-1]
                continue
            for previous, move in links:
                stack.append((previous, [*suffix, (move, state)]))


V = TypeVar("V", bound=Hashable)


def on_solutions(dag: ShortestDag) -> list[State]:
    """The states of the DAG that lie on some shortest solution, in breadth-first order."""
    useful = set(dag.goals)
    stack = list(dag.goals)
    while stack:
        for previous, _ in dag.predecessors[stack.pop()]:
            if previous not in useful:
                useful.add(previous)
                stack.append(previous)
    return [s for s in dag.predecessors if s in useful]


def count_solutions(dag: ShortestDag) -> int:
    ways: dict[State, int] = {}
    for state in on_solutions(dag):
        links = dag.predecessors[state]
        ways[state] = sum(ways[p] for p, _ in links if p in ways) if links else 1
    return sum(ways[g] for g in dag.goals)


def distinct_values(
    dag: ShortestDag,
    initial: V,
    extend: Callable[[V, int, State], V],
    limits: Limits,
) -> dict[V, list[tuple[int, State]]]:
    """Fold a value along every shortest solution (`extend(value, move, state before it)` per move) and return
    each distinct final value with one solution that produces it. Solutions that reach a
    state with the same value are merged there, so the work grows with the number of
    distinct values, not with the number of solutions."""
    order = on_solutions(dag)
    if not order:
        return {}
    values: dict[State, dict[V, tuple[State, V, int] | None]] = {order[0]: {initial: None}}
    stored = 0
    for state in order[1:]:
        here: dict[V, tuple[State, V, int] | None] = {}
        for previous, move in dag.predecessors[state]:
            for value in values.get(previous, ()):
                following = extend(value, move, previous)
                if following not in here:
                    here[following] = (previous, value, move)
        values[state] = here
        stored += len(here)
        if stored > CHECK_EVERY:
            stored = 0
            limits.check(dag.states)
    found: dict[V, list[tuple[int, State]]] = {}
    for goal in dag.goals:
        for value in values.get(goal, {}):
            if value in found:
                continue
            path: list[tuple[int, State]] = []
            state, current = goal, value
            link = values[state][current]
            while link is not None:
                previous, before, move = link
                path.append((move, state))
                state, current = previous, before
                link = values[state][current]
            found[value] = path[::-1]
    return found


def shortest_dag(problem: Problem[Any], limits: Limits) -> ShortestDag:
    start = problem.start
    predecessors: dict[State, list[tuple[State, int]]] = {start: []}
    layer = [start]
    goals = [start] if problem.is_goal(start) else []
    budget = 0  # the first check comes after the first state: it arms the exact state limit
    try:
        while layer and not goals:
            following: dict[State, list[tuple[State, int]]] = {}
            for state in layer:
                seen_here = set()
                children = problem.expand(state)
                for child, move in children:
                    if child in seen_here:
                        continue
                    seen_here.add(child)
                    if child in following:
                        following[child].append((state, move))
                    elif child not in predecessors:
                        following[child] = [(state, move)]
                budget -= len(children) + 1
                if budget <= 0:
                    budget = limits.check(len(predecessors) + len(following))
            predecessors.update(following)
            layer = list(following)
            goals = [s for s in layer if problem.is_goal(s)]
    except (LimitReached, KeyboardInterrupt) as exc:
        reason = stop_reason(exc)
        return ShortestDag(LIMIT, len(predecessors), [], predecessors, reason)
    return ShortestDag(SOLVED if goals else NO_SOLUTION, len(predecessors), goals, predecessors)


def cheapest_dag(
    start: State,
    expand: Callable[[State], list[tuple[State, int, int]]],
    is_goal: Callable[[State], bool],
    limits: Limits,
) -> ShortestDag:
    """Uniform-cost search keeping every cheapest predecessor of each state. Costs are at least
    1, so a state's predecessors are all settled before it, and the links form a DAG."""
    cost: dict[State, int] = {start: 0}
    predecessors: dict[State, list[tuple[State, int]]] = {start: []}
    closed: dict[State, None] = {}  # in the order settled: every predecessor before its state
    queue: list[tuple[int, int, State]] = [(0, 0, start)]
    tie = 0
    best: int | None = None
    goals: list[State] = []
    budget = 0
    try:
        while queue:
            g, _, state = heapq.heappop(queue)
            if state in closed or g > cost[state]:
                continue
            if best is not None and g > best:
                break
            closed[state] = None
            if is_goal(state):
                best = g
                goals.append(state)
                continue
            children = expand(state)
            for child, move, step in children:
                new, old = g + step, cost.get(child)
                if old is None or new < old:
                    cost[child] = new
                    predecessors[child] = [(state, move)]
                    tie += 1
                    heapq.heappush(queue, (new, tie, child))
                elif new == old and child not in closed and all(p != state for p, _ in predecessors[child]):
                    predecessors[child].append((state, move))
            budget -= len(children) + 1
            if budget <= 0:
                budget = limits.check(len(cost), at=f"cost {g}")
    except (LimitReached, KeyboardInterrupt) as exc:
        return ShortestDag(LIMIT, len(cost), [], {}, stop_reason(exc))
    settled = {s: predecessors[s] for s in closed}
    return ShortestDag(SOLVED if goals else NO_SOLUTION, len(cost), goals, settled, cost=best)
