"""Heuristics derived from a spec against the one written in it (issue 41): Korf's 100 random
fifteen-puzzle instances (benchmarks/korf100.txt) solved by `puzint run` with the derived
pattern databases and with Manhattan distance written in the spec, beside a hand-written
Python IDA* (benchmarks/handwritten_fifteen.py) and the published figures; writes
docs/performance-heuristics.md.

    python benchmarks/report_heuristics.py [--first N | --instances 1,12,55] [--cap S]
                                           [--method M] [--handwritten [--hand-cap S]]
                                           [--skip-build] [--output PATH | --no-docs]

For each instance two specs are written in a temporary folder: benchmarks/fifteen.puz with its
start replaced by the instance and its goal by Korf's (the blank top-left), once with no
`heuristic` line (run with `--heuristic derived`) and once with `heuristic displacement()`
(Manhattan distance, run with `--heuristic spec`). Each is one whole `python -m puzint run
SPEC --format json` process, stopped after CAP seconds (default 300; shown as ">CAP"); the
states and seconds are the JSON's, the wall time the whole process's. Every length is checked
against the published optimal one: a mismatch is printed loudly, written at the top of the
page, and makes the exit status 1. The pattern databases are kept on disk between runs, so
before the instances one run of the first (PUZINT_KEEP_PATTERNS=0) builds them afresh to
measure the build (`--skip-build`: take the time from the runs' JSON if one built them).
`--handwritten` also times the plain Python IDA* (Manhattan distance and linear conflicts),
each instance a process stopped after --hand-cap seconds (default 120).

Default: all 100 instances, which takes hours (the Manhattan runs above all); `--first N` or
`--instances` takes some. The page says which instances it covers. Sokoban (Microban) is
not measured here.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.handwritten_fifteen import read_korf100, solvable  # noqa: E402
from benchmarks.tables import table  # noqa: E402

FIFTEEN = ROOT / "benchmarks" / "fifteen.puz"
HANDWRITTEN = ROOT / "benchmarks" / "handwritten_fifteen.py"
DOCS = ROOT / "docs" / "performance-heuristics.md"
SYMBOLS = "_123456789ABCDEF"  # Korf's tile k as a puzint piece (0: the blank)
CAP = 300.0  # seconds a puzint run may take
HAND_CAP = 120.0  # seconds the hand-written IDA* may take on one instance

# the published figures (../shared/HEURISTICS.md), 100 random instances, IDA*, C, a 2004 machine
PUBLISHED = [
    ("Manhattan distance", "401 million", "53", ""),
    ("5-5-5 additive PDBs", "3.1 million", "0.54", ""),
    ("6-6-3 additive PDBs", "617 thousand", "0.16", "33 MB"),
    ("7-8 additive PDBs", "36.7 thousand", "0.03", "576 MB"),
]


@dataclass
class Run:
    """One `puzint run` (or the hand-written program): None fields where it did not answer."""

    status: str  # solved, >CAP (stopped), or the error
    length: int | None = None
    states: int | None = None
    seconds: float | None = None  # the JSON's (the hand-written program's own timing)
    wall: float | None = None
    method: str = ""
    at_start: int | None = None
    derived: str = ""
    extra: dict = field(default_factory=dict)


# ---------------------------------------------------------------------------- specs and runs


def board(tiles: list[int]) -> str:
    return "".join("    " + " ".join(SYMBOLS[t] for t in tiles[r * 4 : r * 4 + 4]) + "\n" for r in range(4))


def specs(number: int, length: int, tiles: list[int]) -> tuple[str, str]:
    """benchmarks/fifteen.puz for Korf's instance: (with no heuristic, with Manhattan distance)."""
    text = FIFTEEN.read_text(encoding="utf-8")
    text = re.sub(r"(?m)^about .*$", f'about "Korf\'s instance #{number} ({length} moves by the shortest way)."', text)
    text = re.sub(r"(?m)^start:\n(?:[ \t]+\S.*\n)+", lambda _: "start:\n" + board(tiles), text)
    text = re.sub(r"(?m)^goal:\n(?:[ \t]+\S.*\n)+", lambda _: "goal:\n" + board(list(range(16))), text)
    bare = re.sub(r"(?m)^heuristic .*\n", "", text)
    manhattan = bare.rstrip("\n") + "\nheuristic displacement()\n"
    assert "heuristic" not in bare and board(tiles) in bare, "benchmarks/fifteen.puz is not as expected"
    return bare, manhattan


def process(argv: list[str], cap: float | None, env: dict[str, str] | None = None) -> tuple[str | None, float, str]:
    """(stdout, wall seconds, stderr) of a process stopped with its children after `cap`
    seconds (stdout None then)."""
    started = time.perf_counter()
    child = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env, start_new_session=True
    )
    try:
        out, err = child.communicate(timeout=cap)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        child.communicate()
        return None, time.perf_counter() - started, ""
    return out, time.perf_counter() - started, err


def puzint(spec: Path, heuristic: str, method: str, cap: float, keep_patterns: bool = True) -> Run:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if not keep_patterns:
        env["PUZINT_KEEP_PATTERNS"] = "0"
    argv = [sys.executable, "-m", "puzint", "run", str(spec), "--heuristic", heuristic, "--format", "json", "--quiet"]
    if method:
        argv += ["--method", method]
    out, wall, err = process(argv, cap, env)
    if out is None:
        return Run(f">{cap:g}", wall=wall)
    try:
        answer = json.loads(out)
    except ValueError:
        return Run(f"error: {err.strip().splitlines()[-1] if err.strip() else 'no JSON'}", wall=wall)
    used = answer.get("heuristic") or {}
    return Run(
        status=str(answer.get("status")),
        length=answer.get("length"),
        states=answer.get("states"),
        seconds=answer.get("seconds"),
        wall=wall,
        method=str(answer.get("method", "")),
        at_start=used.get("at_start"),
        derived=str(used.get("derived", "")),
        extra={"used": used.get("used"), "engine": answer.get("engine")},
    )


def handwritten(number: int, cap: float) -> Run:
    out, wall, err = process([sys.executable, str(HANDWRITTEN), str(number), "--json"], cap)
    if out is None:
        return Run(f">{cap:g}", wall=wall)
    if not out.strip():
        return Run(f"error: {err.strip().splitlines()[-1] if err.strip() else 'no output'}", wall=wall)
    answer = json.loads(out.splitlines()[0])
    return Run("solved", answer["length"], answer["nodes"], answer["seconds"], wall, "IDA*")


ONE_PROCESS = """
import json, sys, time
from puzint.api import solve
for path in sys.argv[1:]:
    began = time.perf_counter()
    result = solve(path, heuristic="derived")
    wall = time.perf_counter() - began
    print(json.dumps({"length": result.length, "states": result.states, "wall": wall}), flush=True)
"""


def one_process(paths: list[Path], cap: float) -> tuple[list[Run], float]:
    """Every instance solved in turn by one Python process through the API (`puzint.api.solve`,
    the derived heuristic): each run's length, states and wall time, and the process's whole
    wall time (its start, the kernel's loading and the tables' reading included)."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    out, wall, err = process([sys.executable, "-c", ONE_PROCESS, *map(str, paths)], cap, env)
    if out is None:
        return [Run(f">{cap:g}") for _ in paths], wall
    answers = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    runs = [Run("solved", a["length"], a["states"], a["wall"], a["wall"]) for a in answers]
    runs += [Run(f"error: {err.strip().splitlines()[-1] if err.strip() else 'no output'}")] * (len(paths) - len(runs))
    return runs, wall


def build_seconds(derived: str) -> float | None:
    """The build time in a JSON's "derived" text ("..., built in 12.3 s"), None if read from the cache."""
    found = re.search(r"built in ([0-9.]+) s", derived)
    return float(found.group(1)) if found else None


# ---------------------------------------------------------------------------- the figures


def count(n: int | None) -> str:
    return "-" if n is None else f"{n:,}"


def secs(run: Run) -> str:
    if run.seconds is None:
        return run.status if run.status.startswith(">") else "-"
    return f"{run.seconds:.2f}"


def checked(run: Run, published: int, what: str, number: int, wrong: list[str]) -> str:
    """The run's length, and a loud line where it is not the published optimal one."""
    if run.length is None:
        if run.status == "not run":
            return "-"
        if not run.status.startswith(">"):
            wrong.append(f"#{number}, {what}: {run.status}")
        return run.status if run.status.startswith(">") else "-"
    if run.length != published:
        wrong.append(f"#{number}, {what}: {run.length} moves, published {published}")
        print(f"!!! MISMATCH #{number} {what}: {run.length} moves, published {published}", file=sys.stderr, flush=True)
        return f"**{run.length} (published {published})**"
    return str(run.length)


def total(runs: list[Run], attribute: str) -> float | None:
    values = [getattr(r, attribute) for r in runs]
    return None if any(v is None for v in values) else sum(values)


def choose(options: argparse.Namespace, instances: dict[int, tuple[int, list[int]]]) -> list[int]:
    if options.instances:
        numbers = [int(n) for n in re.split(r"[,\s]+", options.instances.strip()) if n]
        unknown = [n for n in numbers if n not in instances]
        if unknown:
            raise SystemExit(f"no such instance: {unknown} (Korf's are 1-100)")
        return numbers
    numbers = sorted(instances)
    return numbers[: options.first] if options.first else numbers


def covered(numbers: list[int]) -> str:
    if numbers == list(range(1, 101)):
        return "all 100 instances"
    return f"{len(numbers)} of the 100 instances only: " + ", ".join(f"#{n}" for n in numbers)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--first", type=int, default=0, help="only Korf's first N instances")
    parser.add_argument("--instances", default="", help="only these instances (numbers, e.g. 1,12,55)")
    parser.add_argument("--cap", type=float, default=CAP, help="seconds a puzint run may take")
    parser.add_argument("--method", default="", help="--method for every puzint run (default: puzint's choice)")
    parser.add_argument(
        "--manhattan-cap", type=float, default=CAP, help="seconds a Manhattan-distance run may take (0: not run)"
    )
    parser.add_argument("--handwritten", action="store_true", help="also the hand-written Python IDA*")
    parser.add_argument("--hand-cap", type=float, default=HAND_CAP, help="seconds the hand-written IDA* may take")
    parser.add_argument("--skip-build", action="store_true", help="no run that builds the pattern databases afresh")
    parser.add_argument("--build-cap", type=float, default=3600.0, help="seconds the build run may take")
    parser.add_argument(
        "--one-process",
        type=float,
        default=0.0,
        metavar="CAP",
        help="also solve every instance in one process through the API, stopped after CAP seconds in all",
    )
    parser.add_argument("--output", type=Path, default=DOCS, help="the page written (default docs/...)")
    parser.add_argument("--no-docs", action="store_true", help="print the tables only, write no page")
    options = parser.parse_args()
    if options.first and options.instances:
        parser.error("--first or --instances, not both")

    instances = read_korf100()
    numbers = choose(options, instances)
    for n in numbers:
        assert solvable(instances[n][1]), f"Korf's instance #{n} is not solvable: benchmarks/korf100.txt is wrong"
    wrong: list[str] = []
    rows, markdown_rows = [], []
    derived_runs: list[Run] = []
    manhattan_runs: list[Run] = []
    hand_runs: list[Run] = []
    built: tuple[float, str] | None = None
    build_wall: float | None = None
    together: tuple[list[Run], float] | None = None
    with tempfile.TemporaryDirectory(prefix="puzint-korf-") as folder:
        paths: dict[int, tuple[Path, Path]] = {}
        for n in numbers:
            bare, manhattan = specs(n, *instances[n])
            paths[n] = (Path(folder) / f"korf{n}.puz", Path(folder) / f"korf{n}_manhattan.puz")
            paths[n][0].write_text(bare, encoding="utf-8")
            paths[n][1].write_text(manhattan, encoding="utf-8")

        if not options.skip_build:
            first = numbers[0]
            print(f"building the pattern databases afresh (instance #{first}) ...", file=sys.stderr, flush=True)
            run = puzint(paths[first][0], "derived", options.method, options.build_cap, keep_patterns=False)
            seconds = build_seconds(run.derived)
            if seconds is None:
                print(f"  no build time in the JSON: {run.status} {run.derived!r}", file=sys.stderr, flush=True)
            else:
                built = (seconds, run.derived)
                build_wall = run.wall
                print(f"  {run.derived} ({run.wall:.1f} s of wall for the whole run)", file=sys.stderr, flush=True)
        if options.one_process:
            print("every instance in one process ...", file=sys.stderr, flush=True)
            together = one_process([paths[n][0] for n in numbers], options.one_process)
            for n, run in zip(numbers, together[0], strict=True):
                checked(run, instances[n][0], "one process", n, wrong)

        for n in numbers:
            published = instances[n][0]
            derived = puzint(paths[n][0], "derived", options.method, options.cap)
            manhattan = (
                puzint(paths[n][1], "spec", options.method, options.manhattan_cap)
                if options.manhattan_cap > 0
                else Run("not run")
            )
            hand = handwritten(n, options.hand_cap) if options.handwritten else Run("-")
            derived_runs.append(derived)
            manhattan_runs.append(manhattan)
            hand_runs.append(hand)
            seconds = build_seconds(derived.derived)
            if built is None and seconds is not None:
                built = (seconds, derived.derived)
            lengths = [
                checked(derived, published, "derived", n, wrong),
                checked(manhattan, published, "Manhattan", n, wrong),
            ]
            if options.handwritten:
                lengths.append(checked(hand, published, "hand-written", n, wrong))
            row = [f"#{n}", str(published), lengths[0], count(derived.states), secs(derived), derived.method or "-"]
            row += [lengths[1], count(manhattan.states), secs(manhattan), manhattan.method or "-"]
            if options.handwritten:
                row += [count(hand.states), secs(hand)]
            rows.append(row)
            markdown_rows.append(row)
            print(" | ".join(row), file=sys.stderr, flush=True)

    header = ["instance", "optimal", "derived", "states", "s", "method", "Manhattan", "states", "s", "method"]
    if options.handwritten:
        header += ["hand nodes", "hand s"]
    print(f"\nKorf's fifteen-puzzle instances: {covered(numbers)}")
    table(header, rows, left=1)
    totals = summary(numbers, derived_runs, manhattan_runs, hand_runs if options.handwritten else None)
    if together is not None:
        totals.append(in_one_process(together, build_wall))
    for line in totals:
        print(line)
    if built is not None:
        print(f"pattern databases: {built[1]}")
    if wrong:
        print("\n!!! LENGTHS THAT ARE NOT THE PUBLISHED OPTIMAL ONES:\n  " + "\n  ".join(wrong))
    if not options.no_docs:
        options.output.write_text(page(options, numbers, header, markdown_rows, totals, built, wrong), encoding="utf-8")
        print(f"\nwritten: {options.output}")
    sys.exit(1 if wrong else 0)


def in_one_process(together: tuple[list[Run], float], build_wall: float | None) -> str:
    runs, wall = together
    solved = [r for r in runs if r.length is not None]
    line = (
        f"in one process (the API, the tables read from the cache): {len(solved)} of {len(runs)} solved, "
        f"{sum(r.states or 0 for r in solved):,} states, {wall:.1f} s of wall in all"
    )
    if build_wall is not None:
        line += f"; with the run that built the tables afresh ({build_wall:.1f} s of wall), {wall + build_wall:.1f} s"
    return line


def summary(numbers: list[int], derived: list[Run], manhattan: list[Run], hand: list[Run] | None) -> list[str]:
    """Totals and means over the instances every solver answered within its cap."""
    columns = [("derived", derived), ("Manhattan", manhattan)] + ([("hand-written", hand)] if hand else [])
    columns = [(name, runs) for name, runs in columns if any(r.status != "not run" for r in runs)]
    every = [i for i in range(len(numbers)) if all(runs[i].seconds is not None for _, runs in columns)]
    lines = [f"instances answered by all within their caps: {len(every)} of {len(numbers)}"]
    if not every:
        return lines
    for name, runs in columns:
        answered = [r for r in runs if r.seconds is not None]
        both = [runs[i] for i in every]
        lines.append(
            f"{name}: {len(answered)} answered; on those answered by all: "
            f"{count(total(both, 'states'))} states, {sum(r.seconds or 0 for r in both):.1f} s in all, "
            f"{sum(r.states or 0 for r in both) / len(both):,.0f} states and "
            f"{sum(r.seconds or 0 for r in both) / len(both):.2f} s an instance"
        )
    return lines


def page(
    options: argparse.Namespace,
    numbers: list[int],
    header: list[str],
    rows: list[list[str]],
    totals: list[str],
    built: tuple[float, str] | None,
    wrong: list[str],
) -> str:
    argv = " ".join(sys.argv[1:])
    today = datetime.date.today().isoformat()
    out = ["# Performance: heuristics derived from the spec (the fifteen puzzle)", ""]
    if wrong:
        out += ["**Lengths that are not the published optimal ones:**", ""]
        out += [f"- **{w}**" for w in wrong] + [""]
    out += [
        f"**Covers {covered(numbers)}** of Korf's set (benchmarks/korf100.txt), generated by",
        f"`python benchmarks/report_heuristics.py {argv}`".rstrip() + f" on {today}, on a machine with",
        f"{os.cpu_count()} cores. The other benchmarks are in [performance.md](performance.md).",
        "",
        "## What is measured",
        "",
        "Each instance is benchmarks/fifteen.puz with its start replaced by the instance and its goal",
        "by Korf's (the blank in the top-left corner). *derived*: the spec with no `heuristic` line, run",
        "with `--heuristic derived` (the pattern databases derived from the spec); *Manhattan*: the",
        "same spec with `heuristic displacement()`, run with `--heuristic spec`. Each figure comes",
        "from one whole `python -m puzint run SPEC --format json` process: the states and seconds",
        f'are the JSON\'s; a run is stopped after {options.cap:g} s (shown as ">{options.cap:g}").',
        "Every length is checked against the published optimal one (Korf 1985).",
    ]
    if options.method:
        out += [f"Every run was given `--method {options.method}`."]
    if options.handwritten:
        out += [
            "*hand*: the plain Python IDA* with Manhattan distance and linear conflicts",
            "(benchmarks/handwritten_fifteen.py), its nodes the states it visits, its seconds its own",
            f"timing of the search, stopped after {options.hand_cap:g} s.",
        ]
    out += [""]
    if built is not None:
        out += [
            f"The pattern databases ({built[1].split(', built in')[0]}) took {built[0]:.1f} s to build;",
            "they are kept on disk, and the runs below read them from there.",
            "",
        ]
    out += ["## Per instance", ""]
    out += [
        "| " + " | ".join(header) + " |",
        "|" + "|".join("---" if i < 1 else "--:" for i in range(len(header))) + "|",
    ]
    out += ["| " + " | ".join(row) + " |" for row in rows]
    out += ["", "## Totals", ""] + [f"- {line}" for line in totals]
    out += [
        "",
        "## Published figures",
        "",
        "For comparison, approximately (Felner, Korf and Hanan, JAIR 22, 2004; Korf and Felner 2002):",
        "the same 100 instances, IDA*, in C on a machine of 2004, averages an instance.",
        "",
        "| heuristic | nodes | seconds | memory |",
        "|---|--:|--:|--:|",
    ]
    out += [f"| {name} | {nodes} | {seconds} | {memory} |" for name, nodes, seconds, memory in PUBLISHED]
    out += [
        "",
        "With the reflection about the main diagonal, fewer still. Culberson and Schaeffer (1994-96):",
        "reduction databases cut the nodes of the 100 instances by over 1,000-fold. Measured before",
        "issue 41 (2 cores, pure Python, instance #1, 57 moves): a plain IDA* with Manhattan distance",
        "and linear conflicts 6.5-11 s and 9.1 million nodes; puzint with Manhattan distance written",
        "in the spec 90-150 s by default, 47 s with `--method idastar`.",
        "",
    ]
    return "\n".join(out)


if __name__ == "__main__":
    main()
