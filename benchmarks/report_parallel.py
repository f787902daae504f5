"""Timing report for the workers engine: a search on one core (the kernel) and on 1, 2, ...
Dask workers started here, in one run, as ratios to the one-core kernel.

    python benchmarks/report_parallel.py [--spec number_circle] [-p n=14] [--ask count] [--workers 1,2]
    python benchmarks/report_parallel.py --spec peg_english --ask reach --workers 2
    python benchmarks/report_parallel.py --spec amida -p bottom=random -p n=11 --ask reach

`--ask count` on a `search all` spec is the depth-first walk split into subtrees; `--ask reach`
(or `count` on a spec that searches for the shortest solution) runs breadth-first layers
shared among the workers. Each row is a fresh `puzint run ... --format json` process, timed
from outside (the workers' start, their loading of the kernel included: what a user waits
for), its answer checked equal to the one-core run's. The workers' own figures come from
the JSON (`workers`: peak memory, seconds busy, megabytes sent between them); "largest
process MB" is the peak of the largest process the run started (the one process on one core;
with workers, the driver or a worker).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.tables import table  # noqa: E402

ANSWER = ("count", "count_in_all", "reachable", "depth", "length", "reachable_up_to_symmetry")


def timed(argv: list[str]) -> tuple[float, dict[str, object], float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "puzint", "run", *argv, "--format", "json", "--quiet"],
        capture_output=True,
        text=True,
        check=False,
    )
    seconds = time.monotonic() - started
    if done.returncode != 0:
        stopped = json.loads(done.stdout).get("limit") if done.stdout.startswith("{") else done.stderr.strip()
        sys.exit(f"puzint {' '.join(argv)}: exit {done.returncode}: {stopped}")
    peak = max(before, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024
    return seconds, json.loads(done.stdout), peak


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    options.add_argument("--spec", default="number_circle")
    options.add_argument("-p", dest="params", action="append", help="a parameter, NAME=VALUE")
    options.add_argument("--ask", choices=("count", "reach"), default="count")
    options.add_argument("--workers", default="1,2")
    options.add_argument("--max-states", default="1000000000")
    args = options.parse_args()
    params = args.params or []
    base = [str(ROOT / "specs" / f"{args.spec}.puz"), f"--{args.ask}", "--max-states", args.max_states]
    for param in params:
        base += ["-p", param]
    seconds, alone, peak = timed([*base, "--engine", "compiled"])
    answer = {key: alone.get(key) for key in ANSWER if alone.get(key) is not None}
    rows = [["one core (kernel)", f"{seconds:.1f}", "1.00", f"{peak:.0f}", "-", "-", "-"]]
    for count in (int(w) for w in args.workers.split(",")):
        took, found, driver = timed([*base, "--workers", str(count)])
        assert {key: found.get(key) for key in answer} == answer, (found, answer)
        stats = found.get("workers", {})
        assert isinstance(stats, dict)
        memory = stats.get("peak_mb_per_worker", {})
        busy = stats.get("busy_seconds_per_worker", {})
        assert isinstance(memory, dict) and isinstance(busy, dict)
        rows.append(
            [
                f"{count} worker(s)",
                f"{took:.1f}",
                f"{seconds / took:.2f}",
                f"{driver:.0f}",
                f"{max(memory.values(), default=0.0):.0f}",
                ", ".join(f"{b:.0f}" for b in busy.values()) or "-",
                f"{stats.get('sent_between_workers_mb', '-')}",
            ]
        )
    said = ", ".join(
        f"{key} {value:,}" if isinstance(value, int) else f"{key} {value}" for key, value in answer.items()
    )
    print(f"{args.spec} {' '.join(params)}, `--{args.ask}`: {said}; wall seconds (the workers' start included)\n")
    table(["run", "seconds", "speed-up", "largest process MB", "MB per worker", "busy s", "MB sent"], rows)


if __name__ == "__main__":
    main()
