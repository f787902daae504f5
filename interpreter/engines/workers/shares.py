"""What a worker runs for a breadth-first search spread over the workers
(`engines.workers.layers_across`): its share of the states (`kernel.searches.partition.Share`),
kept in the worker process from one task to the next under the run's name, and the tasks
that expand its layer, take in what the other shares sent it, and give a state's parent.
Plain data in and out (the spec's text, packed words, arrays), so that any worker of a
cluster runs them."""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Sequence
from dataclasses import dataclass

from ...kernel.searches.partition import Bucket, LayerReport, Share
from ...search.limits import rss_mb
from .subtrees import Job, compiled_for

_SHARES: dict[tuple[str, int], Share] = {}


@dataclass
class Expanded:
    """A share's children, one bucket for each share (the one it sends there), and what
    stopped the expansion early (a time or memory limit)."""

    buckets: list[Bucket]
    stopped: str | None = None
    seconds: float = 0.0  # the expansion's


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def open_share(job: Job, run: str, part: int, parts: int, counting: bool, orbits: bool) -> str:
    """Share `part` of `parts` of the run's states, made here (holding the start, if it is
    this share's); the worker's name."""
    _SHARES[(run, part)] = Share(compiled_for(job), part, parts, counting, orbits)
    return worker_name()


def expand_share(run: str, part: int, budget: tuple[float | None, float | None]) -> Expanded:
    """The share's layer expanded, within its budget: the seconds left and the memory (MB) the
    worker process may take."""
    seconds, max_mb = budget
    started = time.monotonic()

    def stop() -> str | None:
        if seconds is not None and time.monotonic() - started > seconds:
            return "time limit"
        if max_mb is not None and rss_mb() > max_mb:
            return f"memory limit of {max_mb:g} MB reached on the worker {worker_name()}"
        return None

    buckets, stopped = _SHARES[(run, part)].expand(stop)
    return Expanded(buckets, stopped, time.monotonic() - started)


def pick(expanded: Expanded, part: int) -> Expanded:
    """What an expanded share sends to share `part` (run where it was expanded, so that only
    that bucket travels)."""
    return Expanded([expanded.buckets[part]], expanded.stopped, expanded.seconds)


@dataclass
class Absorbed:
    """A share's part of a layer (`LayerReport`), with the bytes it received from the other
    shares and what stopped one of them."""

    report: LayerReport
    received: int = 0
    stopped: str | None = None
    seconds: float = 0.0  # taking in
    expanding: float = 0.0  # this share's expansion, before


def absorb_share(run: str, part: int, room: int, *sent: Expanded) -> Absorbed:
    """What every share sent this one, taken in: its next layer (at most `room` new states)."""
    started = time.monotonic()
    share = _SHARES[(run, part)]
    buckets: Sequence[Bucket] = [e.buckets[0] for e in sent]
    stopped = next((e.stopped for e in sent if e.stopped is not None), None)
    report = share.absorb(buckets, room)
    report.memory_mb = rss_mb()
    received = sum(sum(a.nbytes for a in e.buckets[0]) for p, e in enumerate(sent) if p != part)
    return Absorbed(report, received, stopped, time.monotonic() - started, sent[part].seconds)


def state_in_share(run: str, part: int, number: int) -> tuple[int, int | None]:
    """State number `number` of this share, and its parent's reference (None: the start)."""
    return _SHARES[(run, part)].at(number)


def in_layer_of_share(run: str, part: int, depth: int, states: list[int]) -> int | None:
    """The first of these states of this share that is in layer `depth` (None: none is)."""
    return _SHARES[(run, part)].in_layer(depth, states)


def close_share(run: str, part: int) -> None:
    _SHARES.pop((run, part), None)
