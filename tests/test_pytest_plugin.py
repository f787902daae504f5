"""The pytest plugin: `pytest DIR` collects every spec with a YAML file beside it, one item per
case, with pytest's selection, failure reports and junit XML."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_pytest(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-o", "addopts=", *args, str(folder)],
        capture_output=True,
        text=True,
        cwd=folder,
        timeout=300,
    )


def test_specs_with_expectations_are_collected_case_by_case(tmp_path: Path) -> None:
    for name in ("frog.puz", "frog.yaml", "white_black.puz", "white_black.yaml"):
        shutil.copy(ROOT / "specs" / name, tmp_path / name)
    (tmp_path / "lonely.puz").write_text((ROOT / "specs" / "frog.puz").read_text())  # no YAML: not collected
    shutil.copy(ROOT / "specs" / "frog.puz", tmp_path / "wrong.puz")
    (tmp_path / "wrong.yaml").write_text("cases:\n  - length: 99\n  - params: {n: 1}\n    length: 3\n")
    run = run_pytest(tmp_path, "-v", f"--junitxml={tmp_path / 'report.xml'}")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "frog.puz::n:4 PASSED" in run.stdout and "white_black.puz::k:5 PASSED" in run.stdout
    assert "wrong.puz::defaults FAILED" in run.stdout and "wrong.puz::n:1 PASSED" in run.stdout
    assert "length: expected 99, got 15" in run.stdout
    assert "lonely" not in run.stdout
    assert "1 failed, 9 passed" in run.stdout
    assert (tmp_path / "report.xml").read_text().count("<testcase") == 10


def test_a_bad_expectation_file_is_a_collection_error_with_its_position(tmp_path: Path) -> None:
    shutil.copy(ROOT / "specs" / "frog.puz", tmp_path / "frog.puz")
    (tmp_path / "frog.yaml").write_text("cases:\n  - lenght: 15\n")
    run = run_pytest(tmp_path)
    assert run.returncode == 2
    assert "frog.yaml:2:5: unknown key 'lenght' in a case (did you mean 'length'?)" in run.stdout
    assert "Traceback" not in run.stdout


def test_colons_in_parameter_values_keep_node_ids_whole(tmp_path: Path) -> None:
    shutil.copy(ROOT / "specs" / "amida.puz", tmp_path / "amida.puz")
    (tmp_path / "amida.yaml").write_text(
        'cases:\n  - params: {bottom: "BA"}\n    length: 1\n  - params: {bottom: "B::A"}\n    length: 1\n'
        '  - params: {bottom: "B:A%"}\n    length: 1\n'
    )
    listed = run_pytest(tmp_path, "--collect-only", "-q")
    ids = ["amida.puz::bottom:BA", "amida.puz::bottom:B%3A%3AA", "amida.puz::bottom:B%3AA%25"]
    assert listed.stdout.splitlines()[:3] == ids, listed.stdout
    chosen = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-o", "addopts=", "-q", ids[1]],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
    )
    assert "1 failed" in chosen.stdout and "unknown piece ':'" in chosen.stdout, chosen.stdout


def test_a_directory_named_as_the_expectation_file_is_a_collection_error(tmp_path: Path) -> None:
    shutil.copy(ROOT / "specs" / "frog.puz", tmp_path / "frog.puz")
    (tmp_path / "frog.yaml").mkdir()
    (tmp_path / "frog.yaml" / "inner.puz").mkdir()  # a directory named like a spec, too
    run = run_pytest(tmp_path)
    assert run.returncode == 2, run.stdout
    assert f"{tmp_path / 'frog.yaml'}: cannot read the expectation file: Is a directory" in run.stdout
    assert "Traceback" not in run.stdout and "inner" not in run.stdout
