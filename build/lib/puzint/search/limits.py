"""Limits on a search (states, seconds, memory), checked cheaply every few thousand states,
so that a search that is too large stops cleanly and reports what it explored."""

from __future__ import annotations

import resource
import sys
import time
from dataclasses import dataclass, field

CHECK_EVERY = 2048


class LimitReached(Exception):
    """Raised inside a search; the search catches it and reports status "limit"."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def _rss_mb() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


@dataclass
class Limits:
    max_states: int | None = 10_000_000
    timeout: float | None = None
    max_memory_mb: float | None = 8192
    started: float = field(default_factory=time.monotonic)

    def restart(self) -> None:
        self.started = time.monotonic()

    def check(self, states: int) -> None:
        """Raise LimitReached if the search has gone past a limit."""
        if self.max_states is not None and states > self.max_states:
            raise LimitReached(f"state limit of {self.max_states:,} reached")
        if self.timeout is not None and time.monotonic() - self.started > self.timeout:
            raise LimitReached(f"time limit of {self.timeout:g} s reached")
        if self.max_memory_mb is not None and _rss_mb() > self.max_memory_mb:
            raise LimitReached(f"memory limit of {self.max_memory_mb:g} MB reached")

    def elapsed(self) -> float:
        return time.monotonic() - self.started
