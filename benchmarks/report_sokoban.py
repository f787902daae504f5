"""Sokoban with no heuristic written (issue 41): the Microban levels (specs/microban.puz, which
reads specs/microban.xsb) solved by `puzint run` in each metric, beside the hand-written
solver (benchmarks/handwritten_sokoban.py: breadth-first or Dijkstra with dead-square
pruning); writes docs/performance-sokoban.md.

    python benchmarks/report_sokoban.py [--levels 1-40,50] [--metrics moves,pushes,both]
                                        [--cap S] [--hand-cap S] [--output PATH | --no-docs]

For each level and metric: one whole `python -m puzint run specs/microban.puz -p n=K -p
metric=M --format json --quiet` process (states, seconds, length and cost from its JSON; the
engine that answered, the method, whether the derived tables guided it), and one process of
the hand-written solver (`--json --metric M K`), each stopped after its cap (shown as ">CAP").
Every answer is checked against the other's: the fewest moves for `moves`, the fewest pushes
for `pushes`, (pushes, moves) for `both`. A mismatch (or an error) is printed loudly, written
at the top of the page, and makes the exit status 1; a run stopped at its cap, or at puzint's
state limit, is no mismatch, and is listed.
The ratio puzint / hand-written is of the wall times of the two processes (puzint's includes
its start, about 0.5-1 s a process, the hand-written solver's its own start too) and of the
seconds each reports for its search; totals over the levels both answered.
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
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.tables import table  # noqa: E402

SPEC = ROOT / "specs" / "microban.puz"
HANDWRITTEN = ROOT / "benchmarks" / "handwritten_sokoban.py"
DOCS = ROOT / "docs" / "performance-sokoban.md"
METRICS = ("moves", "pushes", "both")
LEVELS = 155
CAP = 300.0  # seconds a puzint run may take
HAND_CAP = 300.0  # seconds the hand-written solver may take on one level and metric


@dataclass
class Run:
    """One process's answer: None fields where it did not answer."""

    status: str  # solved, >CAP (stopped), or the error
    answer: object = None  # moves, pushes, or [pushes, moves]
    states: int | None = None
    seconds: float | None = None  # the search's own (the JSON's, or the hand-written solver's)
    wall: float | None = None
    method: str = ""
    engine: str = ""
    heuristic: str = ""
    at_start: object = None
    extra: dict = field(default_factory=dict)


def process(argv: list[str], cap: float) -> tuple[str | None, float, str]:
    """(stdout, wall seconds, stderr) of a process stopped with its children after `cap`
    seconds (stdout None then)."""
    started = time.perf_counter()
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
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


def last_line(err: str, fallback: str) -> str:
    return err.strip().splitlines()[-1] if err.strip() else fallback


def puzint(level: int, metric: str, cap: float, extra: list[str]) -> Run:
    argv = [sys.executable, "-m", "puzint", "run", str(SPEC), "-p", f"n={level}", "-p", f"metric={metric}"]
    argv += ["--format", "json", "--quiet", *extra]
    out, wall, err = process(argv, cap)
    if out is None:
        return Run(f">{cap:g}", wall=wall)
    try:
        answer = json.loads(out)
    except ValueError:
        return Run(f"error: {last_line(err, 'no JSON')}", wall=wall)
    used = answer.get("heuristic") or {}
    status = str(answer.get("status"))
    value = answer.get("length") if metric == "moves" else answer.get("cost")
    return Run(
        status=status,
        answer=value,
        states=answer.get("states"),
        seconds=answer.get("seconds"),
        wall=wall,
        method=str(answer.get("method", "")),
        engine=str(answer.get("engine", "")),
        heuristic=str(used.get("used", "")),
        at_start=used.get("at_start"),
        extra={"derived": used.get("derived", ""), "length": answer.get("length")},
    )


def handwritten(level: int, metric: str, cap: float) -> Run:
    out, wall, err = process([sys.executable, str(HANDWRITTEN), "--json", "--metric", metric, str(level)], cap)
    if out is None:
        return Run(f">{cap:g}", wall=wall)
    if not out.strip():
        return Run(f"error: {last_line(err, 'no output')}", wall=wall)
    answer = json.loads(out.splitlines()[0])
    value = answer["cost"] if metric == "both" else answer["steps"]
    return Run("solved" if value is not None else "no solution", value, answer["states"], answer["seconds"], wall)


# ---------------------------------------------------------------------------- the figures


def count(n: int | None) -> str:
    return "-" if n is None else f"{n:,}"


def secs(value: float | None, run: Run) -> str:
    if value is None:
        return run.status if run.status.startswith(">") else "-"
    return f"{value:.2f}"


def shown(value: object) -> str:
    if isinstance(value, list):
        return "(" + ", ".join(str(v) for v in value) + ")"
    return "-" if value is None else str(value)


def checked(mine: Run, hand: Run, level: int, metric: str, wrong: list[str], unanswered: list[str]) -> str:
    """puzint's answer, and a loud line where it is not the hand-written solver's."""
    for who, run in (("puzint", mine), ("hand-written", hand)):
        if run.answer is None:
            what = f"level {level} {metric}: {who} {run.status}"
            stopped = run.status.startswith(">") or run.status == "limit"  # its cap, or puzint's state limit
            (unanswered if stopped else wrong).append(what)
    if mine.answer is None or hand.answer is None:
        return shown(mine.answer) if mine.answer is not None else mine.status
    if mine.answer != hand.answer:
        line = f"level {level} {metric}: puzint {shown(mine.answer)}, hand-written {shown(hand.answer)}"
        wrong.append(line)
        print(f"!!! MISMATCH {line}", file=sys.stderr, flush=True)
        return f"**{shown(mine.answer)} (hand-written {shown(hand.answer)})**"
    return shown(mine.answer)


def ratio(a: float | None, b: float | None) -> str:
    if a is None or b is None or b <= 0:
        return "-"
    return f"{a / b:.1f}"


def levels_of(text: str) -> list[int]:
    """`1-40,50,60` as the level numbers it names, in order, each once."""
    numbers: list[int] = []
    for part in re.split(r"[,\s]+", text.strip()):
        if not part:
            continue
        low, _, high = part.partition("-")
        first, last = int(low), int(high or low)
        numbers += [n for n in range(first, last + 1) if n not in numbers]
    bad = [n for n in numbers if not 1 <= n <= LEVELS]
    if bad:
        raise SystemExit(f"no such level: {bad} (Microban's are 1-{LEVELS})")
    return numbers


def covered(numbers: list[int]) -> str:
    if numbers == list(range(1, LEVELS + 1)):
        return f"all {LEVELS} levels"
    return f"{len(numbers)} of the {LEVELS} levels only: {spans(numbers)}"


def spans(numbers: list[int]) -> str:
    out: list[str] = []
    for n in sorted(numbers):
        if out and out[-1][1] == n - 1:
            out[-1] = (out[-1][0], n)
        else:
            out.append((n, n))  # type: ignore[arg-type]
    return ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in out)  # type: ignore[misc]


def summary(metric: str, runs: list[tuple[int, Run, Run]]) -> list[str]:
    """Totals over the levels both answered within their caps."""
    both = [(n, p, h) for n, p, h in runs if p.seconds is not None and h.seconds is not None]
    lines = [f"**{metric}**: {len(both)} of {len(runs)} levels answered by both within their caps"]
    stopped = [
        f"{n} ({'puzint' if p.seconds is None else 'hand-written'})"
        for n, p, h in runs
        if p.seconds is None or h.seconds is None
    ]
    if stopped:
        lines.append(f"{metric}: not answered: " + ", ".join(stopped))
    if not both:
        return lines
    p_wall = sum(p.wall or 0 for _, p, _ in both)
    h_wall = sum(h.wall or 0 for _, _, h in both)
    p_secs = sum(p.seconds or 0 for _, p, _ in both)
    h_secs = sum(h.seconds or 0 for _, _, h in both)
    p_states = sum(p.states or 0 for _, p, _ in both)
    h_states = sum(h.states or 0 for _, _, h in both)
    engines: dict[str, int] = {}
    for _, p, _ in both:
        engines[p.engine or "-"] = engines.get(p.engine or "-", 0) + 1
    guided = sum(1 for _, p, _ in both if "derived" in p.heuristic)
    lines.append(
        f"{metric}: puzint {p_wall:.1f} s of wall ({p_secs:.1f} s of search, {p_states:,} states); "
        f"hand-written {h_wall:.1f} s of wall ({h_secs:.1f} s of search, {h_states:,} states); "
        f"puzint / hand-written: {ratio(p_wall, h_wall)} (wall), {ratio(p_secs, h_secs)} (search)"
    )
    lines.append(
        f"{metric}: the derived tables guided {guided} of {len(both)}; answered by "
        + ", ".join(f"{name} {k}" for name, k in sorted(engines.items()))
    )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--levels", default=f"1-{LEVELS}", help="the levels (e.g. 1-40,50,60)")
    parser.add_argument("--metrics", default="moves,pushes,both", help="the metrics (moves, pushes, both)")
    parser.add_argument("--cap", type=float, default=CAP, help="seconds a puzint run may take")
    parser.add_argument("--hand-cap", type=float, default=HAND_CAP, help="seconds the hand-written solver may take")
    parser.add_argument("--puzint-args", default="", help="more arguments for each puzint run ('--engine compiled')")
    parser.add_argument("--output", type=Path, default=DOCS, help="the page written (default docs/...)")
    parser.add_argument("--no-docs", action="store_true", help="print the tables only, write no page")
    options = parser.parse_args()
    numbers = levels_of(options.levels)
    metrics = [m for m in options.metrics.split(",") if m]
    unknown = [m for m in metrics if m not in METRICS]
    if unknown:
        parser.error(f"--metrics: {unknown}: each one of {', '.join(METRICS)}")
    extra = options.puzint_args.split()

    wrong: list[str] = []
    unanswered: list[str] = []
    header = ["level", "metric", "answer", "states", "s", "wall", "engine", "method", "heuristic"]
    header += ["hand states", "hand s", "hand wall", "ratio wall"]
    rows: list[list[str]] = []
    per_metric: dict[str, list[tuple[int, Run, Run]]] = {m: [] for m in metrics}
    for n in numbers:
        for metric in metrics:
            mine = puzint(n, metric, options.cap, extra)
            hand = handwritten(n, metric, options.hand_cap)
            per_metric[metric].append((n, mine, hand))
            answer = checked(mine, hand, n, metric, wrong, unanswered)
            row = [str(n), metric, answer, count(mine.states), secs(mine.seconds, mine), secs(mine.wall, mine)]
            row += [mine.engine or "-", mine.method or "-", mine.heuristic or "-"]
            row += [count(hand.states), secs(hand.seconds, hand), secs(hand.wall, hand), ratio(mine.wall, hand.wall)]
            rows.append(row)
            print(" | ".join(row), file=sys.stderr, flush=True)

    print(f"\nMicroban: {covered(numbers)}; metrics {', '.join(metrics)}")
    table(header, rows, left=3)
    totals = [line for metric in metrics for line in summary(metric, per_metric[metric])]
    for line in totals:
        print(line)
    if unanswered:
        print("\nstopped at a cap or the state limit: " + "; ".join(unanswered))
    if wrong:
        print("\n!!! ANSWERS THAT DISAGREE (OR FAILED):\n  " + "\n  ".join(wrong))
    if not options.no_docs:
        text = page(options, numbers, metrics, header, rows, totals, wrong, unanswered)
        options.output.write_text(text, encoding="utf-8")
        print(f"\nwritten: {options.output}")
    sys.exit(1 if wrong else 0)


def page(
    options: argparse.Namespace,
    numbers: list[int],
    metrics: list[str],
    header: list[str],
    rows: list[list[str]],
    totals: list[str],
    wrong: list[str],
    unanswered: list[str],
) -> str:
    argv = " ".join(sys.argv[1:])
    today = datetime.date.today().isoformat()
    out = ["# Performance: Sokoban (Microban) with no heuristic written", ""]
    if wrong:
        out += ["**Answers that disagree with the hand-written solver, or failed:**", ""]
        out += [f"- **{w}**" for w in wrong] + [""]
    out += [
        f"**Covers {covered(numbers)}** of Microban, in the metrics {', '.join(metrics)}; generated by",
        f"`python benchmarks/report_sokoban.py {argv}`".rstrip() + f" on {today}, on a machine with",
        f"{os.cpu_count()} cores (the load as it was). The other benchmarks are in [performance.md](performance.md).",
        "",
        "## What is measured",
        "",
        "specs/microban.puz reads level n of specs/microban.xsb (`-p n=K`) in one of three metrics",
        "(`-p metric=M`): *moves* (every step counts), *pushes* (walking costs 0, a push 1) and *both*",
        "(the fewest pushes, then the fewest moves: `cost 1, 1` compared in order). No heuristic is",
        "written in the spec: what guides the search is what puzint derives (`heuristic` in the JSON).",
        "Each puzint figure comes from one whole `python -m puzint run specs/microban.puz -p n=K -p",
        "metric=M --format json --quiet` process: *states* and *s* are the JSON's, *wall* the whole",
        "process's (its start included), *engine* and *method* what answered.",
        "*hand*: benchmarks/handwritten_sokoban.py, one process a level and metric, a plain Python",
        "solver that prunes dead squares: breadth-first over (worker, boxes) for moves, breadth-first",
        "over pushes (the worker's region named by its least square) for pushes, Dijkstra over pushes",
        "with (1, walk + 1) a push for both; its states are those it stored, its seconds its own timing",
        "of the search. Every answer is checked against the other solver's (the moves, the pushes,",
        "or (pushes, moves)). A run is stopped after",
        f'{options.cap:g} s (puzint) or {options.hand_cap:g} s (hand-written), shown as ">CAP". *ratio wall*:',
        "puzint's wall over the hand-written solver's.",
        "",
        "## Totals",
        "",
    ]
    out += [f"- {line}" for line in totals]
    if unanswered:
        out += ["", "Stopped at a cap or at puzint's default state limit (10 million stored):", ""]
        out += [f"- {line}" for line in unanswered]
    out += ["", "## Per level and metric", ""]
    out += [
        "| " + " | ".join(header) + " |",
        "|" + "|".join("---" if i < 3 else "--:" for i in range(len(header))) + "|",
    ]
    out += ["| " + " | ".join(row) + " |" for row in rows]
    out += [""]
    return "\n".join(out)


if __name__ == "__main__":
    main()
