"""The kernel compiled in a process of its own while the search starts in Python.

The first compile of the kernel takes half a minute or more, once per machine. A run that
waited for it would solve nothing meanwhile; a run that compiled it in its own process
would leave the second core idle. So the runner's first try in Python goes on while a
second process compiles the kernel for the same puzzle and question (it runs the kernel's
search for a single state: what that search needs is compiled, and saved in the kernel's
cache), and ends when that process does; the kernel then loads the code from its cache.

The process only ever fills the cache, whose files are written whole and renamed into
place (`kernel.compiling.cache`): a process killed half way leaves each file as it was or
complete.
One compile at a time per cache: a process that finds another compiling waits for it
(a lock file in the cache), then finds most of what it needs compiled already. A run that
ends first leaves the process to finish, so that the next run finds the kernel compiled.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import sys
import time
from collections.abc import Callable, Iterator

from ..compiler import CompiledPuzzle
from ..engines import Query
from ..files import open_lock

LOCK_NAME = "compiling.lock"


class BackgroundCompile:
    """The kernel compiled for one puzzle and question in a process of its own."""

    def __init__(self, compiled: CompiledPuzzle, query: Query):
        """The process started (subprocess imported here: only a run on one core with the
        kernel's code not in its cache starts one, and every run imports this module)."""
        import subprocess

        puzzle = compiled.puzzle
        order = {
            "source": puzzle.source,
            "filename": puzzle.filename,
            "given": dict(puzzle.given),
            "query": dataclasses.asdict(query),
        }
        self.process = subprocess.Popen(
            [sys.executable, "-m", __name__],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "PUZINT_BACKGROUND": "1"},
        )
        assert self.process.stdin is not None
        with contextlib.suppress(OSError):
            self.process.stdin.write(json.dumps(order).encode())
            self.process.stdin.close()

    def running(self) -> bool:
        return self.process.poll() is None


def possible(compiled: CompiledPuzzle) -> bool:
    """Whether a background compile can help: the kernel's cache has a place (else nothing
    compiled elsewhere could be loaded), the spec can be read again (its text is known),
    and this is not itself a background process."""
    from ..kernel.where import cache_base

    return bool(compiled.puzzle.source) and cache_base() is not None and "PUZINT_BACKGROUND" not in os.environ


class NotWanted(Exception):
    """The compile waited for another, and its run has ended meanwhile: it is left undone
    (the other compile leaves most of it in the cache)."""


@contextlib.contextmanager
def _one_at_a_time(directory: str, wanted: Callable[[], bool]) -> Iterator[None]:
    """Hold the cache's lock file (where the platform has one): a compile already running
    is waited for, as long as `wanted()` says the run still wants this one (else NotWanted:
    runs that ended while a compile ran leave no queue of processes behind)."""
    try:
        import fcntl
    except ImportError:  # not on Windows: two compiles may run at once, and both are correct
        yield
        return
    handle = open_lock(os.path.join(directory, LOCK_NAME))  # a link or a FIFO put there: refused
    try:
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if not wanted():
                    raise NotWanted from None
                time.sleep(0.2)
        yield
    finally:
        os.close(handle)


def compile_here(compiled: CompiledPuzzle, query: Query, wanted: Callable[[], bool] = lambda: True) -> None:
    """Compile what the kernel's search for this puzzle and question runs on, in this
    process (into the cache, where there is one, holding its lock while `wanted()`): the
    search, run for one state."""
    from ..engines.registry import COMPILED
    from ..kernel.compiling.jit import CACHE_DIR
    from ..search import Limits

    one_state = Limits(max_states=1, max_memory_mb=None)
    if CACHE_DIR is None:
        COMPILED.search(compiled, query, one_state)
        return
    with _one_at_a_time(str(CACHE_DIR), wanted):
        COMPILED.search(compiled, query, one_state)


def main() -> int:
    """The background process: read the order, load the puzzle the same way, and compile."""
    from ..compiler import compile_puzzle
    from ..kernel.compiling.jit import CACHE_DIR
    from ..language.elaborate import elaborate
    from ..language.parser import parse

    if CACHE_DIR is None:
        return 1
    order = json.loads(sys.stdin.read())
    spec = parse(order["source"], order["filename"])
    compile_here(compile_puzzle(elaborate(spec, order["given"])), Query(**order["query"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
