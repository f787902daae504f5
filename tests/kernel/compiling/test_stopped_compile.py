"""SIGTERM or Ctrl-C while numba compiles the kernel, at the worst moment: while LLVM has
called back into Python (llvmlite's object-code hook). The run stops as any other (exit 3,
the report), with no traceback printed by ctypes and no code compiled half."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from puzint.kernel import installed

pytestmark = [pytest.mark.skipif(not installed(), reason="numba is not installed"), pytest.mark.slow]

SIGNAL_IN_CALLBACK = """
import os, signal, sys
from llvmlite.binding.executionengine import ExecutionEngine

find = ExecutionEngine._find_module_ptr  # called by the hooks that LLVM calls back
calls = []

def find_then_signal(self, pointer):
    calls.append(1)
    if len(calls) == 4:
        os.kill(os.getpid(), getattr(signal, sys.argv[1]))
    return find(self, pointer)

ExecutionEngine._find_module_ptr = find_then_signal
from puzint.cli import main
sys.exit(main(["run", "frog", "-p", "n=4", "--engine", "compiled"]))
"""


@pytest.mark.parametrize(("signal_name", "reason"), [("SIGTERM", "stopped by SIGTERM"), ("SIGINT", "interrupted")])
def test_a_stop_while_llvm_calls_back_ends_the_run_cleanly(tmp_path: Path, signal_name: str, reason: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", SIGNAL_IN_CALLBACK, signal_name],
        capture_output=True,
        text=True,
        env={**os.environ, "PUZINT_CACHE_DIR": str(tmp_path / "fresh"), "PUZINT_PREBUILT": "0"},
        timeout=600,
    )
    assert done.returncode == 3, done.stderr
    assert f"stopped: {reason} · 0 states explored" in done.stdout
    assert "(compiling the search kernel)" in done.stdout
    assert done.stderr == ""
