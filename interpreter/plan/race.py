"""Python and the engines beside it at once, each beside engine in a forked copy of this
process: the first answer is the answer.

Nothing tells ahead of time how long a search will take, nor which engine suits a puzzle (the
kernel's fill search answers a Killer Sudoku in a second where CP-SAT takes minutes; CP-SAT
counts a Sudoku's solutions twenty times faster than the kernel). On a machine with a second
core the runner need not guess: each engine beside Python (`plan.table`) runs in a copy of
this process, forked once Python has searched for `DELAY` seconds, while Python goes on
searching here: at a tick of its limits set for that moment (`Limits.armed`'s first tick), or
at a poll after it. A search that ends sooner (most small ones) pays nothing; a longer one
pays the fork and, where Python ends first, the copies' stop. No more processes run than
there are cores: on two, one copy beside Python's search, in the plan's order; the next is
forked once the first drops out (its engine cannot answer) or Python has stopped.

Python's answer, where it comes first, is the answer, and the copies are stopped. Else Python
gives way once an engine beside it has loaded and begun its search, or has been running
(loading) for `GIVE_WAY` seconds, or has answered: the processes share the machine's memory
and caches and would only slow each other down, and the engine beside is then nearly always
the faster. Not where Python searches from both ends and the engine beside only from the
start (`table.python_keeps_on`): there Python gives way only to an answer. The run then
waits for the first copy's answer; a copy that hands over, fails or has no engine drops out,
and where every copy has, Python answers from the start.

The copies are forked, not started afresh: each has the spec compiled already, so its engine
starts within a few hundredths of a second. Where the kernel's code is not in its cache, its
copy compiles it first (one compile at a time per cache, as `background` does) and says so; a
run that another engine answers meanwhile leaves the copy to finish the compile, so that the
next run finds it, and never waits for it.

Each copy talks through a pipe (its own, read only by this process), in frames of a length and
a pickle: the phase it is in ("compiling"; "running" with the engine's name: numba or OR-tools
loading, then the search), its progress (states, where: the first says the engine has loaded
and searches), and at the end "done" with the engine's answer, "handover" with the reason (a
value past the kernel's words: another engine answers), "alone" (a listing too long to carry
back: `StreamAlone`), "none" (the engine cannot answer) or
"failed". It never writes to the terminal, ignores Ctrl-C (the run stops it), and stops by
itself when the run is gone.
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

from ..engines import Engine, HandOver
from ..search import Limits
from ..search.limits import COMPILING, LimitReached, stop_reason
from . import table

_PHASES = ("starting", "compiling", "loading", "searching", "sending")  # a copy's, in their order
PROGRESS_EVERY = 0.2  # seconds between a copy's progress frames
GRACE = 0.5  # seconds a copy is given to report its own stop at the run's time limit
WATCH_EVERY = 0.02  # seconds between two looks at the copies from Python's search (at least: its polls look too)
_HEADER = struct.Struct("<Q")

Work = Callable[[Engine, Limits], Any]  # an engine's side: its answer, to be pickled
Compile = Callable[[Callable[[], bool]], None]  # compile the engine, waiting for another compile while wanted()
Choose = Callable[[], "Engine | None"]  # the copy's engine, made there (None: it cannot answer)
CompileFirst = Callable[[Engine], "Compile | None"]


class StreamAlone(Exception):
    """Raised by an engine's side in the race (a copy, or Python here) that has found more
    than the race should carry back at its end (`sides.Walking`: a listing of many solutions):
    it asks to run alone, handing each solution on as it finds it. A racing side keeps what it
    finds until the race is decided, so a listing of millions of solutions (16 queens) was
    held in a copy's memory, nothing shown, and printed only after the run's time limit."""

    def __init__(self, why: str):
        super().__init__(why)
        self.why = why


def can_fork() -> bool:
    """Whether this process may be forked to run a search: POSIX, but not macOS, where a
    forked process may not use the system's libraries (Python's own multiprocessing does not
    fork there)."""
    return hasattr(os, "fork") and sys.platform != "darwin"


def cores(share: int | None = None) -> int:
    """The cores this process may use: those it may be scheduled on, or its `share` of them
    where it is one of several processes of one run (`puzint check`'s: RunOptions.cores)."""
    affinity = getattr(os, "sched_getaffinity", None)
    count = len(affinity(0)) if affinity is not None else (os.cpu_count() or 1)
    return count if share is None else min(count, max(1, share))


def possible(share: int | None = None) -> bool:
    """Whether a race can be run here: a fork (`can_fork`), at least two cores for this run
    (on one, the searches would only take turns), and this is not itself a background
    compile."""
    return can_fork() and "PUZINT_BACKGROUND" not in os.environ and cores(share) >= 2


@dataclasses.dataclass
class Outcome:
    """What a copy said last: `kind` ("done", "handover", "alone", "none", "failed", "gone": its
    process ended without a word; "stopped": the run stopped it), the engine, and its answer
    or reason."""

    kind: str
    engine: str = ""
    answer: Any = None
    why: str = ""


class Copy:
    """One engine beside Python, in a forked copy of this process, as this process sees it."""

    def __init__(self, engine: str):
        self.engine = engine  # the name the plan gave; the copy says it again when it runs
        self.pid: int | None = None
        self.pipe = -1
        self.phase = "starting"  # starting, compiling, loading, searching, sending
        self.forked_at: float | None = None
        self.running_since: float | None = None  # its engine loading, then searching
        self.began: float | None = None  # its search's first poll: loaded, and searching
        self.answered_at: float | None = None
        self.states, self.at = 0, ""
        self.outcome: Outcome | None = None
        self._buffer = bytearray()

    @property
    def alive(self) -> bool:
        """Forked, and not yet done or out of the race."""
        return self.pid is not None and self.outcome is None

    def read(self, block: bool) -> None:
        """Take in what the copy has sent (with `block`, wait a tick for it)."""
        if self.outcome is not None or self.pid is None:
            return
        if block:
            select.select([self.pipe], [], [], 0.05)
        while True:
            try:
                chunk = os.read(self.pipe, 1 << 20)
            except BlockingIOError:
                break
            except OSError:
                chunk = b""
            if not chunk:
                self._take_frames()
                if self.outcome is None:
                    self.outcome = Outcome("gone", self.engine, why=f"{self.engine} process ended unanswered")
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
                    self.phase = "sending"  # the answer is on its way: Python may give way
                break
            frame = pickle.loads(bytes(self._buffer[_HEADER.size : _HEADER.size + length]))  # our own fork's pipe
            del self._buffer[: _HEADER.size + length]
            self._take(frame)
        return self.outcome is not None

    def _take(self, frame: tuple[Any, ...]) -> None:
        kind = frame[0]
        now = time.monotonic()
        if kind == "compiling":
            self.phase = "compiling"
        elif kind == "running":
            self.phase, self.engine, self.running_since = "loading", frame[1], now
        elif kind == "progress":
            self.states, self.at = frame[1], frame[2]
            if self.phase == "loading":  # the engine's first poll: loaded, and searching
                self.phase, self.began = "searching", now
        elif kind == "done":
            self.outcome = Outcome("done", frame[1], answer=frame[2])
            self.answered_at = now
            if self.began is None:
                self.began = self.running_since or now
        else:
            self.outcome = Outcome(kind, self.engine, why=frame[1] if len(frame) > 1 else "")

    def stop(self) -> None:
        if self.pid is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)
        self.reap()

    def leave(self) -> None:
        """Another engine answered: this copy stops, unless it is still compiling (then it
        finishes, for the next run, and exits without searching)."""
        if self.pid is None:
            return
        self.read(block=False)
        if self.outcome is None and self.phase == "compiling":
            with contextlib.suppress(OSError):
                os.close(self.pipe)
            threading.Thread(target=_reap, args=(self.pid,), daemon=True).start()
            self.pid = None
            return
        self.stop()

    def reap(self) -> None:
        if self.pid is None:
            return
        with contextlib.suppress(OSError):
            os.close(self.pipe)
        _reap(self.pid)
        self.pid = None


class Race:
    """The engines beside Python, each in a forked copy (see the module's docstring), and the
    limits of Python's side, which end Python's search when one of them is ahead."""

    def __init__(
        self,
        run: Limits,
        beside: tuple[str, ...],
        choose: Callable[[str], Choose],
        compile_first: CompileFirst,
        work: Work,
        slots: int | None = None,
        keeps_on: str = "",
        extent: Callable[[Any], int | None] = lambda answer: None,
        whole: Callable[[Any], bool] = lambda answer: True,
    ):
        self.run = run
        # whether a copy's answer is whole, not cut by a limit of its own (its engine's state
        # limit): a cut one decides nothing while Python searches on (see `first_done`)
        self._whole = whole
        # how far a copy's answer cut by the run's time limit went (solutions found): the
        # furthest is the run's answer; None (answers that do not compare): the copy furthest
        # along (`furthest`) gives it
        self._extent = extent
        self.keeps_on = keeps_on  # why Python gives way only to an answer (`table.python_keeps_on`)
        self.slots = len(beside) if slots is None else max(1, slots)  # copies beside Python's search at once
        self.limits = dataclasses.replace(
            run, tripped=None, pending=None, until=_chained(run.until, self._over), progress=self._python_polled
        )
        self.reason: str | None = None  # why Python's side stopped, where it stopped by itself
        self.copies = [Copy(name) for name in beside]
        self.started = time.monotonic()
        self.python_began: float | None = None  # Python's first poll: loaded, and searching
        self.gave_way_at: float | None = None
        self._busy = False
        self._choose, self._compile_first, self._work = choose, compile_first, work
        self._forked = False
        self._frozen = False  # this process's objects kept from its collector while the copies run

    # ---- the copies

    def _due(self) -> None:
        """The copies forked once Python has searched for `DELAY` seconds (a search that ends
        sooner pays nothing for the race), at a poll or a tick of its limits: a tick comes
        between two of Python's bytecodes, in the main thread, and a copy never returns into
        what was running there (it runs its engine, then exits). Not while a module is being
        imported (Python's search may import numpy at its start): a copy forked then would
        find that module half made for ever; the fork waits for the next tick. None is forked
        where none can be now (no process to be had, or another thread of this process is
        compiling numba code: a copy would find numba's lock taken for ever): Python goes on
        alone."""
        if self._forked or time.monotonic() - self.started < table.DELAY or _importing():
            return
        self._forked = True
        self._frozen = _freeze()
        self._fork_waiting(self.slots)
        if not any(copy.alive for copy in self.copies):
            self._thaw()

    def _fork_waiting(self, room: int) -> None:
        """The copies not forked yet, in the plan's order, while fewer than `room` run: one
        fewer than the cores while Python searches, as many once it has stopped. More
        processes than cores would only take turns: on two cores, the kernel's copy loading
        numba beside CP-SAT's loading OR-tools and Python searching got two thirds of a core
        (the magic hexagon, answered by the kernel: 1.03 s whole, 0.9 s with its copy alone
        beside Python). A copy that drops out (its engine cannot answer) makes room for the
        next at once. Not while a module is being imported (see `_due`): at the next look."""
        if sum(c.alive for c in self.copies) >= room or _importing():  # the cheap look first: it is made at each poll
            return
        for copy in self.copies:
            if sum(c.alive for c in self.copies) >= room:
                return
            if copy.forked_at is not None or copy.outcome is not None:
                continue
            try:
                copy.pid, copy.pipe = _fork(self.run, self._choose(copy.engine), self._compile_first, self._work)
            except (OSError, NumbaBusy):
                copy.outcome = Outcome("failed", copy.engine, why="no process could be started for it")
            else:
                copy.forked_at = time.monotonic()

    def _waiting(self) -> bool:
        return self._forked and any(copy.forked_at is None and copy.outcome is None for copy in self.copies)

    def forked(self) -> bool:
        return any(copy.forked_at is not None for copy in self.copies)

    def _poll(self, block: bool = False) -> None:
        for copy in self.copies:
            copy.read(block=False)
        if block and any(copy.alive for copy in self.copies):
            select.select([c.pipe for c in self.copies if c.alive], [], [], 0.05)
            for copy in self.copies:
                copy.read(block=False)

    def first_done(self) -> Copy | None:
        """The first copy that answered in full, or asked to run alone (`StreamAlone`): either
        decides the race. An answer cut by the copy's own limit does not: on a rotation puzzle of
        4 x 4 tiles the kernel, searching from the start, stopped at 10 million states, and
        Python, searching from both ends, gave way to that stop where it answers in 12 s."""
        for copy in self.copies:
            outcome = copy.outcome
            if outcome is None:
                continue
            if outcome.kind == "alone" or (outcome.kind == "done" and self._whole(outcome.answer)):
                return copy
        return None

    def cut_short(self) -> Copy | None:
        """The first copy whose answer a limit of its own cut (see `first_done`)."""
        for copy in self.copies:
            if copy.outcome is not None and copy.outcome.kind == "done" and not self._whole(copy.outcome.answer):
                return copy
        return None

    def still_running(self) -> bool:
        """Whether a copy may still answer (or has yet to be forked)."""
        return not self._forked or self._waiting() or any(copy.alive for copy in self.copies)

    # ---- Python's side

    def _over(self) -> str | None:
        """Why Python's search stops now, or None (called at each of its polls and ticks)."""
        if self.reason is None and not self._busy:
            self._busy = True  # a tick may come while a poll is in here: it waits for the next
            try:
                self._due()
                if self._forked:
                    self._poll()
                    if self._waiting():
                        self._fork_waiting(self.slots)
                    self.reason = self._why_python_gives_way()
                    if self.reason is not None:
                        self.gave_way_at = time.monotonic()
            finally:
                self._busy = False
        return self.reason

    def _why_python_gives_way(self) -> str | None:
        """Python gives way where an engine beside it has answered, or has loaded and searches,
        or has been running (loading) for `GIVE_WAY` seconds; only where one has answered,
        where Python's search is the stronger (`keeps_on`)."""
        done = self.first_done()
        if done is not None and done.outcome is not None and done.outcome.kind == "alone":
            return f"{done.engine}, run beside it, {done.outcome.why}"
        if done is not None:
            return f"{done.engine}, run beside it, answered first"
        if self.keeps_on:  # not even to an answer on its way: it may be one a limit cut
            return None
        for copy in self.copies:
            if copy.alive and copy.phase == "sending":
                return f"{copy.engine}, run beside it, answered first"
        for copy in self.copies:
            if copy.alive and copy.phase == "searching":
                return f"{copy.engine}, run beside it, had begun its search"
        for copy in self.copies:
            if (
                copy.alive
                and copy.running_since is not None
                and time.monotonic() - copy.running_since >= table.GIVE_WAY
            ):
                return f"not finished {table.GIVE_WAY:g} s after {copy.engine}, run beside it, started"
        return None

    def stopped_by_itself(self, stopped: bool) -> bool:
        """Whether Python's search ended because an engine beside it is ahead (not at the run's
        limits)."""
        return stopped and self.reason is not None and self.limits.tripped == self.reason

    @contextlib.contextmanager
    def watched(self) -> Iterator[None]:
        """Python's side, armed as the run is, with a tick when the copies are due (`DELAY`);
        a stop that is the run's is passed on to it."""
        try:
            with self.limits.armed(first_tick=table.DELAY, every=WATCH_EVERY):
                yield
        finally:
            tripped = self.limits.tripped
            if tripped is not None and tripped != self.reason and self.run.tripped is None:
                self.run.tripped = tripped

    # ---- the answer of the copies

    def answer(self) -> tuple[Copy | None, list[Outcome]]:
        """The first copy to answer, waited for under the run's limits (its progress shown as
        the run's), the others stopped; and the outcomes of those that dropped out (handed
        over, failed). None: every copy dropped out, or the run stopped them all (then the
        last outcome is "stopped")."""
        try:
            while True:
                done = self.first_done()
                if done is None and self._waiting():
                    self._fork_waiting(self.slots + 1)  # Python has stopped: its core is free
                if done is not None or not any(copy.alive for copy in self.copies):
                    break
                self._poll(block=True)
                self._check_run()
        except (LimitReached, KeyboardInterrupt) as exc:
            furthest, own = self._answer_at_stop(exc)
            self.stop()
            why = stop_reason(exc)
            if furthest.phase == "compiling" and COMPILING not in why:
                why += COMPILING  # nothing searched yet: not a search that found nothing
            return None, [Outcome("stopped", furthest.engine, answer=own, why=why)]
        done = self.first_done()
        for copy in self.copies:
            if copy is not done:
                copy.leave()
        if done is not None:
            done.reap()
        self._thaw()
        return done, [copy.outcome for copy in self.copies if copy.outcome is not None and copy is not done]

    def _own_stop(self, copy: Copy, exc: BaseException) -> Any:
        """The answer of the copy searching where the run's time is up: it keeps the same time
        limit, and stops at it with its own report (its method, the states it searched),
        waited for `GRACE` seconds at most. None where it gives none in time, or the stop is
        not the time's (Ctrl-C, SIGTERM): the run then says only why it stopped."""
        timeout = self.run.timeout
        if not isinstance(exc, LimitReached) or copy.phase != "searching" or timeout is None:
            return None
        if self.run.elapsed() < timeout:
            return None
        _await_outcomes([copy], time.monotonic() + GRACE)
        return copy.outcome.answer if copy.outcome is not None and copy.outcome.kind == "done" else None

    def _answer_at_stop(self, exc: BaseException) -> tuple[Copy, Any]:
        """The copy the run's stop came to (`furthest`) and its own report (`_own_stop`); where
        reports compare (`extent`: a listing's solutions found), the report of every copy
        searching is read within the same grace, and the one that went furthest is the answer
        (the first in the plan's order of those as far): 30 queens listed for 30 s gave the
        kernel's 0 solutions where CP-SAT beside it had found 7,385."""
        furthest = self.furthest()
        own = self._own_stop(furthest, exc)
        if own is None or self._extent(own) is None:
            return furthest, own
        others = [c for c in self.copies if c is not furthest and c.pid is not None and c.phase == "searching"]
        _await_outcomes(others, time.monotonic() + GRACE)
        reports = [(furthest, own)]
        reports += [(c, c.outcome.answer) for c in others if c.outcome is not None and c.outcome.kind == "done"]
        reports.sort(key=lambda report: self.copies.index(report[0]))
        return max(reports, key=lambda report: self._extent(report[1]) or 0)

    def furthest(self) -> Copy:
        """The copy furthest along (answering, searching, loading, compiling, starting; the
        first of those as far), still running where one is: the engine a stop of the run
        came to, and what it was doing then."""
        running = [copy for copy in self.copies if copy.alive] or self.copies
        return max(running, key=lambda copy: _PHASES.index(copy.phase))

    def _check_run(self) -> None:
        """The run's progress line and its own stops, while it waits (the state limit is the
        copies' to keep)."""
        run = self.run
        ahead = max((copy for copy in self.copies if copy.alive), key=lambda c: c.states, default=None)
        if ahead is not None:
            run.engine = ahead.engine
            if run.progress is not None:
                run.progress(ahead.states, ahead.at, ahead.engine)
        if run.tripped is not None:
            raise LimitReached(run.tripped)
        reason = run.exceeded()
        if reason is not None:
            run.trip(reason)

    def lost(self) -> None:
        """Python answered first: the copies stop (or, compiling, finish for the next run)."""
        for copy in self.copies:
            copy.leave()
        self._thaw()

    def stop(self) -> None:
        for copy in self.copies:
            copy.stop()
        self._thaw()

    def ran_beside(self) -> bool:
        """Whether a copy ran its engine beside Python, neither compiling the kernel first nor
        failing: then the race says which engine is faster."""
        return any(copy.forked_at is not None and copy.phase not in ("starting", "compiling") for copy in self.copies)

    def _thaw(self) -> None:
        """The race is over here: this process's collector sees its older objects again."""
        if self._frozen and not any(copy.alive for copy in self.copies):
            self._frozen = False
            gc.unfreeze()

    # ---- the margin

    def clear_margin(self, winner: Copy | None, margin: float, ended: float | None = None) -> bool:
        """Whether the engine that answered won by a clear margin (`won_clearly`), each engine's
        own search set against the others': a search runs from the engine's first poll (loaded,
        and searching) to its answer, or to where it gave way or the race ended. Loading is left
        out on every side alike: Python's (numpy, the fill model) as the copies' (numba, the
        kernel's code, OR-tools). A race run on a busy machine once set the kernel's search of a
        4x4 Killer Shidoku (2 ms) against Python's whole time (0.5 s, most of it loading, under
        load) and pinned the puzzle to the kernel, whose loading then cost 0.6 s on each of the
        next runs; an engine that had not begun its search was given none of it. A copy whose
        engine could not answer is no rival. `ended`: when Python answered (winner None)."""
        if winner is None:
            assert ended is not None
            python = ended - (self.python_began if self.python_began is not None else self.started)
            racing = [copy for copy in self.copies if copy.forked_at is not None and _rival(copy)]
            return won_clearly(python, [_searched(copy.began, ended) for copy in racing], margin)
        assert winner.answered_at is not None and winner.began is not None
        given = [_searched(self.python_began, self.gave_way_at or winner.answered_at)]
        for copy in self.copies:
            if copy is not winner and copy.forked_at is not None and _rival(copy):
                given.append(_searched(copy.began, copy.answered_at or winner.answered_at))
        return won_clearly(winner.answered_at - winner.began, given, margin)

    def _python_polled(self, states: int, at: str, engine: str) -> None:
        """Python's side polled: its search has begun (the first poll); the run's progress line."""
        if self.python_began is None:
            self.python_began = time.monotonic()
        if self.run.progress is not None:
            self.run.progress(states, at, engine)


def won_clearly(winner: float, rivals: list[float], margin: float) -> bool:
    """Whether an engine whose search took `winner` seconds won by a clear margin: there were
    rivals, and each had searched `margin` times as long without answering (`rivals`: the
    seconds each searched; 0 for one that had not begun)."""
    return bool(rivals) and all(seconds >= margin * winner for seconds in rivals)


def _searched(began: float | None, until: float) -> float:
    """The seconds an engine searched until `until`: none where it had not begun."""
    return 0.0 if began is None else max(0.0, until - began)


def _rival(copy: Copy) -> bool:
    return copy.outcome is None or copy.outcome.kind not in ("none", "failed")


def _chained(first: Callable[[], str | None] | None, then: Callable[[], str | None]) -> Callable[[], str | None]:
    """`until` of a side: the run's own (a caller's stop, such as play's) and the race's."""
    if first is None:
        return then
    return lambda: first() or then()


def _importing() -> bool:
    """Whether a module is being imported now (its code runs, and it is not whole yet)."""
    return any(
        getattr(getattr(module, "__spec__", None), "_initializing", False) for module in list(sys.modules.values())
    )


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
    the forks; whether it was done (not where the program had frozen its own already: they
    stay as it left them). After a fork the processes share their memory until one writes to
    it, and a collection writes to every object it looks at: a copy's first collections
    (numba's import makes many) would copy nearly every page of the run, and Python's beside
    it the same. Frozen, none looks at what was there before the fork. Measured on two cores,
    medians of 15 whole runs taken in turns: queens (the copy answers) 0.58-0.60 s to 0.57 s;
    sudoku and send_more_money unchanged."""
    if gc.get_freeze_count():
        return False
    gc.freeze()
    return True


def _await_outcomes(copies: list[Copy], until: float) -> None:
    """Read the copies until each has said its last word, or `until` (a monotonic time)."""
    while any(c.outcome is None for c in copies) and time.monotonic() < until:
        for copy in copies:
            copy.read(block=False)
        waiting = [c.pipe for c in copies if c.outcome is None]
        if waiting:
            select.select(waiting, [], [], 0.05)


def _reap(pid: int) -> None:
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)


def _fork(run: Limits, choose: Choose, compile_first: CompileFirst, work: Work) -> tuple[int, int]:
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
    pipe: int, parent: int, run: Limits, choose: Choose, compile_first: CompileFirst, work: Work
) -> None:
    """A copy: its engine, compiled where it must be, then its search."""
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
    except StreamAlone as exc:
        send.frame(("alone", exc.why))
    except Exception as exc:
        send.frame(("failed", f"{type(exc).__name__}: {exc}"))


class _Sender:
    """A copy's end of the pipe: progress frames dropped where the pipe is full (the run
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
