"""A small LSP client for the tests: `python -m puzint lsp` as a subprocess, spoken to in
JSON-RPC with Content-Length framing. Every wait has a timeout, so that a server that hangs
fails a test instead of blocking the run."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 10.0  # seconds any one answer may take


class Client:
    def __init__(self, command: list[str] | None = None) -> None:
        """The server started by `command` (by default `python -m puzint lsp`)."""
        self.process = subprocess.Popen(
            command or [sys.executable, "-m", "puzint", "lsp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=ROOT,
        )
        self.messages: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.notifications: list[dict[str, Any]] = []
        self.ids = 0
        assert self.process.stdout is not None
        threading.Thread(target=self._read, args=(self.process.stdout,), daemon=True).start()

    def _read(self, stream: IO[bytes]) -> None:
        """Frames from the server, one message each, until the stream ends (then None)."""
        try:
            while True:
                headers: dict[str, str] = {}
                while (line := stream.readline()) not in (b"\r\n", b""):
                    name, _, value = line.decode("ascii").partition(":")
                    headers[name.strip().lower()] = value.strip()
                if not line:
                    break
                body = stream.read(int(headers["content-length"]))
                self.messages.put(json.loads(body))
        finally:
            self.messages.put(None)

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        self.send_bytes(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def send_bytes(self, data: bytes) -> None:
        """Bytes as they are, framed or not."""
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def notify(self, method: str, params: Any) -> None:
        self.send({"method": method, "params": params})

    def request(self, method: str, params: Any) -> Any:
        """The result of a request (the notifications that come first are kept)."""
        self.ids += 1
        self.send({"id": self.ids, "method": method, "params": params})
        message = self._next(lambda m: m.get("id") == self.ids and "method" not in m)
        assert "error" not in message, message
        return message["result"]

    def notification(self, method: str, uri: str | None = None) -> dict[str, Any]:
        """The params of the next notification of `method` (for the document `uri`)."""
        for at, kept in enumerate(self.notifications):
            if kept["method"] == method and (uri is None or kept["params"].get("uri") == uri):
                return self.notifications.pop(at)["params"]
        found = self._next(lambda m: m.get("method") == method and (uri is None or m["params"].get("uri") == uri))
        return found["params"]

    def _next(self, wanted: Any) -> dict[str, Any]:
        deadline = time.monotonic() + TIMEOUT
        while True:
            left = deadline - time.monotonic()
            try:
                message = self.messages.get(timeout=max(left, 0.001))
            except queue.Empty:
                raise AssertionError(f"no answer from the server in {TIMEOUT} s") from None
            if message is None:
                raise AssertionError("the server closed its output")
            if wanted(message):
                return message
            if "method" in message and "id" not in message:
                self.notifications.append(message)
            elif "method" in message:  # a request from the server (none expected): answered with nothing
                self.send({"id": message["id"], "result": None})

    def stderr(self) -> bytes | None:
        """What the server wrote on stderr, once it ends (None if it has not within TIMEOUT):
        it ends when every process that holds it has, the server and its workers alike."""
        assert self.process.stderr is not None
        stream = self.process.stderr
        written: list[bytes] = []
        ended = threading.Event()

        def drain() -> None:
            while data := stream.read(65536):
                written.append(data)
            ended.set()

        threading.Thread(target=drain, daemon=True).start()
        return b"".join(written) if ended.wait(TIMEOUT) else None

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=TIMEOUT)
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()
