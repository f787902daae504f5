"""`--cluster ADDRESS` and `--workers N` refused in the user's words before anything starts:
an address that is not a scheduler's (no port, another scheme, an empty one), a port where
nothing listens or where something else answers (a web server: Dask alone would wait for
ever, or read `HTTP/1.0` as a message of 3 EiB), more local workers than the cores can
run, and either with `--replay`. No test waits for Dask's 30 s: the servers here answer at
once, or say nothing within a scheduler's time cut short."""

from __future__ import annotations

import contextlib
import socket
import socketserver
import threading
from collections.abc import Iterator
from pathlib import Path

import puzint
import pytest
from puzint.cli import main
from puzint.engines import workers

FROG = ["run", "frog", "-p", "n=1"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def last_line(err: str) -> str:
    return err.rstrip("\n").splitlines()[-1]


EXAMPLE = "expected a Dask scheduler's address such as tcp://scheduler-host:8786"


@pytest.mark.parametrize(
    ("address", "message"),
    [
        ("", f"{EXAMPLE}, got an empty one"),
        ("garbage", f"{EXAMPLE}, got 'garbage' (no port; a scheduler listens on 8786 unless told otherwise)"),
        (
            "http://x:80",
            "a Dask scheduler is reached by tcp:// (or tls://, with Dask's TLS settings), not http:// ('http://x:80')",
        ),
        (
            "inproc://x",
            "a Dask scheduler is reached by tcp:// (or tls://, with Dask's TLS settings), not inproc:// ('inproc://x')",
        ),
        ("tcp://[::1", f"{EXAMPLE}, got 'tcp://[::1' (Invalid IPv6 URL)"),
        ("tcp://host:99999", f"{EXAMPLE}, got 'tcp://host:99999' (Port out of range 0-65535)"),
        ("tcp://:8786", f"{EXAMPLE}, got 'tcp://:8786' (no host name)"),
        ("tcp://host:8786/status", f"{EXAMPLE}: scheme, host and port only, got 'tcp://host:8786/status'"),
    ],
)
def test_an_address_that_is_not_a_schedulers_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], address: str, message: str
) -> None:
    code, out, err = run(capsys, *FROG, "--cluster", address)
    assert (code, out) == (2, "")
    assert last_line(err) == f"puzint run: error: argument --cluster: {message}"


def test_an_address_is_read_as_dask_reads_it() -> None:
    assert workers.scheduler_address("scheduler:8786") == "tcp://scheduler:8786"
    assert workers.scheduler_address(" TCP://[::1]:8786 ") == "tcp://[::1]:8786"
    assert workers.scheduler_address("tls://10.0.0.2:8786") == "tls://10.0.0.2:8786"


def free_port() -> int:
    """A port nothing listens on (bound, then let go)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def test_a_port_where_nothing_listens_is_said_at_once(capsys: pytest.CaptureFixture[str]) -> None:
    port = free_port()
    code, out, err = run(capsys, *FROG, "--cluster", f"tcp://127.0.0.1:{port}")
    assert (code, out) == (2, "")
    assert err.endswith(f"puzint: --cluster: no Dask scheduler at tcp://127.0.0.1:{port}: connection refused\n")


@pytest.fixture
def server(request: pytest.FixtureRequest) -> Iterator[int]:
    """A TCP server on a free port that reads what comes and answers with the bytes given
    (an HTTP 400, as `python -m http.server` gives Dask's handshake), or says nothing and
    holds the connection until the test ends (None)."""
    answer: bytes | None = request.param
    done = threading.Event()

    class Answer(socketserver.BaseRequestHandler):
        def handle(self) -> None:
            with contextlib.suppress(OSError):  # a peer gone first (the connection tried, then closed)
                self.request.recv(4096)
                if answer is None:
                    done.wait()
                else:
                    self.request.sendall(answer)

    with socketserver.ThreadingTCPServer(("127.0.0.1", 0), Answer) as serving:
        serving.daemon_threads = True
        thread = threading.Thread(target=serving.serve_forever, daemon=True)
        thread.start()
        yield serving.server_address[1]
        done.set()
        serving.shutdown()
        thread.join()


HTTP_400 = b"HTTP/1.0 400 Bad request\r\nContent-Type: text/html\r\n\r\n<html><body>Bad request</body></html>\n"


@pytest.mark.parametrize("server", [HTTP_400], indirect=True)
def test_a_web_server_is_not_a_scheduler(capsys: pytest.CaptureFixture[str], server: int) -> None:
    """Dask reads the answer's first 8 bytes (`HTTP/1.0`) as the size of a message: 3 EiB,
    a MemoryError with no word of what happened."""
    pytest.importorskip("distributed")
    code, out, err = run(capsys, *FROG, "--cluster", f"tcp://127.0.0.1:{server}")
    assert (code, out) == (2, "")
    assert err.endswith(
        f"puzint: --cluster: what answers at tcp://127.0.0.1:{server} is not a Dask scheduler: it does not "
        "speak Dask's protocol (its first bytes, read as the size of a message, ask for more memory than there is)\n"
    )


@pytest.mark.parametrize("server", [None], indirect=True)
def test_a_server_that_says_nothing_is_given_up_after_the_time_said(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, server: int
) -> None:
    """A server that waits for a line Dask never sends: Dask would wait for ever."""
    pytest.importorskip("distributed")
    monkeypatch.setattr(workers.options, "CONNECT_SECONDS", 0.3)
    code, out, err = run(capsys, *FROG, "--cluster", f"tcp://127.0.0.1:{server}")
    assert (code, out) == (2, "")
    assert err.endswith(
        f"puzint: --cluster: no Dask scheduler answered at tcp://127.0.0.1:{server} within 0.3 s "
        "(something accepted the connection, but said nothing of Dask's)\n"
    )


def test_more_workers_than_the_cores_run_is_refused_with_the_reason(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(workers.options, "cores", lambda: 2)
    code, out, err = run(capsys, *FROG, "--workers", "4096")
    assert (code, out) == (2, "")
    assert last_line(err) == (
        "puzint run: error: argument --workers: at most 4 workers here (2 for each of the 2 cores this process "
        "may use): each worker is a process of its own, and more than the cores only take turns on them "
        "(--cluster ADDRESS runs the search on a cluster's workers)"
    )
    assert workers.count_problem(4) is None and workers.count_problem(5) is not None
    assert workers.Workers().size() == 2  # auto: one a core


@pytest.mark.parametrize("asked", [["--workers", "2"], ["--cluster", "tcp://127.0.0.1:1"]])
def test_the_workers_do_not_go_with_replay(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, asked: list[str]
) -> None:
    moves = tmp_path / "frog.moves"
    moves.write_text("slide B 1->2\n")
    code, out, err = run(capsys, *FROG, "--replay", str(moves), *asked)
    name = "--workers 2" if asked[0] == "--workers" else "--cluster"
    assert (code, out) == (2, "")
    assert err == (
        f"puzint: {name} runs a search on the workers: it does not go with --replay, which checks a solution "
        "file's moves here, one after another (and searches the shortest it is compared with here too)\n"
    )


def test_the_api_refuses_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """An empty address is not "no cluster" (the search would run here, unasked)."""
    monkeypatch.setattr(workers.options, "cores", lambda: 2)
    with pytest.raises(ValueError, match=f"^{EXAMPLE}, got an empty one$"):
        puzint.solve("frog", cluster="")
    with pytest.raises(ValueError, match=r"^workers=4096: at most 4 workers here \(2 for each of the 2 cores"):
        puzint.solve("frog", workers=4096)
    port = free_port()
    with pytest.raises(ValueError, match=f"^cluster: no Dask scheduler at tcp://127.0.0.1:{port}: connection refused$"):
        puzint.solve("frog", cluster=f"127.0.0.1:{port}")
