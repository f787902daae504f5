"""The server: pygls on stdin/stdout, documents analysed in one worker thread, answers from the
latest analysis.

Each change is analysed away from the protocol's event loop, so that a slow compile (a board
of thousands of cells takes a second or two) never holds up a hover, and one at a time (the
parser is not made to be shared between threads). A change that comes while another waits
makes the waiting one moot: it is skipped, and only the latest text is analysed. Diagnostics
are published from the event loop, in order, and only for the latest text.

An unexpected exception in a handler is reported to the client as a log message
(window/logMessage) and the request answered with nothing: the server goes on, and no
traceback reaches the user.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import sys
from collections.abc import Awaitable, Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import PurePosixPath
from typing import Any, TypeVar
from urllib.parse import unquote, urlparse

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from .. import __version__
from ..errors import Diagnostic
from ..escapes import visible
from .analysis import Analysis, analyse
from .answers import completions, definitions, hover, lookup
from .positions import Positions

Result = TypeVar("Result")


class PuzServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("puzint", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Full)
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="puzint-analysis")
        self.latest: dict[str, int] = {}  # each open document's latest change, numbered
        self.pending: dict[str, asyncio.Future[Analysis | None]] = {}
        self.changes = 0
        self.publishing: set[asyncio.Task[None]] = set()
        self._register()

    def _register(self) -> None:
        handlers: dict[str, tuple[Callable[[Any], Awaitable[Any]], Any]] = {
            types.TEXT_DOCUMENT_DID_OPEN: (self.opened, None),
            types.TEXT_DOCUMENT_DID_CHANGE: (self.changed, None),
            types.TEXT_DOCUMENT_DID_CLOSE: (self.closed, None),
            types.TEXT_DOCUMENT_HOVER: (self.hover, None),
            types.TEXT_DOCUMENT_DEFINITION: (self.definition, None),
            types.TEXT_DOCUMENT_COMPLETION: (self.completion, types.CompletionOptions()),
        }
        for method, (handler, options) in handlers.items():
            self.feature(method, options)(self.guarded(method, handler))

    # ---- documents

    async def opened(self, params: types.DidOpenTextDocumentParams) -> None:
        self.analyse(params.text_document.uri)

    async def changed(self, params: types.DidChangeTextDocumentParams) -> None:
        self.analyse(params.text_document.uri)

    async def closed(self, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        self.latest.pop(uri, None)
        self.pending.pop(uri, None)
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    def analyse(self, uri: str) -> None:
        """Analyse the document's text as it now is, in the worker, and publish what is found."""
        document = self.workspace.get_text_document(uri)
        self.changes += 1
        change = self.latest[uri] = self.changes
        text, version = document.source, document.version
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self.worker, self._analysed_if_latest, uri, change, text)
        self.pending[uri] = future
        task = loop.create_task(self.guarded("diagnostics", self._publish)(uri, change, text, version, future))
        self.publishing.add(task)
        task.add_done_callback(self.publishing.discard)

    def _analysed_if_latest(self, uri: str, change: int, text: str) -> Analysis | None:
        """In the worker: the analysis, unless the text has changed again meanwhile."""
        if self.latest.get(uri) != change:
            return None
        return analyse(text, _filename(uri))

    async def _publish(
        self, uri: str, change: int, text: str, version: int | None, future: asyncio.Future[Analysis | None]
    ) -> None:
        analysis = await future
        if analysis is None or self.latest.get(uri) != change:
            return
        positions = Positions(text, self._encoding())
        diagnostics = [_diagnostic(problem, positions) for problem in analysis.problems]
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=version)
        )

    async def current(self, uri: str) -> tuple[Analysis, Positions] | None:
        """The analysis of the document's latest text (waiting for it), with its positions."""
        while (future := self.pending.get(uri)) is not None:
            try:
                analysis = await asyncio.shield(future)
            except Exception:  # logged where the diagnostics are published
                return None
            if future is self.pending.get(uri):
                if analysis is None:
                    return None
                return analysis, Positions(self.workspace.get_text_document(uri).source, self._encoding())
        return None

    # ---- requests

    async def hover(self, params: types.HoverParams) -> types.Hover | None:
        state = await self.current(params.text_document.uri)
        if state is None:
            return None
        analysis, positions = state
        found = lookup(analysis, positions, params.position)
        return None if found is None else hover(found, analysis, positions, params.position.line)

    async def definition(self, params: types.DefinitionParams) -> list[types.Location] | None:
        state = await self.current(params.text_document.uri)
        if state is None:
            return None
        analysis, positions = state
        found = lookup(analysis, positions, params.position)
        return None if found is None else definitions(found, params.text_document.uri, positions)

    async def completion(self, params: types.CompletionParams) -> types.CompletionList | None:
        state = await self.current(params.text_document.uri)
        return completions(state[0] if state is not None else Analysis(()))

    # ---- errors

    def guarded(
        self, what: str, handler: Callable[..., Awaitable[Result]]
    ) -> Callable[..., Coroutine[Any, Any, Result | None]]:
        """The handler, with an unexpected exception logged to the client instead of raised."""

        @functools.wraps(handler)
        async def run(*args: Any) -> Result | None:
            try:
                return await handler(*args)
            except Exception as exc:
                self.log(f"puzint lsp: internal error in {what}: {type(exc).__name__}: {visible(str(exc))}")
                return None

        return run

    def log(self, message: str) -> None:
        self.window_log_message(types.LogMessageParams(type=types.MessageType.Error, message=message))

    def report_server_error(self, error: Exception, source: Any) -> None:
        """pygls's own errors (a message that cannot be read): logged; pygls's default would
        also stop the server."""
        self.log(f"puzint lsp: {type(error).__name__}: {visible(str(error))}")

    def _encoding(self) -> str:
        """The position encoding agreed at initialize: "utf-16" unless the client offered another."""
        encoding = self.workspace.position_encoding
        if isinstance(encoding, types.PositionEncodingKind):
            return encoding.value
        return encoding or types.PositionEncodingKind.Utf16.value


def _diagnostic(problem: Diagnostic, positions: Positions) -> types.Diagnostic:
    """A diagnostic as `puzint run` words it: the message, then what was expected."""
    message = visible(problem.message)
    if problem.expected is not None:
        message += f"\nexpected {visible(problem.expected)}"
    return types.Diagnostic(
        range=positions.range_of(problem.pos),
        message=message,
        severity=types.DiagnosticSeverity.Error,
        source="puzint",
    )


def _filename(uri: str) -> str:
    """The document's file name, as a spec's name (`file:///home/me/frog.puz`: frog.puz)."""
    return PurePosixPath(unquote(urlparse(uri).path)).name or "<spec>"


def serve() -> None:
    """Speak LSP on stdin/stdout until the client says exit. Whatever else would print to
    stdout goes to stderr: stdout carries the protocol alone. pygls's own log (tracebacks of
    messages it cannot read) is kept for PUZINT_DEBUG=1: the client hears of those as log
    messages (report_server_error)."""
    if not os.environ.get("PUZINT_DEBUG"):
        logging.getLogger("pygls").setLevel(logging.CRITICAL)
    channel = sys.stdout.buffer
    sys.stdout = sys.stderr
    server = PuzServer()
    try:
        server.start_io(sys.stdin.buffer, channel)
    finally:
        server.worker.shutdown(wait=False, cancel_futures=True)
