"""Python and the next engine at once, in two processes: the first answer is the answer.

Nothing tells ahead of time how long a search will take. A small one ends in Python before
numba or OR-tools could even load (a few tenths of a second); a large one should have the
kernel at once. On a machine with a second core the planner need not guess: the next engine
(the kernel, CP-SAT, the fill search) runs in a forked copy of this process, forked once
Python has searched for `DELAY` seconds, while Python goes on searching here: at a tick of
its limits set for that moment (`Limits.armed`'s first tick), or at a poll after it. A
search that ends sooner (most small ones) pays nothing; a longer one pays the fork and,
where Python ends first, the copy's stop: 5-10 ms of a whole run, measured. A longer wait
costs every search the kernel answers as much: with the fork at the first tick, 0.05 s
in, queens, sudoku and send_more_money took 1.14-1.26 times the kernel's run
(docs/performance-default.md).

Python's answer, where it comes first, is the answer, and the copy is stopped. Else Python
stops once the other engine has loaded and begun its search, or has been running (loading)
for `PATIENCE` seconds, or has answered: the two share the machine's memory and caches and
would only slow each other down, and the other is then nearly always the faster. The run
then waits for its answer.

The copy is forked, not started afresh: it has the spec compiled already, so its engine
starts within a few hundredths of a second. Where the kernel's code is not in its cache, the
copy compiles it first (one compile at a time per cache, as `background` does) and says so;
a run that Python answers meanwhile leaves the copy to finish the compile, so that the next
run finds it, and never waits for it.

The copy talks through a pipe (its own, read only by this process), in frames of a length
and a pickle: the phase it is in ("compiling"; "running" with the engine's name: numba or
OR-tools loading, then the search), its progress (states, where: the first says the engine
has loaded and searches), and at the end "done" with the engine's answer, "handover" with
the reason (a value past the kernel's words: Python answers), "none" (no engine but Python
can) or "failed". It never writes to the terminal, ignores Ctrl-C (the run stops it), and
stops by itself when the run is gone.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import os
import pickle
import select
import signal
import struct
import sys
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from typing import Any

from ..search import Limits
from ..search.limits import LimitReached, stop_reason
from .base import Engine, HandOver

DELAY = 0.01  # the copy is forked once Python has searched this long (most small searches have ended)
PATIENCE = 0.3  # Python stops once the other engine has run (loading, searching) this long beside it
PROGRESS_EVERY = 0.2  # seconds between the copy's progress frames
_HEADER = struct.Struct("<Q")

Work = Callable[[Engine, Limits], Any]  # the other engine's side: its answer, to be pickled
Compile = Callable[[Callable[[], bool]], None]  # compile the engine, waiting for another compile while wanted()


_cores_shared: int | None = None  # the cores this process counts on, where it shares them (see `share_cores`)


def can_fork() -> bool:
    """Whether this process may be forked to run a search: POSIX, but not macOS, where a
    forked process may not use the system's libraries (Python's own multiprocessing does not
    fork there)."""
    return hasattr(os, "fork") and sys.platform != "darwin"


def cores() -> int:
    """The cores this process may use: those it may be scheduled on, or fewer where it is
    one of several processes of one run that share them (`share_cores`)."""
    affinity = getattr(os, "sched_getaffinity", None)
    count = len(affinity(0)) if affinity is not None else (os.cpu_count() or 1)
    return count if _cores_shared is None else min(count, _cores_shared)


def share_cores(count: int) -> None:
    """This process is one of several that one run keeps busy at once (`puzint check`'s
    workers, one a core): it counts on `count` cores, so that a race does not fork a third
    search onto cores the others use."""
    global _cores_shared
    _cores_shared = max(1, count)


def possible() -> bool:
    """Whether a race can be run here: a fork (`can_fork`), at least two cores for this
    process (on one, the two searches would only take turns), and this is not itself a
    background compile."""
    return can_fork() and "PUZINT_BACKGROUND" not in os.environ and cores() >= 2


@dataclasses.dataclass
class Outcome:
    """What the other engine said last: `kind` ("done", "handover", "none", "failed",
    "gone": its process ended without a word), the engine, and its answer or reason."""

    kind: str
    engine: str = ""
    answer: Any = None
    why: str = ""


class Race:
    """The other engine in a forked copy of this process (see the module's docstring), and
    the limits of Python's side, which end Python's search when the other is ahead."""

    def __init__(
        self,
        run: Limits,
        choose: Callable[[], Engine | None],
        compile_first: Callable[[Engine], Compile | None],
        work: Work,
    ):
        self.run = run
        self.limits = dataclasses.replace(run, tripped=None, pending=None, until=self._over)
        self.reason: str | None = None  # why Python's side stopped, where it stopped by itself
        self.phase = "starting"  # starting, compiling, loading, searching, sending
        self.engine = ""
        self.running_since: float | None = None
        self.states, self.at = 0, ""
        self.outcome: Outcome | None = None
        self._buffer = bytearray()
        self._busy = False
        self._begun = time.monotonic()
        self._sides = (choose, compile_first, work)
        self._pid: int | None = None  # the copy, once forked
        self._pipe = -1
        self._unstarted = False  # no copy could be forked: Python goes on alone
        self._frozen = False  # this process's objects kept from its collector while the copy runs

    def _due(self) -> None:
        """The copy forked once Python has searched for `DELAY` seconds (a search that ends
        sooner pays nothing for the race), at a poll or a tick of its limits: a tick comes
        between two of Python's bytecodes, in the main thread, and the copy never returns
        into what was running there (it runs its engine, then exits). None is forked where
        none can be now (no process to be had, or another thread of this process is
        compiling numba code: the copy would find numba's lock taken for ever): Python goes
        on alone."""
        if self._pid is not None or self._unstarted or time.monotonic() - self._begun < DELAY:
            return
        self._frozen = _freeze()
        try:
            self._pid, self._pipe = _fork(self.run, *self._sides)
        except (OSError, NumbaBusy):
            self._unstarted = True
            self._thaw()

    # ---- Python's side

    def _over(self) -> str | None:
        """Why Python's search stops now, or None (called at each of its polls and ticks)."""
        if self.reason is None and not self._busy:
            self._busy = True  # a tick may come while a poll is in here: it waits for the next
            try:
                self._due()
                if self._pid is not None:
                    self._read(block=False)
                    self.reason = self._why_python_stops()
            finally:
                self._busy = False
        return self.reason

    def _why_python_stops(self) -> str | None:
        """Python stops where the other engine has answered, or has loaded and searches (the
        two would only slow each other down: they share the machine's memory and caches, and
        the other is nearly always the faster by then), or has been running (loading) for
        `PATIENCE` seconds."""
        outcome = self.outcome
        if outcome is not None:
            return f"{outcome.engine}, run beside it, answered first" if outcome.kind == "done" else None
        if self.phase == "sending":
            return f"{self.engine}, run beside it, answered first"
        if self.phase == "searching":
            return f"{self.engine}, run beside it, had begun its search"
        if self.running_since is None or time.monotonic() - self.running_since < PATIENCE:
            return None
        return f"not finished {PATIENCE:g} s after {self.engine}, run beside it, started"

    def ran_beside(self) -> bool:
        """Whether the copy was forked and chose or ran its engine beside Python, neither
        compiling the kernel first nor failing: then the race says which engine is faster."""
        failed = self.outcome is not None and self.outcome.kind != "done"
        return self._pid is not None and self.phase != "compiling" and not failed

    def stopped_by_itself(self, stopped: bool) -> bool:
        """Whether Python's search ended because the other engine is ahead (not at the run's
        limits)."""
        return stopped and self.reason is not None and self.limits.tripped == self.reason

    @contextlib.contextmanager
    def watched(self) -> Iterator[None]:
        """Python's side, armed as the run is, with a tick when the copy is due (`DELAY`); a
        stop that is the run's is passed on to it."""
        try:
            with self.limits.armed(first_tick=DELAY):
                yield
        finally:
            tripped = self.limits.tripped
            if tripped is not None and tripped != self.reason and self.run.tripped is None:
                self.run.tripped = tripped

    # ---- the other side

    def answer(self) -> Outcome:
        """The other engine's outcome, waited for under the run's limits (its progress shown
        as the run's); a stop of the run (time, SIGTERM, Ctrl-C) stops it and is the outcome."""
        self.run.engine = self.engine
        try:
            while self.outcome is None:
                self._read(block=True)
                self._check_run()
        except (LimitReached, KeyboardInterrupt) as exc:
            self.stop()
            return Outcome("stopped", self.engine, why=stop_reason(exc))
        self._reap()
        return self.outcome

    def _check_run(self) -> None:
        """The run's progress line and its own stops, while it waits (the state limit is the
        other engine's to keep)."""
        run = self.run
        if run.progress is not None:
            run.progress(self.states, self.at, self.engine)
        if run.tripped is not None:
            raise LimitReached(run.tripped)
        reason = run.exceeded()
        if reason is not None:
            run.trip(reason)

    def lost(self) -> None:
        """Python answered first: the other engine stops, unless it is still compiling (then
        it finishes, for the next run, and exits without searching)."""
        if self._pid is None:
            return
        self._read(block=False)
        if self.outcome is None and self.phase == "compiling":
            os.close(self._pipe)
            threading.Thread(target=_reap, args=(self._pid,), daemon=True).start()
            self._thaw()
            return
        self.stop()

    def stop(self) -> None:
        if self._pid is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.kill(self._pid, signal.SIGKILL)
        self._reap()

    def _reap(self) -> None:
        assert self._pid is not None
        with contextlib.suppress(OSError):
            os.close(self._pipe)
        _reap(self._pid)
        self._thaw()

    def _thaw(self) -> None:
        """The race is over here: this process's collector sees its older objects again."""
        if self._frozen:
            self._frozen = False
            gc.unfreeze()

    def _read(self, block: bool) -> None:
        """Take in what the other side has sent (with `block`, wait a tick for it)."""
        if self.outcome is not None:
            return
        if block:
            select.select([self._pipe], [], [], 0.05)
        while True:
            try:
                chunk = os.read(self._pipe, 1 << 20)
            except BlockingIOError:
                break
            except OSError:
                chunk = b""
            if not chunk:
                self._take_frames()
                if self.outcome is None:
                    self.outcome = Outcome("gone", self.engine, why=f"{self.engine or 'its'} process ended unanswered")
                return
            self._buffer += chunk
            if self._take_frames() and not block:
                return

    def _take_frames(self) -> bool:
        """Act on each whole frame in the buffer; whether the last frame has come."""
        while len(self._buffer) >= _HEADER.size:
            (length,) = _HEADER.unpack_from(self._buffer)
            if len(self._buffer) < _HEADER.size + length:
                if self.phase in ("loading", "searching") and self.outcome is None and length > 4096:
                    self.phase = "sending"  # the answer is on its way: Python may stop
                break
            frame = pickle.loads(bytes(self._buffer[_HEADER.size : _HEADER.size + length]))  # our own fork's pipe
            del self._buffer[: _HEADER.size + length]
            self._take(frame)
        return self.outcome is not None

    def _take(self, frame: tuple[Any, ...]) -> None:
        kind = frame[0]
        if kind == "compiling":
            self.phase = "compiling"
        elif kind == "running":
            self.phase, self.engine, self.running_since = "loading", frame[1], time.monotonic()
        elif kind == "progress":
            self.states, self.at = frame[1], frame[2]
            if self.phase == "loading":  # the engine's first poll: loaded, and searching
                self.phase = "searching"
        elif kind == "done":
            self.outcome = Outcome("done", frame[1], answer=frame[2])
        else:
            self.outcome = Outcome(kind, self.engine, why=frame[1] if len(frame) > 1 else "")


class NumbaBusy(Exception):
    """Another thread of this process holds numba's compile lock."""


@contextlib.contextmanager
def _numba_lock_held() -> Iterator[None]:
    """numba's compile lock held across the fork, where numba is loaded (released on both
    sides after it): a copy forked while another thread compiles would find it taken for
    ever. NumbaBusy where another thread holds it."""
    module = sys.modules.get("numba.core.compiler_lock")
    if module is None:
        yield
        return
    lock = module.global_compiler_lock._lock
    if not lock.acquire(blocking=False):
        raise NumbaBusy
    try:
        yield
    finally:
        lock.release()


def _freeze() -> bool:
    """Keep every object this process holds from its garbage collector (`gc.freeze`), for
    the fork; whether it was done (not where the program had frozen its own already: they
    stay as it left them). After a fork the two processes share their memory until either
    writes to it, and a collection writes to every object it looks at: the copy's first
    collections (numba's import makes many) would copy nearly every page of the run, and
    Python's beside it the same. Frozen, neither looks at what was there before the fork.
    Measured on two cores, medians of 15 whole runs taken in turns: queens (the copy
    answers) 0.58-0.60 s to 0.57 s; sudoku and send_more_money unchanged."""
    if gc.get_freeze_count():
        return False
    gc.freeze()
    return True


def _reap(pid: int) -> None:
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)


def _fork(
    run: Limits,
    choose: Callable[[], Engine | None],
    compile_first: Callable[[Engine], Compile | None],
    work: Work,
) -> tuple[int, int]:
    """The forked copy (its pid), and the read end of its pipe."""
    parent = os.getpid()
    with _numba_lock_held():
        read, write = os.pipe()
        with warnings.catch_warnings():  # Python 3.12 warns of a fork beside threads: the copy uses none of theirs
            warnings.simplefilter("ignore", DeprecationWarning)
            try:
                pid = os.fork()
            except OSError:
                os.close(read)
                os.close(write)
                raise
    if pid == 0:  # pragma: no cover - the copy; its effects are tested from the other side
        code = 0
        try:
            os.close(read)
            _other_side(write, parent, run, choose, compile_first, work)
        except BaseException:
            code = 1
        finally:
            os._exit(code)
    os.close(write)
    os.set_blocking(read, False)
    return pid, read


def _other_side(  # pragma: no cover - runs in the copy
    pipe: int,
    parent: int,
    run: Limits,
    choose: Callable[[], Engine | None],
    compile_first: Callable[[Engine], Compile | None],
    work: Work,
) -> None:
    """The copy: the engine that follows Python, compiled where it must be, then its search."""
    gc.freeze()  # what the run made is never collected here (see `_freeze`)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the run's: it stops this copy
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    quiet = os.open(os.devnull, os.O_WRONLY)
    os.dup2(quiet, 1)
    os.dup2(quiet, 2)
    sys.stdout = sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - until the copy exits
    send = _Sender(pipe)

    def run_gone() -> str | None:
        return "the run has ended" if os.getppid() != parent else None

    try:
        engine = choose()
        if engine is None:
            send.frame(("none",))
            return
        compile_it = compile_first(engine)
        if compile_it is not None:
            send.frame(("compiling",))
            compile_it(lambda: run_gone() is None and send.wanted())
            if run_gone() or not send.wanted():
                return
        send.frame(("running", engine.name))
        limits = dataclasses.replace(
            run, tripped=None, pending=None, until=run_gone, notice=None, progress=send.progress, engine=engine.name
        )
        with limits.armed():
            answer = work(engine, limits)
        send.frame(("done", engine.name, answer), last=True)
    except HandOver as exc:
        send.frame(("handover", exc.why))
    except Exception as exc:
        send.frame(("failed", f"{type(exc).__name__}: {exc}"))


class _Sender:
    """The copy's end of the pipe: progress frames dropped where the pipe is full (the run
    reads them only while it polls), the last frame written whole."""

    def __init__(self, pipe: int):
        self.pipe = pipe
        self.last = 0.0
        os.set_blocking(pipe, False)

    def wanted(self) -> bool:
        """Whether the run still reads (its end of the pipe is open)."""
        try:
            self.frame(("progress", 0, ""))
        except BlockingIOError:
            return True
        except OSError:
            return False
        return True

    def progress(self, states: int, at: str, engine: str) -> None:
        now = time.monotonic()
        if now - self.last >= PROGRESS_EVERY:
            self.last = now
            with contextlib.suppress(BlockingIOError):
                self.frame(("progress", states, at))

    def frame(self, frame: tuple[Any, ...], last: bool = False) -> None:
        data = pickle.dumps(frame, protocol=pickle.HIGHEST_PROTOCOL)
        data = _HEADER.pack(len(data)) + data
        if len(data) <= select.PIPE_BUF and not last:
            os.write(self.pipe, data)  # all or nothing
            return
        os.set_blocking(self.pipe, True)
        view = memoryview(data)
        while view:
            view = view[os.write(self.pipe, view) :]
