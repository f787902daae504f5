"""Shared helpers: build puzzles from spec text, and find the repository's files."""

from __future__ import annotations

import errno
import os
import threading
from pathlib import Path

import pytest
from puzint.compiler import CompiledPuzzle, compile_puzzle
from puzint.language.elaborate import elaborate
from puzint.language.parser import parse
from puzint.model import Puzzle

# Every run races afresh: no test's engine is chosen by what an earlier run answered first
# (engines.answered; its own tests turn it on, in a directory of their own).
os.environ["PUZINT_REMEMBER"] = "0"

ROOT = Path(__file__).resolve().parent.parent
SPECS = ROOT / "specs"

# moves whose costs each fit a 64-bit word, and whose sum (12 of them) does not
DEAR_MOVES = """
puzzle "dear moves"
counter C = 0 in 0..20
goal when C == 12
move inc: set C = C + 1 cost 999999999999999999
search cheapest
"""


def puzzle_from(text: str, **params: object) -> Puzzle:
    return elaborate(parse(text, "test.puz"), {k: str(v) for k, v in params.items()})


def compiled_from(text: str, **params: object) -> CompiledPuzzle:
    return compile_puzzle(puzzle_from(text, **params))


@pytest.fixture
def root() -> Path:
    return ROOT


@pytest.fixture
def read_only_file_system(monkeypatch: pytest.MonkeyPatch) -> None:
    """No new file can be made (EROFS, as on a read-only or immutable folder): the tests run
    as root in CI, where a folder's mode refuses nothing. Other opens go through."""
    opened = os.open

    def open_but_create(path: str, flags: int, mode: int = 0o777, *, dir_fd: int | None = None) -> int:
        if flags & os.O_CREAT:
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), path)
        return opened(path, flags, mode, dir_fd=dir_fd)

    monkeypatch.setattr(os, "open", open_but_create)


class Terminal:
    """A pseudo-terminal for a child's output, read as it is written, so that a test can wait
    for what a progress or status line says (the search has begun, the cases run)."""

    def __init__(self) -> None:
        import pty

        self.master, self.child = pty.openpty()
        self.text = bytearray()
        self.lock = threading.Condition()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.ended = False

    def _read(self) -> None:
        while True:
            try:
                chunk = os.read(self.master, 4096)
            except OSError:  # the child has closed it: it ended
                chunk = b""
            with self.lock:
                self.text.extend(chunk)
                self.ended = not chunk
                self.lock.notify_all()
            if not chunk:
                break

    def wait_for(self, *words: bytes) -> None:
        """Until the output holds every word (or the child has ended: the test then fails on
        what it finds)."""
        with self.lock:
            self.lock.wait_for(lambda: self.ended or all(word in self.text for word in words), timeout=120)
