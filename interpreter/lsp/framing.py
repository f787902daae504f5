"""The client's messages, read from its stream with every size bounded.

A message is a header (`Content-Length: N`, and perhaps `Content-Type: ...`, each line ended
by CRLF, the header by an empty line) and a body of N bytes. pygls believes the header: a
`Content-Length: 99999999999` would make it allocate that much, and die. Here a header is at
most MAX_HEADER bytes, and a body at most MAX_MESSAGE: 8 MB, the largest spec puzint reads
(1 MB, sources.MAX_BYTES) escaped in JSON at its worst, and room to spare. A header that is
too large, not a header, or whose length is not a number of bytes in those bounds (negative,
zero, garbage) is refused: the client hears why (window/logMessage), and reading resumes at
the next `Content-Length:` in the stream, so that one bad message costs that message, not the
session. A body may be large, but its bytes are skipped as they come, never held.

pygls reads through `readline` and `readexactly` (pygls.io_.run_async): `Incoming` gives it
only messages it has checked, each as a header of one line, `Content-Length: N`.

The stream is read in a thread of its own, a daemon, by its file descriptor where it has one:
a read that waits for a client that sends nothing more must not hold up the server's exit (a
thread pool's threads are waited for at exit), and a daemon thread blocked in a buffered
reader would hold its lock as the interpreter ends, which Python treats as fatal.
"""

from __future__ import annotations

import asyncio
import os
import queue
import re
import threading
from collections.abc import Callable
from typing import IO

from ..escapes import visible

MAX_MESSAGE = 8 * 1024 * 1024  # bytes a message's body may have
MAX_HEADER = 4096  # bytes a message's header may have
CHUNK = 64 * 1024  # bytes read from the stream at a time
MARK = b"Content-Length:"  # where a message starts, as far as anyone can tell
END = b"\r\n\r\n"
NAME = re.compile(rb"[A-Za-z0-9-]+")
DIGITS = re.compile(rb"[0-9]{1,12}")


class Refused(Exception):
    """A header that cannot be believed: the message is skipped, from `drop` bytes on (past
    the header, where it was read whole; else past its first byte)."""

    def __init__(self, why: str, drop: int = 1) -> None:
        super().__init__(why)
        self.drop = drop


class Incoming:
    """pygls's reader (readline, readexactly) over the client's stream, bounded (see above)."""

    def __init__(self, stream: IO[bytes], complain: Callable[[str], None]) -> None:
        self.reads = Reads(stream)
        self.complain = complain
        self.buffer = bytearray()
        self.ended = False
        self.lines: list[bytes] = []
        self.body = b""

    async def readline(self) -> bytes:
        if self.lines:
            return self.lines.pop(0)
        body = await self._message()
        if body is None:
            return b""  # the stream's end: pygls stops reading
        self.body = body
        self.lines = [b"\r\n"]
        return b"Content-Length: %d\r\n" % len(body)

    async def readexactly(self, n: int) -> bytes:
        body, self.body = self.body, b""
        return body

    async def _message(self) -> bytes | None:
        """The next message's body that can be believed (None at the stream's end)."""
        while True:
            try:
                length = await self._header()
            except Refused as refused:
                self.complain(f"puzint lsp: a message refused: {refused}; skipped to the next message")
                await self._skip(refused.drop)
                continue
            if length is None or not await self._fill(length):
                return None
            body = bytes(self.buffer[:length])
            del self.buffer[:length]
            return body

    async def _header(self) -> int | None:
        """The length the next header gives, once it is read whole and checked (None at the end)."""
        while True:
            while self.buffer[:1] in (bytearray(b"\r"), bytearray(b"\n")):  # a line end between messages
                del self.buffer[:1]
            if (end := self.buffer.find(END, 0, MAX_HEADER + len(END))) >= 0:
                break
            if len(self.buffer) >= MAX_HEADER + len(END):
                raise Refused(f"its header is longer than {MAX_HEADER:,} bytes")
            if not await self._more():
                return None
        header = bytes(self.buffer[:end])
        try:
            length = _length(header)
        except Refused as refused:
            refused.drop = end + len(END)
            raise
        del self.buffer[: end + len(END)]
        return length

    async def _skip(self, drop: int) -> None:
        """Drop the refused message: `drop` bytes, then up to the next `Content-Length:`, a
        chunk at a time."""
        del self.buffer[:drop]
        while (at := self.buffer.find(MARK)) < 0:
            del self.buffer[: max(0, len(self.buffer) - len(MARK) + 1)]  # a mark may be cut in two
            if not await self._more():
                return
        del self.buffer[:at]

    async def _fill(self, size: int) -> bool:
        """At least `size` bytes in the buffer (False if the stream ends first)."""
        while len(self.buffer) < size:
            if not await self._more():
                return False
        return True

    async def _more(self) -> bool:
        if self.ended:
            return False
        chunk = await self.reads.chunk()
        self.ended = not chunk
        self.buffer += chunk
        return bool(chunk)


def _length(header: bytes) -> int:
    """The length a header gives, if it can be believed."""
    value = None
    for line in header.split(b"\r\n"):
        name, colon, given = line.partition(b":")
        if not colon or not NAME.fullmatch(name):
            raise Refused(f"{_quoted(line)} is not a header line")
        if name.lower() == b"content-length":
            value = given.strip()
    if value is None:
        raise Refused("its header has no Content-Length")
    if not DIGITS.fullmatch(value):
        raise Refused(f"its Content-Length, {_quoted(value)}, is not a number of bytes")
    length = int(value)
    if not 0 < length <= MAX_MESSAGE:
        raise Refused(f"its Content-Length is {length:,} bytes; a message has 1 to {MAX_MESSAGE:,}")
    return length


def _quoted(data: bytes) -> str:
    text = data.decode("utf-8", errors="replace")
    return "'" + visible(text[:40]) + ("...'" if len(text) > 40 else "'")


class Reads:
    """The stream read a chunk at a time, in a daemon thread, each chunk asked for from the
    event loop (so that the client cannot send faster than the server reads)."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.read = _reader(stream)
        self.asks: queue.SimpleQueue[tuple[asyncio.AbstractEventLoop, asyncio.Future[bytes]]] = queue.SimpleQueue()
        self.thread: threading.Thread | None = None

    async def chunk(self) -> bytes:
        """The next bytes of the stream (b"" at its end)."""
        if self.thread is None:
            self.thread = threading.Thread(target=self._serve, daemon=True, name="puzint-lsp-input")
            self.thread.start()
        loop = asyncio.get_running_loop()
        future: asyncio.Future[bytes] = loop.create_future()
        self.asks.put((loop, future))
        return await future

    def _serve(self) -> None:
        while True:
            loop, future = self.asks.get()
            try:
                data = self.read()
            except (OSError, ValueError):
                data = b""
            try:
                loop.call_soon_threadsafe(_settle, future, data)
            except RuntimeError:  # the loop has closed: the server is ending
                return


def _reader(stream: IO[bytes]) -> Callable[[], bytes]:
    try:
        descriptor = stream.fileno()
    except (AttributeError, OSError, ValueError):  # not a file (a test's BytesIO)
        read1 = getattr(stream, "read1", stream.read)
        return lambda: bytes(read1(CHUNK))
    return lambda: os.read(descriptor, CHUNK)


def _settle(future: asyncio.Future[bytes], data: bytes) -> None:
    if not future.done():
        future.set_result(data)
