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
    """Every shortest (cheapest) path from the start: for each state, its predecessors on
    one. A solution is a path from the start to a goal state that never repeats a state (and
    ends at the first goal it meets). With moves of cost 0 the links may form loops (states
    of the same cost that lead to each other): the solutions are then the paths of the graph
    that never come back to a state, and are counted as such (`count_paths`)."""

    status: str
    states: int
    goals: list[State]
    predecessors: dict[State, list[tuple[State, int]]]
    limit_reason: str | None = None
    cost: int | None = None  # of every solution, when moves have costs
    start: State | None = None
    level_links: bool = False  # some link joins two states of the same cost (a move of cost 0): loops may form

    def paths(self) -> Iterator[list[tuple[int, State]]]:
        """Every solution as [(move, state after it), ...], depth first."""
        for goal in self.goals:
            yield from self._paths_to(goal)

    def _paths_to(self, goal: State) -> Iterator[list[tuple[int, State]]]:
        """Walked back from the goal; where loops may form, a state already on the path is
        not entered again."""
        loops = self.level_links
        stack: list[tuple[State, list[tuple[int, State]], frozenset[State]]] = [(goal, [], frozenset([goal]))]
        while stack:
            state, suffix, on_path = stack.pop()
            if state == self.start:
                yield suffix[::-1]
                continue
            for previous, move in self.predecessors[state]:
                if not loops:
                    stack.append((previous, [*suffix, (move, state)], on_path))
                elif previous not in on_path:
                    stack.append((previous, [*suffix, (move, state)], on_path | {previous}))


V = TypeVar("V", bound=Hashable)


def on_solutions(dag: ShortestDag) -> list[State]:
    """The states that lie on some solution, every state after its predecessors, the start
    first (for a graph without loops: see `is_acyclic`)."""
    assert dag.start is not None
    parts = _strongly_connected(dag.start, _reaching(dag.goals, dag.predecessors), dag.predecessors)
    return [state for part in parts for state in part]


def count_solutions(dag: ShortestDag, limits: Limits | None = None) -> int:
    assert dag.start is not None
    return count_paths(dag.start, dag.goals, dag.predecessors, limits)


def count_paths(
    start: State, goals: list[State], predecessors: dict[State, list[tuple[State, int]]], limits: Limits | None = None
) -> int:
    """The paths from `start` to the goals that never repeat a state, along the links of
    `predecessors`. Where the links form no loop, each state's paths are the sum of its
    predecessors' (in an order that puts every predecessor first). A loop (moves of cost 0)
    is a strongly connected part of the graph, which a path that never comes back enters
    once and leaves once: its paths are counted inside it, from each state where it is
    entered to each of its states, by walking them (`_paths_inside`)."""
    useful = _reaching(goals, predecessors)
    ways: dict[State, int] = {}
    for part in _strongly_connected(start, useful, predecessors):
        if len(part) == 1:
            (state,) = part
            ways[state] = 1 if state == start else sum(ways.get(p, 0) for p, _ in predecessors[state] if p != state)
            continue
        members = set(part)
        inside = {state: 0 for state in part}
        for entry in part:
            inflow = (1 if entry == start else 0) + sum(
                ways.get(p, 0) for p, _ in predecessors[entry] if p not in members
            )
            if inflow:
                for state, paths in _paths_inside(entry, members, predecessors, limits).items():
                    inside[state] += inflow * paths
        ways.update(inside)
    return sum(ways.get(g, 0) for g in dict.fromkeys(goals))


def _reaching(goals: list[State], predecessors: dict[State, list[tuple[State, int]]]) -> set[State]:
    """The states from which a goal can be reached along the links."""
    useful = set(goals)
    stack = list(goals)
    while stack:
        for previous, _ in predecessors[stack.pop()]:
            if previous not in useful:
                useful.add(previous)
                stack.append(previous)
    return useful


def _strongly_connected(
    start: State, useful: set[State], predecessors: dict[State, list[tuple[State, int]]]
) -> list[list[State]]:
    """The strongly connected parts of the graph of the useful states, every part after the
    parts that lead to it (Tarjan's algorithm, without recursion)."""
    following: dict[State, list[State]] = {state: [] for state in useful}
    for state in useful:
        for previous, _ in predecessors[state]:
            if previous in useful and previous != state:
                following[previous].append(state)
    index: dict[State, int] = {}
    low: dict[State, int] = {}
    on_stack: set[State] = set()
    stack: list[State] = []
    parts: list[list[State]] = []
    roots = [start] if start in useful else []
    roots += [s for s in useful if s != start]
    for root in roots:
        if root in index:
            continue
        work: list[tuple[State, int]] = [(root, 0)]
        while work:
            state, i = work.pop()
            if i == 0:
                index[state] = low[state] = len(index)
                stack.append(state)
                on_stack.add(state)
            children = following[state]
            if i < len(children):
                work.append((state, i + 1))
                child = children[i]
                if child not in index:
                    work.append((child, 0))
                elif child in on_stack:
                    low[state] = min(low[state], index[child])
                continue
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[state])
            if low[state] == index[state]:
                part = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    part.append(member)
                    if member == state:
                        break
                parts.append(part)
    parts.reverse()
    return parts


def _paths_inside(
    entry: State, members: set[State], predecessors: dict[State, list[tuple[State, int]]], limits: Limits | None
) -> dict[State, int]:
    """How many paths that never repeat a state lead from `entry` to each state of a strongly
    connected part, inside it: walked one by one (a part is a loop of moves of cost 0, small
    in the puzzles that have one; there may be exponentially many such paths in a large one,
    and the limits are checked as the walk goes, each path a state visited)."""
    following: dict[State, list[State]] = {state: [] for state in members}
    for state in members:
        for previous, _ in predecessors[state]:
            if previous in members and previous != state and state not in following[previous]:
                following[previous].append(state)
    paths = dict.fromkeys(members, 0)
    walk: list[tuple[State, frozenset[State]]] = [(entry, frozenset([entry]))]
    walked, budget = 0, CHECK_EVERY
    while walk:
        state, on_path = walk.pop()
        paths[state] += 1
        walked, budget = walked + 1, budget - 1
        if budget <= 0 and limits is not None:
            budget = limits.check(walked, stored=False, at="counting paths through moves of cost 0")
        walk.extend((child, on_path | {child}) for child in following[state] if child not in on_path)
    return paths


def is_acyclic(dag: ShortestDag) -> bool:
    """Whether the solutions' links form no loop (moves of cost 0 between states of one cost)."""
    if not dag.level_links:
        return True
    assert dag.start is not None
    useful = _reaching(dag.goals, dag.predecessors)
    return all(len(part) == 1 for part in _strongly_connected(dag.start, useful, dag.predecessors))


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


def distinct_values_by_paths(
    dag: ShortestDag,
    initial: V,
    extend: Callable[[V, int, State], V],
    limits: Limits,
) -> dict[V, list[tuple[int, State]]]:
    """As `distinct_values`, on a graph with loops: each solution walked on its own (two
    solutions cannot be merged at a state they share, as one may have passed by a state the
    other still needs)."""
    found: dict[V, list[tuple[int, State]]] = {}
    budget = CHECK_EVERY
    for path in dag.paths():
        value, before = initial, dag.start
        for move, after in path:
            value = extend(value, move, before)
            before = after
        found.setdefault(value, path)
        budget -= len(path) + 1
        if budget <= 0:
            budget = CHECK_EVERY
            limits.check(dag.states)
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
        return ShortestDag(LIMIT, len(predecessors), [], predecessors, reason, start=start)
    return ShortestDag(SOLVED if goals else NO_SOLUTION, len(predecessors), goals, predecessors, start=start)


def cheapest_dag(
    start: State,
    expand: Callable[[State], list[tuple[State, int, int]]],
    is_goal: Callable[[State], bool],
    limits: Limits,
) -> ShortestDag:
    """Uniform-cost search keeping every cheapest predecessor of each state: every state of
    the cheapest cost or less is settled, and a link is kept wherever a settled state's
    cost plus the move's is the cost of the state it leads to, even when that state was
    settled first (a move of cost 0 between two states of the same cost). A goal state is
    not expanded: a solution ends at the first goal it meets."""
    cost: dict[State, int] = {start: 0}
    predecessors: dict[State, list[tuple[State, int]]] = {start: []}
    closed: dict[State, None] = {}
    queue: list[tuple[int, int, State]] = [(0, 0, start)]
    tie = 0
    best: int | None = None
    goals: list[State] = []
    level_links = False
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
                elif new == old and child != state and (not predecessors[child] or predecessors[child][-1][0] != state):
                    predecessors[child].append((state, move))
                level_links = level_links or (step == 0 and child != state)
            budget -= len(children) + 1
            if budget <= 0:
                budget = limits.check(len(cost), at=f"cost {g}")
    except (LimitReached, KeyboardInterrupt) as exc:
        return ShortestDag(LIMIT, len(cost), [], {}, stop_reason(exc), start=start)
    settled = {s: [(p, m) for p, m in predecessors[s] if p in closed] for s in closed}
    found = SOLVED if goals else NO_SOLUTION
    return ShortestDag(found, len(cost), goals, settled, cost=best, start=start, level_links=level_links)
