"""NUMBA_DISABLE_JIT=1 makes numba's decorators hand back plain Python functions, which the
kernel (pointers, intrinsics, a C entry point) cannot run as: the kernel declines with the
reason, the Python engine answers, and `--engine compiled` is refused with it (exit 2)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from puzint.kernel import installed, jit_disabled, why_not
from puzint.runner import load, search

from tests.conftest import SPECS

pytestmark = pytest.mark.skipif(not installed(), reason="numba is not installed")

REASON = "NUMBA_DISABLE_JIT is set, and the kernel runs only compiled by numba"


def test_the_command_refuses_the_compiled_engine_with_the_reason() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "puzint", "run", "jealous_husbands", "--engine", "compiled"],
        capture_output=True,
        text=True,
        env={**os.environ, "NUMBA_DISABLE_JIT": "1"},
        timeout=300,
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"puzint: --engine compiled cannot run this: {REASON}\n"


def test_the_python_engine_answers_instead(monkeypatch: pytest.MonkeyPatch) -> None:
    import numba

    monkeypatch.setattr(numba.config, "DISABLE_JIT", 1)
    compiled = load(SPECS / "jealous_husbands.puz")
    assert why_not(compiled, depth_first=True) == REASON
    result = search(compiled, engine="auto")
    assert result.length == 11 and "compiled" not in result.method


@pytest.mark.parametrize(("value", "disabled"), [("1", True), (" 2 ", True), ("0", False), ("", False), ("yes", False)])
def test_the_setting_is_read_as_numba_reads_it(monkeypatch: pytest.MonkeyPatch, value: str, disabled: bool) -> None:
    """Before numba is imported (the kernel is not, for a small run), from the environment:
    an integer, anything else ignored (numba warns and ignores it)."""
    monkeypatch.setitem(sys.modules, "numba", None)  # as if not imported yet
    monkeypatch.setenv("NUMBA_DISABLE_JIT", value)
    assert jit_disabled() is disabled
