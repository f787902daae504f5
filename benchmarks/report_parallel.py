"""Timing report for the workers engine: a `search all` count on one core (the kernel) and on
1, 2, ... Dask workers started here, in one run, as ratios to the one-core kernel.

    python benchmarks/report_parallel.py [--n 14] [--workers 1,2] [--spec number_circle]

Each row is a fresh `puzint run ... --count --format json` process, timed from outside (the
workers' start, their loading of the kernel and the split included: what a user waits for),
with the count checked equal to the one-core run's. The workers' own peak memory comes from
the JSON (`workers.peak_mb_per_worker`); the driver's from its process.
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


def timed(argv: list[str]) -> tuple[float, dict[str, object], float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "puzint", "run", *argv, "--count", "--format", "json", "--quiet"],
        capture_output=True,
        text=True,
        check=True,
    )
    seconds = time.monotonic() - started
    peak = max(before, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024
    return seconds, json.loads(done.stdout), peak


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__)
    options.add_argument("--spec", default="number_circle")
    options.add_argument("--n", default="14")
    options.add_argument("--workers", default="1,2")
    args = options.parse_args()
    spec = str(ROOT / "specs" / f"{args.spec}.puz")
    base = [spec, "-p", f"n={args.n}"]
    seconds, alone, peak = timed([*base, "--engine", "compiled"])
    rows = [["one core (kernel)", f"{alone['count']:,}", f"{seconds:.1f}", "1.00", f"{peak:.0f}", "-"]]
    for count in (int(w) for w in args.workers.split(",")):
        took, found, driver = timed([*base, "--workers", str(count)])
        assert found["count"] == alone["count"], (found["count"], alone["count"])
        stats = found.get("workers", {})
        assert isinstance(stats, dict)
        memory = stats.get("peak_mb_per_worker", {})
        assert isinstance(memory, dict)
        most = max(memory.values(), default=0.0)
        rows.append(
            [
                f"{count} worker(s)",
                f"{found['count']:,}",
                f"{took:.1f}",
                f"{seconds / took:.2f}",
                f"{driver:.0f}",
                f"{most:.0f}",
            ]
        )
    print(f"{args.spec} n={args.n}, `--count`, wall seconds (workers' start included)\n")
    table(["run", "solutions", "seconds", "speed-up", "driver MB", "MB per worker"], rows)


if __name__ == "__main__":
    main()
