"""Timing report: logic puzzles (fillings) in puzint against plain hand-written Python solvers
and against CP-SAT models written directly (benchmarks/handwritten_logic.py).

    .venv/bin/python benchmarks/report_logic.py            # everything, about two minutes
    .venv/bin/python benchmarks/report_logic.py --quick    # without the direct CP-SAT counts
    .venv/bin/python benchmarks/report_logic.py --lists    # issue 42's catalogue fillings alone (a few minutes)

puzint's searches are timed warm, in this process: the spec is loaded and compiled first, and
one untimed run has loaded the kernel (numba) and OR-tools; the start-up of a fresh `puzint
run` (imports, the kernel's cache, the solver's import) is reported apart, as wall time of
the command. Each timing is the best of 3 runs (best of 5 autoranged repeats for calls under
0.2 s). The direct CP-SAT models report model building and solving apart.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import timeit
from collections.abc import Callable
from pathlib import Path

from puzint.engines import RunOptions

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script: make `benchmarks` importable
    sys.path.insert(0, str(ROOT))

from puzint.runner import search  # noqa: E402
from puzint.search import Limits  # noqa: E402
from puzint.solutions import enumerate_solutions  # noqa: E402
from tests.conftest import compiled_from  # noqa: E402
from tests.plain import (  # noqa: E402
    futoshiki,
    kakuro,
    kenken,
    killer_sudoku,
    magic_hexagon,
    magic_square,
    nonogram,
    number_paths,
    zebra,
)

from benchmarks import handwritten_catalogue as hc  # noqa: E402
from benchmarks import handwritten_lists as hl  # noqa: E402
from benchmarks import handwritten_logic as hw  # noqa: E402
from benchmarks.logic_specs import without_symmetry  # noqa: E402
from benchmarks.tables import table  # noqa: E402

SPECS = ROOT / "specs"
QUEENS = SPECS / "queens.puz"
SUDOKU = "800000000003600000070090200050007000000045700000100030001000068008500010090000400"


ONCE = 10.0  # a call this long is timed once (the plain magic hexagon's search takes a minute or more)


def best(fn: Callable[[], object]) -> float:
    """Best seconds per call: of 5 autoranged repeats for a fast call, of 3 runs otherwise, one
    run past ONCE seconds."""
    timer = timeit.Timer(fn, setup="gc.enable()")
    first = timer.timeit(number=1)
    if first >= ONCE:
        return first
    if first >= 0.2:
        return min([first, *timer.repeat(repeat=2, number=1)])
    number, _ = timer.autorange()
    return min(timer.repeat(repeat=5, number=number)) / number


def wall(args: list[str]) -> float:
    """Best wall time of `puzint ARGS` over 3 fresh processes (imports and caches included)."""
    times = []
    for _ in range(3):
        started = timeit.default_timer()
        subprocess.run([sys.executable, "-m", "puzint", *args], capture_output=True, check=True, cwd=ROOT)
        times.append(timeit.default_timer() - started)
    return min(times)


def puzint_count(path: Path, params: dict[str, str] | None = None, engine: str = "auto") -> tuple[int, str]:
    report = enumerate_solutions(without_symmetry(path, params), Limits(), keep=False, options=RunOptions(engine))
    assert report.status == "solved", report.status
    return (report.in_all if report.in_all is not None else report.count), report.engine


def sudoku(rows: list[list[str]]) -> None:
    """`search any` on the Sudoku: its solution, and that it is the only one, by each engine."""
    one = compiled_from((SPECS / "sudoku.puz").read_text() + "search any\n")
    solutions = hw.sudoku_solutions(SUDOKU)
    assert len(solutions) == 1
    result = search(one)
    assert result.unique is True and result.engine == "cpsat"
    hand = best(lambda: hw.sudoku_solutions(SUDOKU))
    direct, build, solve = hw.cpsat_sudoku(SUDOKU)
    assert len(direct) == 1
    for engine in ("cpsat", "compiled", "python"):
        found = search(one, engine=engine)
        assert found.unique is True, engine
        seconds = best(lambda engine=engine: search(one, engine=engine))
        rows.append(_row(f"Sudoku, unique? ({engine})", "1, unique", seconds, hand, build + solve, solve))


def unique(
    rows: list[list[str]],
    name: str,
    spec: str,
    hand: Callable[[], list[str]],
    direct: Callable[[], tuple[list[str], float, float]],
    cell: Callable[[str], str],
) -> None:
    """`search any` on a catalogue spec (its solution, and that it is the only one), by the engine
    `auto` chooses, against a hand-written solver and a CP-SAT model written directly, each
    stopping at a second solution; the three answers checked alike."""
    compiled = compiled_from((SPECS / spec).read_text())
    result = search(compiled)
    assert result.unique is True, name
    decoded = compiled.layout.decode(result.path[-1][1])
    found = "".join(cell(compiled.puzzle.symbol(code)) for code in decoded.cells)
    solutions, build, solve = direct()
    assert hand() == solutions == [found], name
    seconds = best(lambda: search(compiled))
    rows.append(_row(f"{name} ({result.engine})", "1, unique", seconds, best(hand), build + solve, solve))


def lines_and_cages(rows: list[list[str]]) -> None:
    """Issue 42's catalogue specs: a nonogram read as its clues, a KenKen, a Kakuro, a Killer Sudoku."""
    clues = (nonogram.N6_ROWS, nonogram.N6_COLUMNS)
    unique(
        rows, "Nonogram 15 x 15", "nonogram.puz", lambda: hl.nonogram_solutions(*clues),
        lambda: hl.cpsat_nonogram(*clues), lambda symbol: "#" if symbol == "X" else ".",
    )  # fmt: skip
    cages = kenken.from_picture(kenken.NYT_PICTURE, kenken.NYT_CLUES)
    unique(
        rows, "KenKen 6 x 6", "kenken.puz", lambda: kenken.solutions(6, cages), lambda: hl.cpsat_kenken(6, cages),
        str,
    )  # fmt: skip
    unique(
        rows, "Kakuro 20 x 14", "kakuro.puz", lambda: hl.kakuro_solutions(kakuro.SUMAS_93),
        lambda: hl.cpsat_kakuro(kakuro.SUMAS_93), str,
    )  # fmt: skip
    picture, sums = killer_sudoku.WIKIPEDIA, killer_sudoku.WIKIPEDIA_SUMS
    unique(
        rows, "Killer Sudoku 9 x 9", "killer_sudoku.puz", lambda: hl.killer_solutions(picture, sums),
        lambda: hl.cpsat_killer(picture, sums), str,
    )  # fmt: skip


def paths_and_clues(rows: list[list[str]]) -> None:
    """Issue 42's other catalogue fillings, each counted as `puzint run` asks (every solution):
    Hidato and Numbrix (a neighbour's value in a rule), the Futoshiki, the zebra puzzle and
    the magic hexagon (every one of its 12 solutions, no symmetry), against the plain programs
    of tests/plain and CP-SAT written directly (`benchmarks/handwritten_catalogue.py`)."""
    counted(
        rows, "Hidato 8 x 8", SPECS / "hidato.puz", {}, 1, lambda: number_paths.count(number_paths.HIDATO, True),
        lambda: hc.number_path_count(number_paths.HIDATO, True),
    )  # fmt: skip
    counted(
        rows, "Numbrix 9 x 9", SPECS / "numbrix.puz", {}, 1, lambda: number_paths.count(number_paths.NUMBRIX, False),
        lambda: hc.number_path_count(number_paths.NUMBRIX, False),
    )  # fmt: skip
    counted(
        rows, "Futoshiki 5 x 5", SPECS / "futoshiki.puz", {}, 1,
        lambda: len(futoshiki.solutions(5, hc.FUTOSHIKI_GIVENS, hc.FUTOSHIKI_SIGNS)), hc.futoshiki_count,
    )  # fmt: skip
    counted(rows, "Zebra", SPECS / "zebra.puz", {}, 1, lambda: len(zebra.solutions()), hc.zebra_count)
    counted(
        rows, "Magic hexagon, all 12", SPECS / "magic_hexagon.puz", {}, 12, lambda: len(magic_hexagon.solutions()),
        hc.magic_hexagon_count,
    )  # fmt: skip


def counted(
    rows: list[list[str]],
    name: str,
    path: Path,
    params: dict[str, str],
    expected: int,
    hand: Callable[[], int],
    direct: Callable[[], tuple[int, float, float]] | None,
) -> None:
    found, engine = puzint_count(path, params)
    compiled = without_symmetry(path, params)
    seconds = best(lambda: enumerate_solutions(compiled, Limits(), keep=False))
    answers: list[int] = []
    hand_s = best(lambda: answers.append(hand()))
    assert found == expected == answers[0], (name, found, expected, answers[0])
    total = solve = None
    if direct is not None:
        count, build, solve = direct()
        assert count == expected, (name, count)
        total = build + solve
    rows.append(_row(f"{name} ({engine})", f"{expected:,}", seconds, hand_s, total, solve))


def _row(name: str, answer: str, puz: float, hand: float, direct: float | None, solve: float | None) -> list[str]:
    return [
        name,
        answer,
        f"{puz:.4f}",
        f"{hand:.4f}",
        f"{puz / hand:.2f}x",
        "-" if direct is None else f"{direct:.4f}",
        "-" if solve is None else f"{solve:.4f}",
        "-" if direct is None else f"{puz / direct:.2f}x",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="leave out the direct CP-SAT counts (tens of seconds)")
    parser.add_argument("--lists", action="store_true", help="issue 42's catalogue fillings alone")
    arguments = parser.parse_args()
    quick = arguments.quick
    rows: list[list[str]] = []
    if arguments.lists:
        lines_and_cages(rows)
        paths_and_clues(rows)
        print(
            "Issue 42's catalogue fillings: puzint (warm, search only) against a hand-written solver and CP-SAT "
            "written directly"
        )
        table(
            ["case (engine)", "solutions", "puzint s", "hand s", "puzint/hand", "CP-SAT s", "solve s", "puzint/CP-SAT"],
            rows,
        )
        return
    sudoku(rows)
    counted(
        rows, "Latin squares 5 x 5", SPECS / "latin_square.puz", {"n": "5"}, 161_280, lambda: hw.latin_count(5),
        None if quick else lambda: hw.cpsat_latin_count(5),
    )  # fmt: skip
    counted(
        rows, "Queens n = 12", QUEENS, {"n": "12"}, 14_200, lambda: hw.queens_count(12),
        None if quick else lambda: hw.cpsat_queens_count(12),
    )  # fmt: skip
    counted(
        rows, "Magic squares 4 x 4", SPECS / "magic_square.puz", {"n": "4"}, 7_040,
        lambda: len(magic_square.squares4()), None,
    )  # fmt: skip
    lines_and_cages(rows)
    counted(
        rows, "SEND + MORE = MONEY", SPECS / "send_more_money.puz", {}, 1, lambda: len(hw.send_more_money()),
        lambda: (len(hw.cpsat_send_more_money()[0]), *hw.cpsat_send_more_money()[1:]),
    )  # fmt: skip
    print("Logic puzzles: puzint (warm, search only) against a hand-written solver and a CP-SAT model written directly")
    table(
        ["case (engine)", "solutions", "puzint s", "hand s", "puzint/hand", "CP-SAT s", "solve s", "puzint/CP-SAT"],
        rows,
    )
    print()
    print("Start-up: a fresh `puzint run` (imports, the kernel's cache, OR-tools), wall time")
    starts = [
        ["sudoku, every solution (compiled)", f"{wall(['run', 'specs/sudoku.puz']):.2f}"],
        ["magic_square -p n=3 --count (compiled)", f"{wall(['run', 'specs/magic_square.puz', '--count']):.2f}"],
        ["frog (python; no numba, no OR-tools)", f"{wall(['run', 'specs/frog.puz']):.2f}"],
    ]
    table(["command", "seconds"], starts, left=1)


if __name__ == "__main__":
    main()
