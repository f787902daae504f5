"""A pytest plugin (entry point `pytest11`): every `*.puz` file with a YAML file beside it is
collected, and each case of the YAML is a test item. `pytest specs/` then checks every spec
with pytest's own selection (`-k frog`, `-x`), reports (`--junitxml`) and timings
(`--durations`); a case marked `slow: true` carries the `slow` marker.

The cases are read and run by the same code as `puzint check` (puzint.expectations).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .errors import SpecError
from .expectations import CaseReport, expectation_file, load_cases, run_case
from .search import Limits
from .search.limits import LimitReached


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: a puzint case marked `slow: true` in its expectation file")


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
    """A spec file with something named as its expectation file beside it: a YAML file's
    cases, or (a directory named `frog.yaml`) the same refusal `puzint check` gives, as a
    collection error of the spec, never a test of its own."""
    if file_path.suffix == ".puz" and file_path.is_file() and expectation_file(file_path).exists():
        return SpecFile.from_parent(parent, path=file_path)
    return None


class CaseFailed(Exception):
    """A case whose results differ from the expected ones."""


class SpecFile(pytest.File):
    """One spec and the cases of its expectation file."""

    def collect(self) -> Iterator[pytest.Item]:
        cases = load_cases(self.path)  # a SpecError is shown by repr_failure below
        seen: dict[str, int] = {}
        for case in cases:
            name = "-".join(f"{_id(k)}:{_id(v)}" for k, v in case.params.items()) or "defaults"  # -k n:4
            seen[name] = seen.get(name, 0) + 1
            if seen[name] > 1:
                name = f"{name} ({seen[name]})"
            item = CaseItem.from_parent(self, name=name, case=case)
            if case.slow:
                item.add_marker(pytest.mark.slow)
            yield item

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException]) -> str:  # type: ignore[override]
        if isinstance(excinfo.value, SpecError):
            return excinfo.value.render()
        return str(super().repr_failure(excinfo))


def _id(text: str) -> str:
    """A parameter's name or value as a part of a test's node id: `:` separates a name from
    its value and `::` the parts of a node id, so a `:` of its own (and a `%`, and what is
    not printable) is written as `%3A`, which `pytest "frog.puz::bottom:B%3AA"` finds again."""
    return "".join(ch if ch.isprintable() and ch not in ":%" else f"%{ord(ch):02X}" for ch in text)


class CaseItem(pytest.Item):
    """One case: run the question it asks, compare what it expects."""

    def __init__(self, *, case: CaseReport, **kwargs: Any):
        super().__init__(**kwargs)
        self.case = case

    def runtest(self) -> None:
        limits = Limits()
        try:
            with limits.armed():
                run_case(self.path, self.case, limits)
        except LimitReached as exc:
            raise CaseFailed(f"stopped while compiling: {exc.reason}") from None
        mismatches = self.case.mismatches
        if mismatches:
            lines = [
                f"{key}: expected {self.case.expected[key]!r}, got {self.case.actual.get(key)!r}" for key in mismatches
            ]
            if "limit" in self.case.actual:
                lines.append(f"(search stopped: {self.case.actual['limit']})")
            raise CaseFailed("\n".join(lines))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:  # type: ignore[override]
        if isinstance(excinfo.value, CaseFailed):
            return str(excinfo.value)
        if isinstance(excinfo.value, SpecError):
            return excinfo.value.render()
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"{self.path.name}: {self.name}"
