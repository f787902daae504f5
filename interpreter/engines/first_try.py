"""The planner's first try of a search in Python, before the kernel takes it over.

A small search ends in Python before the kernel could even be loaded; a large one should
reach the kernel soon. So the try lasts a fraction of a second where the kernel's code is
in its cache. Where it is not, the kernel must first be compiled (half a minute, once): the
try then goes on while a background process compiles it (see `background`), and ends when
that process does. Without a cache to compile into, it lasts a few seconds, and the kernel
is compiled in this process after it.

The try runs under a copy of the run's limits: the run's own limits (time, states, memory,
SIGTERM) still hold in it, and a stop that is the run's, not the try's, is the run's from
then on (no later engine runs).
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from ..search import Limits
from ..search.result import LIMIT
from .background import BackgroundCompile

SECONDS = 0.3  # a search that Python has not finished by then goes to the kernel
SECONDS_NO_CACHE = 3.0  # ... where the kernel would be compiled in this process first


class FirstTry:
    """A try of at most `seconds`, or, where `compile` is given (the kernel is not compiled
    yet, and can be in the background), for as long as that compile takes from then on."""

    def __init__(self, run: Limits, seconds: float, compile: Callable[[], BackgroundCompile] | None = None):
        self.run = run
        self.seconds = seconds
        self.started = time.monotonic()
        self.compiling: BackgroundCompile | None = None
        self.reason: str | None = None
        self.limits = dataclasses.replace(run, tripped=None, pending=None, until=self._over)
        self._timer: threading.Timer | None = None
        if compile is not None:
            self._timer = threading.Timer(seconds, self._start, (compile,))
            self._timer.daemon = True
        self._compile = compile

    def _start(self, compile: Callable[[], BackgroundCompile]) -> None:
        try:
            self.compiling = compile()
        except OSError:  # no process to be had: the kernel is compiled here, after the try
            self._compile = None

    def _over(self) -> str | None:
        """Why the try ends now, or None (called by the limits at each poll and tick)."""
        if self.reason is None:
            self.reason = self._why_over()
        return self.reason

    def _why_over(self) -> str | None:
        waited = time.monotonic() - self.started
        if waited < self.seconds:
            return None
        if self._compile is None:
            return f"not finished in {self.seconds:g} s"
        if self.compiling is None or self.compiling.running():
            return None
        return f"not finished in {waited:.1f} s, while the kernel was compiled in the background"

    def stopped_by_itself(self, status: str) -> bool:
        """Whether the try ended by its own end (not at the run's limits)."""
        return status == LIMIT and self.reason is not None and self.limits.tripped == self.reason

    @contextmanager
    def watched(self) -> Iterator[None]:
        """The try's own end, watched by a timer as the run's limits are (a search that polls
        rarely still stops in time); a stop that is the run's is passed on to it."""
        if self._timer is not None:
            self._timer.start()
        try:
            with self.limits.armed():
                yield
        finally:
            if self._timer is not None:
                self._timer.cancel()
            tripped = self.limits.tripped
            if tripped is not None and tripped != self.reason and self.run.tripped is None:
                self.run.tripped = tripped
