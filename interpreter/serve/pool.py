"""The worker processes of the playground (worker.py), as the server's event loop sees them.

At most `size` jobs run at once, each in a worker of its own, and at most `waiting` more wait
for one: a request past those is refused at once (`Busy`, said to the page as 503), so that
a page that sends many requests cannot queue work without end. A job ends in one of four ways:

- its answer; the worker is free again, and keeps the specs it compiled (unless its memory
  passed the job's limit: a process's peak never falls, so every later job would stop at
  once; the worker says so with its answer, and is ended and replaced);
- cancelled (the page left, or asked for another): the worker is killed with everything it
  started (it leads its own session: the copies a race forks go too), and replaced when one is
  next needed;
- its deadline (its time limit and GRACE): the worker, which stops a search at its limit
  itself, has not answered: killed the same way;
- the worker's end (out of memory, killed from outside): `JobFailed`.

Workers are started when first needed and kept warm; `close` kills them all, and a worker ends
by itself when the server's end of its pipe closes, however the server ended.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import pickle
from collections.abc import Callable
from typing import Any

from ..lsp.processes import kill_session, start_worker
from ..lsp.worker import HEADER, MAX_FRAME, frame

GRACE = 3.0  # seconds past a job's time limit before its worker is killed
STARTUP = 60.0  # seconds a worker may take to import and warm up
WORKER = f"{__package__}.worker"


class JobFailed(Exception):
    """The job did not end with an answer: its worker ended, or a bug in it."""


class Busy(Exception):
    """Every worker is busy and the queue is full."""


class Worker:
    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.warm = False  # it has answered once: its imports are done
        self.spent = False  # its memory's peak passed a job's limit: it serves no more

    async def answer(self, number: int, on_progress: Callable[[dict[str, Any]], None] | None) -> Any:
        stream = self.process.stdout
        assert stream is not None
        while True:
            (size,) = HEADER.unpack(await stream.readexactly(HEADER.size))
            if size > MAX_FRAME:
                raise JobFailed("the worker's answer is too large")
            kind, got, *rest = pickle.loads(await stream.readexactly(size))
            if kind == "ready" or got != number:
                continue
            if kind == "progress":
                if on_progress is not None:
                    on_progress(rest[0])
                continue
            if kind == "done":
                self.spent = len(rest) > 1 and rest[1] is True
                return rest[0]
            raise JobFailed(str(rest[0]))

    def kill(self) -> None:
        """The worker and every process of its session (a race's copies)."""
        kill_session(self.process)


class Pool:
    def __init__(self, size: int = 2, waiting: int = 64, grace: float = GRACE) -> None:
        self.size = size
        self.waiting = waiting
        self.grace = grace
        self.slots = asyncio.Semaphore(size)
        self.queued = 0
        self.idle: list[Worker] = []
        self.every: set[Worker] = set()
        self.numbers = itertools.count(1)
        self.closed = False
        self.reaping: set[asyncio.Task[None]] = set()  # the workers dropped, until they are reaped

    async def run(
        self,
        kind: str,
        payload: dict[str, Any],
        deadline: float,
        on_progress: Callable[[dict[str, Any]], None] | None = None,
    ) -> Any:
        """Job `kind` in a worker; cancelling this kills the worker (see the module's doc)."""
        if self.closed:
            raise JobFailed("the server is shutting down")
        if self.queued >= self.size + self.waiting:
            raise Busy(f"busy: {_jobs(self.size)} running and {_jobs(self.waiting)} waiting: try again in a moment")
        self.queued += 1
        try:
            async with self.slots:
                worker = self.idle.pop() if self.idle else await self._start()
                number = next(self.numbers)
                try:
                    assert worker.process.stdin is not None
                    worker.process.stdin.write(frame(("job", number, kind, payload)))
                    allowed = deadline + (self.grace if worker.warm else STARTUP)
                    answer = await asyncio.wait_for(worker.answer(number, on_progress), allowed)
                    worker.warm = True
                except asyncio.TimeoutError:
                    self._drop(worker)
                    raise JobFailed(f"the job did not end within {deadline:g} s") from None
                except (asyncio.IncompleteReadError, OSError, pickle.UnpicklingError, ValueError, EOFError):
                    self._drop(worker)
                    raise JobFailed("the worker process ended (out of memory, or killed)") from None
                except BaseException:  # cancelled: the page left
                    self._drop(worker)
                    raise
                if self.closed or worker.spent:
                    self._drop(worker)
                else:
                    self.idle.append(worker)
                return answer
        finally:
            self.queued -= 1

    async def _start(self) -> Worker:
        try:
            process = await start_worker(WORKER)
        except OSError as exc:
            raise JobFailed(f"cannot start a worker process: {exc}") from None
        worker = Worker(process)
        self.every.add(worker)
        return worker

    def _drop(self, worker: Worker) -> None:
        worker.kill()
        self.every.discard(worker)
        if worker in self.idle:
            self.idle.remove(worker)
        reaping = asyncio.get_running_loop().create_task(_reap(worker))
        self.reaping.add(reaping)
        reaping.add_done_callback(self.reaping.discard)

    async def close(self) -> None:
        self.closed = True
        for worker in list(self.every):
            if worker.process.stdin is not None:
                worker.process.stdin.close()
            worker.kill()
        for worker in list(self.every):
            with contextlib.suppress(Exception):
                await asyncio.wait_for(worker.process.wait(), 5)
        if self.reaping:
            await asyncio.wait(set(self.reaping))
        self.every.clear()
        self.idle.clear()


def _jobs(count: int) -> str:
    return "no job" if count == 0 else f"{count} job" + ("s" if count != 1 else "")


async def _reap(worker: Worker) -> None:
    with contextlib.suppress(Exception):
        await asyncio.wait_for(worker.process.wait(), 5)
