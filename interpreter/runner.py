"""From a spec file to a search result: the one path every command takes."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .compiler import Compiled, CompiledPuzzle, compile_puzzle
from .errors import Diagnostic, Pos, SpecError
from .language.elaborate import elaborate
from .language.parser import parse
from .model import PlacementPuzzle, PlacesPuzzle, Puzzle
from .search import Limits, SearchResult, astar, bfs, bidirectional, layers, symmetry
from .search.result import LIMIT, SOLVED
from .trajectories import TrajectoryReport, distinct_trajectories

METHODS = ("auto", "bfs", "bidirectional", "astar", "idastar")


@dataclass
class Solved:
    compiled: Compiled
    result: SearchResult
    spec_path: str
    trajectories: TrajectoryReport | None = None

    @property
    def puzzle(self) -> Puzzle | PlacesPuzzle | PlacementPuzzle:
        return self.compiled.puzzle


def read_spec(path: str | Path) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise SpecError([Diagnostic(Pos(0, 0), f"cannot read the spec: {reason}")], "", str(path)) from None


def load(path: str | Path, overrides: dict[str, str] | None = None) -> Compiled:
    """Read, parse, elaborate with the parameters, and compile one spec."""
    source = read_spec(path)
    spec = parse(source, str(path))
    try:
        return compile_puzzle(elaborate(spec, overrides))
    except SpecError as exc:
        raise exc.with_source(source, str(path)) from None


def search(
    compiled: Compiled,
    count: bool = False,
    reach: bool = False,
    limits: Limits | None = None,
    method: str = "auto",
) -> SearchResult:
    """Pick the search that answers the question asked, and run it.

    Counting and reachability need every layer, so they use the layered search; a plain
    shortest solution uses bidirectional search when the goal is one state and every move
    can be undone, and plain breadth-first search otherwise."""
    limits = limits or Limits()
    limits.restart()
    group = compiled.symmetry
    if count or reach:
        canonical = group.canonical if group is not None else None
        result = layers.explore(compiled, limits, count=count, exhaustive=reach, canonical=canonical)
        if group is not None and count and result.length is not None and result.count is not None:
            others = [e.image for e in group.solution_symmetries if e is not group.elements[0]]
            result.count_up_to_symmetry = symmetry.count_up_to_symmetry(
                compiled, limits, result.length, result.count, others
            )
    elif method in ("astar", "idastar") or (method == "auto" and getattr(compiled, "estimate", None) is not None):
        estimate = getattr(compiled, "estimate", None)
        if estimate is None:
            raise SpecError([Diagnostic(Pos(0, 0), f"--method {method} needs a `heuristic` line in the spec")])
        search_with = astar.idastar if method == "idastar" else astar.astar
        result = search_with(compiled, estimate, limits)
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
    result.seconds = limits.elapsed()
    return result


def run(
    path: str | Path,
    overrides: dict[str, str] | None = None,
    count: bool = False,
    reach: bool = False,
    limits: Limits | None = None,
    method: str = "auto",
    distinct: str | None = None,
) -> Solved:
    compiled = load(path, overrides)
    return solve(compiled, str(path), count, reach, limits, method, distinct)


def solve(
    compiled: Compiled,
    path: str,
    count: bool = False,
    reach: bool = False,
    limits: Limits | None = None,
    method: str = "auto",
    distinct: str | None = None,
) -> Solved:
    """The shortest solution (and whatever else was asked) of an already compiled spec."""
    limits = limits or Limits()
    result = search(compiled, count=count, reach=reach, limits=limits, method=method)
    solved = Solved(compiled, result, str(path))
    if distinct == "trajectories" and not isinstance(compiled, CompiledPuzzle):
        raise SpecError(
            [
                Diagnostic(
                    Pos(0, 0), "--distinct trajectories follows pieces from cell to cell: it needs a board of cells"
                )
            ]
        )
    if distinct == "trajectories" and result.status == SOLVED and isinstance(compiled, CompiledPuzzle):
        solved.trajectories = distinct_trajectories(compiled, limits)
        if solved.trajectories.status == LIMIT:
            result.status, result.limit_reason = LIMIT, solved.trajectories.limit_reason
        result.seconds = limits.elapsed()
    return solved
