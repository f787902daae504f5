"""Timing report for the compiled kernel: the hand-written Python solver, puzint's Python
engine and puzint's compiled kernel on the same instances, in one run, as ratios.

    python benchmarks/report_kernel.py [--repeat N] [--skip-python-engine] [--only TEXT] [--skip TEXT] [--startup-only]

Every measurement runs in a fresh Python process (this script, called with --child), so that
each row has its own peak memory (the child's ru_maxrss, interpreter and puzint included). In
the child the spec is loaded and compiled before timing and only the search is timed, with the
garbage collector on; the kernel is called once before timing (its compiled code is loaded
from numba's cache: that load is reported apart, as is the first compilation with an empty
cache, with and without the kernel compiled at install). Each search runs N times (default
3) and the best is kept.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from puzint.engines import RunOptions

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.plain import bishops, bridge_torch, hanoi, lights_out, queens  # noqa: E402

from benchmarks import handwritten as hw  # noqa: E402
from benchmarks import handwritten_amida as amida  # noqa: E402
from benchmarks import handwritten_more as more  # noqa: E402
from benchmarks.tables import table  # noqa: E402

SPECS = ROOT / "specs"
FIFTEEN = ROOT / "benchmarks" / "fifteen.puz"
WALKERS = [1, 2, 5, 10, 12, 15, 20, 25, 30, 33, 40, 45]

# name: (spec, params, question, hand-written solver giving (length or depth, states))
CASES: dict[str, tuple[str, dict[str, str], str, Callable[[], tuple[int | None, int]]]] = {
    "amida S10 reach": ("amida", {"bottom": "JFBHIADEGC"}, "reach", lambda: amida.reachable(10)[::-1]),
    "eight puzzle reach": ("eight_puzzle", {}, "reach", lambda: hw.eight_reachable()),
    "oshidori n=8 reach": ("oshidori", {"n": "8"}, "reach", lambda: hw.oshidori_reachable(8)),
    "white & black k=9 reach": ("white_black", {"k": "9"}, "reach", lambda: hw.white_black_reachable(9)),
    "frog n=14 shortest (bfs)": ("frog", {"n": "14"}, "bfs", lambda: hw.frog_shortest(14)),
    "bishops, no attack rule, reach": (
        "bishops",
        {"attack": "false"},
        "reach",
        lambda: (None, bishops.reachable(False)),
    ),
    "knights 4 x 4 count": ("knights", {"rows": "4", "cols": "4"}, "count", hw.knights_square_count),
    "Lights Out 5 x 5 reach": ("lights_out", {"n": "5"}, "reach", lambda: (None, lights_out.reachable(5))),
    # the machine: rules, places, carries, actions
    "bishops, attack rule, reach": ("bishops", {"attack": "true"}, "reach", lambda: (None, bishops.reachable(True))),
    "jealous husbands (6, 4) count": (
        "jealous_husbands",
        {"couples": "6", "seats": "4"},
        "count",
        lambda: hw.bfs_count(*more.two_bank_start_goal(6), more.two_bank_successors(6, 4)),
    ),
    "number circle n=12 all": ("number_circle", {"n": "12"}, "all", lambda: (more.number_circle_count(12), None)),
    "number circle n=14 all": ("number_circle", {"n": "14"}, "all", lambda: (more.number_circle_count(14), None)),
    "number circle n=16 all": ("number_circle", {"n": "16"}, "all", lambda: (more.number_circle_count(16), None)),
    # the other searches on the kernel: uniform cost, IDA*, states of several words
    "bridge & torch, 12 walkers, cheapest": (
        "bridge_torch",
        {"times": str(WALKERS)},
        "cheapest",
        lambda: (bridge_torch.cheapest(WALKERS)[0], None),
    ),
    "fifteen puzzle, 38 moves, IDA*": (
        str(FIFTEEN),
        {},
        "idastar",
        lambda: more.fifteen_idastar("1C46E_382AB795DF"),
    ),
    "Hanoi 12 discs (3 words) reach": ("hanoi", {"discs": "12"}, "reach", lambda: (None, hanoi.reachable(12))),
    "queens n=10 all": ("queens", {"n": "10"}, "all", lambda: (queens.count(10), None)),
}
KERNEL_ONLY = {"amida S11 reach": ("amida", {"bottom": "KJFBHIADEGC"}, "reach", 39_916_800)}


def child(kind: str, name: str, repeat: int) -> None:
    """One measurement, printed as JSON: best seconds, peak MB, what was found."""
    if kind == "hand":
        solver = CASES[name][3]
        best, found = _best(solver, repeat)
        print(json.dumps({"seconds": best, "found": list(found), "mb": _peak_mb()}))  # type: ignore[call-overload]
        return
    from puzint.runner import load, search
    from puzint.search import Limits

    spec, params, question = (CASES[name][:3]) if name in CASES else KERNEL_ONLY[name][:3]
    compiled = load(spec if spec.endswith(".puz") else SPECS / f"{spec}.puz", params)
    engine = "python" if kind == "python" else "compiled"
    if engine == "compiled":
        from puzint.runner import kernel_unfit

        if question == "all":
            from puzint.kernel import why_not

            unfit = why_not(compiled, depth_first=True)
        else:
            method = "idastar" if question == "idastar" else "bfs"
            unfit = kernel_unfit(compiled, question == "count", question == "reach", method, None)
        assert unfit is None, f"{name}: the kernel cannot run it: {unfit}"

    def run() -> object:
        if question == "all":  # every solution, only counted: depth first
            from puzint.solutions import enumerate_solutions

            every = enumerate_solutions(compiled, Limits(max_memory_mb=None), keep=False, options=RunOptions(engine))
            return _Walked(every.states, every.in_all)
        result = search(
            compiled,
            reach=question == "reach",
            count=question == "count",
            method=question if question in ("bfs", "idastar") else "auto",
            limits=Limits(max_states=50_000_000, max_memory_mb=None),
            engine=engine,
        )
        return result

    loading = 0.0
    if kind == "kernel":
        started = time.perf_counter()
        from puzint.kernel.searches import breadth_first as kernel_search  # numba and the cached kernel

        kernel_search.build  # noqa: B018
        loading = time.perf_counter() - started
    best, result = _best(run, repeat)
    print(
        json.dumps(
            {
                "seconds": best,
                "mb": _peak_mb(),
                "states": result.states,  # type: ignore[attr-defined]
                "reachable": result.reachable,  # type: ignore[attr-defined]
                "length": result.length,  # type: ignore[attr-defined]
                "count": result.count,  # type: ignore[attr-defined]
                "cost": getattr(result, "cost", None),
                "method": result.method,  # type: ignore[attr-defined]
                "bytes_per_state": result.bytes_per_state,  # type: ignore[attr-defined]
                "loading": loading,
            }
        )
    )


class _Walked:
    """A depth-first walk's answer, read like a search result."""

    def __init__(self, states: int, count: int):
        self.states, self.count = states, count
        self.reachable = self.length = self.cost = None
        self.method = "depth-first enumeration"
        self.bytes_per_state = 0.0


def _best(fn: Callable[[], object], repeat: int) -> tuple[float, object]:
    if os.environ.get("REPORT_WARM"):
        fn()
    best, found = float("inf"), None
    for _ in range(repeat):
        started = time.perf_counter()
        found = fn()
        best = min(best, time.perf_counter() - started)
    return best, found


def _ratio(value: float) -> str:
    return f"{value:.2f}x" if value < 0.1 else f"{value:.1f}x"


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measure(kind: str, name: str, repeat: int, env: dict[str, str] | None = None) -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, __file__, "--child", kind, name, "--repeat", str(repeat)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, **(env or {})},
    )
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--child", nargs=2, metavar=("KIND", "NAME"))
    parser.add_argument("--skip-python-engine", action="store_true")
    parser.add_argument("--startup-only", action="store_true", help="only the kernel's start-up, cold and warm")
    parser.add_argument("--only", metavar="TEXT", help="only the cases whose name contains TEXT")
    parser.add_argument(
        "--skip", metavar="TEXT", action="append", default=[], help="not the cases whose name contains TEXT"
    )
    args = parser.parse_args()
    if args.child:
        child(args.child[0], args.child[1], args.repeat)
        return
    print(f"python {sys.version.split()[0]}; best of {args.repeat}, each in a fresh process\n")
    for kind, name in (
        ("word tables", "eight puzzle reach"),
        ("machine, breadth first", "jealous husbands (6, 4) count"),
        ("machine, depth first", "number circle n=12 all"),
    ):
        first = {}
        for install in ("0", "1"):  # PUZINT_PREBUILT: without, then with, the kernel compiled at install
            with tempfile.TemporaryDirectory() as empty:
                started = time.perf_counter()
                search = measure("kernel", name, 1, {"PUZINT_CACHE_DIR": empty, "PUZINT_PREBUILT": install})
                whole = time.perf_counter() - started
            seconds = float(search["loading"]) + float(search["seconds"])  # type: ignore[arg-type]
            first[install] = f"{seconds:.2f} s in the first search ({whole:.1f} s for the whole process)"
        warm = measure("kernel", name, 1)
        print(
            f"kernel start-up, {kind} ({name}): first compilation (empty cache, nothing compiled at install) "
            f"{first['0']}; empty cache, the kernel compiled at install {first['1']}; "
            f"from the cache {warm['loading']:.2f} s (numba's import and the cached code)"
        )
    print()
    if args.startup_only:
        return
    rows = []
    for name in CASES:
        if (args.only and args.only not in name) or any(text in name for text in args.skip):
            continue
        hand = measure("hand", name, args.repeat)
        kernel = measure("kernel", name, args.repeat, {"REPORT_WARM": "1"})
        python = None if args.skip_python_engine else measure("python", name, args.repeat)
        depth, states = hand["found"]  # type: ignore[misc]
        if CASES[name][2] == "reach":
            assert kernel["reachable"] == states and (python is None or python["reachable"] == states), name
        elif CASES[name][2] in ("count", "all"):
            assert kernel["count"] == depth and (python is None or python["count"] == depth), name
        elif CASES[name][2] == "cheapest":
            assert kernel["cost"] == depth and (python is None or python["cost"] == depth), name
        else:
            assert kernel["length"] == depth and (python is None or python["length"] == depth), name
        rows.append(
            [
                name,
                f"{kernel['states']:,}",
                f"{hand['seconds']:.3f}",
                f"{python['seconds']:.3f}" if python else "-",
                f"{kernel['seconds']:.3f}",
                _ratio(hand["seconds"] / kernel["seconds"]),  # type: ignore[operator]
                f"{kernel['bytes_per_state']:.1f}" if kernel["bytes_per_state"] else "-",
                f"{hand['mb']:.0f}/{python['mb']:.0f}/{kernel['mb']:.0f}"
                if python
                else f"{hand['mb']:.0f}/-/{kernel['mb']:.0f}",
            ]
        )
    for name, (_, _, _, states) in KERNEL_ONLY.items():
        if (args.only and args.only not in name) or any(text in name for text in args.skip):
            continue
        kernel = measure("kernel", name, 1, {"REPORT_WARM": ""})
        assert kernel["reachable"] == states
        rows.append(
            [
                name,
                f"{kernel['states']:,}",
                "(not run)",
                "-",
                f"{kernel['seconds']:.3f}",
                "-",
                f"{kernel['bytes_per_state']:.1f}",
                f"-/-/{kernel['mb']:.0f}",
            ]
        )
    headers = ["case", "states", "hand s", "puzint python s", "kernel s", "hand/kernel", "B/state", "peak MB h/p/k"]
    table(headers, rows)


if __name__ == "__main__":
    main()
