"""OR-tools' CP-SAT constraint solver as an engine: it answers fillings (logic puzzles) whose
rules its model can say (`engines.constraints`), where propagation decides — one solution
and whether it is the only one, every solution, their number — in milliseconds where a
search that tries values one by one takes seconds.

Why CP-SAT: a well-kept solver with a Python API to build a model from data (the spec is
never turned into program text), global constraints (all different, linear equations) that
it propagates strongly, and the enumeration of all solutions that counting needs. It is
imported only when a filling asks for it.

The solver runs in a thread of its own; this thread takes its solutions one by one and keeps
the run's limits (time, memory, Ctrl-C, SIGTERM) while it waits, stopping the solver when
one is reached.
"""

from __future__ import annotations

import importlib.util
import queue
import threading
import time
from collections.abc import Iterator
from typing import Any

from ..compiler import CompiledPuzzle
from ..compiler.families import TileFamily
from ..search import Limits, SearchResult
from ..search.limits import LimitReached, stop_reason
from ..search.result import LIMIT, NO_SOLUTION, SOLVED
from .base import Path
from .query import Query

TICK = 0.05  # seconds between two looks at the limits while the solver runs
DONE = object()


class SolverEngine:
    name = "cpsat"
    summary = "OR-tools' CP-SAT constraint solver: fillings (logic puzzles), where propagation decides"

    def __init__(self) -> None:
        self._last: dict[str, Any] | None = None

    def statistics(self) -> dict[str, object] | None:
        return self._last

    def why_not(self, compiled: CompiledPuzzle, query: Query) -> str | None:
        if compiled.filling is None:
            return "the constraint solver answers fillings (logic puzzles), and this puzzle has moves"
        if importlib.util.find_spec("ortools") is None:
            return "OR-tools is not installed (pip install ortools)"
        if query.layered:
            return "the partial fillings are counted by the state-space searches"
        if query.listing or query.trajectories or query.mode not in ("any", "all"):
            return "the constraint solver finds fillings, not paths of moves"
        if compiled.puzzle.safety:
            return "safety rules hold of every partial filling, which the solver does not see"
        return _inexpressible(compiled)

    def search(self, compiled: CompiledPuzzle, query: Query, limits: Limits) -> SearchResult:
        """`search any` on a filling: the first solution, and whether it is the only one."""
        started = time.monotonic()
        stats: dict[str, Any] = {}
        found: list[Path] = []
        stopped: str | None = None
        try:
            for path in self._paths(compiled, limits, stats, most=2):
                found.append(path)
        except (LimitReached, KeyboardInterrupt) as exc:
            stopped = stop_reason(exc)
            if not found:
                result = SearchResult(LIMIT, stats.get("branches", 0), limit_reason=stopped, method="CP-SAT")
                result.statistics = stats
                return result
        if not found:
            result = SearchResult(NO_SOLUTION, stats.get("branches", 0), method="CP-SAT")
        else:
            result = SearchResult(SOLVED, stats.get("branches", 0), path=found[0], method="CP-SAT")
            result.unique = len(found) == 1 if stats.get("complete") or len(found) == 2 else None
            if result.unique is None:
                result.unique_unknown = stopped or "the solver stopped before it had looked for a second solution"
        result.statistics = stats
        result.seconds = time.monotonic() - started
        return result

    def goal_states(self, compiled: CompiledPuzzle, limits: Limits, visited: list[int], moves: bool) -> Iterator[Path]:
        stats: dict[str, Any] = {}
        self._last = stats
        try:
            yield from self._paths(compiled, limits, stats, moves=moves)
        finally:
            visited[0] = stats.get("branches", 0)

    def count_goal_states(self, compiled: CompiledPuzzle, limits: Limits, counter: list[int]) -> None:
        stats: dict[str, Any] = {}
        self._last = stats
        try:
            for _ in _solutions(compiled, limits, stats, read=False):
                counter[1] += 1
        finally:
            counter[0] = stats.get("branches", 0)

    def _paths(
        self,
        compiled: CompiledPuzzle,
        limits: Limits,
        stats: dict[str, Any],
        most: int | None = None,
        moves: bool = True,
    ) -> Iterator[Path]:
        """Each solution as a path of its moves, or (without `moves`) its last step alone: a
        30 x 30 filling's path of 900 states is a megabyte, and a listing held for a race's
        end kept thousands of them."""
        family = compiled.filling
        if isinstance(family, TileFamily):
            lay = family.path if moves else family.final
            for chosen in _solutions(compiled, limits, stats, most=most):
                yield lay(compiled.start, chosen)
            return
        assert family is not None
        problem = family.problem(compiled.start)
        fill = problem.path if moves else problem.final
        for values in _solutions(compiled, limits, stats, most=most):
            yield fill(values)


def _inexpressible(compiled: CompiledPuzzle) -> str | None:
    from ..compiler.families.fill import Inexpressible
    from .constraints import built

    try:
        built(compiled)  # made once, and kept for the search
    except Inexpressible as exc:
        return exc.reason(compiled.puzzle.source)
    return None


def _solutions(
    compiled: CompiledPuzzle, limits: Limits, stats: dict[str, Any], most: int | None = None, read: bool = True
) -> Iterator[list[int]]:
    """The solver's solutions (each thing's value, in the filling's order) as it finds them;
    `stats` gets its statistics (branches, conflicts, seconds) and whether it finished."""
    from .solver_import import import_cp_model

    import_cp_model()  # without pandas: see solver_import
    from ortools.sat.python import cp_model

    from .constraints import built as model_of

    built = model_of(compiled)
    model = built.model
    objective = compiled.puzzle.objective
    if objective is not None and not isinstance(built.objective, int):
        best = _optimum(built, objective.maximize, limits, stats)
        if best is None:  # no filling keeps the rules
            stats["complete"] = True
            return
        model = built.model.clone()  # the model kept for the puzzle stays as it is
        model.add(built.objective == best)  # every solution of the best value: enumerated below
    found: queue.Queue[Any] = queue.Queue()
    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1  # counting every solution needs one worker
    if limits.timeout is not None:
        solver.parameters.max_time_in_seconds = max(0.001, limits.timeout - limits.elapsed())

    class Found(cp_model.CpSolverSolutionCallback):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.count = 0
            self.branches = 0  # the solver's branches at its last solution: what it tells between solutions

        def on_solution_callback(self) -> None:
            self.count += 1
            self.branches = int(self.num_branches)
            found.put(built.read(self) if read else [])
            if most is not None and self.count >= most:
                self.stop_search()

    callback = Found()
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append(solver.solve(model, callback))
        finally:
            found.put(DONE)

    worker = threading.Thread(target=run, name="cp-sat", daemon=True)
    worker.start()
    budget = 0
    try:
        while True:
            try:
                item = found.get(timeout=TICK)
            except queue.Empty:
                limits.check(callback.branches, stored=False, at=_found(callback.count))
                continue
            if item is DONE:
                break
            budget -= 1
            if budget <= 0:
                budget = limits.check(callback.branches, stored=False, at=_found(callback.count))
            yield item
    finally:
        solver.stop_search()
        worker.join()
        stats["branches"] = int(solver.num_branches)
        stats["conflicts"] = int(solver.num_conflicts)
        stats["seconds"] = round(float(solver.wall_time), 6)
        stats["complete"] = bool(outcome) and outcome[0] == cp_model.OPTIMAL and (most is None or callback.count < most)
    if (
        outcome
        and outcome[0] not in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
        and (most is None or callback.count < most)
    ):
        raise LimitReached(f"time limit of {limits.timeout:g} s reached" if limits.timeout else "the solver stopped")


def _optimum(built: Any, maximize: bool, limits: Limits, stats: dict[str, Any]) -> int | None:
    """The best value of the objective, proven by the solver (None: no filling keeps the
    rules). Stopped by a limit before the proof, it raises LimitReached: a value not proven
    best is never given as the best."""
    from ortools.sat.python import cp_model

    model = built.model.clone()
    if maximize:
        model.maximize(built.objective)
    else:
        model.minimize(built.objective)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    if limits.timeout is not None:
        solver.parameters.max_time_in_seconds = max(0.001, limits.timeout - limits.elapsed())

    class Improved(cp_model.CpSolverSolutionCallback):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.branches = 0

        def on_solution_callback(self) -> None:
            self.branches = int(self.num_branches)

    callback = Improved()
    outcome: list[Any] = []
    done = threading.Event()  # waited on, not the thread: a join cut short by a limit's signal breaks the thread

    def run() -> None:
        try:
            outcome.append(solver.solve(model, callback))
        finally:
            done.set()

    worker = threading.Thread(target=run, name="cp-sat", daemon=True)
    worker.start()
    try:
        while not done.wait(TICK):
            limits.check(callback.branches, stored=False, at="looking for the best value")
    except LimitReached as exc:
        raise LimitReached(f"{exc.reason} before the best value was proven") from None
    finally:
        while not done.wait(TICK):  # a stop asked before the solver had begun is asked again
            solver.stop_search()
        worker.join()
        stats["optimum_branches"] = stats["branches"] = int(solver.num_branches) if outcome else 0
    if outcome and outcome[0] == cp_model.INFEASIBLE:
        return None
    if outcome and outcome[0] == cp_model.OPTIMAL:
        return int(solver.value(built.objective))
    why = f"time limit of {limits.timeout:g} s reached" if limits.timeout else "the solver stopped"
    raise LimitReached(f"{why} before the best value was proven")


def _found(count: int) -> str:
    """The progress line's word on a CP-SAT run: the solutions found so far (its states are
    the solver's branches at the last of them; CP-SAT tells nothing in between)."""
    return f"{count:,} solution{'s' if count != 1 else ''} found"
