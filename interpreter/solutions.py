"""All solutions of a puzzle, streamed: depth-first enumeration (`search.enumerate`), with
the spec's `symmetry reversal` (a sequence and its reverse are one solution) applied, and
an optional cap on how many to list."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from .compiler import Compiled, CompiledPlacement
from .search import Limits
from .search.enumerate import all_solutions
from .search.limits import LimitReached
from .search.result import LIMIT, NO_SOLUTION, SOLVED

Path = list[tuple[int, bytes]]


@dataclass
class AllSolutions:
    status: str = NO_SOLUTION
    count: int = 0
    states: int = 0
    seconds: float = 0.0
    solutions: list[Path] = field(default_factory=list)
    reversal: bool = False
    limit_reason: str | None = None
    stopped_at_limit: bool = False  # --limit K reached: the count is a lower bound


def enumerate_solutions(
    compiled: Compiled,
    limits: Limits,
    limit: int | None = None,
    keep: bool = True,
    on_solution: Callable[[Path], None] | None = None,
) -> AllSolutions:
    """Walk every solution; keep them (or only count them) and call `on_solution` for each.
    With reversal symmetry, of a solution and its reverse only the lesser one is kept."""
    reversal = isinstance(compiled, CompiledPlacement) and compiled.puzzle.reversal
    report = AllSolutions(reversal=reversal)
    walker = Limits(max_states=None, timeout=limits.timeout, max_memory_mb=limits.max_memory_mb)
    visited = [0]
    try:
        for path in all_solutions(compiled, walker, visited):
            if reversal:
                assert isinstance(compiled, CompiledPlacement)
                sequence = compiled.placed(path)
                if sequence[::-1] < sequence:
                    continue
            report.count += 1
            if keep:
                report.solutions.append(path)
            if on_solution is not None:
                on_solution(path)
            if limit is not None and report.count >= limit:
                report.stopped_at_limit = True
                break
    except (LimitReached, KeyboardInterrupt) as exc:
        report.status = LIMIT
        report.limit_reason = exc.reason if isinstance(exc, LimitReached) else "interrupted"
    if report.status != LIMIT:
        report.status = SOLVED if report.count else NO_SOLUTION
    report.states = visited[0]
    report.seconds = walker.elapsed()
    return report
