"""The playground's limits, each made small so that it is met at once: a search past its time
limit is stopped and the page told why; a worker past its memory limit stops its search, and
is replaced (its peak never falls); a worker that does not stop at its deadline, or dies, is
killed or replaced and the page told; a search whose page leaves has its worker killed; and
no more searches run at once than allowed, the next one refused with a message.

The long search is Knight exchange on 12 x 12 with 12 knights a colour: hundreds of moves from
each state and a shortest solution far down, so that no engine ends it within the minutes a
test may wait (the command line stops it at 3 s with 400,000 states stored and no end in
sight). Nothing here waits for a time: a state is polled for, with a generous bound."""

from __future__ import annotations

import asyncio
import json
import signal
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import httpx2 as httpx
import pytest
import uvicorn
from puzint.catalogue import catalogue_dir
from puzint.serve.app import Playground, Settings, make_app
from puzint.serve.guard import allowed_hosts
from puzint.serve.pool import JobFailed, Pool
from puzint.serve.server import bind
from starlette.testclient import TestClient

SPECS = catalogue_dir()
assert SPECS is not None
FROG = (SPECS / "frog.puz").read_text(encoding="utf-8")
KNIGHTS = (SPECS / "knights.puz").read_text(encoding="utf-8")
LONG = {"rows": "12", "cols": "12", "knights": "12"}
BOUND = 120.0  # seconds a state polled for may take to come, on a machine under load


def until(what: Callable[[], bool], said: str) -> None:
    """Poll for a state of the server, for BOUND seconds at most."""
    end = time.monotonic() + BOUND
    while not what():
        if time.monotonic() > end:
            raise AssertionError(f"not within {BOUND:g} s: {said}")
        time.sleep(0.02)


# ---- the server as a browser meets it: uvicorn on a free port, in a thread


@contextmanager
def served(settings: Settings) -> Iterator[tuple[httpx.Client, Playground]]:
    sock = bind("127.0.0.1", 0, public=False)
    port = sock.getsockname()[1]
    app = make_app(settings, allowed_hosts("127.0.0.1", port))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    origin = f"http://127.0.0.1:{port}"
    try:
        until(lambda: server.started, "the server started")
        with httpx.Client(base_url=origin, headers={"Origin": origin}, timeout=BOUND) as client:
            yield client, app.app.state.playground  # type: ignore[attr-defined]
    finally:
        server.should_exit = True
        thread.join(BOUND)
        sock.close()


def open_game(client: httpx.Client, text: str, params: dict[str, str] | None = None) -> str:
    answer = client.post("/api/game", content=json.dumps({"text": text, "params": params or {}}))
    assert answer.status_code == 200, answer.text
    return answer.json()["game"]


@contextmanager
def solving(origin: httpx.Client, game: str) -> Iterator[None]:
    """A solve under way (its first progress read), as long as the block lasts; then its
    connection closed, as a page that leaves closes it."""
    with (
        httpx.Client(base_url=origin.base_url, headers=origin.headers, timeout=BOUND) as own,
        own.stream("POST", f"/api/game/{game}/solve") as stream,
    ):
        lines = stream.iter_lines()  # kept: a line iterator dropped closes the stream
        first = json.loads(next(lines))
        assert "progress" in first, first
        yield


def test_a_solve_whose_page_leaves_has_its_worker_killed() -> None:
    with served(Settings(jobs=1, time_limit=600)) as (client, playground):
        game = open_game(client, KNIGHTS, LONG)
        with solving(client, game):
            (worker,) = playground.searches.every
            assert worker.process.returncode is None
        until(lambda: worker.process.returncode is not None, "the worker killed")
        assert worker.process.returncode == -signal.SIGKILL
        assert not playground.searches.every
        assert playground.searches.queued == 0


def test_a_hint_whose_page_leaves_has_its_worker_killed() -> None:
    with served(Settings(jobs=1, time_limit=600)) as (client, playground):
        game = open_game(client, KNIGHTS, LONG)
        host = client.base_url.netloc.decode()
        with socket.create_connection(host.split(":")) as page:  # type: ignore[arg-type]
            page.sendall(
                f"POST /api/game/{game}/hint HTTP/1.1\r\nHost: {host}\r\nOrigin: http://{host}\r\n"
                "Content-Length: 0\r\n\r\n".encode()
            )
            until(lambda: len(playground.searches.every) == 1, "the hint's worker started")
            (worker,) = playground.searches.every
        until(lambda: worker.process.returncode is not None, "the worker killed")
        assert worker.process.returncode == -signal.SIGKILL
        assert playground.searches.queued == 0


def test_no_more_searches_at_once_than_allowed_and_the_next_is_told_so() -> None:
    with served(Settings(jobs=1, waiting=0, time_limit=600)) as (client, playground):
        frog = open_game(client, FROG)
        with solving(client, open_game(client, KNIGHTS, LONG)):
            refused = client.post(f"/api/game/{frog}/hint")
            assert refused.status_code == 503
            assert refused.text == "busy: 1 job running and no job waiting: try again in a moment\n"
            second = client.post(f"/api/game/{frog}/solve").text.splitlines()
            assert json.loads(second[-1]) == {"answer": {"failed": refused.text.strip()}}
        until(lambda: playground.searches.queued == 0, "the solve given up")
        hint = client.post(f"/api/game/{frog}/hint")
        assert hint.status_code == 200
        assert hint.json()["words"] in {"slide ● 3 → 4", "slide ○ 5 → 4"}


# ---- the time limit, as the page hears it


def test_a_solve_past_its_time_limit_is_stopped_and_the_page_told() -> None:
    app = make_app(Settings(jobs=1, time_limit=1), allowed_hosts("127.0.0.1", 8123))
    with TestClient(app, base_url="http://127.0.0.1:8123") as client:
        origin = {"Origin": "http://127.0.0.1:8123"}
        game = client.post("/api/game", content=json.dumps({"text": KNIGHTS, "params": LONG}), headers=origin)
        key = game.json()["game"]
        lines = client.post(f"/api/game/{key}/solve", headers=origin).text.splitlines()
        answer = json.loads(lines[-1])["answer"]
        assert (answer["status"], answer["said"]) == ("limit", "stopped: time limit of 1 s reached")
        assert answer["steps"] == []
        hint = client.post(f"/api/game/{key}/hint", headers=origin).json()
        assert hint == {"why": "stopped: time limit of 1 s reached"}


def test_loading_a_spec_past_the_quick_limit_is_stopped_and_the_page_told() -> None:
    """White & black with k=700 compiles for minutes: loading it stops at the limit of a load."""
    app = make_app(Settings(jobs=1, quick_limit=1), allowed_hosts("127.0.0.1", 8123))
    text = (SPECS / "white_black.puz").read_text(encoding="utf-8")
    with TestClient(app, base_url="http://127.0.0.1:8123") as client:
        body = json.dumps({"text": text, "params": {"k": "700"}})
        answer = client.post("/api/game", content=body, headers={"Origin": "http://127.0.0.1:8123"})
    assert answer.json() == {"stopped": "time limit of 1 s reached"}


# ---- the pool itself: the memory limit, the deadline, a worker's end


def knights(**limits: object) -> dict[str, object]:
    return {"text": KNIGHTS, "filename": "knights.puz", "params": LONG, **limits}


def test_a_search_past_its_memory_limit_is_stopped_and_its_worker_replaced() -> None:
    async def run() -> None:
        pool = Pool(1)
        try:
            stopped = await pool.run("solve", knights(timeout=600, memory=1), 600)
            # stopped while compiling (said alone) or searching (said in the solve's answer)
            said = stopped["stopped"] if "stopped" in stopped else stopped["said"]
            assert said.removeprefix("stopped: ") == "memory limit of 1 MB reached"
            assert not pool.every  # its peak passed the limit: it serves no more
            frog = {"text": FROG, "filename": "frog.puz", "params": {"n": "2"}}
            opened = await pool.run("open", {**frog, "timeout": 60, "memory": 4096}, 60)
            assert opened["title"] == "Frog jump n=2"
            assert len(pool.every) == 1
        finally:
            await pool.close()

    asyncio.run(run())


def test_a_worker_that_does_not_stop_at_its_deadline_is_killed() -> None:
    """The search given no time limit of its own, the pool's deadline ends it (the worker is
    warmed by a first job: a cold one is allowed its start too)."""

    async def run() -> None:
        pool = Pool(1, grace=0.5)
        try:
            frog = {"text": FROG, "filename": "frog.puz", "params": {}}
            await pool.run("open", {**frog, "timeout": 60}, 60)
            (worker,) = pool.every
            with pytest.raises(JobFailed, match=r"^the job did not end within 0\.5 s$"):
                await pool.run("solve", knights(), 0.5)
            assert worker.process.returncode in (None, -signal.SIGKILL)
            await worker.process.wait()
            assert worker.process.returncode == -signal.SIGKILL
            assert not pool.every
        finally:
            await pool.close()

    asyncio.run(run())


def test_a_worker_killed_from_outside_fails_its_job_and_is_replaced() -> None:
    """As the kernel's out-of-memory killer ends a process: SIGKILL, mid-search."""

    async def run() -> None:
        pool = Pool(1)
        try:
            progress: asyncio.Queue[dict[str, object]] = asyncio.Queue()
            job = asyncio.ensure_future(pool.run("solve", knights(timeout=600), 600, progress.put_nowait))
            await asyncio.wait_for(progress.get(), BOUND)
            (worker,) = pool.every
            worker.kill()
            with pytest.raises(JobFailed, match=r"^the worker process ended \(out of memory, or killed\)$"):
                await job
            frog = {"text": FROG, "filename": "frog.puz", "params": {}}
            assert (await pool.run("open", {**frog, "timeout": 60}, 60))["title"] == "Frog jump n=3"
            assert worker not in pool.every
        finally:
            await pool.close()

    asyncio.run(run())
