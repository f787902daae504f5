"""Distinct solutions up to move order: many shortest solutions differ only in the order of
independent moves; following each piece on its own, they fall into a few classes of
*trajectories*. Counted plainly and up to the spec's symmetries, without listing every
solution (see `search.dag.distinct_values`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from .compiler import CompiledPuzzle
from .compiler.symmetry import Element
from .search import Limits
from .search.dag import (
    cheapest_dag,
    count_solutions,
    distinct_values,
    distinct_values_by_paths,
    is_acyclic,
    shortest_dag,
)
from .search.limits import LimitReached, stop_reason
from .search.result import LIMIT, SOLVED

# Each piece's own sequence of cells (-1: removed), as a sorted tuple of (piece code, cells):
# interchangeable pieces are not told apart, and two solutions that differ only in the order
# of independent moves end up equal.
Trajectories = tuple[tuple[int, tuple[int, ...]], ...]


@dataclass
class TrajectoryReport:
    status: str
    length: int | None = None
    solutions: int = 0  # shortest solutions
    classes: int = 0  # distinct trajectories
    classes_up_to_symmetry: int | None = None
    representatives: list[list[tuple[int, bytes]]] = field(default_factory=list)  # one per class up to symmetry
    limit_reason: str | None = None


def initial(compiled: CompiledPuzzle) -> Trajectories:
    """Every piece's trajectory at the start: just its cell."""
    cells = compiled.start[: compiled.cells]
    return tuple(sorted((code, (cell,)) for cell, code in enumerate(cells) if code))


def extend(compiled: CompiledPuzzle, trajectories: Trajectories, move: int, before: bytes) -> Trajectories:
    tracks = list(trajectories)
    by_cell = {track[-1]: i for i, (_, track) in enumerate(tracks) if track[-1] >= 0}
    for src, dst in compiled.cell_moves(move, before):
        if src is None:
            code = compiled.written(move, dst, before) if dst is not None else 0
            tracks.append((code, (-1 if dst is None else dst,)))
            continue
        i = by_cell[src]
        code, track = tracks[i]
        tracks[i] = (code, (*track, -1 if dst is None else dst))
    return tuple(sorted(tracks))


def _image(trajectories: Trajectories, element: Element) -> Trajectories:
    return tuple(
        sorted(
            (element.codes[code], tuple(-1 if c < 0 else element.cells[c] for c in track))
            for code, track in trajectories
        )
    )


def distinct_trajectories(compiled: CompiledPuzzle, limits: Limits) -> TrajectoryReport:
    """The solutions grouped by trajectories: the shortest ones, or the cheapest ones for a
    spec that asks `search cheapest` (walked one by one where moves of cost 0 form loops)."""
    if compiled.puzzle.search == "cheapest":
        dag = cheapest_dag(compiled.start, compiled.expand_costed, compiled.is_goal, limits)
    else:
        dag = shortest_dag(compiled, limits)
    if dag.status != SOLVED:
        return TrajectoryReport(dag.status, limit_reason=dag.limit_reason)
    fold = distinct_values if is_acyclic(dag) else distinct_values_by_paths
    try:
        found = fold(dag, initial(compiled), lambda value, move, before: extend(compiled, value, move, before), limits)
        solutions = count_solutions(dag, limits)
    except (LimitReached, KeyboardInterrupt) as exc:
        reason = stop_reason(exc)
        return TrajectoryReport(LIMIT, limit_reason=reason)
    group = compiled.symmetry.solution_symmetries if compiled.symmetry is not None else []
    report = TrajectoryReport(SOLVED, solutions=solutions, classes=len(found))
    classes: set[Trajectories] = set()
    for signature, path in sorted(found.items()):
        report.length = len(path)
        canonical = min((_image(signature, e) for e in group), default=signature)
        if canonical not in classes:
            classes.add(canonical)
            report.representatives.append(path)
    report.classes_up_to_symmetry = len(classes) if group else None
    return report
