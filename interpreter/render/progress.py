"""A status line while a search runs longer than about half a second, on a terminal only:
the engine that searches, the states explored, how deep (or how costly) the search has
gone, the rate, the time and the memory. A pipe or a file gets nothing, so that output
stays the same wherever it goes."""

from __future__ import annotations

import time
from collections.abc import Callable
from types import TracebackType

from rich.console import Console
from rich.status import Status
from rich.text import Text

from ..escapes import visible
from ..search.limits import rss_mb

DELAY = 0.5  # seconds before the line appears: most searches are over by then
EVERY = 0.1  # seconds between updates


class SearchProgress:
    """Called by the limits at every poll (`limits.progress = SearchProgress(console)`)."""

    def __init__(self, console: Console, clock: Callable[[], float] | None = None):
        self.console = console
        self.clock = clock or time.monotonic
        self.started = self.clock()
        self.shown_at = 0.0
        self.status: Status | None = None

    def __call__(self, states: int, at: str, engine: str = "") -> None:
        if not self._due():
            return
        elapsed = self.shown_at - self.started
        parts = [f"searching ({engine}): {states:,} states" if engine else f"searching: {states:,} states"]
        if at:
            parts.append(at)
        parts.append(f"{states / elapsed:,.0f} states/s")
        parts.append(f"{elapsed:.1f} s")
        memory = rss_mb()
        if memory:
            parts.append(f"{memory:,.0f} MB")
        self._show(" · ".join(parts))

    def say(self, text: str) -> None:
        """A line of the caller's own (what a check's processes run), at the pace of the search's."""
        if self._due():
            self._show(text)

    def _due(self) -> bool:
        """Whether the line is shown now: after `DELAY`, then every `EVERY` seconds."""
        now = self.clock()
        if now - self.started < DELAY or now - self.shown_at < EVERY:
            return False
        self.shown_at = now
        return True

    def notice(self, text: str) -> None:
        """Say at once what the run is doing besides searching (compiling the kernel)."""
        self._show(text)
        self.shown_at = self.clock()

    def _show(self, line: str) -> None:
        """The line as written: not read as rich's markup, control characters escaped."""
        shown = Text(visible(line))
        if self.status is None:
            self.status = self.console.status(shown)
            self.status.start()
        else:
            self.status.update(shown)

    def line(self) -> str | None:
        """What the status line says now (for tests)."""
        return str(self.status.status) if self.status is not None else None

    def stop(self) -> None:
        if self.status is not None:
            self.status.stop()
            self.status = None

    def __enter__(self) -> SearchProgress:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.stop()
