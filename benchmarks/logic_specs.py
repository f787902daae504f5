"""The catalogue's logic puzzles as the benchmarks count them: every solution, without the
spec's `symmetry` line (a hand-written counter does not sort solutions into classes, and
neither should the figure it is compared with)."""

from __future__ import annotations

from pathlib import Path

from puzint.compiler import CompiledPuzzle
from tests.conftest import compiled_from


def without_symmetry(path: Path, params: dict[str, str] | None = None) -> CompiledPuzzle:
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    text = "".join(line for line in lines if not line.startswith("symmetry "))
    return compiled_from(text, **(params or {}))
