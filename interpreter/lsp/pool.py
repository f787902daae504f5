"""The worker processes that analyse documents (worker.py), as the server's event loop sees them.

At most `size` analyses run at once, each in a worker of its own: a spec that takes minutes to
compile holds one worker while other documents are analysed in the others (documents beyond
`size` wait for a worker, for a time limit at most). Workers are kept between analyses, warm,
and one more is started while there is room, as soon as none is idle, so that the next
document does not wait for a worker's start (a second or so: importing the compiler, and a
first analysis to warm it up).

An analysis ends in one of four ways:
- its answer; the worker is free again;
- cancelled (its document changed again): the worker is told to stop, and is free again when
  it says it has stopped; one that has not within GRACE seconds is killed;
- its time limit: the worker stops the analysis itself and answers with what was found by
  then (`Analysis.stopped`); one that has not answered GRACE seconds after the limit is
  killed, and the analysis is answered with the stop alone;
- the worker's end (killed from outside, out of memory): AnalysisFailed.

A worker killed is replaced when one is next needed. `close` kills every worker; and a worker
ends by itself when the server's end of its pipe closes, however the server ended.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import pickle
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from .analysis import Analysis
from .processes import start_worker
from .worker import HEADER, MAX_FRAME, frame

TIME_LIMIT = 5.0  # seconds an analysis may take (the client may say otherwise: server.py)
GRACE = 2.0  # seconds a worker has to stop, when told to or at its time limit, before it is killed
STARTUP = 60.0  # seconds a worker may take to start (import, warm up) before it is killed
WORKER = f"{__package__}.worker"


class AnalysisFailed(Exception):
    """The analysis did not end with an answer: a bug in it, or its worker's end."""


@dataclass
class Job:
    number: int
    named: Callable[[Analysis], None]  # told the names as soon as the worker sends them
    # the analysis, None where it was stopped, or why it failed (never an exception, which no
    # one may be left to retrieve)
    answer: asyncio.Future[Analysis | str | None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


class Worker:
    """One worker process, and its answers read as they come."""

    def __init__(self, process: asyncio.subprocess.Process, ended: Callable[[Worker], None]) -> None:
        self.process = process
        self.job: Job | None = None
        self.ended = ended
        self.killed = False
        loop = asyncio.get_running_loop()
        self.ready: asyncio.Future[None] = loop.create_future()  # its imports done: it analyses at once
        self.reading = loop.create_task(self._read())
        self.waited = loop.create_task(process.wait())  # reaped, whenever it ends

    def send(self, message: object) -> None:
        stdin = self.process.stdin
        if stdin is None or stdin.is_closing() or self.process.returncode is not None:
            return  # a worker that has ended says so on its stdout
        with contextlib.suppress(OSError, RuntimeError):
            stdin.write(frame(message))

    def end(self) -> None:
        """Close the worker's stdin: it ends at once (and until then asyncio does not count it
        as ended). Ended so rather than killed where it can be: a signal to a process that has
        just ended would reap it before asyncio does, which asyncio complains of."""
        if self.process.stdin is not None:
            self.process.stdin.close()

    def kill(self) -> None:
        """For a worker that does not answer: its stdin closed, and killed."""
        self.end()
        if not self.killed and self.process.returncode is None:
            self.killed = True
            with contextlib.suppress(OSError):
                self.process.kill()

    async def _read(self) -> None:
        """The worker's answers, each given to the job it answers (a late answer to a job
        given up is dropped), until the worker ends."""
        stream = self.process.stdout
        assert stream is not None
        try:
            while True:
                (size,) = HEADER.unpack(await stream.readexactly(HEADER.size))
                if size > MAX_FRAME:
                    break
                kind, number, *rest = pickle.loads(await stream.readexactly(size))
                if kind == "ready" and not self.ready.done():
                    self.ready.set_result(None)
                job = self.job
                if job is None or job.number != number or job.answer.done():
                    continue
                if kind == "named":
                    job.named(rest[0])
                elif kind == "done":
                    job.answer.set_result(rest[0])
                elif kind == "stopped":
                    job.answer.set_result(None)
                else:
                    job.answer.set_result(str(rest[0]))
        except (asyncio.IncompleteReadError, OSError, pickle.UnpicklingError, ValueError, TypeError):
            pass
        finally:
            self.end()
            if self.job is not None and not self.job.answer.done():
                self.job.answer.set_result("the analysis's worker process ended")
            if not self.ready.done():
                self.ready.set_result(None)
            self.ended(self)


class Workers:
    def __init__(self, time_limit: float = TIME_LIMIT, size: int = 2) -> None:
        self.time_limit = time_limit
        self.size = size
        self.workers: list[Worker] = []  # those that serve
        self.started: set[Worker] = set()  # those not yet reaped
        self.idle: list[Worker] = []
        self.changed = asyncio.Condition()
        self.numbers = itertools.count(1)
        self.closed = False
        self.chores: set[asyncio.Task[None]] = set()

    async def analyse(self, text: str, filename: str, named: Callable[[Analysis], None]) -> Analysis:
        """The document's analysis, in a worker; cancelling this stops it there."""
        worker = await self._take()
        job = worker.job = Job(next(self.numbers), named)
        worker.send(("analyse", job.number, text, filename, self.time_limit))
        try:
            try:  # the time limit counts from the analysis's start: a new worker imports first
                await asyncio.wait_for(asyncio.shield(worker.ready), STARTUP)
            except asyncio.TimeoutError:
                worker.kill()
                raise AnalysisFailed(f"the analysis's worker process did not start in {STARTUP:g} s") from None
            answer = await asyncio.wait_for(asyncio.shield(job.answer), self.time_limit + GRACE)
        except asyncio.CancelledError:
            self._later(self._stop(worker, job))
            raise
        except asyncio.TimeoutError:
            worker.kill()  # it did not stop at its limit: its end frees its place
            return Analysis((), stopped="analysing")
        self._free(worker)
        if isinstance(answer, str):
            raise AnalysisFailed(answer)
        return answer if answer is not None else Analysis((), stopped="analysing")

    def warm(self) -> None:
        """Start a worker now, so that the first document does not wait for one."""
        self._later(self._spare())

    async def close(self) -> None:
        """End every worker, and wait for them (a little: one that has not ended is killed)."""
        self.close_now()
        for chore in self.chores:
            chore.cancel()
        for _ in range(2):
            ending = {worker.waited: worker for worker in self.started if not worker.waited.done()}
            if not ending:
                return
            _, left = await asyncio.wait(ending, timeout=GRACE)
            for waiting in left:
                ending[waiting].kill()

    def close_now(self) -> None:
        """End every worker (at shutdown: the server does no more work)."""
        self.closed = True
        for worker in self.workers:
            worker.end()

    # ---- the workers

    async def _take(self) -> Worker:
        async with self.changed:
            await self.changed.wait_for(lambda: self.closed or bool(self.idle) or len(self.workers) < self.size)
            if self.closed:
                raise AnalysisFailed("the server is shutting down")
            try:
                worker = self.idle.pop() if self.idle else await self._start()
            except OSError as exc:
                raise AnalysisFailed(f"cannot start a worker process: {exc}") from None
        if not self.idle and len(self.workers) < self.size:
            self._later(self._spare())
        return worker

    async def _spare(self) -> None:
        async with self.changed:
            if not self.closed and not self.idle and len(self.workers) < self.size:
                with contextlib.suppress(OSError):  # the next analysis will say so
                    self.idle.append(await self._start())
                    self.changed.notify()

    async def _start(self) -> Worker:
        """A new worker (its imports go on while it is given its first document; processes.py
        says how it is started)."""
        worker = Worker(await start_worker(WORKER), self._ended)
        self.workers.append(worker)
        self.started.add(worker)
        worker.waited.add_done_callback(lambda _: self.started.discard(worker))
        return worker

    def _free(self, worker: Worker) -> None:
        worker.job = None
        if worker in self.workers and not self.closed:
            self.idle.append(worker)
            self._later(self._notify())

    def _ended(self, worker: Worker) -> None:
        if worker in self.workers:
            self.workers.remove(worker)
        if worker in self.idle:
            self.idle.remove(worker)
        self._later(self._notify())

    async def _notify(self) -> None:
        async with self.changed:
            self.changed.notify_all()

    async def _stop(self, worker: Worker, job: Job) -> None:
        """Tell the worker to stop the job given up, and free it when it has (kill it if it
        does not)."""
        worker.send(("stop", job.number))
        try:
            await asyncio.wait_for(asyncio.shield(worker.ready), STARTUP)  # a new worker reads it once ready
            await asyncio.wait_for(asyncio.shield(job.answer), GRACE)
        except asyncio.TimeoutError:
            worker.kill()
            return
        self._free(worker)

    def _later(self, chore: Coroutine[Any, Any, None]) -> None:
        """Run a chore of the pool's own (none once it is closed: the loop is ending)."""
        if self.closed:
            chore.close()
            return
        task = asyncio.get_running_loop().create_task(chore)
        self.chores.add(task)
        task.add_done_callback(self.chores.discard)
