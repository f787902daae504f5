"""A solved run as plain data; JSON and YAML output are this dict, documented in
docs/output.md and kept stable."""

from __future__ import annotations

from typing import Any

from ..compiler import Compiled, CompiledPlacement, CompiledPlaces, CompiledPuzzle
from ..language.expressions import show
from ..model import SHOW_LADDER
from ..runner import Solved
from ..solutions import AllSolutions
from .ladder import ladder_lines

FORMAT_VERSION = 1


def places_text(compiled: CompiledPlaces, state: bytes) -> str:
    """`left: H2 W2 | right: H1 W1 boat`: each place's pieces, and where the carrier is."""
    puzzle = compiled.puzzle
    parts = []
    for place, names in enumerate(compiled.contents(state)):
        if place == state[0]:
            names = [*names, puzzle.carrier]
        parts.append(f"{puzzle.places[place]}: {' '.join(names)}".rstrip())
    return " | ".join(parts)


def board_text(compiled: Compiled, state: bytes) -> str:
    """The board as symbols, `_` for empty; grid rows separated by `/`; places as `place: pieces`;
    numbered pieces (placement puzzles) separated by spaces."""
    if isinstance(compiled, CompiledPlaces):
        return places_text(compiled, state)
    if isinstance(compiled, CompiledPlacement):
        return " ".join(c or "_" for c in compiled.cells(state))
    puzzle = compiled.puzzle
    cols = puzzle.board.cols
    symbols = [puzzle.symbol(c) for c in state]
    rows = ["".join(symbols[i : i + cols]) for i in range(0, len(symbols), cols)]
    return "/".join(rows)


def moves(compiled: Compiled, path: list[tuple[int, bytes]]) -> list[dict[str, Any]]:
    out = []
    before = compiled.start
    for move, after in path:
        label = compiled.label(move, before)
        first = label.movers[0] if label.movers else ("", None, None)
        out.append(
            {
                "rule": label.rule,
                "piece": first[0],
                "from": first[1],
                "to": first[2],
                "movers": [{"piece": p, "from": a, "to": b} for p, a, b in label.movers],
                "board": board_text(compiled, after),  # type: ignore[arg-type]
            }
        )
        before = after  # type: ignore[assignment]
    return out


def to_data(solved: Solved, count: bool = False, reach: bool = False) -> dict[str, Any]:
    result = solved.result
    data: dict[str, Any] = {
        "format": FORMAT_VERSION,
        "puzzle": solved.puzzle.title,
        "spec": solved.spec_path,
        "params": {k: _plain(v) for k, v in solved.puzzle.params.items()},
        "status": result.status,
        "length": result.length,
        "start": board_text(solved.compiled, solved.compiled.start),
        "moves": moves(solved.compiled, result.path),
    }
    symmetric = getattr(solved.compiled, "symmetry", None) is not None
    if count:
        data["count"] = result.count
        if symmetric:
            data["count_up_to_symmetry"] = result.count_up_to_symmetry
    if reach:
        data["reachable"] = result.reachable
        if symmetric:
            data["reachable_up_to_symmetry"] = result.reachable_up_to_symmetry
    if isinstance(solved.compiled, CompiledPuzzle) and solved.compiled.puzzle.show == SHOW_LADDER:
        lines = ladder_lines(solved.compiled, result.path) if result.status == "solved" else None
        if lines is not None:
            data["ladder"] = lines
    report = solved.trajectories
    if report is not None:
        data["trajectories"] = {
            "solutions": report.solutions,
            "distinct": report.classes,
            "distinct_up_to_symmetry": report.classes_up_to_symmetry,
            "representatives": [moves(solved.compiled, path) for path in report.representatives],
        }
    data["states"] = result.states
    data["seconds"] = round(result.seconds, 6)
    data["method"] = result.method
    if result.limit_reason:
        data["limit"] = result.limit_reason
    return data


def _plain(value: object) -> object:
    if isinstance(value, (bool, int, str)):
        return value
    return show(value)  # type: ignore[arg-type]


def all_to_data(compiled: Compiled, spec: str, report: AllSolutions) -> dict[str, Any]:
    """Every solution (as its final board, and for placements the sequence placed)."""
    solutions = []
    for path in report.solutions:
        entry: dict[str, Any] = {"board": board_text(compiled, path[-1][1] if path else compiled.start)}
        if isinstance(compiled, CompiledPlacement):
            entry["sequence"] = list(compiled.placed(path))
        entry["moves"] = moves(compiled, path)
        solutions.append(entry)
    data: dict[str, Any] = {
        "format": FORMAT_VERSION,
        "puzzle": compiled.puzzle.title,
        "spec": spec,
        "params": {k: _plain(v) for k, v in compiled.puzzle.params.items()},
        "status": report.status,
        "count": report.count,
        "up_to_reversal": report.reversal,
        "complete": report.status != "limit" and not report.stopped_at_limit,
        "solutions": solutions,
        "states": report.states,
        "seconds": round(report.seconds, 6),
        "method": "depth-first enumeration",
    }
    if report.limit_reason:
        data["limit"] = report.limit_reason
    return data
