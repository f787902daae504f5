"""A solved run as plain data; JSON and YAML output are this dict, documented in
docs/output.md and kept stable."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from ..compiler import CompiledPuzzle
from ..compiler.families.fill import FillFamily
from ..language.expressions import show
from ..model.puzzle import CARRIER, PROGRESS, SHOW_LADDER
from ..runner import Solved
from ..search import SearchResult
from ..search.costs import plain
from ..search.result import NO_SOLUTION, SOLVED
from ..solutions import AllSolutions, broken_rule
from .ladder import ladder_lines

if TYPE_CHECKING:
    from ..compiler.fill_symmetry import BrokenRule

FORMAT_VERSION = 1
RAW_IN_JSON = re.compile("[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def json_text(payload: dict[str, Any]) -> str:
    """The payload as JSON (non-ASCII text as itself). JSON escapes the C0 control
    characters but lets DEL, the C1 controls (which some terminals obey) and the characters
    that reorder a line through: they are written as \\u escapes too, the same data."""
    dumped = json.dumps(payload, indent=2, ensure_ascii=False)
    return RAW_IN_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", dumped)


def cells_text(compiled: CompiledPuzzle, state: bytes) -> str:
    """The board as symbols, `_` for empty: grid rows separated by `/` (a square without a
    cell is `.`); numbered pieces separated by spaces."""
    puzzle, board = compiled.puzzle, compiled.puzzle.board
    assert board is not None
    symbols = [puzzle.symbol(c) for c in state[: compiled.cells]]
    spaced = any(len(s) > 1 for s in symbols) or any(p.value is not None for p in puzzle.pieces)
    join = " ".join if spaced else "".join
    if not board.has_frame or board.rows == 1:
        return join(symbols)
    rows = []
    for r in range(board.rows):
        squares = board.frame[r * board.cols : (r + 1) * board.cols]
        rows.append(join(symbols[c] if c >= 0 else "." for c in squares))
    return "/".join(rows)


def board_text(compiled: CompiledPuzzle, state: bytes) -> str:
    """The whole state as one line: the cells, then `place: pieces` for each place (a stack
    bottom first, the carrier where it is), then `counter=value`, separated by ` | `."""
    puzzle = compiled.puzzle
    parts = []
    if puzzle.board is not None:
        parts.append(cells_text(compiled, state))
    decoded = compiled.decode(state)
    carrier = puzzle.counter_index(CARRIER)
    carrier_at = decoded.counters[carrier] if carrier is not None else None
    for p, (place, contents) in enumerate(zip(puzzle.places, decoded.places, strict=True)):
        names = (
            [puzzle.pieces[c - 1].symbol for c in contents]
            if place.stack
            else [puzzle.pieces[i].symbol for i, n in enumerate(contents) for _ in range(n)]
        )
        if p == carrier_at:
            names.append(puzzle.counters[carrier].name)  # type: ignore[index]
        parts.append(f"{place.name}: {' '.join(names)}".rstrip())
    for counter, value in zip(puzzle.counters, decoded.counters, strict=True):
        if counter.role not in (CARRIER, PROGRESS):
            parts.append(f"{counter.name}={compiled.counter_text(counter.role, value)}")
    return " | ".join(parts)


def moves(compiled: CompiledPuzzle, path: list[tuple[int, bytes]]) -> list[dict[str, Any]]:
    out = []
    before = compiled.start
    for move, after in path:
        label = compiled.label(move, before, after)
        first = label.movers[0] if label.movers else ("", None, None)
        entry: dict[str, Any] = {
            "rule": label.rule,
            "piece": first[0],
            "from": first[1],
            "to": first[2],
            "movers": [{"piece": p, "from": a, "to": b} for p, a, b in label.movers],
        }
        if label.changes:
            entry["changes"] = [{"counter": n, "from": a, "to": b} for n, a, b in label.changes]
        if label.at is not None:
            entry["at"] = label.at
        if compiled.has_costs:
            entry["cost"] = plain(compiled_cost(compiled, before, move))
        entry["board"] = board_text(compiled, after)
        out.append(entry)
        before = after
    return out


def compiled_cost(compiled: CompiledPuzzle, before: bytes, move: int) -> int:
    for _, number, cost in compiled.expand_costed(before):
        if number == move:
            return cost
    return 1


def path_cost(compiled: CompiledPuzzle, path: list[tuple[int, bytes]]) -> Any:
    """What the moves of a path cost in all (a whole number, or a cost of several parts)."""
    total: Any = 0
    before = compiled.start
    for move, after in path:
        total = total + compiled_cost(compiled, before, move)
        before = after
    return total


def replay_to_data(
    compiled: CompiledPuzzle,
    spec: str,
    replay: str,
    path: list[tuple[int, bytes]],
    reached: bool,
    best: SearchResult | None,
) -> dict[str, Any]:
    """A replayed solution file (`run --replay`): its moves, whether they reach the goal, and
    the shortest (or cheapest) solution's length (and cost) to compare with."""
    payload: dict[str, Any] = {
        "format": FORMAT_VERSION,
        "puzzle": compiled.puzzle.title,
        "spec": spec,
        "params": {k: _plain(v) for k, v in compiled.puzzle.params.items()},
        "replay": replay,
        "status": "solved" if reached else "not-at-goal",
        "length": len(path),
    }
    if compiled.has_costs:
        payload["cost"] = plain(path_cost(compiled, path))
    if best is not None and best.status == SOLVED:
        payload["shortest"] = len(best.path)
        if best.cost is not None:
            payload["cheapest"] = plain(best.cost)
    elif best is not None:
        payload["shortest_unknown"] = best.limit_reason
    payload["moves"] = moves(compiled, path)
    return payload


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
    if isinstance(solved.compiled.filling, FillFamily):  # what was filled, not a count of moves
        del data["length"]
        final = result.path[-1][1] if result.path else solved.compiled.start
        data["filled"] = filled(solved.compiled, final) if result.status == SOLVED else None
    if result.cost is not None:
        data["cost"] = plain(result.cost)
    solved_state = result.path[-1][1] if result.path else solved.compiled.start
    objective = objective_data(
        solved.compiled, objective_value(solved.compiled, solved_state) if result.status == SOLVED else None
    )
    if objective is not None:
        data["objective"] = objective
    if solved.compiled.filling is not None and result.status == NO_SOLUTION:
        data["broken"] = broken_data(broken_rule(solved.compiled))
    if result.unique is not None or (solved.compiled.filling is not None and result.status == "solved"):
        data["unique"] = result.unique
        if result.unique_unknown is not None:
            data["unique_unknown"] = result.unique_unknown
    symmetric = solved.compiled.symmetry is not None
    if count or result.count is not None:
        data["count"] = result.count
        if symmetric:
            data["count_up_to_symmetry"] = result.count_up_to_symmetry
    if reach or solved.puzzle.search == "reach":  # asked for: a search that proves no solution also counts them
        data["reachable"] = result.reachable
        if symmetric:
            data["reachable_up_to_symmetry"] = result.reachable_up_to_symmetry
        if result.reachable_goals is not None:
            data["reachable_goals"] = result.reachable_goals
        if result.layers is not None:
            data["from"] = "goal" if result.to_goal else "start"
            data["depth"] = result.depth
            data["layers"] = result.layers
            data["farthest"] = board_text(solved.compiled, result.farthest) if result.farthest is not None else None
    if result.symmetry_note is not None:
        data["symmetry_not_applied"] = result.symmetry_note
    if solved.puzzle.show == SHOW_LADDER:
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
    data["engine"] = result.engine
    if result.statistics is not None:  # a solver's own figures; the workers': each one's states
        data["workers" if result.engine == "workers" else "solver"] = result.statistics
    if result.tried_first is not None:
        data["tried_first"] = result.tried_first
        data["tried_first_stopped"] = result.tried_first_stopped
    if result.chosen is not None:
        data["chosen"] = result.chosen
    if result.bytes_per_state is not None:
        data["bytes_per_state"] = round(result.bytes_per_state, 1)
    if result.heuristic is not None:
        data["heuristic"] = {"used": result.heuristic, "at_start": result.shown_at_start}
        if result.heuristic_about:
            data["heuristic"]["derived"] = result.heuristic_about
    if result.proof is not None:
        data["proof"] = result.proof
    if result.limit_reason:
        data["limit"] = result.limit_reason
    return data


def broken_data(broken: BrokenRule | None) -> dict[str, Any] | None:
    """A filling's `broken`: the piece of a rule its givens alone break (None: none is)."""
    if broken is None:
        return None
    return {
        "line": broken.line,
        "column": broken.column,
        "rule": broken.rule,
        "cells": list(broken.cells),
        "message": broken.said,
    }


def _plain(value: object) -> object:
    if isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, tuple):
        return list(value)
    return show(value)  # type: ignore[arg-type]


def all_to_data(compiled: CompiledPuzzle, spec: str, report: AllSolutions) -> dict[str, Any]:
    """Every solution listed (its moves, its final board, and the numbers placed in order when
    the moves place numbered pieces); for a puzzle of moves, every shortest solution, with
    their length (and cost) and how many there are in all."""
    solutions = []
    numbered = any(p.value is not None for p in compiled.puzzle.pieces)
    for path in report.solutions:
        entry: dict[str, Any] = {"board": board_text(compiled, path[-1][1] if path else compiled.start)}
        if numbered:
            entry["sequence"] = placed(compiled, path)
        if isinstance(compiled.filling, FillFamily):
            entry["filled"] = filled(compiled, path[-1][1] if path else compiled.start)
        entry["moves"] = moves(compiled, path)
        solutions.append(entry)
    data: dict[str, Any] = {
        "format": FORMAT_VERSION,
        "puzzle": compiled.puzzle.title,
        "spec": spec,
        "params": {k: _plain(v) for k, v in compiled.puzzle.params.items()},
        "status": report.status,
        "count": report.count,
        "count_in_all": report.total if report.total is not None else report.in_all,
        "up_to_symmetry": report.symmetric,
        "up_to_reversal": any(s.name == "reversal" for s in compiled.puzzle.symmetries),  # format 1 kept it
        "complete": report.status != "limit" and not report.stopped_at_limit,
        "solutions": solutions,
        "states": report.states,
        "seconds": round(report.seconds, 6),
        "method": report.method,
        "engine": report.engine,
    }
    if compiled.filling is not None and report.status == NO_SOLUTION:
        data["broken"] = broken_data(report.broken)
    if report.symmetry_note is not None:
        data["symmetry_not_applied"] = report.symmetry_note
    if report.tried_first is not None:
        data["tried_first"] = report.tried_first
        data["tried_first_stopped"] = report.tried_first_stopped
    if report.chosen is not None:
        data["chosen"] = report.chosen
    if report.statistics is not None:  # a solver's own figures; the workers': each one's states
        data["workers" if report.engine == "workers" else "solver"] = report.statistics
    if report.total is not None:  # every shortest (cheapest) solution of a puzzle of moves
        data["length"] = report.length
        if report.cost is not None:
            data["cost"] = plain(report.cost)
    if report.limit_reason:
        data["limit"] = report.limit_reason
    objective = objective_data(compiled, report.optimum)
    if objective is not None:
        data["objective"] = objective
    return data


def objective_value(compiled: CompiledPuzzle, state: bytes) -> int | None:
    """A filling's objective on a complete filling (None: the spec has none)."""
    value = compiled.objective_value
    return value(state) if value is not None else None


def objective_words(compiled: CompiledPuzzle, value: int | None) -> str:
    """`largest MONEY = 10876` ("": no objective, or no value)."""
    objective = compiled.puzzle.objective
    return objective.said(value) if objective is not None and value is not None else ""


def objective_data(compiled: CompiledPuzzle, value: int | None) -> dict[str, Any] | None:
    """The objective in the JSON: what is made best, its name, and the best value (None:
    not known, where no solution was found)."""
    objective = compiled.puzzle.objective
    if objective is None:
        return None
    return {"sense": "maximize" if objective.maximize else "minimize", "name": objective.name, "value": value}


def filled(compiled: CompiledPuzzle, state: bytes) -> dict[str, str | int]:
    """What a filling decided, thing by thing in its order: each open cell's symbol (`_` left
    empty), each counter's number."""
    family = compiled.filling
    assert isinstance(family, FillFamily)
    puzzle = compiled.puzzle
    out: dict[str, str | int] = {}
    counters = compiled.decode(state).counters
    for var in family.vars:
        if var.cell is not None:
            assert puzzle.board is not None
            out[puzzle.board.name(var.cell)] = puzzle.symbol(state[var.cell])
        else:
            assert var.counter is not None
            out[puzzle.counters[var.counter].name] = counters[var.counter]
    return out


def placed(compiled: CompiledPuzzle, path: list[tuple[int, bytes]]) -> list[int]:
    """The numbers of the pieces placed on cells, move by move."""
    out = []
    before = compiled.start
    for _, after in path:
        for cell in range(compiled.cells):
            if before[cell] != after[cell] and after[cell]:
                value = compiled.puzzle.piece(after[cell]).value
                if value is not None:
                    out.append(value)
        before = after
    return out


def stopped_to_data(
    spec: str,
    params: dict[str, str],
    reason: str,
    seconds: float,
    stopped_while: str = "compiling",
    states: int = 0,
    where: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A run that a limit stopped before any search: while the spec was read and compiled,
    or while a solution file's moves were checked (`replaying`: `where` it stopped, the
    moves checked, and the legal moves looked through as its states)."""
    return {
        "format": FORMAT_VERSION,
        "spec": spec,
        "params": dict(params),
        "status": "limit",
        "limit": reason,
        "stopped_while": stopped_while,
        **(where or {}),
        "states": states,
        "seconds": round(seconds, 6),
    }
