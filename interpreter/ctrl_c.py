"""Ctrl-C for a command: the first stops the run where it is, later ones change nothing."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


class CtrlC:
    """Ctrl-C (SIGINT) stops a run once. The first raises KeyboardInterrupt where the run is
    (a search stops there and reports what it explored); from then on, and from the moment
    the search is over (`quiet`), SIGINT is ignored: the report is printed whole and the
    command exits with 3, instead of dying in the middle of a line or at exit with a
    traceback. Ignored by the system (SIG_IGN), not by a handler that returns: a signal
    caught while a large write waits on a full pipe makes Python drop the rest of that
    write without a word."""

    def __init__(self) -> None:
        self.heard = False

    def __call__(self, signum: int, frame: object) -> None:
        self.heard = True
        self.quiet()
        raise KeyboardInterrupt

    def quiet(self) -> None:
        """From now on a Ctrl-C changes nothing: the run is reporting."""
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGINT, signal.SIG_IGN)

    def install(self) -> Any:
        """Handle SIGINT (in the main thread only, where Python delivers it); the handler
        it replaces, to be put back."""
        if threading.current_thread() is not threading.main_thread():
            return None
        return signal.signal(signal.SIGINT, self)

    @contextmanager
    def installed(self) -> Iterator[CtrlC]:
        previous = self.install()
        try:
            yield self
        finally:
            if previous is not None:
                signal.signal(signal.SIGINT, previous)

    @contextmanager
    def noted(self) -> Iterator[CtrlC]:
        """Within: the first Ctrl-C is noted (`heard`), not raised, and later ones are ignored.
        For a run that waits on other processes and asks `heard` between its waits (`puzint
        check` on several cores): a KeyboardInterrupt could only land in its own bookkeeping,
        while the searches it should stop run elsewhere."""
        if threading.current_thread() is not threading.main_thread():
            yield self
            return

        def note(signum: int, frame: object) -> None:
            self.heard = True
            self.quiet()

        previous = signal.signal(signal.SIGINT, note)
        try:
            yield self
        finally:
            if not self.heard:
                signal.signal(signal.SIGINT, previous)
