"""From a spec file to a search result: the one path every command takes."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .compiler import CompiledPuzzle, compile_puzzle
from .compiler.symmetry import Element
from .errors import Diagnostic, Pos, SpecError
from .language.elaborate import elaborate
from .language.parser import parse
from .model.puzzle import Puzzle
from .search import Limits, SearchResult, astar, bfs, bidirectional, cheapest, depth, layers, symmetry
from .search.limits import LimitReached, stop_reason
from .search.result import LIMIT, SOLVED, NotASymmetry
from .sources import read_source
from .trajectories import TrajectoryReport, distinct_trajectories

METHODS = ("auto", "bfs", "bidirectional", "astar", "idastar")


@dataclass
class Solved:
    compiled: CompiledPuzzle
    result: SearchResult
    spec_path: str
    trajectories: TrajectoryReport | None = None

    @property
    def puzzle(self) -> Puzzle:
        return self.compiled.puzzle


def load(path: str | Path, overrides: dict[str, str] | None = None) -> CompiledPuzzle:
    """Read, parse, elaborate with the parameters, and compile one spec."""
    source = read_source(path)
    spec = parse(source, str(path))
    try:
        return compile_puzzle(elaborate(spec, overrides))
    except SpecError as exc:
        raise exc.with_source(source, str(path)) from None


def _generators(compiled: CompiledPuzzle) -> list[tuple[str, Pos, Any]]:
    """The declared symmetries the compiler could not check: the search checks them."""
    group = compiled.symmetry
    if group is None or group.checked:
        return []
    return [(sym.name, sym.pos, image) for sym, image in group.generators]


def positioned(compiled: CompiledPuzzle, exc: SpecError) -> SpecError:
    """A mistake found during a search (a cell computed off the board, a division by zero, a
    symmetry that is not one), shown like every other: file, line, column, caret."""
    puzzle = compiled.puzzle
    return exc.with_source(puzzle.source, puzzle.filename) if puzzle.filename else exc


def search(
    compiled: CompiledPuzzle,
    count: bool = False,
    reach: bool = False,
    limits: Limits | None = None,
    method: str = "auto",
    mode: str | None = None,
    engine: str = "auto",
) -> SearchResult:
    """The answer to the question asked (or the spec's own), by the compiled kernel where it
    applies (`engine`: "auto", "python" or "compiled"; see `kernel.choose`), else in Python."""
    try:
        compiled_result = _on_kernel(compiled, count, reach, limits or Limits(), method, mode, engine)
        if compiled_result is not None:
            return compiled_result
        return _search(compiled, count, reach, limits, method, mode)
    except SpecError as exc:
        raise positioned(compiled, exc) from None


def kernel_unfit(compiled: CompiledPuzzle, count: bool, reach: bool, method: str, mode: str | None) -> str | None:
    """Why the compiled kernel does not answer this question on this puzzle (None: it does).
    It runs breadth-first searches (the shortest solution, counts, reachable states) and A*
    on puzzles of one word, and IDA* and `search cheapest` on states of any size; `search
    all` walks are chosen in `solutions`."""
    mode = mode or compiled.puzzle.search
    layered = count or reach or mode in ("count", "reach")
    if mode == "cheapest":
        if reach:
            return "--reach with `search cheapest` is refused"
        from .kernel import why_not_cheapest

        return why_not_cheapest(compiled, count)
    if mode == "all" and not layered:
        return "this spec asks `search all`, which the kernel does not run"
    if mode == "any" and not layered:
        from .kernel import why_not_any

        return why_not_any(compiled)
    if _by_astar(compiled, count, reach, method, mode):
        from .kernel import why_not_astar

        return why_not_astar(compiled)
    if method == "idastar" and not layered and mode == "shortest":
        from .kernel import why_not_idastar

        return why_not_idastar(compiled)
    if _by_bidirectional(compiled, count, reach, method, mode):
        from .kernel import why_not_bidirectional

        return why_not_bidirectional(compiled)
    if not layered and method not in ("bfs", "auto"):
        return f"--method {method} runs in Python; the kernel searches breadth first, from both ends or with A*"
    from . import kernel

    return kernel.why_not_layers(compiled, layered, solutions=count or mode == "count")


def _by_astar(compiled: CompiledPuzzle, count: bool, reach: bool, method: str, mode: str | None) -> bool:
    """Whether the question is the shortest solution searched with A* (as `_search` picks it)."""
    mode = mode or compiled.puzzle.search
    if count or reach or mode != "shortest":
        return False
    return method == "astar" or (method == "auto" and compiled.estimate is not None)


def _by_bidirectional(compiled: CompiledPuzzle, count: bool, reach: bool, method: str, mode: str | None) -> bool:
    """Whether the question is the shortest solution searched from both ends (as `_search`
    picks it: a goal that is one state, moves that can all be undone)."""
    mode = mode or compiled.puzzle.search
    if count or reach or mode != "shortest" or _by_astar(compiled, count, reach, method, mode):
        return False
    return method == "bidirectional" or (method == "auto" and compiled.goal_state is not None and compiled.invertible)


def _on_kernel(
    compiled: CompiledPuzzle,
    count: bool,
    reach: bool,
    limits: Limits,
    method: str,
    mode: str | None,
    engine: str,
) -> SearchResult | None:
    """The kernel's answer where it gives one, else None: the Python engine answers. Where
    the choice is left to puzint, the Python engine tries first, and a search it has not
    finished after `kernel.PROBE_STATES` states is run again on the kernel."""
    if engine == "python" or kernel_unfit(compiled, count, reach, method, mode) is not None:
        return None
    from . import kernel

    mode = mode or compiled.puzzle.search
    where = kernel.choose(compiled, engine, any_width=True)  # kernel_unfit has said which searches fit
    if where == "python":
        return None
    if where == "probe":
        probe = kernel.probe_limits(limits)
        if probe is None:
            return None
        first = _search(compiled, count, reach, probe, method, mode)
        if not kernel.probed_out(probe, first.status):
            return first
    from .kernel.search import HandOver, check_moves
    from .kernel.searches import astar, explore, shortest

    count, reach = count or mode == "count", reach or mode == "reach"
    group = compiled.symmetry
    by_tables = _by_bidirectional(compiled, count, reach, method, mode) or (
        not _by_astar(compiled, count, reach, method, mode)
        and method in ("auto", "bfs")
        and mode not in ("any", "cheapest")
    )
    kernel.announce(compiled, limits, machine=not by_tables)  # where the tables do not fit, the machine
    started = time.monotonic()
    result: SearchResult | None = None
    try:
        if mode == "any" and not (count or reach):
            from .kernel.any_solution import any_solution

            result = any_solution(compiled, limits, symmetric=group is not None and group.checked)
        elif mode == "cheapest":
            from .kernel.best_first import cheapest as kernel_cheapest

            estimate = compiled.estimate is not None and not count and method != "bfs"
            result = kernel_cheapest(compiled, limits, estimate, count)
        elif _by_astar(compiled, count, reach, method, mode):
            result = astar(compiled, limits)
        elif method == "idastar":
            from .kernel.idastar import idastar

            result = idastar(compiled, limits)
        elif _by_bidirectional(compiled, count, reach, method, mode):
            from .kernel import bidirectional

            result = bidirectional.shortest(compiled, limits)
        elif not (count or reach):
            result = shortest(compiled, limits)
        else:
            unchecked = [(sym.name, sym.pos, sym) for sym, _ in group.generators] if group and not group.checked else []
            result = explore(compiled, limits, count, reach, orbits=True, generators=unchecked)
            if group is not None and count and result.length is not None and result.count is not None:

                def checked() -> list[Element]:
                    if unchecked:
                        check_moves(compiled, limits, unchecked)
                    return _candidates(compiled)  # goals given by conditions: the kernel declines (why_not_layers)

                def fixed(element: Element) -> tuple[int | None, int | None]:
                    found = explore(compiled, limits, count=True, keep=element)
                    return (found.length, found.count) if found.status == SOLVED else (None, None)

                _up_to_symmetry(compiled, limits, result, result.length, checked, fixed)
    except HandOver:
        return None  # a count or a cost past 64 bits, a move of cost 0 met counting: Python answers
    except (LimitReached, KeyboardInterrupt) as exc:
        if result is None:  # while the kernel was being compiled: nothing searched yet
            result = SearchResult(LIMIT, 0, limit_reason=stop_reason(exc), method="compiling the search kernel")
        else:  # while counting up to symmetry
            result.status, result.limit_reason = LIMIT, stop_reason(exc)
    result.seconds = time.monotonic() - started
    return result


def _search(
    compiled: CompiledPuzzle,
    count: bool,
    reach: bool,
    limits: Limits | None,
    method: str,
    mode: str | None,
) -> SearchResult:
    """Pick the search that answers the question asked, and run it.

    The question is the spec's `search` directive unless a caller asks another one. Counting
    and reachability need every layer, so they use the layered search; the cheapest
    solution uses uniform-cost search (A* with a heuristic); `any` searches depth first; a
    plain shortest solution uses A* with a heuristic, bidirectional search when the goal is
    one state and every move can be undone, and plain breadth-first search otherwise."""
    limits = limits or Limits()
    started = time.monotonic()
    mode = mode or compiled.puzzle.search
    if mode == "count":
        count = True
    if mode == "reach":
        reach = True
    group = compiled.symmetry
    generators = _generators(compiled)
    if mode == "cheapest":
        result = _cheapest(compiled, limits, count, reach, method)
    elif mode == "any" and not (count or reach):
        canonical = group.canonical if group is not None and group.checked else None
        result = depth.any_solution(compiled, limits, canonical, compiled.in_reading_order)
    elif count or reach:
        canonical = group.canonical if group is not None else None
        verify = (lambda states: symmetry.check_closed(states, generators, "reachable states")) if generators else None
        result = layers.explore(compiled, limits, count=count, exhaustive=reach, canonical=canonical, verify=verify)
        if group is not None and count and result.length is not None and result.count is not None:

            def fixed(element: Element) -> tuple[int | None, int | None]:
                found = layers.explore(compiled, limits, count=True, keep=cheapest.fixed_by(element.image))
                return (found.length, found.count) if found.status == SOLVED else (None, None)

            _up_to_symmetry(compiled, limits, result, result.length, lambda: _checked(compiled, limits), fixed)
    elif method in ("astar", "idastar") or (method == "auto" and compiled.estimate is not None):
        if compiled.estimate is None:
            raise SpecError([Diagnostic(Pos(0, 0), f"--method {method} needs a `heuristic` line in the spec")])
        search_with = astar.idastar if method == "idastar" else astar.astar
        result = search_with(compiled, compiled.estimate, limits)
    elif method == "bidirectional" or (method == "auto" and compiled.goal_state is not None and compiled.invertible):
        if compiled.goal_state is None or not compiled.invertible:
            raise SpecError(
                [
                    Diagnostic(
                        Pos(0, 0), "bidirectional search needs a goal that is one state and moves that can be undone"
                    )
                ]
            )
        result = bidirectional.shortest(compiled, limits)
    else:
        result = bfs.shortest(compiled, limits)
    result.seconds = time.monotonic() - started
    return result


def _cheapest(compiled: CompiledPuzzle, limits: Limits, count: bool, reach: bool, method: str) -> SearchResult:
    if reach:
        raise SpecError(
            [Diagnostic(Pos(0, 0), "--reach counts states; with `search cheapest`, ask for --count instead")]
        )
    # counting needs every cheapest predecessor before a state: plain uniform cost does that
    estimate = compiled.estimate if not count and method != "bfs" else None
    result = cheapest.cheapest(compiled.start, compiled.expand_costed, compiled.is_goal, limits, estimate, count)
    group = compiled.symmetry
    if group is not None and count and result.status == SOLVED and result.count is not None:

        def fixed(element: Element) -> tuple[int | None, int | None]:
            keep = cheapest.fixed_by(element.image)
            found = cheapest.cheapest(
                compiled.start, compiled.expand_costed, compiled.is_goal, limits, None, True, keep
            )
            return (found.cost, found.count) if found.status == SOLVED else (None, None)

        _up_to_symmetry(compiled, limits, result, result.cost or 0, lambda: _checked(compiled, limits, True), fixed)
    return result


def _candidates(compiled: CompiledPuzzle) -> list[Element]:
    """The symmetries (but the identity) that fix the start and the goal's cells and places."""
    group = compiled.symmetry
    assert group is not None
    return [e for e in group.solution_symmetries if e is not group.elements[0]]


def _checked(compiled: CompiledPuzzle, limits: Limits, costed: bool = False) -> list[Element]:
    """The symmetries Burnside's count runs over, each checked where the compiler could not:
    the declared ones must map every reachable state's moves onto its image's (each onto a
    move of the same cost, `costed`), else NotASymmetry; where the goal is given by
    conditions, only the symmetries that map goals to goals (and nothing else to a goal) on
    the reachable states are kept."""
    candidates = _candidates(compiled)
    generators = _generators(compiled)
    conditions = bool(compiled.puzzle.goal.conditions)
    if not generators and not (conditions and candidates):
        return candidates
    states: dict[Any, Any] = {}
    found = layers.explore(compiled, limits, exhaustive=True, verify=states.update)
    if found.status == LIMIT:
        raise LimitReached(found.limit_reason or "a limit was reached")
    if generators:
        symmetry.check_moves(compiled, states, generators, compiled.expand_costed if costed else None)
    if conditions:
        kept = symmetry.keeping_goals(compiled.is_goal, states, [e.image for e in candidates])
        candidates = [e for e in candidates if e.image in kept]
    return candidates


def _up_to_symmetry(
    compiled: CompiledPuzzle,
    limits: Limits,
    result: SearchResult,
    size: int,
    elements: Callable[[], list[Element]],
    fixed: Callable[[Element], tuple[int | None, int | None]],
) -> None:
    """Burnside's count of the solutions up to symmetry, into the result: over the symmetries
    `elements()` gives (checking them), `fixed(element)` counting the solutions that element
    leaves unchanged (with their length or cost, `size` for the solutions counted). Where a
    declared symmetry is not one, the count is not given and the reason is; where a limit
    stops the checks or the counts, the result says so."""
    assert result.count is not None
    try:
        others = elements()
        result.count_up_to_symmetry = symmetry.count_up_to_symmetry(
            compiled,
            limits,
            size,
            result.count,
            [e.image for e in others],
            lambda i, _: fixed(others[i]),
        )
    except NotASymmetry as exc:
        result.symmetry_note = exc.reason()
    except (LimitReached, KeyboardInterrupt) as exc:
        result.status, result.limit_reason = LIMIT, stop_reason(exc)


def run(
    path: str | Path,
    overrides: dict[str, str] | None = None,
    count: bool = False,
    reach: bool = False,
    limits: Limits | None = None,
    method: str = "auto",
    distinct: str | None = None,
    engine: str = "auto",
) -> Solved:
    compiled = load(path, overrides)
    return solve(compiled, str(path), count, reach, limits, method, distinct, engine)


def solve(
    compiled: CompiledPuzzle,
    path: str,
    count: bool = False,
    reach: bool = False,
    limits: Limits | None = None,
    method: str = "auto",
    distinct: str | None = None,
    engine: str = "auto",
) -> Solved:
    """The solution (and whatever else was asked) of an already compiled spec."""
    limits = limits or Limits()
    started = time.monotonic()
    result = search(compiled, count=count, reach=reach, limits=limits, method=method, engine=engine)
    solved = Solved(compiled, result, str(path))
    if distinct == "trajectories" and compiled.puzzle.board is None:
        raise SpecError(
            [
                Diagnostic(
                    Pos(0, 0), "--distinct trajectories follows pieces from cell to cell: it needs a board of cells"
                )
            ]
        )
    if distinct == "trajectories" and result.status == SOLVED:
        try:
            solved.trajectories = distinct_trajectories(compiled, limits)
        except SpecError as exc:
            raise positioned(compiled, exc) from None
        if solved.trajectories.status == LIMIT:
            result.status, result.limit_reason = LIMIT, solved.trajectories.limit_reason
        result.seconds = time.monotonic() - started
    return solved
