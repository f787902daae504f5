"""`puzint check`: run a spec's cases from the YAML file beside it and compare the results.

specs/frog.puz is checked against specs/frog.yaml:

    cases:
      - params: {}          # parameters as on the command line (-p n=3)
        status: solved      # solved | no-solution   (default: solved)
        length: 15
        cost: 17            # the cheapest solution's cost (search cheapest); [8, 33]: a cost of parts
        count: 2            # asks for --count (shortest, or cheapest, solutions)
        reachable: 72       # asks for --reach
        reachable_goals: 4  # of the reachable states, how many are goals (asks for --reach)
        depth: 15           # how many moves away the farthest reachable state lies (asks for --reach)
        solutions: 12       # search all: solutions listed (one of each class with a symmetry)
        solutions_in_all: 92  # search all: every solution
        optimum: 10876      # a filling's `maximize`/`minimize`: the best value (with solutions)
        slow: true          # takes a minute or more: the default test run leaves it out
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .catalogue import catalogue_dir, resolve_spec
from .compiler import CompiledPuzzle
from .engines import RunOptions
from .errors import NOWHERE, Diagnostic, Pos, SpecError, suggest
from .expectation_file import FIELDS, NO_SOLUTION_HAS_NO, Case, ExpectationFile, expectations_in, read_expectations
from .files import CannotWrite, unwritable, write_file
from .language import syntax as s
from .language.parser import parse
from .questions import Question, ask
from .runner import answer, load
from .search import Limits
from .search.costs import plain
from .search.result import SOLVED
from .solutions import enumerate_solutions
from .sources import read_source
from .trajectories import distinct_trajectories

__all__ = ["FIELDS", "CaseReport", "find_specs", "load_cases", "record_case", "run_case"]


@dataclass
class CaseReport:
    params: dict[str, str]
    expected: dict[str, Any]
    actual: dict[str, Any] = field(default_factory=dict)
    slow: bool = False
    case: Case | None = None
    file: ExpectationFile | None = None

    @property
    def mismatches(self) -> list[str]:
        return [k for k, v in self.expected.items() if self.actual.get(k) != v]

    def title(self) -> str:
        return " ".join(f"{k}={v}" for k, v in self.params.items()) or "defaults"


def expectation_file(spec: Path) -> Path:
    return spec.with_suffix(".yaml")


def default_targets() -> list[str]:
    """`specs/` in the current directory when there is one, else the shipped catalogue."""
    if Path("specs").is_dir():
        return ["specs"]
    folder = catalogue_dir()
    return [str(folder)] if folder is not None else ["specs"]


def find_specs(targets: list[str]) -> list[Path]:
    """Spec files named, or found in the directories named (default: see default_targets)."""
    found: list[Path] = []
    for target in targets or default_targets():
        path = Path(target)
        if path.is_dir():
            found.extend(sorted(spec for spec in path.glob("*.puz") if spec.is_file()))  # not a folder x.puz
        else:
            found.append(resolve_spec(target))  # a file, or a shipped spec's name (`puzint check frog`)
    return found


def load_cases(spec: Path, path: Path | None = None) -> list[CaseReport]:
    """The cases of the spec's expectation file (SPEC.yaml unless `path` says), checked against
    the file's schema and against the parameters the spec declares."""
    path = path or expectation_file(spec)
    if not spec.exists():
        read_source(spec)  # says why the spec cannot be read (and the shipped spec meant)
    if not path.exists():
        raise SpecError(
            [Diagnostic(Pos(0, 0), f"no expectations: {path.name} is missing beside the spec")], "", str(spec)
        )
    file = read_expectations(path)
    declared = declared_parameters(spec)
    unknown = [
        Diagnostic(
            case.param_pos[name],
            f"{spec.name} has no parameter '{name}'{suggest(name, declared)}",
            "one of: " + ", ".join(declared) if declared else "no params: the spec has no parameters",
        )
        for case in file.cases
        for name in case.params
        if name not in declared
    ]
    if unknown:
        raise file.error(unknown)
    return [CaseReport(case.params, case.expected, slow=case.slow, case=case, file=file) for case in file.cases]


def declared_parameters(spec: Path) -> list[str]:
    """Every parameter the spec declares, in any branch of its `if`s."""
    names: list[str] = []

    def walk(statements: tuple[s.Statement, ...]) -> None:
        for stmt in statements:
            if isinstance(stmt, s.Param) and stmt.name not in names:
                names.append(stmt.name)
            elif isinstance(stmt, s.If):
                walk(stmt.then)
                walk(stmt.otherwise)

    walk(parse(read_source(spec), str(spec)).statements)
    return names


def blame_parameters(exc: SpecError, report: CaseReport) -> list[SpecError]:
    """A parameter value that the spec refuses is a mistake in the expectation file: shown
    there, at the value; the rest of the diagnostics stay with the spec."""
    case, file = report.case, report.file
    if case is None or file is None:
        return [exc]
    moved, kept = [], []
    for diag in exc.diagnostics:
        ref = diag.parameter
        if ref is not None and ref.name in case.param_pos:
            pos = case.param_pos[ref.name] if ref.part == "name" else case.value_pos["params." + ref.name]
            moved.append(Diagnostic(pos, diag.message, diag.expected))
        else:
            kept.append(diag)
    errors = [file.error(moved)] if moved else []
    if kept:
        errors.append(SpecError(kept, exc.source, exc.filename))
    return errors


def check_questions(compiled: CompiledPuzzle, report: CaseReport) -> None:
    """A key that asks what this spec cannot answer (trajectories on a puzzle without cells,
    a cost where moves have none, solutions of a spec that does not list them) is a mistake
    of the expectation file: refused at the key, rather than failing later without a
    position or comparing with nothing."""
    puzzle = compiled.puzzle
    diagnostics = []
    mode = "all" if puzzle.fill is not None else puzzle.search  # a logic puzzle's solutions are always counted
    for key in report.expected:
        refused = _unanswerable(key, mode, puzzle.board is not None, set(report.expected))
        if key == "optimum" and puzzle.objective is None:
            refused = "this spec has no objective (`maximize` or `minimize`)", "no optimum"
        if refused is not None and report.case is not None:
            why, expected = refused
            diagnostics.append(Diagnostic(report.case.key_pos.get(key, NOWHERE), f"{key}: {why}", expected))
    if diagnostics:
        if report.file is None:
            raise SpecError(diagnostics)
        raise report.file.error(diagnostics)


LISTING = ("solutions", "solutions_in_all", "optimum")
REACHING = ("reachable", "reachable_up_to_symmetry", "reachable_goals", "depth")
TRAJECTORIES = ("trajectories", "trajectories_up_to_symmetry")


def _unanswerable(key: str, mode: str, cells: bool, keys: set[str]) -> tuple[str, str] | None:
    """Why this spec cannot answer `key`, and what would do instead (None: it can)."""
    asks = {"cheapest": "the cheapest solution", "all": "every solution (search all)"}.get(mode, "the fewest moves")
    if key in TRAJECTORIES and not cells:
        return "trajectories follow pieces from cell to cell, and this puzzle has no cells", f"no {key}"
    if key == "reachable_up_to_symmetry" and mode == "cheapest":
        why = "the reachable states of a spec with costs are counted by moves, not up to symmetry"
        return why, "reachable"
    if key == "cost" and mode != "cheapest":
        return f"a cost is the total of a cheapest solution, and this spec asks for {asks}", "length"
    if mode == "all" and key not in {"status", *LISTING, *REACHING}:
        why = "a `search all` spec's solutions are goal states, listed (not a shortest sequence of moves)"
        return why, "solutions or solutions_in_all"
    if key in LISTING and mode != "all":
        why = f"solutions are the goal states a `search all` spec lists, and this spec asks for {asks}"
        return why, "count (the shortest solutions)"
    # the keys a listing cannot answer beside it: those this spec answers alone (any other
    # is refused at its own place, with what would do instead)
    if key not in LISTING:
        return None
    others = sorted(k for k in keys - {"status", *LISTING} if _unanswerable(k, mode, cells, set()) is None)
    if others:
        why = f"the solutions are listed, not searched: {', '.join(others)} cannot be asked in the same case"
        return why, "another case for " + ", ".join(others)
    return None


def run_case(spec: Path, case: CaseReport, limits: Limits, options: RunOptions | None = None) -> CaseReport:
    """Ask the spec what the case expects (the question worked out once from its keys), as
    `options` say (the engine asked for; the default: auto), and note what was found."""
    options = options or RunOptions()
    compiled = load(spec, case.params)
    check_questions(compiled, case)
    want = set(case.expected)
    if want & set(LISTING):
        every = enumerate_solutions(compiled, limits, keep=False, options=options)
        case.actual = {"status": every.status, "solutions": every.count, "solutions_in_all": every.in_all}
        case.actual["optimum"] = every.optimum
        if every.limit_reason:
            case.actual["limit"] = every.limit_reason
        return case
    want_count = bool(want & {"count", "count_up_to_symmetry"})
    want_reach = bool(want & set(REACHING))
    asked = ask(compiled, Question(count=want_count, reach=want_reach), options)
    result = answer(compiled, asked.query, limits, asked.options)
    case.actual = {"status": result.status, "length": result.length, "cost": plain(result.cost)}
    if want_count:
        case.actual["count"] = result.count
        case.actual["count_up_to_symmetry"] = result.count_up_to_symmetry
    if want_reach:
        case.actual["reachable"] = result.reachable
        case.actual["reachable_up_to_symmetry"] = result.reachable_up_to_symmetry
        case.actual["reachable_goals"] = result.reachable_goals
        case.actual["depth"] = result.depth
    if want & set(TRAJECTORIES) and result.status == SOLVED:
        report = distinct_trajectories(compiled, limits)
        case.actual["trajectories"] = report.classes
        case.actual["trajectories_up_to_symmetry"] = report.classes_up_to_symmetry
        if report.limit_reason:
            result.limit_reason = report.limit_reason
    if result.limit_reason:
        case.actual["limit"] = result.limit_reason
    return case


def recorded_keys(compiled: CompiledPuzzle) -> dict[str, Any]:
    """What `check --record` asks of a spec (the keys of the case it writes): every solution
    of a `search all` spec; the status, length (or cost) and count of the shortest (cheapest)
    solutions of a puzzle of moves; the status alone for `search any` (which solution a walk
    finds first is not a property of the puzzle)."""
    puzzle = compiled.puzzle
    mode = "all" if puzzle.fill is not None else puzzle.search
    if mode == "all" and puzzle.objective is not None:
        return {"status": SOLVED, "solutions": None, "solutions_in_all": None, "optimum": None}
    if mode == "all":
        return {"status": SOLVED, "solutions": None, "solutions_in_all": None}
    if mode == "any":
        return {"status": SOLVED}
    kind = "cost" if mode == "cheapest" else "length"
    return {"status": SOLVED, kind: None, "count": None}


def record_case(
    spec: Path, params: dict[str, str], limits: Limits, options: RunOptions | None = None
) -> tuple[Path, str]:
    """Run the spec with `params` and write (or add to) the expectation file beside it a case
    of what the run found, for the author to review against the puzzle. Returns the file and
    the case as written; refuses a run that a limit stopped and a case that is already there,
    and (before it runs) a file it may not write: a link or a directory at its name."""
    path = expectation_file(spec)
    problem = unwritable(path)
    if problem is not None:
        raise CannotWrite(path, problem)
    existing = read_expectations(path) if path.exists() else None
    if existing is not None:
        for case in existing.cases:
            if case.params == params:
                there = Diagnostic(case.pos, "a case with these parameters is already here", "other parameters")
                raise existing.error([there])
    compiled = load(spec, params)
    report = CaseReport(params, recorded_keys(compiled))
    run_case(spec, report, limits, options)
    if "limit" in report.actual:
        raise SpecError(
            [Diagnostic(NOWHERE, f"nothing recorded: the run stopped ({report.actual['limit']})")], "", str(spec)
        )
    found = {key: report.actual.get(key) for key in report.expected}
    if found["status"] != SOLVED:
        found = {key: value for key, value in found.items() if key not in NO_SOLUTION_HAS_NO}
    written_case = case_text(params, {key: value for key, value in found.items() if value is not None})
    before = existing.source if existing is not None else f"# Expected results for {spec.name}.\ncases:\n"
    after = before + ("" if before.endswith("\n") else "\n") + written_case
    grown = expectations_in(after, path)  # read as `check` will read it, before it is written
    if len(grown.cases) != (len(existing.cases) if existing is not None else 0) + 1:
        raise SpecError([Diagnostic(NOWHERE, f"the case could not be added to {path.name}: add it by hand")])
    write_file(path, after)  # never through a link or over a directory left at its name
    return path, written_case


def case_text(params: dict[str, str], values: dict[str, Any]) -> str:
    """One case of an expectation file, as `check --record` writes it."""
    lines = ["  - note: recorded by puzint check --record; check it against the puzzle"]
    if params:
        shown = ", ".join(f"{name}: {_param_yaml(value)}" for name, value in params.items())
        lines.append(f"    params: {{{shown}}}")
    for key, value in values.items():
        if key == "status" and value == SOLVED:
            continue  # the default
        if isinstance(value, list):
            value = "[" + ", ".join(str(part) for part in value) + "]"
        lines.append(f"    {key}: {value}")
    return "\n".join(lines) + "\n"


def _param_yaml(text: str) -> str:
    """A parameter value as given with -p, written as the expectation file reads it: a number,
    true or false, a list of numbers, or a word (quoted where YAML would read it otherwise)."""
    parts = text.split(",")
    if len(parts) > 1 and all(part.strip().lstrip("-").isdigit() for part in parts):
        return "[" + ", ".join(part.strip() for part in parts) + "]"
    if text.lstrip("-").isdigit() or text in ("true", "false"):
        return text
    return json.dumps(text)
