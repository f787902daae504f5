"""The runner's first try of a search in Python, before a faster engine takes it over: where
the race (`race`) cannot be run (one core, no fork).

A small search ends in Python before the kernel (or OR-tools) could even be loaded; a large
one should reach the fast engine soon. So the try lasts a fraction of a second, and only
then is the next engine chosen (asking the engines whether they can answer costs a tenth of
a second on some puzzles: a small search should not pay it). Where no other engine answers,
the try simply goes on to the end. Where the next is the kernel and its code is not in its
cache yet, it must first be compiled (about a minute, once): the try goes on while a
background process compiles it (see `background`), and ends when that process does.
Without a cache to compile into, the try lasts a few seconds more, and the kernel is
compiled in this process after it.

The choice is made in a timer thread, while the search in the main thread waits for it at
its next poll (the two would only slow each other down; a wait is bounded, so that the
thread cannot hold the search up for long, whatever it waits for itself). The try
runs under a copy of the run's limits: the run's own limits (time, states, memory, SIGTERM)
still hold in it, and a stop that is the run's, not the try's, is the run's from then on
(no later engine runs).
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Protocol

from ..search import Limits
from .background import BackgroundCompile

SECONDS_NO_CACHE = 3.0  # ... where the kernel would be compiled in this process first
CHOOSING = 2.0  # at most this long the search waits for the choice, once (then it goes on meanwhile)


@dataclass(frozen=True)
class Next:
    """The engine that takes a search over after the try (None: none, Python goes on), and,
    where it must be compiled first, how to compile it in the background (None: no need,
    or no way: then `wait` seconds more)."""

    engine: str | None
    compile: Callable[[], BackgroundCompile] | None = None
    wait: float = 0.0


class Timer(Protocol):
    def start(self) -> None: ...

    def cancel(self) -> None: ...


def thread_timer(seconds: float, then: Callable[[], None]) -> Timer:
    """`then` in a thread of its own, `seconds` from its start (unless cancelled first)."""
    timer = threading.Timer(seconds, then)
    timer.daemon = True
    return timer


class FirstTry:
    """A try of at least `seconds`, after which `choose` says what comes next. `clock` and
    `timer` are time.monotonic and a thread's timer; a test gives its own, so that it never
    waits on the time passing."""

    def __init__(
        self,
        run: Limits,
        seconds: float,
        choose: Callable[[], Next],
        clock: Callable[[], float] = time.monotonic,
        timer: Callable[[float, Callable[[], None]], Timer] = thread_timer,
    ):
        self.run = run
        self.seconds = seconds
        self.clock = clock
        self.started = clock()
        self.next: Next | None = None  # chosen when the try's seconds are up
        self.compiling: BackgroundCompile | None = None
        self.reason: str | None = None
        own = run.until
        self.limits = dataclasses.replace(
            run, tripped=None, pending=None, until=self._over if own is None else lambda: own() or self._over()
        )
        self._chosen = threading.Event()
        self._waited = False
        self._timer = timer(seconds, lambda: self._choose(choose))

    def _choose(self, choose: Callable[[], Next]) -> None:
        try:
            chosen = choose()
        except Exception:  # an engine's question failed: Python, the reference, goes on alone
            chosen = Next(None)
        try:
            if chosen.compile is not None:
                try:
                    self.compiling = chosen.compile()
                except OSError:  # no process to be had: compiled here, after a few seconds more
                    chosen = Next(chosen.engine, wait=SECONDS_NO_CACHE - self.seconds)
        finally:
            self.next = chosen
            self._chosen.set()

    def _over(self) -> str | None:
        """Why the try ends now, or None (called by the limits at each poll and tick)."""
        if self.reason is None:
            self.reason = self._why_over()
        return self.reason

    def _why_over(self) -> str | None:
        waited = self.clock() - self.started
        if waited < self.seconds:
            return None
        if not self._waited:  # the search pauses (once) while the choice is made: it may be wasted
            self._waited = True
            self._chosen.wait(CHOOSING)
        chosen = self.next
        if chosen is None or chosen.engine is None:
            return None
        if self.compiling is not None:
            if self.compiling.running():
                return None
            return f"not finished in {waited:.1f} s, while the kernel was compiled in the background"
        if waited < self.seconds + chosen.wait:
            return None
        return f"not finished in {self.seconds + chosen.wait:g} s"

    def stopped_by_itself(self, stopped: bool) -> bool:
        """Whether the try ended by its own end (not at the run's limits)."""
        return stopped and self.reason is not None and self.limits.tripped == self.reason

    @contextmanager
    def watched(self) -> Iterator[None]:
        """The try's own end, watched by a timer as the run's limits are (a search that polls
        rarely still stops in time); a stop that is the run's is passed on to it."""
        self._timer.start()
        try:
            with self.limits.armed():
                yield
        finally:
            self._timer.cancel()
            tripped = self.limits.tripped
            if tripped is not None and tripped != self.reason and self.run.tripped is None:
                self.run.tripped = tripped
