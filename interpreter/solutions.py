"""Every solution of a puzzle, streamed.

Two questions share the name "all solutions", and the spec says which it asks:

- a puzzle that asks `search all` (placements: queens, a magic square) wants every goal
  state that can be reached, found depth first (`search.depth.all_goal_states`);
- any other puzzle is a puzzle of moves, where "every solution" means every *shortest* (or,
  with costs, every cheapest) sequence of moves: they are walked back from the goal states
  through the graph of shortest paths (`search.dag`), one at a time, never all stored.

With symmetries declared, symmetric solutions are one solution: one of each class is listed,
and both the classes and the solutions in all are counted (for goal states, the set found
must then be closed under the symmetries, which is checked)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from . import plan
from .compiler import CompiledPuzzle
from .compiler.families import FillFamily
from .compiler.symmetry import SymmetryGroup
from .engines import RunOptions
from .errors import Diagnostic, SpecError
from .runner import positioned
from .search import Limits
from .search.dag import ShortestDag, cheapest_dag, count_solutions, shortest_dag
from .search.limits import LimitReached, stop_reason
from .search.result import LIMIT, NO_SOLUTION, SOLVED

if TYPE_CHECKING:
    from .compiler.fill_symmetry import BrokenRule
    from .model.puzzle import Puzzle, Symmetry

FILLING_METHODS = {"python": "fill search", "compiled": "fill search, compiled", "cpsat": "CP-SAT"}
TILING_METHODS = {"python": "exact cover", "compiled": "exact cover, compiled", "cpsat": "CP-SAT"}

Path = list[tuple[int, bytes]]


@dataclass
class AllSolutions:
    status: str = NO_SOLUTION
    count: int = 0  # solutions listed: one of each class when the spec declares symmetries
    in_all: int = 0  # every solution, symmetric ones included
    states: int = 0
    seconds: float = 0.0
    solutions: list[Path] = field(default_factory=list)
    symmetric: bool = False
    limit_reason: str | None = None
    stopped_at_limit: bool = False  # --limit K reached: the count is a lower bound
    method: str = "depth-first enumeration"
    engine: str = "python"  # the engine that answered
    tried_first: str | None = None  # the engine tried first, where the plan moved on
    tried_first_stopped: str | None = None  # ... and why it did not answer
    chosen: str | None = None  # why `auto` asked `engine` alone, with no race (plan.memory)
    statistics: dict[str, object] | None = None  # a solver's own figures
    length: int | None = None  # moves of every solution, when all are shortest
    cost: int | None = None  # of every solution, when all are cheapest
    total: int | None = None  # shortest solutions in all, listed or not (counted on the graph)
    optimum: int | None = None  # a filling's objective: the best value, every solution's
    objective: str = ""  # ... as the output says it (`largest MONEY = 10876`)
    symmetry_note: str | None = None  # why the solutions are not listed up to symmetry, or why their classes are unsure
    broken: BrokenRule | None = None  # a filling without a solution: the rule its givens alone break

    def listed(self, path: Path, keep: bool, on_solution: Callable[[Path], None] | None, limit: int | None) -> bool:
        """Count one solution listed (keep it, hand it on); True when --limit says stop."""
        self.count += 1
        if keep:
            self.solutions.append(path)
        if on_solution is not None:
            on_solution(path)
        self.stopped_at_limit = limit is not None and self.count >= limit
        return self.stopped_at_limit


def enumerate_solutions(
    compiled: CompiledPuzzle,
    limits: Limits,
    limit: int | None = None,
    keep: bool = True,
    on_solution: Callable[[Path], None] | None = None,
    options: RunOptions | None = None,
    moves: bool = True,
) -> AllSolutions:
    """Walk every solution; keep them (or only count them) and call `on_solution` for each
    one listed. A mistake found on the way is reported at its place in the spec. The walk
    runs as the plan says (`options`: the engine asked for, the workers; see `plan`).
    Without `moves` (a caller that shows only each goal state), a solution the kernel found
    may be given as its goal state alone: a path of one step, its move `search.depth.NO_MOVE`."""
    try:
        report = _enumerate(compiled, limits, limit, keep, on_solution, options or RunOptions(), moves)
    except SpecError as exc:
        raise positioned(compiled, exc) from None
    if report.status == NO_SOLUTION:
        report.broken = broken_rule(compiled)
    return report


def broken_rule(compiled: CompiledPuzzle) -> BrokenRule | None:
    """The piece of a rule a filling's givens alone break (`fill_symmetry.broken_by_givens`:
    why it has no solution), or None (not a filling, or no piece is broken by the givens)."""
    filling = compiled.filling
    if not isinstance(filling, FillFamily):
        return None
    from .compiler.fill_symmetry import broken_by_givens  # see `_broken_on`

    return broken_by_givens(compiled.puzzle, filling, compiled.start)


def enumerate_shortest(
    compiled: CompiledPuzzle,
    limits: Limits,
    limit: int | None = None,
    keep: bool = True,
    on_solution: Callable[[Path], None] | None = None,
) -> AllSolutions:
    """Every shortest solution (every cheapest one when moves have costs), listed from the
    graph of shortest paths. With symmetries, a solution is listed when its states, read in
    order, come first among the images of its class, so no class is remembered."""
    try:
        return _enumerate_shortest(compiled, limits, limit, keep, on_solution)
    except SpecError as exc:
        raise positioned(compiled, exc) from None


def _enumerate_shortest(
    compiled: CompiledPuzzle,
    limits: Limits,
    limit: int | None,
    keep: bool,
    on_solution: Callable[[Path], None] | None,
) -> AllSolutions:
    group = compiled.symmetry
    started = time.monotonic()
    costed = compiled.puzzle.search == "cheapest"
    method = "cheapest-path graph" if costed else "shortest-path graph"
    report = AllSolutions(symmetric=group is not None, method=method)
    dag: ShortestDag
    if costed:
        dag = cheapest_dag(compiled.start, compiled.expand_costed, compiled.is_goal, limits)
    else:
        dag = shortest_dag(compiled, limits)
    report.states = dag.states
    if dag.status != SOLVED:
        report.status, report.limit_reason = dag.status, dag.limit_reason
        report.seconds = time.monotonic() - started
        return report
    images = [e.image for e in group.solution_symmetries if e is not group.elements[0]] if group else []
    try:
        report.total = count_solutions(dag, limits)
        for path in dag.paths():
            report.length = len(path)
            report.in_all += 1
            if images and not _first_of_class(compiled.start, path, images):
                continue
            if report.listed(path, keep, on_solution, limit):
                break
    except (LimitReached, KeyboardInterrupt) as exc:
        report.status = LIMIT
        report.limit_reason = stop_reason(exc)
    if report.status != LIMIT:
        report.status = SOLVED
    report.cost = dag.cost
    report.seconds = time.monotonic() - started
    return report


def _first_of_class(start: bytes, path: Path, images: list[Callable[[bytes], bytes]]) -> bool:
    """Whether this solution's states, in order, are the least among its symmetric images."""
    states = [start, *(state for _, state in path)]
    for image in images:
        mapped = [image(state) for state in states]
        if mapped < states:
            return False
    return True


class _Listing:
    """The goal states as they are listed: one of each class of symmetric ones, counted, kept
    or handed on, until --limit says stop."""

    def __init__(
        self,
        compiled: CompiledPuzzle,
        report: AllSolutions,
        keep: bool,
        on_solution: Callable[[Path], None] | None,
        limit: int | None,
        group: SymmetryGroup | None,
    ):
        self.compiled, self.report, self.keep, self.on_solution, self.limit = compiled, report, keep, on_solution, limit
        self.group = group  # the symmetries that sort the solutions into classes (None: listed one by one)
        filling = compiled.filling
        self.filling = filling if isinstance(filling, FillFamily) else None
        # a filling's symmetries its rules did not show: each solution's images checked as it is found
        checks = group is not None and self.filling is not None and not group.on_rules and not compiled.puzzle.safety
        self.verify = group.generators if group is not None and checks else []
        self.classes: set[bytes] = set()
        self.goals: set[bytes] = set()

    def take(self, path: Path) -> bool:
        """List one goal state (unless its class was listed); True when --limit says stop."""
        group = self.group
        final = path[-1][1] if path else self.compiled.start
        self.report.in_all += 1
        value = self.compiled.objective_value
        if value is not None:
            worth = value(final)
            assert self.report.optimum in (None, worth), "an engine gave solutions of different values"
            self.report.optimum = worth
            objective = self.compiled.puzzle.objective
            assert objective is not None
            self.report.objective = objective.said(worth)
        for sym, image in self.verify:
            assert self.filling is not None
            broken = _broken_on(self.compiled.puzzle, self.filling, self.compiled.start, sym, image(final), final)
            if broken is not None:
                raise SpecError([broken])
        if group is not None:
            self.goals.add(final)
            key = group.canonical(final)
            if key in self.classes:
                return False
            self.classes.add(key)
        return self.report.listed(path, self.keep, self.on_solution, self.limit)


def _enumerate(
    compiled: CompiledPuzzle,
    limits: Limits,
    limit: int | None,
    keep: bool,
    on_solution: Callable[[Path], None] | None,
    options: RunOptions,
    moves: bool,
) -> AllSolutions:
    declared = compiled.symmetry
    # known before the search to map solutions to solutions: on a filling's ground rules, or
    # on every move of a table with a goal every symmetry keeps; an objective's best solutions
    # are known closed only once every one is found (the rules say nothing of the objective)
    objective = compiled.puzzle.objective is not None
    shown = declared is not None and (declared.on_rules or (declared.checked and declared.keeps_goal))
    before = shown and not objective
    unchecked = declared is not None and not before
    # a symmetry checked only on every solution found cannot sort a listing --limit cuts short
    group = None if unchecked and limit is not None else declared
    report = AllSolutions(symmetric=group is not None)
    if declared is not None and group is None:
        report.symmetry_note = (
            f"not listed up to symmetry: {_checked_after(declared)}, and --limit stops before every solution is found"
        )
    started = time.monotonic()
    listing = _Listing(compiled, report, keep, on_solution, limit, group)
    wanted = moves and (keep or on_solution is not None)
    # a count with an objective walks the solutions too: the best value is read off them
    count_only = group is None and not keep and on_solution is None and limit is None
    count_only = count_only and compiled.objective_value is None
    try:
        classes = None if group is None else group.canonical  # --limit counts classes
        walk = plan.walk(compiled, limits, options, wanted, count_only, limit, listing.take, classes)
    except KeyboardInterrupt as exc:  # outside any engine's walk
        report.status, report.limit_reason = LIMIT, stop_reason(exc)
        report.seconds = time.monotonic() - started
        return report
    walked = walk.walked
    report.engine = walk.engine
    if walk.tried is not None:
        report.tried_first, report.tried_first_stopped = walk.tried
    report.chosen = walk.chosen
    if compiled.filling is not None:
        report.method = (TILING_METHODS if compiled.tiling is not None else FILLING_METHODS)[walk.engine]
    elif walk.engine != "python":
        report.method += f", {walk.engine}"
    report.statistics = walked.statistics
    if walked.counted is not None:
        return _counted(report, walked.counted, walked.stopped, walked.statistics, started)
    for path in walked.found or ():  # found by an engine that raced: listed now
        if listing.take(path):
            break
    if walked.stopped is not None:
        report.status, report.limit_reason = LIMIT, walked.stopped
    closed = group is not None and (objective or not group.on_rules)
    if closed and report.status != LIMIT and not report.stopped_at_limit:
        _check_closed(compiled, listing.goals)
    if group is not None and unchecked and report.status == LIMIT:
        report.symmetry_note = (
            f"the classes listed are of a symmetry not checked: {_checked_after(group)}, "
            "and the search stopped before every solution was found"
        )
    if report.status != LIMIT:
        report.status = SOLVED if report.count else NO_SOLUTION
    if declared is not None and unchecked and report.status == NO_SOLUTION:
        # the answer stands; the declared symmetry, a claim about the solutions, went unchecked
        report.symmetry_note = f"symmetry not checked: {_checked_after(declared)}, and there is none"
    report.states = walked.visited
    report.seconds = time.monotonic() - started
    return report


def _counted(
    report: AllSolutions,
    counted: tuple[int, int],
    stopped: str | None,
    statistics: dict[str, object] | None,
    started: float,
) -> AllSolutions:
    """The report of a count: (states visited, solutions), and the limit it stopped at."""
    report.states, report.count = counted
    report.in_all = report.count
    if stopped is not None:
        report.status, report.limit_reason = LIMIT, stopped
    else:
        report.status = SOLVED if report.count else NO_SOLUTION
    report.statistics = statistics
    report.seconds = time.monotonic() - started
    return report


def _checked_after(group: SymmetryGroup) -> str:
    """Why the declared symmetries are checked on the solutions found, not before the search."""
    if group.unread_rules is not None:
        return f"the symmetries are checked on the solutions found ({group.unread_rules})"
    return "the symmetries are checked on the solutions found"


def _check_closed(compiled: CompiledPuzzle, goals: set[bytes]) -> None:
    group = compiled.symmetry
    assert group is not None
    objective = compiled.puzzle.objective
    for sym, image in group.generators:
        for state in goals:
            if image(state) not in goals:
                if objective is not None:
                    message = (
                        f"'{sym.name}' is not a symmetry of this puzzle's best solutions: it maps a solution "
                        f"with the {objective.best} {objective.name} to one without"
                    )
                    expected = "a symmetry of the board, of every rule and of the objective"
                else:
                    message = (
                        f"'{sym.name}' is not a symmetry of this puzzle's solutions: "
                        "it maps a solution to a state that is not one"
                    )
                    expected = "a symmetry of the board and of every rule"
                raise SpecError([Diagnostic(sym.pos, message, expected)])


def _broken_on(
    puzzle: Puzzle, filling: FillFamily, start: bytes, sym: Symmetry, image: bytes, final: bytes
) -> Diagnostic | None:
    """`fill_symmetry.broken_on`, imported here (and `broken_by_givens` where a filling has no
    solution): only a logic puzzle needs them, and their import (the fill terms with it) would
    cost every run of a puzzle of moves 0.02 s of its start-up."""
    from .compiler.fill_symmetry import broken_on

    return broken_on(puzzle, filling, start, sym, image, final)
