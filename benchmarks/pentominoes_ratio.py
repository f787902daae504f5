"""Pentominoes 6 x 10, every tiling: puzint (warm, search only, best of 3) against the plain
exact-cover program of tests/plain/pentominoes.py, in one run. Run from the repository root:

    python benchmarks/pentominoes_ratio.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from puzint.runner import load  # noqa: E402
from puzint.search import Limits  # noqa: E402
from puzint.solutions import enumerate_solutions  # noqa: E402
from tests.plain import pentominoes as plain  # noqa: E402


def main() -> None:
    puzzle = load(ROOT / "specs" / "pentominoes.puz", {})
    report = enumerate_solutions(puzzle, Limits(), keep=False)  # loads the kernel
    assert (report.in_all, report.count) == (9_356, 2_339)
    seconds = []
    for _ in range(3):
        started = time.perf_counter()
        enumerate_solutions(puzzle, Limits(), keep=False)
        seconds.append(time.perf_counter() - started)
    started = time.perf_counter()
    assert plain.count(6, 10) == 9_356
    hand = time.perf_counter() - started
    print(f"pentominoes 6 x 10: puzint {min(seconds):.2f} s, plain {hand:.2f} s, {hand / min(seconds):.1f}x")


if __name__ == "__main__":
    main()
