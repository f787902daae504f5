"""The first search of each kind on a fresh machine: how long a whole `puzint run --engine
compiled` takes with an empty kernel cache, with the kernel compiled at install (what `pip
install` gives: interpreter/prebuild.py) and without it (PUZINT_PREBUILT=0: the whole kernel
compiled on first use), and again once the cache holds it. Some cases are not the install's
warm-up instances but other specs asking the same searches.

    python benchmarks/report_first_search.py [--only TEXT] [--skip-uncompiled]

Each run is a fresh process in a fresh cache directory; every run of a case must give the
same answer. Seconds of the whole process (numba's import, the compile or load, the search).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.tables import table  # noqa: E402

# a case of each of the kernel's searches: (search, spec, arguments)
CASES: list[tuple[str, str, list[str]]] = [
    ("word tables, breadth first", "eight_puzzle", ["--reach"]),
    ("word tables, A*", "eight_puzzle", ["--method", "astar"]),
    ("word tables, IDA*", "eight_puzzle", ["--method", "idastar"]),
    ("word tables, both ends", "lights_out", ["--method", "bidirectional"]),
    ("machine, breadth first", "jealous_husbands", ["-p", "couples=6", "-p", "seats=4"]),
    ("machine, several words", "hanoi", ["--reach"]),
    ("machine, cheapest", "bridge_torch", []),
    ("machine, search any", "peg_english", []),
    ("machine, search all", "number_circle", ["-p", "n=12", "--count"]),
    ("machine, breadth first (another spec)", "peg_triangle", []),
    ("machine, search all (another spec)", "queens_moves", ["-p", "n=8", "--count"]),
    ("fill search", "sudoku", []),
    ("exact cover", "pentominoes", ["--count"]),
]


def run(spec: str, args: list[str], cache: str, prebuilt: str) -> tuple[float, str]:
    """The wall time of one whole run, and its answer (the JSON less its timings)."""
    env = {**os.environ, "PUZINT_CACHE_DIR": cache, "PUZINT_PREBUILT": prebuilt}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    argv = [sys.executable, "-m", "puzint", "run", str(ROOT / "specs" / f"{spec}.puz"), *args]
    started = time.perf_counter()
    done = subprocess.run([*argv, "--engine", "compiled", "--format", "json"], capture_output=True, text=True, env=env)
    seconds = time.perf_counter() - started
    if done.returncode not in (0, 1):
        raise RuntimeError(f"{spec} {args}: exit {done.returncode}\n{done.stderr[-2000:]}")
    answer = json.loads(done.stdout)
    for timing in ("seconds", "bytes_per_state"):
        answer.pop(timing, None)
    return seconds, json.dumps(answer, sort_keys=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", default="", metavar="TEXT", help="only the cases whose name contains TEXT")
    parser.add_argument("--skip-uncompiled", action="store_true", help="not the runs without the install's kernel")
    options = parser.parse_args()
    rows = []
    for name, spec, args in CASES:
        if options.only not in name:
            continue
        times: dict[str, float | None] = {"0": None}
        answers = set()
        for prebuilt in ("1",) if options.skip_uncompiled else ("0", "1"):
            with tempfile.TemporaryDirectory() as empty:
                times[prebuilt], answer = run(spec, args, empty, prebuilt)
                answers.add(answer)
                if prebuilt == "1":
                    times["warm"], answer = run(spec, args, empty, prebuilt)
                    answers.add(answer)
        assert len(answers) == 1, f"{name}: the runs disagree"
        shown = ["-" if times[key] is None else f"{times[key]:.2f}" for key in ("0", "1", "warm")]
        rows.append([name, f"{spec} {' '.join(args)}".strip(), *shown])
        print(" | ".join(rows[-1]), file=sys.stderr, flush=True)
    print("\nFirst search of each kind, --engine compiled, seconds of a whole run (one run each)")
    table(["search", "case", "nothing compiled", "compiled at install", "cache warm"], rows, left=2)


if __name__ == "__main__":
    main()
