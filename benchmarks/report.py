"""Timing report: puzint's search against the hand-written solvers, and the CLI's start-up cost.

    /tmp/venv/bin/python benchmarks/report.py

Each timing is the best of 5 repeats (timeit-style: each repeat runs the call as many times as
fits in about 0.2 s, and the time per call is reported), with the garbage collector left on as
in real use. Specs are loaded and compiled before timing; only the search is timed.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import timeit
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script: make `benchmarks` importable
    sys.path.insert(0, str(ROOT))

from puzint.runner import load, search  # noqa: E402

from benchmarks.cases import CASES  # noqa: E402
from benchmarks.tables import table  # noqa: E402

REPEAT = 5


def best_time(fn: Callable[[], object], repeat: int = REPEAT) -> float:
    """Best time per call, in seconds, over `repeat` repeats, GC enabled."""
    timer = timeit.Timer(fn, setup="gc.enable()")
    number, _ = timer.autorange()
    return min(timer.repeat(repeat=repeat, number=number)) / number


def best_wall(cmd: list[str], repeat: int = REPEAT) -> float:
    """Best wall time of a command, in seconds, over `repeat` runs (output discarded)."""
    times = []
    for _ in range(repeat):
        started = timeit.default_timer()
        subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times.append(timeit.default_timer() - started)
    return min(times)


def main() -> None:
    print(f"python {sys.version.split()[0]} ({sys.executable}); best of {REPEAT}, GC on\n")

    print("Shortest solution (hand-written BFS vs puzint search)")
    shortest_rows = []
    reach_rows = []
    for name, case in CASES.items():
        compiled = load(case.spec, case.overrides)

        length, states = case.shortest(case.size)
        bfs = search(compiled, method="bfs")
        auto = search(compiled, method="auto")
        assert length == bfs.length == auto.length == case.length, (name, length, bfs.length, auto.length)

        hand_s = best_time(lambda case=case: case.shortest(case.size))
        bfs_s = best_time(lambda compiled=compiled: search(compiled, method="bfs"))
        auto_s = best_time(lambda compiled=compiled: search(compiled, method="auto"))
        shortest_rows.append(
            [
                name,
                case.instance,
                str(length),
                f"{states}/{bfs.states}/{auto.states}",
                f"{hand_s:.5f}",
                f"{bfs_s:.5f}",
                f"{auto_s:.5f} ({auto.method[:5]})",
                f"{bfs_s / hand_s:.2f}x",
                f"{auto_s / hand_s:.2f}x",
            ]
        )

        depth, reachable = case.reachable(case.size)
        reach = search(compiled, reach=True)
        assert reachable == reach.reachable == case.reachable_states, (name, reachable, reach.reachable)
        assert depth == reach.length == case.length, (name, depth, reach.length)
        hand_r = best_time(lambda case=case: case.reachable(case.size))
        puz_r = best_time(lambda compiled=compiled: search(compiled, reach=True))
        reach_rows.append(
            [name, case.instance, str(reachable), f"{hand_r:.5f}", f"{puz_r:.5f}", f"{puz_r / hand_r:.2f}x"]
        )

    table(
        [
            "puzzle",
            "instance",
            "moves",
            "states hand/bfs/auto",
            "hand-written s",
            "puzint bfs s",
            "puzint auto s",
            "bfs/hand",
            "auto/hand",
        ],
        shortest_rows,
    )
    print("\nFull reachability (hand-written BFS with a set vs puzint search(reach=True))")
    table(["puzzle", "instance", "reachable", "hand-written s", "puzint s", "puzint/hand"], reach_rows)

    print(f"\nCommand-line start-up (wall time, best of {REPEAT})")
    puzint = shutil.which("puzint", path=str(Path(sys.executable).parent)) or shutil.which("puzint")
    if puzint is None:
        print("  the puzint console script was not found next to this interpreter")
        return
    bare = best_wall([sys.executable, "-c", "pass"])
    imports = best_wall([sys.executable, "-c", "import puzint.cli"])
    run = best_wall([puzint, "run", "specs/frog.puz"])
    print(f"  python -c pass                {bare:.3f} s")
    print(f"  python -c 'import puzint.cli' {imports:.3f} s  (+{imports - bare:.3f} s over python -c pass)")
    print(f"  puzint run specs/frog.puz     {run:.3f} s  (+{run - bare:.3f} s over python -c pass)")


if __name__ == "__main__":
    main()
