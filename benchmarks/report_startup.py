"""Whole runs of the logic specs as a user starts them: `python -m puzint run specs/X.puz`, no
flags, each a fresh process, in one or two source trees taken in turns (before and after a
change), the median of N runs of each: the wall time, and the CPU time of the run and of the
race's copies (`getrusage` of the children).

    python benchmarks/report_startup.py [--repeat N] [--tree PATH ...] [--only TEXT] [--remember]

A tree is a checkout of puzint (its `puzint` package importable from it); the default is this
one. The runs race every time (PUZINT_REMEMBER=0: no engine remembered from an earlier run, as
in a user's first run of a spec), or, with `--remember`, run as every later run of a spec
does: the engine that won the untimed first run's race by a clear margin, if one did, runs
alone. The bytecode is cached (PYTHONDONTWRITEBYTECODE is unset, as on a user's machine,
where puzint is installed with its bytecode: set, every run compiles puzint's modules again,
0.4 s). One untimed run of each spec in each tree comes first (bytecode, the kernel's cache).
The load average is printed before and after: compare the trees within one run.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
SPECS = (
    "sudoku",
    "killer_shidoku",
    "killer_sudoku",
    "kenken",
    "futoshiki",
    "zebra",
    "nonogram",
    "hidato",
    "numbrix",
    "kakuro",
    "magic_hexagon",
)


def one_run(tree: Path, spec: str, remember: bool = False) -> tuple[float, float, str]:
    """The wall and CPU seconds of one whole run, and the engine that answered (the report's
    last line says it)."""
    env = {**os.environ, "PYTHONPATH": str(tree), "PUZINT_REMEMBER": "1" if remember else "0"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "puzint", "run", str(tree / "specs" / f"{spec}.puz")],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    last = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""
    engine = last.rsplit("(", 1)[-1].rstrip(")") if "(" in last else "?"
    return wall, cpu, engine


def load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--tree", type=Path, action="append")
    parser.add_argument("--only")
    parser.add_argument("--remember", action="store_true", help="runs as a spec's later runs: its engine remembered")
    args = parser.parse_args()
    trees = [tree.resolve() for tree in args.tree or [HERE]]
    specs = [spec for spec in SPECS if args.only is None or args.only in spec]
    print(f"load average {load()} at {time.strftime('%H:%M:%S', time.gmtime())} UTC")
    print("later runs (the engine remembered)" if args.remember else "first runs (every run races)")
    for spec in specs:
        for tree in trees:
            one_run(tree, spec, args.remember)  # bytecode, the kernel's cache, the engine remembered
    header = "spec".ljust(16) + "".join(f"  {'wall':>6} {'cpu':>6} {'engine':<16}" for _ in trees)
    print(header)
    for spec in specs:
        runs: dict[Path, list[tuple[float, float, str]]] = {tree: [] for tree in trees}
        for _ in range(args.repeat):
            for tree in trees:
                runs[tree].append(one_run(tree, spec, args.remember))
        row = spec.ljust(16)
        for tree in trees:
            walls, cpus, engines = zip(*runs[tree], strict=True)
            engine = max(set(engines), key=engines.count)
            row += f"  {statistics.median(walls):6.2f} {statistics.median(cpus):6.2f} {engine:<16}"
        print(row, flush=True)
    print(f"load average {load()} at {time.strftime('%H:%M:%S', time.gmtime())} UTC")


if __name__ == "__main__":
    main()
