"""Fuzzing: seeded mutations of every shipped spec and expectation file must either run
cleanly (within small limits) or be refused with every diagnostic at a line and column;
never an internal error, never more than a few seconds to refuse.

The default test run tries a few hundred mutants; `pytest -m fuzz` tries many more
(PUZINT_FUZZ=N sets how many per file, PUZINT_FUZZ_SEED the seed)."""

from __future__ import annotations

import os
import random
import resource
import time
from pathlib import Path

import pytest
from puzint.cli import main
from puzint.compiler import compile_puzzle
from puzint.errors import SpecError
from puzint.expectations import blame_parameters, load_cases
from puzint.language.elaborate import elaborate
from puzint.language.parser import parse
from puzint.runner import load, search
from puzint.search import Limits
from puzint.search.limits import LimitReached
from puzint.solutions import enumerate_solutions

from .mutations import mutate

ROOT = Path(__file__).resolve().parents[2]
SPECS = sorted((ROOT / "specs").glob("*.puz"))
EXPECTATIONS = sorted((ROOT / "specs").glob("*.yaml"))
SEED = int(os.environ.get("PUZINT_FUZZ_SEED", "2026"))
# A refusal that hangs fails: the process's own CPU time, not the wall clock (a busy machine,
# or the race's copy working beside it, slows a refusal without making it wrong)
REFUSE_SECONDS = 5.0


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_spec_text(text: str, name: str) -> str:
    """What puzint makes of a spec's text: "ok", "limit" or the rendered refusal."""
    limits = Limits(max_states=20_000, timeout=3, max_memory_mb=4096)
    try:
        with limits.armed():
            compiled = compile_puzzle(elaborate(parse(text, name)))
            if compiled.puzzle.search == "all":
                enumerate_solutions(compiled, limits, limit=50, keep=False)
            else:
                search(compiled, limits=limits)
    except SpecError as exc:
        rendered = exc.with_source(text, name).render()
        for diag in exc.diagnostics:
            assert diag.pos.line >= 1 and diag.pos.column >= 1, f"no position: {diag.message}\n{rendered}"
        return rendered
    except LimitReached:
        return "limit"
    return "ok"


def _mutants(path: Path, count: int, seed: int) -> list[tuple[int, str, str]]:
    rng = random.Random(f"{seed}:{path.name}")
    text = path.read_text(encoding="utf-8")
    return [(i, *mutate(text, rng)) for i in range(count)]


def _fuzz_specs(per_file: int, seed: int) -> None:
    before = _peak_mb()
    for path in SPECS:
        for i, text, how in _mutants(path, per_file, seed):
            started = time.process_time()
            try:
                outcome = run_spec_text(text, path.name)
            except AssertionError:
                raise
            except BaseException as exc:
                raise AssertionError(f"{path.name} mutant {i} ({how}): {type(exc).__name__}: {exc}\n{text}") from exc
            took = time.process_time() - started
            if outcome not in ("ok", "limit"):
                assert took < REFUSE_SECONDS, f"{path.name} mutant {i} ({how}) took {took:.1f} s of CPU to refuse"
    assert _peak_mb() - before < 600, "fuzzing grew the process by more than 600 MB"


def _fuzz_expectations(per_file: int, seed: int, tmp: Path) -> None:
    for path in EXPECTATIONS:
        spec = path.with_suffix(".puz")
        target = tmp / path.name
        for i, text, how in _mutants(path, per_file, seed):
            target.write_text(text, encoding="utf-8")
            try:
                cases = load_cases(spec, target)
                for case in cases:
                    try:
                        load(spec, case.params)
                    except SpecError as exc:
                        errors = blame_parameters(exc, case)
                        assert all(d.pos.line >= 1 for e in errors for d in e.diagnostics), how
            except SpecError as exc:
                assert all(d.pos.line >= 1 for d in exc.diagnostics), f"{path.name} mutant {i} ({how}): {exc}"
            except BaseException as exc:
                raise AssertionError(f"{path.name} mutant {i} ({how}): {type(exc).__name__}: {exc}\n{text}") from exc


def test_mutated_specs_run_or_are_refused_with_positions() -> None:
    _fuzz_specs(per_file=12, seed=SEED)


def test_mutated_expectation_files_are_read_or_refused_with_positions(tmp_path: Path) -> None:
    _fuzz_expectations(per_file=8, seed=SEED, tmp=tmp_path)


def test_mutated_specs_through_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rng = random.Random(SEED)
    for path in SPECS[::3]:
        text, how = mutate(path.read_text(encoding="utf-8"), rng)
        target = tmp_path / path.name
        target.write_text(text, encoding="utf-8")
        code = main(["run", str(target), "--max-states", "20000", "--timeout", "3", "--format", "json"])
        _out, err = capsys.readouterr()
        assert code in (0, 2, 3), f"{path.name} ({how}): exit {code}\n{err}"
        assert "internal error" not in err and "Traceback" not in err, err
        if code == 2:
            assert err.startswith(f"{target}:"), err


@pytest.mark.fuzz
def test_many_mutated_specs() -> None:
    _fuzz_specs(per_file=int(os.environ.get("PUZINT_FUZZ", "400")), seed=SEED)


@pytest.mark.fuzz
def test_many_mutated_expectation_files(tmp_path: Path) -> None:
    _fuzz_expectations(per_file=int(os.environ.get("PUZINT_FUZZ", "400")), seed=SEED, tmp=tmp_path)
