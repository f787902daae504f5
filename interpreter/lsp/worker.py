"""The process a document is analysed in (`python -m puzint.lsp.worker`, started by pool.py),
one analysis at a time, each stopped at its time limit or when the server says stop.

Why a process: compiling a large spec is CPU-bound Python, which no thread can be made to
stop, and which would hold the server's interpreter meanwhile. Why a process kept between
analyses, stopped rather than killed: starting one costs half a second (importing the
compiler), more than most analyses take; a stop costs nothing.

A stop (the document was edited again) or the time limit reaches the analysis as an exception
raised into it (Cancelled, analysis.OutOfTime): `_thread.interrupt_main` runs the SIGINT
handler in the main thread, on every platform, between two steps of whatever Python code runs.
The handler raises only into the analysis it was meant for, and once: an interrupt that comes
late finds that analysis done, and is ignored. Three threads, so that an interrupt never lands
where it could do harm: the main one analyses (the only one a handler runs in), one reads the
server's orders, one writes the answers (an answer is never cut half way).

The orders (stdin) and answers (stdout) are pickles, each after its length; the worker and
the server are one program, and nothing else writes to these pipes. The first answer,
("ready", 0), says that the imports are done: the server counts an analysis's time from then. The server's end of
stdin closing, however the server ended, ends the worker at once: no worker outlives it.
"""

from __future__ import annotations

import _thread
import contextlib
import os
import pickle
import queue
import signal
import struct
import sys
import threading
from types import FrameType
from typing import IO, Any

from .analysis import Analysis, OutOfTime, analyse

HEADER = struct.Struct("<Q")  # the length of the pickle that follows
MAX_FRAME = 256 * 1024 * 1024  # bytes: a longer frame is a broken pipe, not an answer
# A spec that uses each stage, analysed before the first order is read: the first analysis
# would otherwise pay for the parser's tables and the compiler's first use.
WARM_UP = """\
puzzle "warm-up"
param n = 2 "frogs"
board line 2*n + 1
piece B black
piece W white
start B*n _ W*n
goal W*n _ B*n
move slide: B _ -> _ B along right
"""


class Cancelled(BaseException):
    """Raised into an analysis the server no longer wants (a BaseException, as OutOfTime)."""


def frame(message: object) -> bytes:
    body = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    return HEADER.pack(len(body)) + body


def read_frame(stream: IO[bytes]) -> Any:
    """The next message, or None where the stream ends (or breaks)."""
    head = _exactly(stream, HEADER.size)
    if head is None:
        return None
    (size,) = HEADER.unpack(head)
    body = _exactly(stream, size) if size <= MAX_FRAME else None
    return None if body is None else pickle.loads(body)


def _exactly(stream: IO[bytes], size: int) -> bytes | None:
    data = b""
    while len(data) < size:
        more = stream.read(size - len(data))
        if not more:
            return None
        data += more
    return data


class Interrupts:
    """Which analysis an interrupt is meant for, and what it raises into it. Set by the other
    threads, read by the handler in the main thread, without a lock: a handler that waited for
    a lock the main thread holds would wait forever, and one reference is assigned whole."""

    def __init__(self) -> None:
        self.running: int | None = None  # the analysis under way
        self.wanted: tuple[int, type[BaseException]] | None = None
        self.raised: int | None = None  # the last analysis raised into: once is enough

    def ask(self, job: int, what: type[BaseException]) -> None:
        """From another thread: raise `what` into analysis `job`, if it runs (or once it starts)."""
        self.wanted = (job, what)
        _thread.interrupt_main(signal.SIGINT)

    def start(self, job: int) -> None:
        """In the main thread, as analysis `job` starts: a stop that came first is raised now."""
        self.running = job
        self.handle()

    def handle(self, signum: int = 0, frame: FrameType | None = None) -> None:
        """The SIGINT handler. A real Ctrl-C (the terminal's, to every process of the server)
        is ignored: the server decides."""
        wanted, running = self.wanted, self.running
        if wanted is not None and running is not None and wanted[0] == running and self.raised != running:
            self.raised = running
            raise wanted[1]()


def answer(job: int, text: str, filename: str, limit: float, interrupts: Interrupts, answers: queue.SimpleQueue) -> Any:
    """Analysis `job`, answered as ("done", job, analysis), ("stopped", job) or ("failed", job,
    why); the names are sent ahead, as ("named", job, analysis), once the spec has elaborated.
    An interrupt may land anywhere in `_run`, even as it ends: it is caught here, where no
    second one can come (each analysis is interrupted once at most)."""
    try:
        return _run(job, text, filename, limit, interrupts, answers)
    except Cancelled:
        return ("stopped", job)
    except OutOfTime:  # before the analysis could catch it, or after
        return ("done", job, Analysis((), stopped="reading"))
    finally:
        interrupts.running = None


def _run(job: int, text: str, filename: str, limit: float, interrupts: Interrupts, answers: queue.SimpleQueue) -> Any:
    timer = threading.Timer(limit, interrupts.ask, (job, OutOfTime))
    timer.daemon = True
    try:
        interrupts.start(job)
        timer.start()
        return ("done", job, analyse(text, filename, lambda named: answers.put(("named", job, named))))
    except Exception as exc:  # a bug of the analysis: the server logs it
        return ("failed", job, f"{type(exc).__name__}: {exc}")
    finally:
        interrupts.running = None
        timer.cancel()


def _listen(orders: IO[bytes], jobs: queue.SimpleQueue, interrupts: Interrupts) -> None:
    """Read the server's orders; the stream's end (the server has gone) ends the process."""
    while True:
        try:
            order = read_frame(orders)
        except Exception:
            order = None
        if order is None:
            os._exit(0)
        if order[0] == "analyse":
            jobs.put(order[1:])
        elif order[0] == "stop":
            interrupts.ask(order[1], Cancelled)


def _write(out: IO[bytes], answers: queue.SimpleQueue) -> None:
    while True:
        message = answers.get()
        try:
            out.write(frame(message))
            out.flush()
        except (OSError, ValueError):  # the server has gone
            os._exit(0)


def main() -> None:
    orders, out = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # whatever is printed must not fall into the answers
    interrupts = Interrupts()
    signal.signal(signal.SIGINT, interrupts.handle)
    jobs: queue.SimpleQueue = queue.SimpleQueue()
    answers: queue.SimpleQueue = queue.SimpleQueue()
    threading.Thread(target=_listen, args=(orders, jobs, interrupts), daemon=True, name="orders").start()
    threading.Thread(target=_write, args=(out, answers), daemon=True, name="answers").start()
    with contextlib.suppress(Exception):  # the real analyses will say what is wrong
        analyse(WARM_UP, "warm-up.puz")
    answers.put(("ready", 0))
    while True:
        job, text, filename, limit = jobs.get()
        answers.put(answer(job, text, filename, limit, interrupts, answers))


if __name__ == "__main__":
    try:
        main()
    except BaseException:  # nothing of a worker's end is for the user to read
        os._exit(1)
