"""Every spec in specs/ against the expected results in the YAML file beside it."""

from __future__ import annotations

from pathlib import Path

import pytest
from puzint.expectations import CaseReport, expectation_file, load_cases, run_case
from puzint.search import Limits

SPECS = sorted((Path(__file__).resolve().parents[2] / "specs").glob("*.puz"))
CASES = [
    pytest.param(spec, case, marks=[pytest.mark.slow] if case.slow else [], id=f"{spec.stem}[{case.title()}]")
    for spec in SPECS
    for case in load_cases(spec)
]


def test_every_spec_has_expectations() -> None:
    assert SPECS
    for spec in SPECS:
        assert expectation_file(spec).exists(), spec


@pytest.mark.parametrize(("spec", "case"), CASES)
def test_spec_case(spec: Path, case: CaseReport) -> None:
    # a net for a search gone wrong; the pentominoes on 6 x 10 lay 25.8 million pieces (2.5 s)
    report = run_case(spec, case, Limits(max_states=50_000_000))
    assert report.actual == {k: v for k, v in report.actual.items() if k != "limit"}
    assert {k: report.actual.get(k) for k in report.expected} == report.expected


def test_the_catalogue_numbers_are_in_the_expectations() -> None:
    """The figures from ../shared/PUZZLES.md that the core issue names, pinned here too."""
    pairs = [p.values for p in CASES]
    (frog,) = [c for s, c in pairs if s.stem == "frog" and not c.params]
    assert frog.expected == {"status": "solved", "length": 15, "count": 2, "reachable": 72}
    (oshidori,) = [c for s, c in pairs if s.stem == "oshidori" and not c.params]
    assert oshidori.expected == {"status": "solved", "length": 4, "reachable": 630}
    (wb,) = [c for s, c in pairs if s.stem == "white_black" and not c.params]
    assert wb.expected == {"status": "solved", "length": 4, "count": 2, "reachable": 30}


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_frog_length_is_n_squared_plus_2n(n: int) -> None:
    spec = Path(__file__).resolve().parents[2] / "specs" / "frog.puz"
    report = run_case(spec, CaseReport({"n": str(n)}, {"length": n * n + 2 * n}), Limits())
    assert report.actual["length"] == n * n + 2 * n
