"""`puzint check --record`: a run's answer written as a case of the expectation file beside
the spec, which `check` then passes; a repeated case, a stopped run and a shipped spec are
refused."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from puzint.cli import main
from puzint.expectation_file import read_expectations

ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def copied(tmp_path: Path, name: str) -> Path:
    spec = tmp_path / f"{name}.puz"
    shutil.copy(ROOT / "specs" / f"{name}.puz", spec)
    return spec


def test_record_then_check_passes(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    spec = copied(tmp_path, "frog")
    code, out, _ = run(capsys, "check", "--record", str(spec), "-p", "n=2")
    assert code == 0 and "    length: 8\n    count: 2\n" in out  # n² + 2n, two mirror images
    code, _, _ = run(capsys, "check", "--record", str(spec))
    assert code == 0
    cases = read_expectations(tmp_path / "frog.yaml").cases
    assert [(c.params, c.expected) for c in cases] == [
        ({"n": "2"}, {"status": "solved", "length": 8, "count": 2}),
        ({}, {"status": "solved", "length": 15, "count": 2}),
    ]
    code, out, _ = run(capsys, "check", str(spec))
    assert code == 0 and "2 case(s): 2 passed, 0 failed" in out


def test_a_search_all_spec_records_its_solutions_and_no_solution(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    spec = copied(tmp_path, "queens")
    assert run(capsys, "check", "--record", str(spec), "-p", "n=6")[0] == 0
    assert run(capsys, "check", "--record", str(spec), "-p", "n=3")[0] == 0
    cases = read_expectations(tmp_path / "queens.yaml").cases
    assert [c.expected for c in cases] == [
        {"status": "solved", "solutions": 1, "solutions_in_all": 4},  # six queens: 4 solutions, one up to symmetry
        {"status": "no-solution", "solutions": 0, "solutions_in_all": 0},
    ]


def test_a_case_already_there_is_refused_at_its_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    spec = copied(tmp_path, "frog")
    (tmp_path / "frog.yaml").write_text("cases:\n  - params: {n: 1}\n    length: 3\n")
    code, _, err = run(capsys, "check", "--record", str(spec), "-p", "n=1")
    assert code == 2 and err.startswith(f"{tmp_path / 'frog.yaml'}:2:5: a case with these parameters is already here")
    assert (tmp_path / "frog.yaml").read_text() == "cases:\n  - params: {n: 1}\n    length: 3\n"


def test_a_run_stopped_by_a_limit_records_nothing(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    spec = copied(tmp_path, "frog")
    code, _, err = run(capsys, "check", "--record", str(spec), "--max-states", "5", "--engine", "python")
    assert code == 2 and "nothing recorded: the run stopped (state limit of 5 reached)" in err
    assert not (tmp_path / "frog.yaml").exists()


def test_record_needs_one_spec_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "check", "--record", "frog")
    assert code == 2 and "frog is not a .puz file (a shipped spec: copy it here first)" in err
    code, _, err = run(capsys, "check", "-p", "n=2")
    assert code == 2 and "-p sets the parameters of the case --record writes" in err


# ---- where the case is written (files.py): never through a link, never over a directory


def test_a_link_at_the_expectation_file_is_refused_before_the_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    spec = copied(tmp_path, "frog")
    victim = tmp_path / "elsewhere.yaml"
    victim.write_text("cases:\n  - length: 15\n")
    (tmp_path / "frog.yaml").symlink_to(victim)
    code, out, err = run(capsys, "check", "--record", str(spec), "-p", "n=1")
    assert (code, out, err) == (2, "", f"puzint: cannot write {tmp_path / 'frog.yaml'}: it is a symbolic link\n")
    assert victim.read_text() == "cases:\n  - length: 15\n" and (tmp_path / "frog.yaml").is_symlink()


def test_a_directory_at_the_expectation_file_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    spec = copied(tmp_path, "frog")
    (tmp_path / "frog.yaml").mkdir()
    code, _, err = run(capsys, "check", "--record", str(spec), "-p", "n=1")
    assert (code, err) == (2, f"puzint: cannot write {tmp_path / 'frog.yaml'}: it is a directory\n")
    assert list((tmp_path / "frog.yaml").iterdir()) == []


def test_a_link_at_the_old_temporary_name_is_left_alone(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`check --record` once wrote NAME.yaml.new, through whatever was at that name, and then
    removed it: the file it pointed to was replaced."""
    spec = copied(tmp_path, "frog")
    victim = tmp_path / "victim"
    victim.write_text("the user's own\n")
    (tmp_path / "frog.yaml.new").symlink_to(victim)
    assert run(capsys, "check", "--record", str(spec), "-p", "n=1")[0] == 0
    assert [c.expected for c in read_expectations(tmp_path / "frog.yaml").cases] == [
        {"status": "solved", "length": 3, "count": 2}  # one frog a side: the two mirror images
    ]
    assert victim.read_text() == "the user's own\n" and (tmp_path / "frog.yaml.new").is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["frog.puz", "frog.yaml", "frog.yaml.new", "victim"]


def test_a_read_only_folder_is_said_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, read_only_file_system: None
) -> None:
    spec = copied(tmp_path, "frog")
    code, out, err = run(capsys, "check", "--record", str(spec), "-p", "n=1", "--engine", "python")
    assert (code, out, err) == (2, "", f"puzint: cannot write {tmp_path / 'frog.yaml'}: Read-only file system\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["frog.puz"]
