"""Timing report: puzint against hand-written solvers on the jealous husbands and the numbers
on a circle, and the Perl program of the number-circle seed.

    /tmp/venv/bin/python benchmarks/report_more.py            # everything, about 6-7 minutes
    /tmp/venv/bin/python benchmarks/report_more.py --quick    # without n = 14 (about half a minute)

Each timing is the best of 5 repeats (timeit-style: each repeat runs the call as many times
as fits in about 0.2 s, and the time per call is reported), or the best of 3 single runs for
the slow cases (a run of a second or more), with the garbage collector left on as in real
use. Specs are loaded and compiled before timing; only the search is timed.

The Perl program is taken from the seed text (the code after the heading "プログラム") and
written to a temporary file with `my $n = 14;`; it is timed as a command (wall time, output
to /dev/null), so its time includes perl's start-up (a few milliseconds). As published it
does not compile under `use strict` (its output loop tests `$i == $#result` with an
undeclared `$i`); the report shows that error and times the program with the minimal fix,
the loop's own index `$_` in place of `$i`, which is what the loop means.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import timeit
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script: make `benchmarks` importable
    sys.path.insert(0, str(ROOT))

from puzint.runner import load, search  # noqa: E402
from puzint.search import Limits  # noqa: E402
from puzint.solutions import enumerate_solutions  # noqa: E402

from benchmarks import handwritten_more as hw  # noqa: E402
from benchmarks.tables import table  # noqa: E402

SPECS = ROOT / "specs"
SEED = Path("/work/shared/seeds/002_0767dbd391a3f1d2.txt")
REPEAT = 5
SLOW_REPEAT = 3
SLOW = 0.5  # seconds: a call at least this long is timed as best of SLOW_REPEAT single runs
PERL_FIX = ("if ($i == $#result)", "if ($_ == $#result)")


def best_time(fn: Callable[[], object]) -> tuple[float, int]:
    """(best time per call in seconds, repeats): best of REPEAT autoranged repeats, or of
    SLOW_REPEAT single calls when one call takes SLOW seconds or more. GC enabled."""
    timer = timeit.Timer(fn, setup="gc.enable()")
    first = timer.timeit(number=1)
    if first >= SLOW:
        return min([first, *timer.repeat(repeat=SLOW_REPEAT - 1, number=1)]), SLOW_REPEAT
    number, _ = timer.autorange()
    return min(timer.repeat(repeat=REPEAT, number=number)) / number, REPEAT


def best_wall(cmd: list[str], repeat: int) -> float:
    """Best wall time of a command, in seconds, over `repeat` runs, output to /dev/null."""
    times = []
    for _ in range(repeat):
        started = timeit.default_timer()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times.append(timeit.default_timer() - started)
    return min(times)


def seconds(value: float, repeats: int) -> str:
    return f"{value:.5f}" + ("" if repeats == REPEAT else f" (best of {repeats})")


# ---------------------------------------------------------------------------- jealous husbands


def jealous() -> None:
    print("Jealous husbands: shortest solution (or every reachable state), hand-written BFS vs puzint search")
    rows = []
    for case in hw.JEALOUS_CASES:
        compiled = load(SPECS / "jealous_husbands.puz", case.overrides)
        length, states = case.solve()
        result = search(compiled, reach=case.reach)
        assert length == result.length == case.length, (case.name, length, result.length)
        if case.reach:
            assert states == result.reachable == case.states, (case.name, states, result.reachable)
        hand_s, hand_n = best_time(case.solve)
        puz_s, puz_n = best_time(lambda compiled=compiled, reach=case.reach: search(compiled, reach=reach))
        rows.append(
            [
                case.name,
                "none" if length is None else str(length),
                f"{states}/{result.states}",
                seconds(hand_s, hand_n),
                seconds(puz_s, puz_n),
                f"{puz_s / hand_s:.1f}x",
            ]
        )
    table(["case", "moves", "states hand/puzint", "hand-written s", "puzint s", "puzint/hand"], rows, left=1)


# ---------------------------------------------------------------------------- numbers on a circle


def seed_perl(n: int, fixed: bool) -> str:
    """The seed's Perl program with `my $n = N;`, and the fix to `$i` if `fixed`."""
    text = SEED.read_text(encoding="utf-8")
    code = text.split("プログラム\n", 1)[1].split("プログラムの説明", 1)[0].strip() + "\n"
    code, replaced = re.subn(r"my \$n = \d+;", f"my $n = {n};", code, count=1)
    assert replaced == 1, "the seed program no longer sets `my $n = ...;`"
    if fixed:
        assert PERL_FIX[0] in code, "the seed program no longer has the line the fix is for"
        code = code.replace(*PERL_FIX)
    return code


def perl_solutions(perl: str, script: Path, n: int) -> int:
    """Run the program once and count the solutions it prints (n numbers each)."""
    out = subprocess.run([perl, str(script)], capture_output=True, text=True, check=True).stdout
    numbers = out.split()
    assert len(numbers) % n == 0, len(numbers)
    return len(numbers) // n


def circle(sizes: list[int], perl_n: int | None) -> None:
    print("Numbers on a circle: count every solution, hand-written bitmask DFS vs puzint enumerate_solutions")
    notes: list[str] = []
    perl_s = perl_seed(perl_n, notes) if perl_n is not None else None
    rows = []
    for n in sizes:
        compiled = load(SPECS / "number_circle.puz", {"n": str(n)})
        count = hw.number_circle_count(n)
        assert count == hw.number_circle_count_pruned(n)
        report = enumerate_solutions(compiled, Limits(), keep=False)
        assert count == report.count == hw.NUMBER_CIRCLE_COUNTS[n], (n, count, report.count)
        hand_s, hand_n = best_time(lambda n=n: hw.number_circle_count(n))
        puz_s, puz_n = best_time(lambda compiled=compiled: enumerate_solutions(compiled, Limits(), keep=False))
        pruned_s, pruned_n = best_time(lambda n=n: hw.number_circle_count_pruned(n))
        perl = f"{perl_s:.2f} (best of {SLOW_REPEAT})" if perl_s is not None and n == perl_n else "-"
        rows.append(
            [
                f"n={n}",
                str(count),
                str(report.states),
                seconds(hand_s, hand_n),
                seconds(puz_s, puz_n),
                f"{puz_s / hand_s:.1f}x",
                seconds(pruned_s, pruned_n),
                perl,
            ]
        )
    table(
        [
            "case",
            "solutions",
            "puzint states",
            "hand-written s",
            "puzint s",
            "puzint/hand",
            "hand, pruned s",
            "Perl seed s",
        ],
        rows,
        left=1,
    )
    print("hand, pruned: the hand-written count with the seed program's cut-off (the circle n/2 is the last one),")
    print("  i.e. the search the Perl seed does; puzint and the plain hand-written count search without it.")
    for note in notes:
        print(note)


def perl_seed(n: int, notes: list[str]) -> float | None:
    """Wall time of the seed's Perl program for n (best of SLOW_REPEAT), after checking that it
    prints the known number of solutions; None if it cannot be run. Explanations go to `notes`."""
    perl = shutil.which("perl")
    if perl is None:
        notes.append("Perl seed: perl not found, not timed")
        return None
    if not SEED.exists():
        notes.append(f"Perl seed: {SEED} not found, not timed")
        return None
    version = subprocess.run([perl, "-e", "print $^V"], capture_output=True, text=True, check=True).stdout
    with tempfile.TemporaryDirectory(prefix="puzint-perl-") as folder:
        as_is = Path(folder) / "seed_as_is.pl"
        as_is.write_text(seed_perl(n, fixed=False), encoding="utf-8")
        run = subprocess.run([perl, str(as_is)], capture_output=True, text=True)
        if run.returncode == 0:
            notes.append(f"Perl seed (perl {version}): runs as published")
            script = as_is
        else:
            first = run.stderr.strip().splitlines()[0] if run.stderr.strip() else ""
            first = first.replace(str(as_is), "the program")
            notes.append(f"Perl seed (perl {version}) as published does not run (exit status {run.returncode}):")
            notes.append(f"  {first}")
            notes.append(f"  timed with the minimal fix `{PERL_FIX[0]}` -> `{PERL_FIX[1]}` (the loop's own index)")
            script = Path(folder) / "seed_fixed.pl"
            script.write_text(seed_perl(n, fixed=True), encoding="utf-8")
        count = perl_solutions(perl, script, n)
        assert count == hw.NUMBER_CIRCLE_COUNTS[n], (n, count)
        notes.append(f"  n={n}: it prints {count} solutions; timed as a command, wall time, output to /dev/null")
        return best_wall([perl, str(script)], SLOW_REPEAT)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="leave out the number circle with n = 14")
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]} ({sys.executable}); best of {REPEAT} (slow cases: best of {SLOW_REPEAT})")
    print("GC on; specs compiled before timing\n")
    jealous()
    print()
    circle([10, 12] if args.quick else [10, 12, 14], None if args.quick else 14)


if __name__ == "__main__":
    main()
