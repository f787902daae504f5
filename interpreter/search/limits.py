"""Limits on a run (states, seconds, memory; Ctrl-C and SIGTERM), so that a search that is too
large stops cleanly and reports what it explored.

Two mechanisms, because neither is enough alone:

- Searches poll `check(states)` after every `CHECK_EVERY` states *generated* (not expanded:
  a state with thousands of successors must not carry a search thousands of states past
  its limit), and sooner as the state limit nears. This is how the state limit is kept,
  and the time and memory limits too when nothing else watches.
- `armed()` watches the clock and the process's memory from a timer signal, every `TICK`
  seconds, wherever the run is: reading, elaborating, compiling, inside one long expansion.
  It also turns SIGTERM into a clean stop. A stop that comes while C code has called back
  into Python (LLVM into numba, while the kernel compiles: `UNINTERRUPTIBLE`) is raised at
  the next tick instead: ctypes would print and swallow an exception raised there, and the
  compiler would go on half done. The command line arms it around loading and
  searching; library callers may arm it too (it needs the main thread and POSIX timers, and
  falls back to polling alone without them).

The time limit counts from the moment the limits were made, so reading and compiling count.
A limit is raised as `LimitReached`, a BaseException: a broad `except Exception` somewhere
cannot swallow it. The timer raises it once; after that every poll raises it again at once,
so a run with several searches stops at its next check.
"""

from __future__ import annotations

import _weakrefset
import gc
import math
import signal
import sys
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import CodeType, FrameType

CHECK_EVERY = 2048
TICK = 0.05
DEFAULT_MAX_STATES = 10_000_000
UNINTERRUPTIBLE: set[CodeType] = set()  # functions that C calls back into (kernel.compiling.jit adds LLVM's)
_WEAKREF_FILES = {weakref.__file__, _weakrefset.__file__}


class LimitReached(BaseException):
    """Raised inside a run; a search catches it and reports status "limit"."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def state_limit(cap: int) -> str:
    """What a search stopped at `cap` stored states says."""
    return f"state limit of {cap:,} reached"


def stop_reason(exc: BaseException) -> str:
    """Why a search was stopped, for its report."""
    return exc.reason if isinstance(exc, LimitReached) else "interrupted"


try:
    import resource
except ImportError:  # not on every platform (Windows): the memory limit then cannot be kept
    resource = None  # type: ignore[assignment]

MEMORY_WATCHED = resource is not None
ADDRESS_SPACE_SHARE = 0.6  # of a process's address-space limit (`ulimit -v`), the part its memory may take


def _default_max_memory_mb() -> float:
    """8 GB, or less where the process may not address that much (`ulimit -v`): the memory
    watched is the resident memory, which stays well below the address space the process
    maps (its libraries, the compiler's, the threads' stacks), so that a search stops at this
    limit, cleanly, before an allocation fails."""
    most = 8192.0
    if resource is None:
        return most
    try:
        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    except (ValueError, OSError, AttributeError):
        return most
    if soft == resource.RLIM_INFINITY or soft <= 0:
        return most
    return min(most, float(int(soft / (1024 * 1024) * ADDRESS_SPACE_SHARE)))


DEFAULT_MAX_MEMORY_MB = _default_max_memory_mb()


def rss_mb() -> float:
    if resource is None:
        return 0.0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


@dataclass
class Limits:
    """`max_states`: states a search may store (the default, 10 million, applies to searches
    that store states); given explicitly, it also bounds the states visited by depth-first
    walks that store none (all solutions, IDA*)."""

    max_states: int | None = None
    timeout: float | None = None
    max_memory_mb: float | None = DEFAULT_MAX_MEMORY_MB if MEMORY_WATCHED else None
    started: float = field(default_factory=time.monotonic)
    tripped: str | None = None
    progress: Callable[[int, str, str], None] | None = None  # (states, "depth 12", engine): told at every poll
    engine: str = ""  # the engine that searches now, for the progress line
    notice: Callable[[str], None] | None = None  # what the run is doing besides searching, shown at once
    pending: Callable[[], None] | None = field(default=None, repr=False)  # a stop that came inside a callback
    until: Callable[[], str | None] | None = field(default=None, repr=False)  # a try's own end: why, or None

    def __post_init__(self) -> None:
        for name in ("max_states", "timeout", "max_memory_mb"):
            value = getattr(self, name)
            if value is not None and (not math.isfinite(value) or value <= 0):
                raise ValueError(f"{name} must be a positive number, got {value!r}")

    @property
    def at_default_cap(self) -> bool:
        """Whether the run stopped at the default room for states (no --max-states given)."""
        return self.max_states is None and self.tripped == state_limit(DEFAULT_MAX_STATES)

    @property
    def stored_cap(self) -> int:
        return self.max_states if self.max_states is not None else DEFAULT_MAX_STATES

    def check(self, states: int, stored: bool = True, at: str = "") -> int:
        """Raise LimitReached if the run has gone past a limit; else return how many more
        states the search may make before it checks again (so that it stops at the state
        limit itself, give or take one state's successors). `stored`: the states are kept
        in memory (so the default state limit applies), rather than only visited."""
        if self.pending is not None:
            self._stop(None, self.pending)
        if self.tripped is not None:
            raise LimitReached(self.tripped)
        if self.progress is not None:
            self.progress(states, at, self.engine)
        cap = self.stored_cap if stored else self.max_states
        if cap is not None and states >= cap:
            self.trip(state_limit(cap))
        reason = self.exceeded()
        if reason is not None:
            self.trip(reason)
        return CHECK_EVERY if cap is None else max(1, min(CHECK_EVERY, cap - states))

    def exceeded(self) -> str | None:
        """The time or memory limit that has been passed, if any, or the reason a try ends
        (`until`: the runner's first try ends once the kernel is ready to take over)."""
        if self.until is not None:
            reason = self.until()
            if reason is not None:
                return reason
        if self.timeout is not None and time.monotonic() - self.started > self.timeout:
            return f"time limit of {self.timeout:g} s reached"
        if self.max_memory_mb is not None and rss_mb() > self.max_memory_mb:
            return f"memory limit of {self.max_memory_mb:g} MB reached"
        return None

    def trip(self, reason: str) -> None:
        self.tripped = reason
        raise LimitReached(reason)

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    @contextmanager
    def armed(self, first_tick: float = TICK, every: float = TICK) -> Iterator[None]:
        """Watch time and memory from a timer signal, and stop cleanly on SIGTERM, for the
        duration of the block (on POSIX, in the main thread; elsewhere polling only). The
        first tick comes after `first_tick` seconds (the race forks its copies at one), the
        others every `every` seconds."""
        if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
            yield
            return

        def on_tick(signum: int, frame: FrameType | None) -> None:
            if self.pending is not None:
                self._stop(frame, self.pending)
            elif self.tripped is None:
                reason = self.exceeded()
                if reason is not None:
                    reason = said_where(reason, frame)
                    self.tripped = reason
                    self._stop(frame, _raising(LimitReached(reason)))

        def on_term(signum: int, frame: FrameType | None) -> None:
            if self.tripped is None:
                self.tripped = "stopped by SIGTERM"
                self._stop(frame, _raising(LimitReached(self.tripped)))

        interrupt = signal.getsignal(signal.SIGINT)  # Python's (KeyboardInterrupt) or the caller's own

        def on_interrupt(signum: int, frame: FrameType | None) -> None:
            self._stop(frame, lambda: interrupt(signum, None))  # type: ignore[operator,misc]

        previous_alarm = signal.signal(signal.SIGALRM, on_tick)
        previous_term = signal.signal(signal.SIGTERM, on_term)
        previous_interrupt = (
            signal.signal(signal.SIGINT, on_interrupt) if callable(interrupt) else None
        )  # not if ignored
        signal.setitimer(signal.ITIMER_REAL, first_tick, every)
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous_alarm)
            signal.signal(signal.SIGTERM, previous_term)
            if previous_interrupt is not None and signal.getsignal(signal.SIGINT) is on_interrupt:
                signal.signal(signal.SIGINT, previous_interrupt)
            self.pending = None

    def _stop(self, frame: FrameType | None, stop: Callable[[], None]) -> None:
        """Stop now (`stop()` raises: a limit, SIGTERM, Ctrl-C as the SIGINT handler armed()
        found raises it), or, where the signal came inside a function that C called back
        into, keep it for the next tick or poll."""
        if _called_back(frame):
            self.pending = stop
            return
        self.pending = None
        stop()


COMPILING_METHOD = "compiling the search kernel"  # a result's method where a limit came before any search

COMPILING = " while numba compiled the kernel (once: a second run loads it compiled, and searches at once)"


def said_where(reason: str, frame: FrameType | None) -> str:
    """A limit's reason, with where the time went when it came while numba compiled the
    kernel (its compiler's frames on the stack: a first run of a search the cache does not
    hold yet), so that a stop with nothing searched is not read as a search that found nothing."""
    compiler = getattr(sys.modules.get("numba.core.compiler"), "__file__", None)  # never imported here
    while compiler is not None and frame is not None:
        if frame.f_code.co_filename == compiler:
            return reason + COMPILING
        frame = frame.f_back
    return reason


def _raising(error: BaseException) -> Callable[[], None]:
    def stop() -> None:
        raise error

    return stop


def _called_back(frame: FrameType | None) -> bool:
    """Whether `frame` runs inside one of the UNINTERRUPTIBLE functions, a garbage collector's
    callback (`gc.callbacks`: a library's, such as hypothesis's), a finaliser (`__del__`) or
    the weak-reference machinery (a WeakSet's or WeakValueDictionary's callback runs whenever
    an object dies): Python would print an exception raised there and swallow it as well."""
    collector = {getattr(callback, "__code__", None) for callback in gc.callbacks}
    while frame is not None:
        code = frame.f_code
        if code in UNINTERRUPTIBLE or code in collector or code.co_name == "__del__":
            return True
        if code.co_filename in _WEAKREF_FILES:
            return True
        frame = frame.f_back
    return False
