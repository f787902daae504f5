"""Golden tests for expectation files: every malformed YAML in bad/ is refused with exactly the
diagnostics in its .err file (file:line:col, the line, a caret, what was expected), and a
good file is read into the cases it says."""

from __future__ import annotations

import time
import tracemalloc
from pathlib import Path

import pytest
from puzint.cli import main
from puzint.errors import SpecError
from puzint.expectations import blame_parameters, check_questions, load_cases
from puzint.runner import load

ROOT = Path(__file__).resolve().parents[2]
FROG = ROOT / "specs" / "frog.puz"
BAD = Path(__file__).parent / "bad"
CASES = sorted(BAD.glob("*.yaml"))


def diagnose(path: Path) -> str:
    """What `puzint check` says of this file, as the spec frog.puz's expectations, before
    anything is searched."""
    try:
        cases = load_cases(FROG, path)
    except SpecError as exc:
        return exc.render().replace(str(path), path.name) + "\n"
    out = []
    for case in cases:
        try:
            check_questions(load(FROG, case.params), case)
        except SpecError as exc:
            out.extend(e.render().replace(str(path), path.name) for e in blame_parameters(exc, case))
    assert out, f"{path.name} was accepted"
    return "\n".join(out) + "\n"


def test_there_are_enough_malformed_expectation_files() -> None:
    assert len(CASES) >= 20


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_golden_error(path: Path) -> None:
    assert diagnose(path) == path.with_suffix(".err").read_text(encoding="utf-8")


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_every_error_has_a_position_and_says_what_was_expected(path: Path) -> None:
    text = diagnose(path)
    assert text.startswith(f"{path.name}:")
    assert "\n  expected " in text


def test_an_alias_bomb_is_refused_before_it_expands() -> None:
    tracemalloc.start()
    started = time.process_time()
    with pytest.raises(SpecError, match="anchors and aliases"):
        load_cases(FROG, BAD / "alias_bomb.yaml")
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 20_000_000  # 9**9 strings if expanded: gigabytes
    assert time.process_time() - started < 5


def test_a_good_file_reads_into_its_cases(tmp_path: Path) -> None:
    good = tmp_path / "frog.yaml"
    good.write_text(
        "\ufeffcases:\n  - note: a byte-order mark is fine\n    length: 15\n    count: 2\n"
        "  - params: {n: 4}\n    length: 24\n    slow: true\n  - params: {n: 1}\n    status: solved\n",
        encoding="utf-8",
    )
    cases = load_cases(FROG, good)
    assert [(c.params, c.expected, c.slow) for c in cases] == [
        ({}, {"length": 15, "count": 2, "status": "solved"}, False),
        ({"n": "4"}, {"length": 24, "status": "solved"}, True),
        ({"n": "1"}, {"status": "solved"}, False),
    ]


def test_a_directory_where_the_file_should_be(tmp_path: Path) -> None:
    (tmp_path / "frog.yaml").mkdir()
    with pytest.raises(SpecError) as caught:
        load_cases(FROG, tmp_path / "frog.yaml")
    assert caught.value.render().endswith("frog.yaml: cannot read the expectation file: Is a directory")


@pytest.mark.parametrize(
    ("spec", "yaml", "first"),
    [
        (
            "farmer",
            "cases:\n  - length: 7\n    trajectories: 1\n",
            "farmer.yaml:3:5: trajectories: trajectories follow pieces from cell to cell, and this puzzle has no cells",
        ),
        (
            "bridge_torch",
            "cases:\n  - cost: 17\n    reachable_up_to_symmetry: 20\n",
            "bridge_torch.yaml:3:5: reachable_up_to_symmetry: the reachable states of a spec with costs are "
            "counted by moves, not up to symmetry",
        ),
        (
            "queens_moves",
            "cases:\n  - params: {n: 6}\n    count: 4\n",
            "queens_moves.yaml:3:5: count: a `search all` spec's solutions are goal states, listed "
            "(not a shortest sequence of moves)",
        ),
        (
            "queens_moves",
            "cases:\n  - params: {n: 6}\n    solutions: 1\n    reachable: 6\n",
            "queens_moves.yaml:3:5: solutions: the solutions are listed, not searched: "
            "reachable cannot be asked in the same case",
        ),
    ],
)
def test_a_key_the_spec_cannot_answer_is_refused_at_the_key(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, spec: str, yaml: str, first: str
) -> None:
    (tmp_path / f"{spec}.puz").write_text((ROOT / "specs" / f"{spec}.puz").read_text())
    (tmp_path / f"{spec}.yaml").write_text(yaml)
    assert main(["check", str(tmp_path / f"{spec}.puz")]) == 2
    err = capsys.readouterr().err.replace(str(tmp_path) + "/", "")
    assert err.splitlines()[0] == first and "^" in err.splitlines()[2]


@pytest.mark.parametrize("line_end", ["\r", "\r\n", "\u2028"])
def test_any_line_end_counts_lines_as_the_caret_shows_them(tmp_path: Path, line_end: str) -> None:
    path = tmp_path / "frog.yaml"
    path.write_bytes("cases:\n  - length: 15\n    lenght: 2\n".replace("\n", line_end).encode())
    with pytest.raises(SpecError) as refused:
        load_cases(FROG, path)
    assert refused.value.render().replace(str(path), "frog.yaml").splitlines()[:3] == [
        "frog.yaml:3:5: unknown key 'lenght' in a case (did you mean 'length'?)",
        "   3 |     lenght: 2",
        "     |     ^^^^^^",
    ]


@pytest.mark.parametrize("other", ["length: 6", "count: 4", "count_up_to_symmetry: 1"])
def test_a_key_a_listing_cannot_answer_is_refused_once_at_its_own_place(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, other: str
) -> None:
    """Beside `solutions`, a key that a `search all` spec never answers is refused at that key
    alone, with what would do instead: not also at `solutions`, as if another case could ask it."""
    (tmp_path / "queens_moves.puz").write_text((ROOT / "specs" / "queens_moves.puz").read_text())
    (tmp_path / "queens_moves.yaml").write_text(f"cases:\n  - params: {{n: 6}}\n    solutions: 1\n    {other}\n")
    assert main(["check", str(tmp_path / "queens_moves.puz")]) == 2
    err = capsys.readouterr().err.replace(str(tmp_path) + "/", "")
    key = other.split(":")[0]
    said = [line for line in err.splitlines() if line.startswith("queens_moves.yaml:")]
    assert said == [
        f"queens_moves.yaml:4:5: {key}: a `search all` spec's solutions are goal states, listed "
        "(not a shortest sequence of moves)"
    ]
    assert "expected solutions or solutions_in_all" in err
