"""The worker processes of the playground (worker.py), as the server's event loop sees them.

At most `size` jobs run at once, each in a worker of its own, and at most `waiting` more wait
for one: a request past those is refused at once (`Busy`, said to the page as 503), so that
a page that sends many requests cannot queue work without end. A job ends in one of four ways:

- its answer; the worker is free again, and keeps the specs it compiled;
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
import os
import pickle
import signal
import sys
from collections.abc import Callable
from typing import Any

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
                return rest[0]
            raise JobFailed(str(rest[0]))

    def kill(self) -> None:
        """The worker and every process of its session (a race's copies)."""
        if self.process.returncode is None:
            with contextlib.suppress(OSError):
                if sys.platform != "win32":
                    os.killpg(self.process.pid, signal.SIGKILL)
                else:
                    self.process.kill()


class Pool:
    def __init__(self, size: int = 2, waiting: int = 64) -> None:
        self.size = size
        self.waiting = waiting
        self.slots = asyncio.Semaphore(size)
        self.queued = 0
        self.idle: list[Worker] = []
        self.every: set[Worker] = set()
        self.numbers = itertools.count(1)
        self.closed = False

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
            raise Busy(f"{self.size} jobs run and {self.waiting} wait already: try again in a moment")
        self.queued += 1
        try:
            async with self.slots:
                worker = self.idle.pop() if self.idle else await self._start()
                number = next(self.numbers)
                try:
                    assert worker.process.stdin is not None
                    worker.process.stdin.write(frame(("job", number, kind, payload)))
                    allowed = deadline + (GRACE if worker.warm else STARTUP)
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
                if self.closed:
                    self._drop(worker)
                else:
                    self.idle.append(worker)
                return answer
        finally:
            self.queued -= 1

    async def _start(self) -> Worker:
        try:
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                WORKER,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                start_new_session=sys.platform != "win32",
            )
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
        asyncio.get_running_loop().create_task(_reap(worker))

    async def close(self) -> None:
        self.closed = True
        for worker in list(self.every):
            if worker.process.stdin is not None:
                worker.process.stdin.close()
            worker.kill()
        for worker in list(self.every):
            with contextlib.suppress(Exception):
                await asyncio.wait_for(worker.process.wait(), 5)
        self.every.clear()
        self.idle.clear()


async def _reap(worker: Worker) -> None:
    with contextlib.suppress(Exception):
        await asyncio.wait_for(worker.process.wait(), 5)
