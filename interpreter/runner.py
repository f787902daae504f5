"""From a spec file to a search result: the one path every command takes. A front end reads
the spec (`load`), works its question out once (`questions.ask`) and hands it here (`solve`);
`search` asks one question in keywords, for tests and library callers."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from . import plan
from .compiler import CompiledPuzzle, compile_puzzle
from .engines import METHODS, Query, RunOptions, registry
from .errors import Diagnostic, Pos, SpecError
from .language.elaborate import elaborate
from .language.parser import parse
from .model.puzzle import Puzzle
from .questions import Asked
from .search import Limits, SearchResult
from .search.result import LIMIT, SOLVED
from .sources import read_source
from .trajectories import TrajectoryReport, distinct_trajectories

__all__ = ["METHODS", "Solved", "kernel_unfit", "load", "positioned", "search", "solve"]


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
    from_goal: bool = False,
) -> SearchResult:
    """The answer to the question asked in keywords (or the spec's own), by the engine the
    plan chooses (`engine`: "auto", or the name of one: see `plan`)."""
    query = Query.of(compiled, count, reach, method, mode, from_goal=from_goal)
    return answer(compiled, query, limits or Limits(), RunOptions(engine))


def answer(compiled: CompiledPuzzle, query: Query, limits: Limits, options: RunOptions) -> SearchResult:
    """The answer to a question built already, a mistake met on the way shown at its place."""
    try:
        return plan.search(compiled, query, limits, options)
    except SpecError as exc:
        raise positioned(compiled, exc) from None


def kernel_unfit(compiled: CompiledPuzzle, count: bool, reach: bool, method: str, mode: str | None) -> str | None:
    """Why the compiled kernel does not answer this question on this puzzle (None: it does)."""
    return registry.COMPILED.why_not(compiled, Query.of(compiled, count, reach, method, mode))


def solve(compiled: CompiledPuzzle, asked: Asked, limits: Limits, path: str) -> Solved:
    """The solution (and whatever else was asked: trajectories) of a compiled spec."""
    started = time.monotonic()
    result = answer(compiled, asked.query, limits, asked.options)
    solved = Solved(compiled, result, str(path))
    distinct = asked.question.distinct
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
