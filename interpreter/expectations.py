"""`puzint check`: run a spec's cases from the YAML file beside it and compare the results.

specs/frog.puz is checked against specs/frog.yaml:

    cases:
      - params: {}          # parameters as on the command line (-p n=3)
        status: solved      # solved | no-solution   (default: solved)
        length: 15
        cost: 17            # the cheapest solution's cost (search cheapest)
        count: 2            # asks for --count (shortest, or cheapest, solutions)
        reachable: 72       # asks for --reach
        reachable_goals: 4  # of the reachable states, how many are goals (asks for --reach)
        solutions: 12       # search all: solutions listed (one of each class with a symmetry)
        solutions_in_all: 92  # search all: every solution
        slow: true          # takes a minute or more: the default test run leaves it out
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .errors import Diagnostic, Pos, SpecError
from .runner import load, search
from .search import Limits
from .search.result import SOLVED
from .solutions import enumerate_solutions
from .trajectories import distinct_trajectories

FIELDS = (
    "status",
    "length",
    "cost",
    "count",
    "count_up_to_symmetry",
    "reachable",
    "reachable_up_to_symmetry",
    "reachable_goals",
    "trajectories",
    "trajectories_up_to_symmetry",
    "solutions",
    "solutions_in_all",
)


@dataclass
class CaseReport:
    params: dict[str, str]
    expected: dict[str, Any]
    actual: dict[str, Any] = field(default_factory=dict)
    slow: bool = False

    @property
    def mismatches(self) -> list[str]:
        return [k for k, v in self.expected.items() if self.actual.get(k) != v]

    def title(self) -> str:
        return " ".join(f"{k}={v}" for k, v in self.params.items()) or "defaults"


def expectation_file(spec: Path) -> Path:
    return spec.with_suffix(".yaml")


def find_specs(targets: list[str]) -> list[Path]:
    """Spec files named, or found in the directories named (default: specs/)."""
    found: list[Path] = []
    for target in targets or ["specs"]:
        path = Path(target)
        if path.is_dir():
            found.extend(sorted(path.glob("*.puz")))
        else:
            found.append(path)
    return found


def load_cases(spec: Path) -> list[CaseReport]:
    path = expectation_file(spec)
    if not path.exists():
        raise SpecError(
            [Diagnostic(Pos(0, 0), f"no expectations: {path.name} is missing beside the spec")], "", str(spec)
        )
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        pos = Pos(mark.line + 1, mark.column + 1) if mark else Pos(0, 0)
        raise SpecError(
            [Diagnostic(pos, f"bad YAML: {getattr(exc, 'problem', exc)}")], path.read_text(encoding="utf-8"), str(path)
        ) from None
    cases = data.get("cases") if isinstance(data, dict) else None
    if not isinstance(cases, list) or not cases:
        raise SpecError([Diagnostic(Pos(0, 0), "expected a list under 'cases:'")], "", str(path))
    reports = []
    for i, case in enumerate(cases, 1):
        if not isinstance(case, dict):
            raise SpecError([Diagnostic(Pos(0, 0), f"case {i} is not a mapping")], "", str(path))
        unknown = set(case) - {"params", "note", "slow", *FIELDS}
        if unknown:
            raise SpecError(
                [
                    Diagnostic(
                        Pos(0, 0),
                        f"case {i} has unknown keys {sorted(unknown)}",
                        f"params, note, slow, {', '.join(FIELDS)}",
                    )
                ],
                "",
                str(path),
            )
        params = {str(k): _param_text(v) for k, v in (case.get("params") or {}).items()}
        expected = {k: case[k] for k in FIELDS if k in case}
        expected.setdefault("status", "solved")
        reports.append(CaseReport(params, expected, slow=case.get("slow") is True))
    return reports


def _param_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def run_case(spec: Path, case: CaseReport, limits: Limits) -> CaseReport:
    compiled = load(spec, case.params)
    want = set(case.expected)
    if want & {"solutions", "solutions_in_all"}:
        every = enumerate_solutions(compiled, limits, keep=False)
        case.actual = {"status": every.status, "solutions": every.count, "solutions_in_all": every.in_all}
        if every.limit_reason:
            case.actual["limit"] = every.limit_reason
        return case
    want_count = bool(want & {"count", "count_up_to_symmetry"})
    want_reach = bool(want & {"reachable", "reachable_up_to_symmetry", "reachable_goals"})
    result = search(compiled, count=want_count, reach=want_reach, limits=limits)
    case.actual = {"status": result.status, "length": result.length, "cost": result.cost}
    if want_count:
        case.actual["count"] = result.count
        case.actual["count_up_to_symmetry"] = result.count_up_to_symmetry
    if want_reach:
        case.actual["reachable"] = result.reachable
        case.actual["reachable_up_to_symmetry"] = result.reachable_up_to_symmetry
        case.actual["reachable_goals"] = result.reachable_goals
    if want & {"trajectories", "trajectories_up_to_symmetry"} and result.status == SOLVED:
        if compiled.puzzle.board is None:
            raise SpecError([Diagnostic(Pos(0, 0), "trajectories need a board of cells")], "", str(spec))
        report = distinct_trajectories(compiled, limits)
        case.actual["trajectories"] = report.classes
        case.actual["trajectories_up_to_symmetry"] = report.classes_up_to_symmetry
        if report.limit_reason:
            result.limit_reason = report.limit_reason
    if result.limit_reason:
        case.actual["limit"] = result.limit_reason
    return case
