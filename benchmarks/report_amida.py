"""Timing report for amida-kuji: puzint's search against a hand-written BFS, and the seed's Perl.

    /tmp/venv/bin/python benchmarks/report_amida.py [--repeat N]

Every measurement runs in a fresh Python process (this script, called with --child), so that
one search's memory does not weigh on the next and each row gets its own peak memory (the
child's ru_maxrss, which includes the interpreter and puzint: under 30 MB). In the child the
spec is loaded and compiled before timing; only the search is timed, with the garbage collector
on as in real use. Searches that take under 0.2 s are timed timeit-style (best of 5 repeats,
each as many calls as fit in about 0.2 s); longer ones are run N times (--repeat, default 3)
and the best is kept (every run is printed too: the first, in a fresh process, can differ);
S10 reachability runs once per solver.

The Perl row is the seed article's own brute force (benchmarks/seed_amida.pl, fixed to the goal
JFBHIADEGC), timed as a whole process with its output sent to /dev/null, best of N.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
import timeit
from collections.abc import Callable
from math import factorial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script: make `benchmarks` importable
    sys.path.insert(0, str(ROOT))

from benchmarks import handwritten_amida as hw  # noqa: E402
from benchmarks.tables import table  # noqa: E402

SPEC = ROOT / "specs" / "amida.puz"
PERL = ROOT / "benchmarks" / "seed_amida.pl"
GOAL = "JFBHIADEGC"
S9 = "IHGFEDCBA"
S10 = "JIHGFEDCBA"
FAST = 0.2  # seconds: below this, time timeit-style


# ---------------------------------------------------------------------------- one measurement, in a child


def run_times(fn: Callable[[], Any], repeat: int) -> tuple[Any, list[float]]:
    """The first call's result, and the times per call in seconds.

    The first call is timed too, so the first time is that of a fresh process. A call that takes
    over 0.2 s is then repeated until it has run `repeat` times; a faster one is timed again
    timeit-style (5 repeats, each as many calls as fit in about 0.2 s), without the first time."""
    started = time.perf_counter()
    result = fn()
    first = time.perf_counter() - started
    if first < FAST:
        timer = timeit.Timer(fn, setup="gc.enable()")
        number, _ = timer.autorange()
        return result, [t / number for t in timer.repeat(repeat=5, number=number)]
    times = [first]
    for _ in range(repeat - 1):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return result, times


def child(case: str, solver: str, repeat: int) -> None:
    """Time one solver on one case and print a JSON line: seconds, runs, states, method, peak and base RSS (KB).

    `case` is "reach:BOTTOM" or "shortest:BOTTOM"; `solver` is "hand" (benchmarks/handwritten_amida.py)
    or a puzint method ("reach" for search(reach=True), else search(method=solver)). The answer of
    the first (timed) call is checked: the length is the number of inversions, the count n!."""
    kind, bottom = case.split(":")
    n = len(bottom)
    if solver == "hand":
        base = None
        if kind == "reach":
            (reachable, depth), times = run_times(lambda: hw.reachable(n), repeat)
            assert reachable == factorial(n) and depth == hw.inversions(bottom), (reachable, depth)
            states = reachable
        else:
            (path, states), times = run_times(lambda: hw.shortest(bottom), repeat)
            assert path is not None and len(path) == hw.inversions(bottom), path
            assert hw.apply(hw.top_row(n), path) == bottom
        method = "hand-written"
    else:
        from puzint.runner import load, search

        compiled = load(SPEC, {"bottom": bottom})
        base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        if kind == "reach":
            result, times = run_times(lambda: search(compiled, reach=True), repeat)
            assert result.reachable == factorial(n), result.reachable
            states = result.reachable
        else:
            result, times = run_times(lambda: search(compiled, method=solver), repeat)
            states = result.states
        assert result.length == hw.inversions(bottom), result.length
        row = "".join(compiled.puzzle.symbol(code) for code in result.path[-1][1])
        assert row == bottom, row
        method = result.method
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    report = {
        "seconds": min(times),
        "runs": times,
        "states": states,
        "method": method,
        "peak_kb": peak,
        "base_kb": base,
    }
    print(json.dumps(report))


def measure(case: str, solver: str, repeat: int) -> dict:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", case, solver, "--repeat", str(repeat)]
    out = subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, text=True).stdout
    return json.loads(out.splitlines()[-1])


# ---------------------------------------------------------------------------- the seed's Perl


def perl_check() -> None:
    """The Perl program draws a 28-line ladder from the top row to JFBHIADEGC."""
    out = subprocess.run(["perl", str(PERL)], cwd=ROOT, check=True, capture_output=True, text=True).stdout
    lines = out.splitlines()
    assert lines[0].split() == list(hw.top_row(10)), lines[0]
    assert lines[-1].split() == list(GOAL), lines[-1]
    assert sum(line.count("-") for line in lines[1:-1]) == hw.inversions(GOAL), out


def perl_time(repeat: int) -> tuple[list[float], int]:
    """Wall times (s) of the whole Perl process, `repeat` runs, output to /dev/null; peak RSS (KB)."""
    times, peaks = [], []
    for _ in range(repeat):
        with open(os.devnull, "w") as devnull:
            started = time.perf_counter()
            proc = subprocess.Popen(["perl", str(PERL)], cwd=ROOT, stdout=devnull)
            _, status, usage = os.wait4(proc.pid, 0)
            times.append(time.perf_counter() - started)
        proc.returncode = os.waitstatus_to_exitcode(status)
        assert proc.returncode == 0, proc.returncode
        peaks.append(usage.ru_maxrss)
    return times, max(peaks)


# ---------------------------------------------------------------------------- the report


def secs(seconds: float) -> str:
    return f"{seconds:.2f}" if seconds >= 1 else f"{seconds:.4f}" if seconds >= 0.01 else f"{seconds:.6f}"


def ratio(r: float) -> str:
    return f"{r:.2f}x" if r >= 0.01 else f"{r:.1e}x"


def runs(times: list[float]) -> str:
    return ", ".join(f"{t:.2f}" for t in times)


def mb(kb: int) -> str:
    return f"{kb / 1024:.0f}"


def main(repeat: int) -> None:
    perl_version = subprocess.run(["perl", "-e", "print $^V"], capture_output=True, text=True).stdout
    print(f"python {sys.version.split()[0]}, perl {perl_version}; {os.cpu_count()} CPUs")
    print(f"each measurement in a fresh process; best of {repeat} (S10: one run each), GC on\n")

    cases = [
        ("reach S9", f"reach:{S9}", "reach", repeat),
        (f"shortest {GOAL}", f"shortest:{GOAL}", "bfs", repeat),
        (f"shortest {GOAL}", f"shortest:{GOAL}", "bidirectional", repeat),
        (f"shortest {GOAL}", f"shortest:{GOAL}", "auto", repeat),
        ("reach S10 (1 run)", f"reach:{S10}", "reach", 1),
    ]
    hand: dict[str, dict] = {}
    rows = []
    base = 0
    slow: list[tuple[str, list[float], list[float]]] = []
    for label, case, method, count in cases:
        if case not in hand:
            hand[case] = measure(case, "hand", count)
        h = hand[case]
        p = measure(case, method, count)
        base = max(base, p["base_kb"])
        if p["seconds"] >= FAST:
            slow.append((f"{label}, {method}", h["runs"], p["runs"]))
        rows.append(
            [
                label,
                method if method == p["method"] else f"{method} ({p['method']})",
                f"{h['states']}/{p['states']}",
                secs(h["seconds"]),
                secs(p["seconds"]),
                ratio(p["seconds"] / h["seconds"]),
                f"{mb(h['peak_kb'])}/{mb(p['peak_kb'])}",
            ]
        )
    print("Hand-written Python BFS (str states) vs puzint search(), amida.puz; ratio = puzint / hand-written")
    table(
        ["case", "puzint method", "states hand/puzint", "hand-written s", "puzint s", "ratio", "peak MB hand/puzint"],
        rows,
    )
    print(f"(peak MB is the whole process; python + puzint with the spec loaded is {mb(base)} MB)")
    print("\nEvery run of the slower searches, in order (s); the first is in a fresh process:")
    table(["case", "hand-written runs", "puzint runs"], [[c, runs(h), runs(p)] for c, h, p in slow], left=1)

    print(f"\nThe seed's Perl brute force (benchmarks/seed_amida.pl), goal {GOAL}, 28 lines")
    perl_check()
    perl_runs, perl_kb = perl_time(repeat)
    h = hand[f"shortest:{GOAL}"]
    table(
        ["solver", "best s", "runs s", "peak MB", "best / hand-written Python"],
        [
            [
                "perl seed_amida.pl > /dev/null (whole process)",
                secs(min(perl_runs)),
                runs(perl_runs),
                mb(perl_kb),
                ratio(min(perl_runs) / h["seconds"]),
            ],
            ["hand-written Python BFS (search only)", secs(h["seconds"]), runs(h["runs"]), mb(h["peak_kb"]), "1.00x"],
        ],
        left=1,
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each slow search (best kept)")
    parser.add_argument("--child", nargs=2, metavar=("CASE", "SOLVER"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child, args.repeat)
    else:
        main(args.repeat)
