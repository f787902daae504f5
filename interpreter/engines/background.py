"""The kernel compiled in a process of its own while the search starts in Python.

The first compile of the kernel takes half a minute or more, once per machine. A run that
waited for it would solve nothing meanwhile; a run that compiled it in its own process
would leave the second core idle. So the planner's first try in Python goes on while a
second process compiles the kernel for the same puzzle and question (it runs the kernel's
search for a single state: what that search needs is compiled, and saved in the kernel's
cache), and ends when that process does; the kernel then loads the code from its cache.

The process only ever fills the cache, whose files are written whole and renamed into
place (`kernel.cache`): a process killed half way leaves each file as it was or complete.
One compile at a time per cache: a process that finds another compiling waits for it
(a lock file in the cache), then finds most of what it needs compiled already. A run that
ends first leaves the process to finish, so that the next run finds the kernel compiled.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import subprocess
import sys
from collections.abc import Iterator

from ..compiler import CompiledPuzzle
from .query import Query

LOCK_NAME = "compiling.lock"


class BackgroundCompile:
    """The kernel compiled for one puzzle and question in a process of its own."""

    def __init__(self, compiled: CompiledPuzzle, query: Query):
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


@contextlib.contextmanager
def _one_at_a_time(directory: str) -> Iterator[None]:
    """Hold the cache's lock file (where the platform has one): a compile already running
    is waited for."""
    try:
        import fcntl
    except ImportError:  # not on Windows: two compiles may run at once, and both are correct
        yield
        return
    handle = os.open(os.path.join(directory, LOCK_NAME), os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        os.close(handle)


def main() -> int:
    """The background process: read the order, load the puzzle the same way, and run the
    kernel's search for one state (compiling what it needs, from scratch or from the cache)."""
    from ..compiler import compile_puzzle
    from ..kernel.jit import CACHE_DIR
    from ..language.elaborate import elaborate
    from ..language.parser import parse
    from ..search import Limits
    from .kernel import KernelEngine

    if CACHE_DIR is None:
        return 1
    order = json.loads(sys.stdin.read())
    with _one_at_a_time(str(CACHE_DIR)):
        spec = parse(order["source"], order["filename"])
        compiled = compile_puzzle(elaborate(spec, order["given"]))
        KernelEngine().search(compiled, Query(**order["query"]), Limits(max_states=1, max_memory_mb=None))
    return 0


if __name__ == "__main__":
    sys.exit(main())
