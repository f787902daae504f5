"""`puzint lsp` stays responsive whatever a document costs and whatever the client sends:
each document is analysed in a worker process that a new edit stops, with a time limit that
the diagnostics report; a document that takes minutes to compile holds up no other; `exit`
ends the server and its workers while a compile runs; a message whose Content-Length cannot be
believed is refused, and the server goes on.

SLOW is a spec whose compile takes minutes (a knight's tour on the largest board, 64 x 64,
with a hundred moves, each compiled for every square), so that a test's few steps, which take
a second or two, all happen while it compiles. Every wait is for a message, with a timeout."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path
from typing import Any

import pytest
from puzint.lsp.framing import MAX_HEADER, MAX_MESSAGE, Incoming
from puzint.lsp.pool import AnalysisFailed, Workers

from .client import TIMEOUT, Client
from .test_server import FROG, at, open_document, span

KNIGHTS = (Path(__file__).resolve().parents[2] / "specs" / "knights_tour.puz").read_text(encoding="utf-8")
SLOW = KNIGHTS.replace("param n = 8", "param n = 64") + "".join(
    f"move leap{i}: N _ -> v N along knight\n" for i in range(100)
)
KNIGHT = "piece N knight"  # what hover on the N of `start N _*(n*n - 1)` (line 11, 0-based 10) shows


def started(options: dict[str, Any] | None = None) -> Client:
    client = Client()
    params: dict[str, Any] = {"processId": None, "rootUri": None, "capabilities": {}}
    if options is not None:
        params["initializationOptions"] = options
    client.request("initialize", params)
    client.notify("initialized", {})
    return client


def open_slow(client: Client, name: str = "slow.puz") -> str:
    """Open SLOW and return its URI once its compile is under way: hover answers from the
    names, which the worker sends as the compile starts."""
    uri = f"file:///specs/{name}"
    client.notify(
        "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "puz", "version": 1, "text": SLOW}}
    )
    assert KNIGHT in at(client, "textDocument/hover", uri, 10, 6)["contents"]["value"]
    return uri


def published_for(client: Client, uri: str) -> list[dict[str, Any]]:
    """The diagnostics published so far for `uri` (among the notifications kept unread)."""
    return [
        m["params"]
        for m in client.notifications
        if m["method"] == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
    ]


def test_a_slow_document_holds_up_no_other() -> None:
    client = started({"analysisTimeLimit": 600})
    try:
        slow = open_slow(client)
        uri, diagnostics = open_document(client, "frog.puz", FROG)
        assert diagnostics == []
        assert "piece B black" in at(client, "textDocument/hover", uri, 10, 6)["contents"]["value"]
        labels = [item["label"] for item in at(client, "textDocument/completion", uri, 10, 9)["items"]]
        assert labels == ["n"]  # the `n` of `start B*n`: a parameter
        assert published_for(client, slow) == []  # still compiling
    finally:
        client.close()


def test_an_edit_stops_the_analysis_of_the_text_before() -> None:
    """With one worker: the edit's diagnostics could not come before the slow compile ended,
    minutes later, had the edit not stopped it."""
    client = started({"analysisTimeLimit": 600, "analysisWorkers": 1})
    try:
        slow = open_slow(client)
        change = {"textDocument": {"uri": slow, "version": 2}, "contentChanges": [{"text": FROG}]}
        client.notify("textDocument/didChange", change)
        assert client.notification("textDocument/publishDiagnostics", slow) == {
            "uri": slow,
            "version": 2,
            "diagnostics": [],
        }
        assert published_for(client, slow) == []  # nothing for the text before
        _, diagnostics = open_document(client, "another.puz", FROG)  # the worker is free again
        assert diagnostics == []
    finally:
        client.close()


def test_an_analysis_stops_at_its_time_limit_and_says_so() -> None:
    client = started({"analysisTimeLimit": 1})
    try:
        uri, diagnostics = open_document(client, "slow.puz", SLOW)
        assert diagnostics == [
            {
                "range": span(0, 0, 0),
                "message": "puzint stopped checking this spec at its time limit of 1 s, while compiling: "
                "mistakes past that point are not shown (`puzint run` checks the whole spec)",
                "severity": 2,
                "source": "puzint",
            }
        ]
        assert KNIGHT in at(client, "textDocument/hover", uri, 10, 6)["contents"]["value"]  # the names are kept
        change = {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": FROG}]}
        client.notify("textDocument/didChange", change)
        assert client.notification("textDocument/publishDiagnostics", uri)["diagnostics"] == []
    finally:
        client.close()


def test_a_wrong_option_is_logged_and_the_default_kept() -> None:
    client = started({"analysisTimeLimit": -3, "analysisWorkers": "many"})
    try:
        logged = [client.notification("window/logMessage")["message"] for _ in range(2)]
        assert logged == [
            "puzint lsp: analysisTimeLimit is seconds, more than 0 and at most 600",
            "puzint lsp: analysisWorkers is a whole number from 1 to 16",
        ]
        assert open_document(client, "frog.puz", FROG)[1] == []
    finally:
        client.close()


def test_exit_ends_the_server_and_its_workers_while_a_compile_runs() -> None:
    client = started({"analysisTimeLimit": 600})
    try:
        open_slow(client)
        assert client.request("shutdown", None) is None
        client.notify("exit", None)
        assert client.process.wait(timeout=TIMEOUT) == 0
        assert client.stderr() == b""  # nothing of the server is left, and it said nothing
    finally:
        client.close()


def test_the_workers_end_with_the_server_however_it_ends() -> None:
    client = started({"analysisTimeLimit": 600})
    try:
        open_slow(client)
        client.process.kill()
        client.process.wait(timeout=TIMEOUT)
        assert client.stderr() is not None  # its workers, which held it too, have ended
    finally:
        client.close()


def test_a_stopped_worker_is_used_again_and_a_lost_one_replaced() -> None:
    """The pool itself, in this process: a stop frees the worker for the next analysis (it is
    not killed: a new one would cost half a second); a worker lost mid-analysis fails that
    analysis, and the next one is given a new worker."""

    async def run() -> None:
        pool = Workers(time_limit=600, size=1)
        try:
            for lost in (False, True):
                named = asyncio.Event()
                slow = asyncio.ensure_future(pool.analyse(SLOW, "slow.puz", lambda _, told=named: told.set()))
                await asyncio.wait_for(named.wait(), TIMEOUT)  # compiling
                (worker,) = pool.workers
                if lost:
                    worker.process.kill()
                    with pytest.raises(AnalysisFailed, match="worker process ended"):
                        await asyncio.wait_for(slow, TIMEOUT)
                else:
                    slow.cancel()
                analysis = await asyncio.wait_for(pool.analyse(FROG, "frog.puz", lambda _: None), TIMEOUT)
                assert analysis.problems == () and analysis.stopped is None
                assert (pool.workers != [worker]) == lost
        finally:
            await pool.close()
        assert pool.started == set()  # every worker ended, and reaped

    asyncio.run(run())


# ---- messages that cannot be believed


def test_a_message_too_large_or_garbled_is_refused_and_the_server_goes_on() -> None:
    client = started()
    try:
        refusals = {
            b"Content-Length: 99999999999\r\n\r\n{}": "its Content-Length is 99,999,999,999 bytes; "
            f"a message has 1 to {MAX_MESSAGE:,}",
            b"Content-Length: -5\r\n\r\n{}": "its Content-Length, '-5', is not a number of bytes",
            b"Content-Length: lots\r\n\r\n": "its Content-Length, 'lots', is not a number of bytes",
            b"Content-Type: text\r\n\r\n{}": "its header has no Content-Length",
            b"X" * 5000: f"its header is longer than {MAX_HEADER:,} bytes",
        }
        for sent, why in refusals.items():
            client.send_bytes(sent)
            logged = client.notification("window/logMessage")
            assert logged == {
                "type": 1,
                "message": f"puzint lsp: a message refused: {why}; skipped to the next message",
            }
            assert open_document(client, f"frog{len(sent)}.puz", FROG)[1] == []  # the next message is read
    finally:
        client.close()


def test_a_large_body_is_skipped_as_it_comes() -> None:
    client = started()
    try:
        client.send_bytes(b"Content-Length: %d\r\n\r\n" % (MAX_MESSAGE + 1) + b"x" * (MAX_MESSAGE + 1))
        assert "a message refused" in client.notification("window/logMessage")["message"]
        assert open_document(client, "frog.puz", FROG)[1] == []
    finally:
        client.close()


def read_all(data: bytes) -> tuple[list[bytes], list[str]]:
    """The bodies that Incoming gives pygls from `data`, the way pygls reads them, and the complaints."""
    complaints: list[str] = []
    incoming = Incoming(io.BytesIO(data), complaints.append)

    async def bodies() -> list[bytes]:
        found = []
        while header := await incoming.readline():
            assert header.startswith(b"Content-Length: ") and await incoming.readline() == b"\r\n"
            found.append(await incoming.readexactly(int(header.split(b":")[1])))
        return found

    return asyncio.run(bodies()), complaints


def test_reading_resumes_at_the_next_message() -> None:
    bodies, complaints = read_all(
        b"Content-Length: 2\r\n\r\n{}"
        b"Content-Length: 99999999999\r\n\r\n{}"  # a body shorter than it says: the next message is found
        b"Content-Type: x\r\nContent-Length: 3\r\n\r\n[1]"
        b"\r\n"  # a line end between messages is let pass
        b"Content-Length: 0\r\n\r\ngarbage"
        b"Content-Length: 2\r\n\r\n[]"
        b"Content-Length: 50\r\n\r\n[cut short"
    )
    assert bodies == [b"{}", b"[1]", b"[]"]
    assert len(complaints) == 2 and "99,999,999,999" in complaints[0] and "is 0 bytes" in complaints[1]


def test_a_refused_header_is_refused_once_and_quoted_harmlessly() -> None:
    bodies, complaints = read_all(
        b"Content-Type: x\r\nContent-Length: 99999999999\r\n\r\n{}"  # its second line is not read as a new start
        b"\x1b[2J}Content-Length: 2\r\n\r\n{}"  # the start of a message, after a body longer than it said
        b"Content-Length: 1\r\n\r\n1"
    )
    assert bodies == [b"{}", b"1"]
    assert complaints == [
        "puzint lsp: a message refused: its Content-Length is 99,999,999,999 bytes; "
        f"a message has 1 to {MAX_MESSAGE:,}; skipped to the next message",
    ]
    bodies, complaints = read_all(b"\x1b[2J}Content-Length: 2\r\n\r\n{}")
    assert bodies == [] and complaints == [
        "puzint lsp: a message refused: '\\x1b[2J}Content-Length: 2' is not a header line; skipped to the next message"
    ]
