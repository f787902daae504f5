"""The Python engine: the reference searches of `search/`, on the compiled puzzle's own
successor functions. It answers every question; the others are checked against it."""

from __future__ import annotations

import time
from collections.abc import Iterator

from ..compiler import CompiledPuzzle
from ..compiler.families import FillFamily
from ..compiler.families.fill import Inexpressible
from ..compiler.symmetry import Element
from ..errors import Diagnostic, Pos, SpecError
from ..search import (
    Limits,
    SearchResult,
    astar,
    bfs,
    bidirectional,
    cheapest,
    cover,
    depth,
    fill,
    layers,
    propagation,
    symmetry,
)
from ..search.backward import Backward, forwards
from ..search.result import SOLVED
from .base import Path
from .objective import best_solutions
from .query import Query
from .symmetric import checked_in_python, count_up_to_symmetry, unchecked


class PythonEngine:
    name = "python"
    summary = "the reference searches, in Python: every question, on every puzzle"

    def why_not(self, compiled: CompiledPuzzle, query: Query) -> str | None:
        return None

    def search(self, compiled: CompiledPuzzle, query: Query, limits: Limits) -> SearchResult:
        """Pick the search that answers the question, and run it. Counting and reachability
        need every layer (the layered search; the shortest solutions to one goal state by moves
        that can all be undone are counted from both ends); the cheapest solution, uniform cost
        (A* with a heuristic); `any`, depth first; a plain shortest solution, A* with a
        heuristic, from both ends when the goal is one state and every move can be undone,
        else breadth first."""
        started = time.monotonic()
        group = compiled.symmetry
        filling = compiled.filling
        if query.mode == "cheapest":
            result = _cheapest(compiled, limits, query)
        elif filling is not None and query.mode == "any" and not query.layered:
            result = _one_filling(compiled, limits)
        elif query.mode == "any" and not query.layered:
            canonical = group.canonical if group is not None and group.checked and group.keeps_goal else None
            result = depth.any_solution(compiled, limits, canonical, compiled.in_search_order)
        elif query.from_goal:
            result = _to_goal(compiled, limits)
        elif query.counts_from_both_ends(compiled):
            result = bidirectional.count(compiled, limits)
        elif query.layered:
            result = _layered(compiled, limits, query)
        elif query.method in ("astar", "idastar") or query.by_astar(compiled):
            if compiled.estimate is None:
                raise SpecError(
                    [Diagnostic(Pos(0, 0), f"--method {query.method} needs a `heuristic` line in the spec")]
                )
            search_with = astar.idastar if query.method == "idastar" else astar.astar
            result = search_with(compiled, compiled.estimate, limits, compiled.dead)
        elif query.method == "bidirectional" or query.by_bidirectional(compiled):
            if compiled.goal_state is None or not compiled.invertible:
                raise SpecError(
                    [
                        Diagnostic(
                            Pos(0, 0),
                            "bidirectional search needs a goal that is one state and moves that can be undone",
                        )
                    ]
                )
            result = bidirectional.shortest(compiled, limits)
        else:
            result = bfs.shortest(compiled, limits)
        result.seconds = time.monotonic() - started
        return result

    def goal_states(self, compiled: CompiledPuzzle, limits: Limits, visited: list[int], moves: bool) -> Iterator[Path]:
        """A logic puzzle's solutions by its own searches (`logic_solutions`); any other
        puzzle's goal states by the depth-first walk."""
        if compiled.filling is not None:
            return logic_solutions(compiled, limits, visited)
        return depth.all_goal_states(compiled, limits, visited, order=_guided(compiled))

    def statistics(self) -> dict[str, object] | None:
        return None

    def count_goal_states(self, compiled: CompiledPuzzle, limits: Limits, counter: list[int]) -> None:
        filling = compiled.filling
        if isinstance(filling, FillFamily) and not compiled.puzzle.safety and compiled.puzzle.objective is None:
            model = fill_model(compiled)
            if model is not None:
                propagation.count_fillings(model, limits, counter)
            else:
                fill.count_fillings(filling.problem(compiled.start), limits, counter)
            return
        visited = [0]
        walk = logic_solutions if filling is not None else depth.all_goal_states  # counted: in any order
        try:
            for _ in walk(compiled, limits, visited):
                counter[1] += 1
        finally:
            counter[0] = visited[0]


def _guided(compiled: CompiledPuzzle) -> depth.Order | None:
    """The order of the walk of every goal state: the heuristic's, where the spec gives one."""
    return compiled.by_heuristic if compiled.estimate is not None else None


def _one_filling(compiled: CompiledPuzzle, limits: Limits) -> SearchResult:
    """A filling's first solution (`search any`), and whether it is the only one."""
    visited = [0]
    method = "exact cover" if compiled.tiling is not None else "fill search"
    return fill.first_and_whether_unique(logic_solutions(compiled, limits, visited), visited, method)


def fill_model(compiled: CompiledPuzzle) -> propagation.Model | None:
    """The kernel's model of a filling, for the propagating fill search: made once per puzzle
    (`translate` keeps it, and the kernel's search beside this one takes the same). None
    where it cannot say a rule, or where numpy, which its tables are made of, is missing
    (no numba build here): the fill search of forward checking answers then."""
    try:
        from ..kernel.fill.fill_model import translate
    except ImportError:
        return None
    try:
        return translate(compiled)
    except Inexpressible:
        return None


def logic_solutions(compiled: CompiledPuzzle, limits: Limits, visited: list[int]) -> Iterator[Path]:
    """A logic puzzle's solutions, each as the state-space walk's path to it: a filling's by
    the propagating fill search where the kernel's model says its rules, else by the fill
    search of forward checking (which takes any rule); a tiling's by exact cover. A filling
    with safety rules, which hold of every partial filling in reading order, by the fill
    search of forward checking deciding the things in that order. With an
    objective, only the best of them, once the walk has found every one."""
    return iter(best_solutions(compiled, _logic_solutions(compiled, limits, visited)))


def _logic_solutions(compiled: CompiledPuzzle, limits: Limits, visited: list[int]) -> Iterator[Path]:
    filling = compiled.filling
    if isinstance(filling, FillFamily):
        problem = filling.problem(compiled.start)
        if compiled.puzzle.safety:
            return fill.fillings(problem, limits, visited, in_reading_order=True)
        model = fill_model(compiled)
        if model is not None:
            return propagation.fillings(model, problem.path, limits, visited)
        return fill.fillings(problem, limits, visited)
    assert filling is not None
    rows, columns = filling.exact_cover()
    return (filling.path(compiled.start, chosen) for chosen in cover.exact_covers(rows, columns, limits, visited))


def _layered(compiled: CompiledPuzzle, limits: Limits, query: Query) -> SearchResult:
    group = compiled.symmetry
    generators = unchecked(compiled)
    canonical = group.canonical if group is not None else None
    verify = (lambda states: symmetry.check_closed(states, generators, "reachable states")) if generators else None
    result = layers.explore(
        compiled, limits, count=query.count, exhaustive=query.reach, canonical=canonical, verify=verify
    )
    if group is not None and query.count and result.length is not None and result.count is not None:

        def fixed(element: Element) -> tuple[int | None, int | None]:
            found = layers.explore(compiled, limits, count=True, keep=cheapest.fixed_by(element.image))
            return (found.length, found.count) if found.status == SOLVED else (None, None)

        count_up_to_symmetry(
            compiled, limits, result, result.length, lambda: checked_in_python(compiled, limits), fixed
        )
    return result


def _cheapest_and_reachable(compiled: CompiledPuzzle, limits: Limits) -> SearchResult:
    """`--reach` on a puzzle with costs: which states can be reached does not depend on what
    moves cost, so the layers by moves say the reachable states (and how many moves away the
    farthest is); the solution given is the cheapest, from a search by cost."""
    reached = layers.explore(compiled, limits, exhaustive=True)
    if reached.status != SOLVED:
        return reached
    result = cheapest.cheapest(
        compiled.start, compiled.expand_costed, compiled.is_goal, limits, compiled.estimate, dead=compiled.dead
    )
    result.reachable, result.reachable_goals = reached.reachable, reached.reachable_goals
    result.layers, result.farthest = reached.layers, reached.farthest
    result.states += reached.states
    result.method = f"{reached.method}, then {result.method}"
    return result


def _to_goal(compiled: CompiledPuzzle, limits: Limits) -> SearchResult:
    """Every state that can reach the goal, layer by layer from it; the start's shortest
    solution read off the same layers."""
    result = layers.explore(Backward(compiled), limits, exhaustive=True)
    result.method = f"{result.method} from the goal"  # as the kernel names it
    result.to_goal = True
    result.reachable_goals = None  # the one goal: where the layers start
    if result.status == SOLVED:
        result.path = forwards(result.path, compiled.goal_state)
    return result


def _cheapest(compiled: CompiledPuzzle, limits: Limits, query: Query) -> SearchResult:
    if query.reach:
        return _cheapest_and_reachable(compiled, limits)
    # counting needs every cheapest predecessor before a state: plain uniform cost does that
    estimate = compiled.estimate if not query.count and query.method != "bfs" else None
    result = cheapest.cheapest(
        compiled.start, compiled.expand_costed, compiled.is_goal, limits, estimate, query.count, dead=compiled.dead
    )
    group = compiled.symmetry
    if group is not None and query.count and result.status == SOLVED and result.count is not None:

        def fixed(element: Element) -> tuple[int | None, int | None]:
            keep = cheapest.fixed_by(element.image)
            found = cheapest.cheapest(
                compiled.start, compiled.expand_costed, compiled.is_goal, limits, None, True, keep
            )
            return (found.cost, found.count) if found.status == SOLVED else (None, None)

        size = result.cost or 0
        count_up_to_symmetry(compiled, limits, result, size, lambda: checked_in_python(compiled, limits, True), fixed)
    return result
