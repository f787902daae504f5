"""The server: pygls, reading the client's stream through framing.py (every message bounded),
documents analysed in worker processes (pool.py), answers from the latest analysis.

Each change is analysed in a worker process, away from the event loop and from the other
documents: a spec that takes minutes to compile holds its own worker, while other documents'
diagnostics, hover and completion are answered from the others. A change cancels its
document's analysis under way (the worker stops it and is free for the next). An analysis
stops at a time limit, TIME_LIMIT (5 s), and the diagnostics then say so (a warning, with the
mistakes found before it); the client may set another in its initialization options
(`analysisTimeLimit`, seconds), and the number of analyses at once (`analysisWorkers`; by
default as many as the cores, 2 to 4). Diagnostics are published from the event loop, in
order, and only for the latest text. Hover, definition and completion wait for the names the
latest text declares, which the worker sends as soon as the spec has elaborated, not for its
compile.

`shutdown` stops every worker; `exit` ends the server at once, whatever runs.

An unexpected exception in a handler is reported to the client as a log message
(window/logMessage) and the request answered with nothing: the server goes on, and no
traceback reaches the user.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import sys
import threading
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import IO, Any, BinaryIO, TypeVar
from urllib.parse import unquote, urlparse

from lsprotocol import types
from lsprotocol.converters import get_converter
from pygls.io_ import StdoutWriter, run_async
from pygls.lsp.server import LanguageServer

from .. import __version__
from ..errors import NOWHERE, Diagnostic, suggested
from ..escapes import visible
from .analysis import Analysis
from .answers import TOKEN, completions, definitions, hover, keyword_hover, lookup
from .context import context_at, in_comment_or_text
from .framing import Incoming
from .pool import TIME_LIMIT, Workers
from .positions import Positions

Result = TypeVar("Result")
converter = get_converter()
MAX_TIME_LIMIT = 600.0  # seconds: the longest time limit a client may set
MAX_WORKERS = 16


@dataclass
class Pending:
    """A document's latest text, being analysed."""

    text: str
    version: int | None
    names: asyncio.Future[Analysis] = field(default_factory=lambda: asyncio.get_running_loop().create_future())
    task: asyncio.Task[None] | None = None

    def drop(self) -> None:
        """Stop the analysis: a newer text replaces this one, or none does (closed, shut down).
        Whoever waits for its names is told (`current`) even if the task never started."""
        if self.task is not None:
            self.task.cancel()
        self.names.cancel()


class PuzServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("puzint", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Full)
        self.time_limit = TIME_LIMIT
        self.size = max(2, min(4, os.cpu_count() or 1))
        self.pool: Workers | None = None  # started with the event loop
        self.pending: dict[str, Pending] = {}
        self.reporting = False
        self._register()

    def _register(self) -> None:
        handlers: dict[str, tuple[Callable[[Any], Awaitable[Any]], Any]] = {
            types.TEXT_DOCUMENT_DID_OPEN: (self.opened, None),
            types.TEXT_DOCUMENT_DID_CHANGE: (self.changed, None),
            types.TEXT_DOCUMENT_DID_CLOSE: (self.closed, None),
            types.TEXT_DOCUMENT_HOVER: (self.hover, None),
            types.TEXT_DOCUMENT_DEFINITION: (self.definition, None),
            types.TEXT_DOCUMENT_COMPLETION: (self.completion, types.CompletionOptions()),
            types.TEXT_DOCUMENT_CODE_ACTION: (
                self.code_action,
                types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
            ),
        }
        for method, (handler, options) in handlers.items():
            self.feature(method, options)(self.guarded(method, handler))
        # synchronous, so that pygls runs them before it answers (and, for exit, before it ends)
        self.feature(types.INITIALIZE)(_function(self.initialize))
        self.feature(types.SHUTDOWN)(_function(self.shut_down))

    # ---- the life cycle

    def initialize(self, params: types.InitializeParams) -> None:
        """The client's options, checked (a wrong one is logged, and the default kept)."""
        options = params.initialization_options
        if isinstance(options, dict):
            limit = options.get("analysisTimeLimit")
            if limit is not None:
                if _number(limit) and 0 < limit <= MAX_TIME_LIMIT:
                    self.time_limit = float(limit)
                else:
                    self.log(f"puzint lsp: analysisTimeLimit is seconds, more than 0 and at most {MAX_TIME_LIMIT:g}")
            size = options.get("analysisWorkers")
            if size is not None:
                if _number(size) and 1 <= size <= MAX_WORKERS and size == int(size):
                    self.size = int(size)
                else:
                    self.log(f"puzint lsp: analysisWorkers is a whole number from 1 to {MAX_WORKERS}")
        pool = self.workers()
        pool.time_limit, pool.size = self.time_limit, self.size

    def shut_down(self, params: None) -> None:
        """No more work: every analysis stopped, every worker ended."""
        for pending in self.pending.values():
            pending.drop()
        if self.pool is not None:
            self.pool.close_now()

    def workers(self) -> Workers:
        if self.pool is None:
            self.pool = Workers(self.time_limit, self.size)
        return self.pool

    def serve_io(self, stdin: IO[bytes], stdout: BinaryIO) -> None:
        """pygls's start_io, but for the client's messages bounded (framing.py), and read by a
        thread that does not hold up the exit; the workers are ended within the event loop,
        which ends at `exit` or at the end of the client's stream."""
        self.protocol.set_writer(StdoutWriter(stdout))
        with contextlib.suppress(SystemExit, KeyboardInterrupt, BrokenPipeError):
            asyncio.run(self._serve(stdin))

    async def _serve(self, stdin: IO[bytes]) -> None:
        self.workers().warm()  # a worker starts now, while the client settles in
        try:
            await run_async(
                stop_event=threading.Event(),
                reader=Incoming(stdin, self.log),
                protocol=self.protocol,
                logger=logging.getLogger("pygls.server"),
                error_handler=self.report_server_error,
            )
        finally:
            if self.pool is not None:
                await self.pool.close()

    # ---- documents

    async def opened(self, params: types.DidOpenTextDocumentParams) -> None:
        self.analyse(params.text_document.uri)

    async def changed(self, params: types.DidChangeTextDocumentParams) -> None:
        self.analyse(params.text_document.uri)

    async def closed(self, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        pending = self.pending.pop(uri, None)
        if pending is not None:
            pending.drop()
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    def analyse(self, uri: str) -> None:
        """Analyse the document's text as it now is, in a worker, and publish what is found;
        the analysis of its previous text, if it is still under way, is stopped."""
        document = self.workspace.get_text_document(uri)
        previous = self.pending.get(uri)
        pending = self.pending[uri] = Pending(document.source, document.version)
        if previous is not None:
            previous.drop()
        pending.task = asyncio.get_running_loop().create_task(self.guarded("diagnostics", self._publish)(uri, pending))

    async def _publish(self, uri: str, pending: Pending) -> None:
        try:
            analysis = await self.workers().analyse(
                pending.text, _filename(uri), functools.partial(_settle, pending.names)
            )
        except BaseException:
            pending.names.cancel()  # whoever waits for the names is told (current)
            raise
        _settle(pending.names, analysis)
        if self.pending.get(uri) is not pending:
            return
        positions = Positions(pending.text, self._encoding())
        diagnostics = [_diagnostic(problem, positions) for problem in analysis.problems]
        if analysis.stopped is not None:
            diagnostics.append(_stopped(analysis.stopped, self.time_limit, positions))
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=pending.version)
        )

    async def current(self, uri: str) -> tuple[Analysis, Positions] | None:
        """The names the document's latest text declares (waiting for them), with its positions."""
        while (pending := self.pending.get(uri)) is not None:
            try:
                analysis = await asyncio.shield(pending.names)
            except asyncio.CancelledError:
                if not pending.names.cancelled():
                    raise  # this request is cancelled, not the analysis
                if pending is self.pending.get(uri):
                    return None  # the analysis failed (logged where it is published)
                continue  # a newer text's, if any, is waited for
            if pending is self.pending.get(uri):
                return analysis, Positions(pending.text, self._encoding())
        return None

    # ---- requests

    async def hover(self, params: types.HoverParams) -> types.Hover | None:
        state = await self.current(params.text_document.uri)
        if state is None:
            return None
        analysis, positions = state
        found = lookup(analysis, positions, params.position)
        if found is None:
            return keyword_hover(positions, params.position)
        return hover(found, analysis, positions, params.position.line)

    async def definition(self, params: types.DefinitionParams) -> list[types.Location] | None:
        state = await self.current(params.text_document.uri)
        if state is None:
            return None
        analysis, positions = state
        found = lookup(analysis, positions, params.position)
        return None if found is None else definitions(found, params.text_document.uri, positions)

    async def completion(self, params: types.CompletionParams) -> types.CompletionList | None:
        state = await self.current(params.text_document.uri)
        analysis = state[0] if state is not None else Analysis(())
        document = self.workspace.get_text_document(params.text_document.uri)
        positions = Positions(document.source, self._encoding())
        index, column = params.position.line, positions.column_at(params.position)
        if in_comment_or_text(positions.line(index), column):
            return types.CompletionList(is_incomplete=False, items=[])
        return completions(analysis, context_at(positions, index, column))

    async def code_action(self, params: types.CodeActionParams) -> list[types.CodeAction] | None:
        """A quick fix for each diagnostic that says "did you mean X": X in place of the name
        (the diagnostic carries both, `_diagnostic`)."""
        actions = []
        for diagnostic in params.context.diagnostics:
            data = diagnostic.data
            if not (isinstance(data, dict) and isinstance(data.get("replacement"), str)):
                continue
            at = _range(data.get("range")) or diagnostic.range
            edit = types.TextEdit(range=at, new_text=data["replacement"])
            actions.append(
                types.CodeAction(
                    title=f"Change to '{data['replacement']}'",
                    kind=types.CodeActionKind.QuickFix,
                    diagnostics=[diagnostic],
                    edit=types.WorkspaceEdit(changes={params.text_document.uri: [edit]}),
                    is_preferred=True,
                )
            )
        return actions

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
        with contextlib.suppress(OSError):  # the client has gone
            self.window_log_message(types.LogMessageParams(type=types.MessageType.Error, message=message))

    def report_server_error(self, error: Exception, source: Any) -> None:
        """pygls's own errors (a message that cannot be read): logged; pygls's default would
        also stop the server. Not again while one is logged: pygls reports a failure to send
        the log message too, and so on without end (the client's stream closed at exit)."""
        if self.reporting:
            return
        self.reporting = True
        try:
            self.log(f"puzint lsp: {type(error).__name__}: {visible(str(error))}")
        finally:
            self.reporting = False

    def _encoding(self) -> str:
        """The position encoding agreed at initialize: "utf-16" unless the client offered another."""
        encoding = self.workspace.position_encoding
        if isinstance(encoding, types.PositionEncodingKind):
            return encoding.value
        return encoding or types.PositionEncodingKind.Utf16.value


def _diagnostic(problem: Diagnostic, positions: Positions) -> types.Diagnostic:
    """A diagnostic as `puzint run` words it: the message, then what was expected; one that
    suggests a name carries it, and the range of the name it would replace, for the quick fix."""
    message = visible(problem.message)
    if problem.expected is not None:
        message += f"\nexpected {visible(problem.expected)}"
    at = positions.range_of(problem.pos)
    return types.Diagnostic(
        range=at,
        message=message,
        severity=types.DiagnosticSeverity.Error,
        source="puzint",
        data=_replacement(problem, positions),
    )


def _replacement(problem: Diagnostic, positions: Positions) -> dict[str, Any] | None:
    """{"replacement": the name suggested, "range": where the misspelt name is written}: the
    diagnostic's range if it is that name, else the name in it that the message quotes."""
    name = suggested(problem.message)
    if name is None or problem.pos.line <= 0:
        return None
    index = problem.pos.line - 1
    line = positions.line(index)
    first = problem.pos.column - 1 + (1 if index == 0 and positions.bom else 0)
    marked = line[first : first + max(problem.pos.width, 1)]
    quoted = [
        word for word in TOKEN.finditer(marked) if word.group() == marked or f"'{word.group()}'" in problem.message
    ]
    if quoted:
        start, end = first + quoted[0].start(), first + quoted[0].end()
    else:  # marked elsewhere on its line: the one word of the line that the message quotes
        elsewhere = [word for word in TOKEN.finditer(line) if f"'{word.group()}'" in problem.message]
        if len(elsewhere) != 1:
            return None
        start, end = elsewhere[0].start(), elsewhere[0].end()
    span = types.Range(start=positions.position(index, start), end=positions.position(index, end))
    return {"replacement": name, "range": converter.unstructure(span)}


def _range(value: object) -> types.Range | None:
    try:
        return converter.structure(value, types.Range) if isinstance(value, dict) else None
    except Exception:
        return None


def _stopped(stage: str, limit: float, positions: Positions) -> types.Diagnostic:
    """The time limit's mark: a warning (the spec may well be right), at the top of the file."""
    return types.Diagnostic(
        range=positions.range_of(NOWHERE),
        message=f"puzint stopped checking this spec at its time limit of {limit:g} s, while {stage}: "
        "mistakes past that point are not shown (`puzint run` checks the whole spec)",
        severity=types.DiagnosticSeverity.Warning,
        source="puzint",
    )


def _settle(future: asyncio.Future[Analysis], analysis: Analysis) -> None:
    if not future.done():
        future.set_result(analysis)


def _function(method: Callable[[Any], None]) -> Callable[[Any], None]:
    """A method as a function: pygls marks what it registers, and a method cannot be marked."""

    def handler(params: Any) -> None:
        method(params)

    return handler


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _filename(uri: str) -> str:
    """The document's file, as a spec's name: its path where the URI names one on this
    machine (`file:///home/me/frog.puz`), so that a `level N from "FILE"` is read beside it;
    else its name (`untitled:Untitled-1`), and such a spec has no folder to read levels in."""
    parsed = urlparse(uri)
    path = unquote(parsed.path)
    if parsed.scheme == "file" and parsed.netloc in ("", "localhost") and os.path.isfile(path):
        return path
    return PurePosixPath(path).name or "<spec>"


def serve() -> None:
    """Speak LSP on stdin/stdout until the client says exit. Whatever else would print to
    stdout goes to stderr: stdout carries the protocol alone. pygls's and asyncio's own logs
    (tracebacks of messages pygls cannot read) are kept for PUZINT_DEBUG=1: the client hears
    of those as log messages (report_server_error)."""
    if not os.environ.get("PUZINT_DEBUG"):
        logging.getLogger("pygls").setLevel(logging.CRITICAL)
        logging.getLogger("asyncio").setLevel(logging.CRITICAL)  # e.g. a worker reaped twice
    channel = sys.stdout.buffer
    sys.stdout = sys.stderr
    PuzServer().serve_io(sys.stdin.buffer, channel)
