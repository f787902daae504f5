"""`puzint check`'s cases, run one after another in this process or on several cores at once.

A check is many searches, most short and a few of several seconds, each on one core (Python's
searches hold the interpreter's lock; the kernel's loops run in one thread). On a machine with
more cores the cases run at once, in as many processes (`jobs`, by default one a core).

What a user reads does not depend on how many processes ran: cases are reported in the order
of the specs and their cases, each once every case before it has been reported (a long case
holds back those after it; on a terminal the status line says what runs). The unit of work is
the case, not the spec file: a catalogue's time is in a few long cases, several of them in one
spec (the pocket cube's reaches).

The processes are forked from this one where the race forks (`race.can_fork`), else started
afresh. Each is sent a case as (the spec's path, the case's number), reads the spec's
expectation file itself, runs the case as `check_case` does here, and sends back what it found
(and the notices of its engines, for the status line). Each counts on its share of the cores
(`RunOptions.cores`), so that its `auto` does not fork a race onto a core another case uses.
The limits (states, time, memory) are each case's, in its own process, as in one process.

Ctrl-C is noted here (`CtrlC.noted`): no case starts after it; each process running one is sent
SIGINT (once: a terminal sends it to them too, and they ignore the second); the cases report
where they stopped, and those that had ended are reported with them, in order. A process that
ends without a word (killed, out of memory) fails its case with the reason; another takes its
place.
"""

from __future__ import annotations

import contextlib
import dataclasses
import multiprocessing
import os
import signal
import time
from collections import deque
from collections.abc import Generator, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any

from rich.console import Console

from .ctrl_c import CtrlC
from .engines import RunOptions
from .errors import SpecError
from .expectations import CaseReport, blame_parameters, load_cases, run_case
from .plan import race
from .render.progress import SearchProgress
from .search import Limits
from .search.limits import LimitReached, stop_reason
from .search.result import LIMIT

WAIT = 0.1  # seconds between two looks at Ctrl-C and the status line while the processes work


@dataclass
class SpecReached:
    """A spec's turn in the report: its cases, or why it cannot be checked (as the user reads it)."""

    spec: Path
    cases: list[CaseReport]
    errors: list[str] = dataclasses.field(default_factory=list)


@dataclass
class CaseChecked:
    """A case run: its report (`case.actual` filled in), how long it took, and the errors its
    parameters meet in the spec (then it was not run), as the user reads them."""

    spec: Path
    case: CaseReport
    seconds: float
    errors: list[str] = dataclasses.field(default_factory=list)


Event = SpecReached | CaseChecked


def default_jobs() -> int:
    """One process a core this process may use."""
    return race.cores()


def check(
    specs: list[Path], options: RunOptions, limits: Limits, jobs: int, ctrl_c: CtrlC, console: Console | None = None
) -> Generator[Event, None, None]:
    """Every case of every spec, in order: each spec as it is reached, then each of its cases
    as it is checked. `limits` are those of one case (its clock starts with the case);
    `console`: where the status line goes (a terminal), or None."""
    if jobs <= 1:
        return _here(specs, options, limits, ctrl_c, console)
    return _OnCores(specs, options, limits, jobs, ctrl_c, console).run()


def check_case(spec: Path, case: CaseReport, limits: Limits, options: RunOptions) -> CaseChecked:
    """One case under its limits; a limit or Ctrl-C met before the search began (compiling)
    is the case's answer too."""
    started = time.monotonic()
    try:
        with limits.armed():
            run_case(spec, case, limits, options)
    except (LimitReached, KeyboardInterrupt) as exc:
        case.actual = {"status": LIMIT, "limit": f"{stop_reason(exc)} while compiling"}
    except SpecError as exc:
        errors = [error.render() for error in blame_parameters(exc, case)]
        return CaseChecked(spec, case, time.monotonic() - started, errors)
    return CaseChecked(spec, case, time.monotonic() - started)


def _reach(spec: Path) -> SpecReached:
    try:
        return SpecReached(spec, load_cases(spec))
    except SpecError as exc:
        return SpecReached(spec, [], [exc.render()])


def _fresh(limits: Limits) -> Limits:
    """The limits of one case, its clock started now."""
    return dataclasses.replace(limits, started=time.monotonic(), tripped=None, pending=None)


def _here(
    specs: list[Path], options: RunOptions, limits: Limits, ctrl_c: CtrlC, console: Console | None
) -> Generator[Event, None, None]:
    """One case after another in this process, with the search's own progress line; Ctrl-C
    stops the case it interrupts (its search reports where) and the check after it."""
    for spec in specs:
        if ctrl_c.heard:
            return
        reached = _reach(spec)
        yield reached
        for case in reached.cases:
            if ctrl_c.heard:
                return
            case_limits = _fresh(limits)
            progress = SearchProgress(console) if console is not None else None
            if progress is not None:
                case_limits.progress, case_limits.notice = progress, progress.notice
            try:
                checked = check_case(spec, case, case_limits, options)
            finally:
                if progress is not None:
                    progress.stop()
            yield checked


class WorkerFailed(Exception):
    """A process checking a case met a bug: the check stops as it would in one process."""


@dataclass
class _Worker:
    """A process that checks the cases it is sent, and the case it runs now."""

    process: Any  # multiprocessing's Process (its type depends on the start method)
    conn: Connection
    task: tuple[int, int] | None = None  # (the spec's number, the case's number)
    since: float = 0.0
    notice: str = ""
    interrupted: bool = False

    @classmethod
    def start(cls, context: Any, options: RunOptions, limits: Limits, cores: int) -> _Worker:
        here, there = context.Pipe()
        process = context.Process(target=_work, args=(there, options, limits, cores), daemon=True)
        process.start()
        there.close()
        return cls(process, here)

    def send(self, task: tuple[int, int], spec: Path) -> None:
        self.task, self.since, self.notice = task, time.monotonic(), ""
        self.conn.send((str(spec), task[1]))

    def interrupt(self) -> None:
        if self.task is not None and not self.interrupted:
            self.interrupted = True
            with contextlib.suppress(OSError):
                os.kill(self.process.pid, signal.SIGINT)

    def ended(self) -> str:
        """Why the process ended without a word."""
        self.process.join(1.0)
        code = self.process.exitcode
        if code is None:
            return "its process stopped answering"
        if code < 0:
            with contextlib.suppress(ValueError):
                return f"its process was killed by {signal.Signals(-code).name}"
        return f"its process ended with exit code {code}"

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.conn.send(None)
        self.conn.close()
        self.process.join(2.0)
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(2.0)


class _OnCores:
    """The cases run in `jobs` processes at once, reported in order (the module's docstring)."""

    def __init__(
        self, specs: list[Path], options: RunOptions, limits: Limits, jobs: int, ctrl_c: CtrlC, console: Console | None
    ):
        self.options, self.limits, self.jobs, self.ctrl_c = options, limits, jobs, ctrl_c
        self.context = multiprocessing.get_context("fork" if race.can_fork() else "spawn")
        self.cores_each = max(1, race.cores() // jobs)
        self.upcoming = iter(specs)
        self.reached: list[SpecReached] = []
        self.todo: deque[tuple[int, int]] = deque()
        self.checked: dict[tuple[int, int], CaseChecked] = {}  # ended, not yet reported
        self.done = 0  # cases ended
        self.workers: list[_Worker] = []
        self.next_spec = 0  # the next spec to report, and the next of its cases
        self.next_case = 0
        self.announced = False  # whether the next spec to report has been
        self.sent_up_to = -1  # the last spec a case of which was sent
        self.status = SearchProgress(console) if console is not None else None

    def run(self) -> Generator[Event, None, None]:
        with self.ctrl_c.noted():
            try:
                while True:
                    if not self.ctrl_c.heard:
                        self._dispatch()
                    yield from self._in_order(final=False)
                    busy = [worker for worker in self.workers if worker.task is not None]
                    if not busy and (self.ctrl_c.heard or not self.todo):
                        break
                    for conn in wait([worker.conn for worker in busy], WAIT):
                        self._receive(next(worker for worker in busy if worker.conn is conn))
                    if self.ctrl_c.heard:
                        for worker in self.workers:
                            worker.interrupt()
                    if self.status is not None:
                        self.status.say(self._status_line())
                if self.status is not None:
                    self.status.stop()
                yield from self._in_order(final=True)
            finally:
                if self.status is not None:
                    self.status.stop()
                for worker in self.workers:
                    worker.close()

    def _dispatch(self) -> None:
        """Every idle process given a case, and processes started up to `jobs` while cases wait."""
        while True:
            idle = next((worker for worker in self.workers if worker.task is None), None)
            if idle is None and len(self.workers) >= self.jobs:
                return
            task = self._next_task()
            if task is None:
                return
            if idle is None:
                try:
                    idle = _Worker.start(self.context, self.options, self.limits, self.cores_each)
                except OSError:  # no more processes to be had: those running share the rest
                    if not self.workers:
                        raise
                    self.todo.appendleft(task)
                    self.jobs = len(self.workers)
                    return
                self.workers.append(idle)
            try:
                idle.send(task, self.reached[task[0]].spec)
            except OSError:  # it has ended since (a SIGINT of its own): its case goes to another
                self.todo.appendleft(task)
                self._drop(idle)
                continue
            self.sent_up_to = task[0]

    def _next_task(self) -> tuple[int, int] | None:
        """The next case to run, reading the next specs' expectation files as they are needed."""
        while not self.todo:
            spec = next(self.upcoming, None)
            if spec is None:
                return None
            self.reached.append(_reach(spec))
            number = len(self.reached) - 1
            self.todo.extend((number, case) for case in range(len(self.reached[number].cases)))
        return self.todo.popleft()

    def _receive(self, worker: _Worker) -> None:
        assert worker.task is not None
        spec_no, case_no = worker.task
        reached = self.reached[spec_no]
        case = reached.cases[case_no]
        try:
            message = worker.conn.recv()
        except (EOFError, OSError):
            self._drop(worker)
            if not self.ctrl_c.heard:  # else a Ctrl-C stopped it before it began: not checked
                case.actual = {"status": LIMIT, "limit": f"not checked: {worker.ended()}"}
                self.checked[worker.task] = CaseChecked(reached.spec, case, time.monotonic() - worker.since)
                self.done += 1
            return
        kind = message[0]
        if kind == "notice":
            worker.notice = message[1]
            return
        if kind == "bug":
            raise WorkerFailed(f"{message[1]} (checking {reached.spec} {case.title()})")
        _, actual, seconds, errors, stopping = message
        case.actual = actual
        self.checked[worker.task] = CaseChecked(reached.spec, case, seconds, errors)
        self.done += 1
        worker.task = None
        worker.interrupted = False
        if stopping:  # a Ctrl-C of its own (sent to it alone): another takes its place
            self._drop(worker)

    def _drop(self, worker: _Worker) -> None:
        self.workers.remove(worker)
        worker.close()

    def _in_order(self, final: bool) -> Iterator[Event]:
        """What can be reported now: each spec once the cases before it are, then its cases as
        they end. At the end (`final`, after Ctrl-C) the cases that ended are reported, in
        order, up to the last spec that was begun; those never run are left out."""
        while self.next_spec < len(self.reached):
            reached = self.reached[self.next_spec]
            if final and self.next_spec > self.sent_up_to and reached.cases:
                return
            if not self.announced:
                self.announced = True
                yield reached
            while self.next_case < len(reached.cases):
                checked = self.checked.pop((self.next_spec, self.next_case), None)
                if checked is None and not final:
                    return
                self.next_case += 1
                if checked is not None:
                    yield checked
            self.next_spec, self.next_case, self.announced = self.next_spec + 1, 0, False

    def _status_line(self) -> str:
        """The cases done, and those running (each with its time, and its engine's notice)."""
        now = time.monotonic()
        running = []
        for worker in self.workers:
            if worker.task is not None:
                reached = self.reached[worker.task[0]]
                what = f"{reached.spec.stem} {reached.cases[worker.task[1]].title()} {now - worker.since:.1f} s"
                running.append(f"{what} ({worker.notice})" if worker.notice else what)
        return f"checking in {self.jobs} processes: {self.done} case(s) done · " + ", ".join(running)


def _work(conn: Connection, options: RunOptions, limits: Limits, cores: int) -> None:
    """A process's loop: a case received, checked, its answer sent; until told to stop (None),
    the check has gone, or a Ctrl-C stopped its case."""
    options = dataclasses.replace(options, cores=cores)  # its share: its `auto` races only where that is two
    ctrl_c = CtrlC()
    ctrl_c.install()
    cases: dict[str, list[CaseReport]] = {}
    try:
        while not ctrl_c.heard:
            task = conn.recv()
            if task is None:
                return
            path, number = task
            spec = Path(path)
            try:
                if path not in cases:
                    cases[path] = load_cases(spec)
                case = cases[path][number]
            except SpecError as exc:  # the file changed since the check read it
                conn.send(("done", {}, 0.0, [exc.render()], False))
                continue
            case_limits = _fresh(limits)
            case_limits.notice = lambda text: conn.send(("notice", text))
            try:
                checked = check_case(spec, case, case_limits, options)
            except Exception as exc:  # a bug: said by the check, as in one process
                conn.send(("bug", f"{type(exc).__name__}: {exc}"))
                return
            conn.send(("done", checked.case.actual, checked.seconds, checked.errors, ctrl_c.heard))
    except (KeyboardInterrupt, EOFError, OSError):  # Ctrl-C while waiting for a case; the check gone
        return
