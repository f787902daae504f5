"""The default path against the engines asked by name: what a user who types `puzint run SPEC`
waits for, beside `--engine python`, `--engine compiled`, `--engine cpsat` and a hand-written
program.

    python benchmarks/report_default.py [--repeat N] [--only TEXT] [--skip-catalogue]
                                        [--cold [--cold-only] [--uncompiled] [--check-python]]

Every figure is the wall time of a whole `python -m puzint run ... --format json` process
(start-up, reading, compiling the spec, loading the kernel, the search, the output), the
best of N runs (default 3). Warm: the kernel's cache holds its compiled code (a run of each
case fills it first), and `auto` has run the question once, so that it asks alone the engine
that won its race by a clear margin, if one did (plan/memory.py); "raced" is `auto` on a
question's first run, racing Python and the engines beside it (PUZINT_REMEMBER=0). A run of an
engine asked by name is stopped after CAP seconds (shown as ">CAP"). `--cold` adds, for the cases of the
issue and the catalogue's specs, one run of `auto` (its first, raced) and one of `compiled`
with an empty PUZINT_CACHE_DIR (`--cold-only`: without the warm table), and `puzint check`
of the whole catalogue likewise (in a process a core, the default, and with `--jobs 1`): a
fresh install, whose kernel was compiled at install (interpreter/prebuild.py); with
`--uncompiled` also without it (PUZINT_PREBUILT=0: the kernel compiled from nothing).
A compile that a run leaves to finish after it (the race's copy, plan/race.py) is waited
for before the next figure is taken, so that it does not take a core from it. The
hand-written programs (benchmarks/handwritten*.py, tests/plain) are timed in this process,
best of N.

The last columns are the default's time (and the raced one's) over the best single engine
(the fastest of `python`, `compiled` and `cpsat` where each answers): 1.00 is the fastest
engine chosen at no cost.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.plain import queens, sudoku  # noqa: E402

from benchmarks import handwritten as hw  # noqa: E402
from benchmarks import handwritten_amida as amida  # noqa: E402
from benchmarks import handwritten_more as more  # noqa: E402
from benchmarks.tables import table  # noqa: E402

SPECS = ROOT / "specs"

# the cases of the issue: (spec, arguments, hand-written program)
CASES: dict[str, tuple[str, list[str], Callable[[], object]]] = {
    "queens n=10 --count (moves)": ("queens_moves", ["-p", "n=10", "--count"], lambda: queens.count(10)),
    "jealous husbands (6, 4)": (
        "jealous_husbands",
        ["-p", "couples=6", "-p", "seats=4"],
        lambda: more.jealous_shortest(6, 4),
    ),
    "knights 3 x 4 --reach": ("knights", ["--reach"], lambda: hw.knights_reachable(4)),
    "number circle n=12 --count": ("number_circle", ["-p", "n=12", "--count"], lambda: more.number_circle_count(12)),
    "amida S9 --reach": ("amida", ["-p", "bottom=IHGFEDCBA", "--reach"], lambda: amida.reachable(9)),
    # issue 40's table: fillings, where the kernel's fill search and CP-SAT each win by far somewhere
    "killer sudoku (22 cages), any": ("benchmarks/killer_sudoku.puz", [], None),
    "sudoku --count": ("sudoku", ["--count"], lambda: sudoku.solutions(SUDOKU)),
    "platinum blonde, any": ("benchmarks/platinum_blonde.puz", [], lambda: sudoku.solutions(PLATINUM_BLONDE)),
    "queens n=10 --count (filling)": ("queens", ["-p", "n=10", "--count"], lambda: queens.count(10)),
}
CAP = 60.0  # seconds an engine asked by name may take
SUDOKU = "800000000003600000070090200050007000000045700000100030001000068008500010090000400"
PLATINUM_BLONDE = "000000012000000003002300400001800005060070800000009000008500000900040500470006000"


def run(
    spec: str,
    args: list[str],
    engine: str,
    cache: str | None = None,
    prebuilt: str = "1",
    remember: bool = True,
    cap: float | None = None,
) -> float | None:
    """The wall time of one whole run (None: the engine refuses the question; without
    `remember`, `auto` races as on a question's first run: PUZINT_REMEMBER=0; past `cap`
    seconds the run is stopped, and its time is infinite)."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "PUZINT_REMEMBER": "1" if remember else "0"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # a user's Python keeps its bytecode
    if cache is not None:
        env["PUZINT_CACHE_DIR"] = cache
        env["PUZINT_PREBUILT"] = prebuilt
    path = ROOT / spec if spec.endswith(".puz") else SPECS / f"{spec}.puz"
    argv = [sys.executable, "-m", "puzint", "run", str(path), *args, "--format", "json"]
    started = time.perf_counter()
    try:
        done = subprocess.run(
            [*argv, "--engine", engine], capture_output=True, text=True, env=env, cwd=ROOT, timeout=cap
        )
    except subprocess.TimeoutExpired:
        return float("inf")
    seconds = time.perf_counter() - started
    if done.returncode not in (0, 1):
        if "cannot run this" in done.stderr:
            return None
        raise RuntimeError(f"{spec} {args} --engine {engine}: exit {done.returncode}\n{done.stderr[-2000:]}")
    json.loads(done.stdout)
    return seconds


def settled(cache: str) -> None:
    """Wait until no compile holds the cache's lock (one left running after its run)."""
    import fcntl

    quiet = 0
    while quiet < 2:
        time.sleep(1.0)
        quiet += 1
        for lock in Path(cache).glob("*/compiling.lock"):
            with open(lock, "rb") as handle:
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    quiet = 0


def check_catalogue(cache: str, prebuilt: str = "1", jobs: list[str] | None = None) -> float:
    """The wall time of `puzint check` of every spec in the catalogue (`jobs`: `--jobs N`, or
    the default, one process a core)."""
    env = {**os.environ, "PUZINT_CACHE_DIR": cache, "PUZINT_PREBUILT": prebuilt}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    started = time.perf_counter()
    argv = [sys.executable, "-m", "puzint", "check", str(SPECS), *(jobs or [])]
    done = subprocess.run(argv, capture_output=True, env=env, cwd=ROOT)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"puzint check: exit {done.returncode}\n{done.stdout[-2000:]!r}")
    return seconds


def check_catalogue_python(cache: str) -> float:
    """As `check_catalogue`, every search on the Python engine (PUZINT_ENGINE=python)."""
    os.environ["PUZINT_ENGINE"] = "python"
    try:
        return check_catalogue(cache)
    finally:
        del os.environ["PUZINT_ENGINE"]


def best(measure: Callable[[], float | None], repeat: int) -> float | None:
    """The best of `repeat` runs (None: refused; a run stopped at its cap is not run again)."""
    times = []
    for _ in range(repeat):
        seconds = measure()
        if seconds is None:
            return None
        times.append(seconds)
        if seconds == float("inf"):
            break
    return min(times)


def hand(program: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        program()
        times.append(time.perf_counter() - started)
    return min(times)


def shown(seconds: float | None) -> str:
    if seconds == float("inf"):
        return f">{CAP:g}"
    return "-" if seconds is None else f"{seconds:.2f}"


def ratio(default: float | None, *engines: float | None) -> str:
    answered = [t for t in engines if t is not None]
    fastest = min(answered) if answered else None
    if default is None or fastest is None or fastest == float("inf"):
        return "-"
    return f"{default / fastest:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cold", action="store_true", help="also the first run with an empty kernel cache")
    parser.add_argument("--only", default="", help="only cases whose name holds this text")
    parser.add_argument("--skip-catalogue", action="store_true", help="only the cases of the issue")
    parser.add_argument("--check-python", action="store_true", help="with --cold: also check on Python alone (minutes)")
    parser.add_argument(
        "--uncompiled", action="store_true", help="with --cold: also without the kernel compiled at install"
    )
    parser.add_argument("--cold-only", action="store_true", help="with --cold: leave out the warm table")
    options = parser.parse_args()

    if options.cold_only and not options.cold:
        parser.error("--cold-only goes with --cold")
    rows = []
    cases = every_case(options.skip_catalogue, options.only)
    for name, spec, args, program in [] if options.cold_only else cases:
        run(spec, args, "compiled")  # the kernel's cache filled for this question, if the kernel answers it
        run(spec, args, "auto")  # the engine that won the race by a clear margin remembered (plan/memory.py)
        times = {
            e: best(
                lambda e=e, spec=spec, args=args: run(spec, args, e, cap=None if e == "auto" else CAP), options.repeat
            )
            for e in ("auto", "python", "compiled", "cpsat")
        }
        raced = best(lambda spec=spec, args=args: run(spec, args, "auto", remember=False), options.repeat)
        written = shown(hand(program, options.repeat)) if program is not None else ""
        engines = [times["python"], times["compiled"], times["cpsat"]]
        row = [name, shown(times["auto"]), shown(raced), *(shown(t) for t in engines), written]
        row += [ratio(t, *engines) for t in (times["auto"], raced)]
        rows.append(row)
        print(" | ".join(row), file=sys.stderr, flush=True)
    if rows:
        print("\nWarm (the kernel's cache filled), seconds of a whole run, best of", options.repeat)
        print("(default: a question asked before; raced: asked for the first time, PUZINT_REMEMBER=0)")
        headers = ["case", "default", "raced", "python", "compiled", "cpsat", "hand-written"]
        table([*headers, "default / best", "raced / best"], rows, left=1)

    if options.cold:
        for prebuilt, what in (("1", "a fresh install"), ("0", "nothing compiled at install")):
            if prebuilt == "0" and not options.uncompiled:
                continue
            cold(cases, prebuilt, what)
        if options.check_python:
            with tempfile.TemporaryDirectory() as empty:
                print(f"... with PUZINT_ENGINE=python: {check_catalogue_python(empty):.1f} s")


Case = tuple[str, str, list[str], Callable[[], object] | None]  # name, spec, arguments, hand-written program


def every_case(skip_catalogue: bool, only: str) -> list[Case]:
    """The issue's cases, then each catalogue spec's default run, those named `only`."""
    cases: list[Case] = [(name, spec, args, program) for name, (spec, args, program) in CASES.items()]
    if not skip_catalogue:
        cases += [(f"catalogue: {p.stem}", p.stem, [], None) for p in sorted(SPECS.glob("*.puz"))]
    return [case for case in cases if only in case[0]]


def cold(cases: list[Case], prebuilt: str, what: str) -> None:
    """Each case, and the catalogue's check, from an empty kernel cache."""
    rows = []
    for name, spec, args, _ in cases:
        with tempfile.TemporaryDirectory() as empty:
            auto = run(spec, args, "auto", cache=empty, prebuilt=prebuilt)
            settled(empty)
        with tempfile.TemporaryDirectory() as empty:
            compiled = run(spec, args, "compiled", cache=empty, prebuilt=prebuilt)
        python = best(lambda spec=spec, args=args: run(spec, args, "python", cap=CAP), 1)
        rows.append([name, shown(auto), shown(python), shown(compiled), ratio(auto, python, compiled)])
        print(" | ".join(rows[-1]), file=sys.stderr, flush=True)
    print(f"\nCold (an empty kernel cache, {what}), seconds of a whole run, one run")
    table(["case", "default", "python", "compiled", "default / faster"], rows, left=1)
    print(f"\npuzint check of the catalogue, cold ({what}):", flush=True)
    for jobs, how in (([], "a process a core (the default)"), (["--jobs", "1"], "one case after another")):
        with tempfile.TemporaryDirectory() as empty:
            checked = check_catalogue(empty, prebuilt, jobs)
            settled(empty)
        print(f"  {how}: {checked:.1f} s", flush=True)


if __name__ == "__main__":
    main()
