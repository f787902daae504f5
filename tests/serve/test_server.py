"""`puzint serve` on the command line: an address other machines reach is refused without
--public, and the socket it binds is the loopback's on a free port by default."""

from __future__ import annotations

import pytest
from puzint.cli import main
from puzint.serve.server import NotServed, bind, loopback


def test_an_address_other_machines_reach_needs_public(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--host", "0.0.0.0"]) == 2
    said = capsys.readouterr().err
    assert "0.0.0.0 would let other machines reach the playground" in said
    assert "--public" in said
    with pytest.raises(NotServed, match="--public"):
        bind("192.168.1.7", 0, public=False)


def test_the_loopback_on_a_free_port_by_default() -> None:
    assert loopback("127.0.0.1") and loopback("::1") and loopback("localhost")
    assert not loopback("0.0.0.0") and not loopback("10.0.0.1")
    sock = bind("127.0.0.1", 0, public=False)
    try:
        host, port = sock.getsockname()
        assert host == "127.0.0.1"
        assert port > 0
    finally:
        sock.close()


def test_a_port_out_of_range_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--port", "70000"]) == 2
    assert "a port is from 0 (a free one) to 65535" in capsys.readouterr().err


def test_serve_is_among_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    assert "serve" in capsys.readouterr().out


def test_the_help_gives_the_limits_the_server_keeps(capsys: pytest.CaptureFixture[str]) -> None:
    from puzint.serve.app import Settings

    assert main(["serve", "--help"]) == 0
    said = " ".join(capsys.readouterr().out.split())
    settings = Settings()
    assert (settings.time_limit, settings.max_states, settings.max_memory_mb) == (30.0, 2_000_000, 2048.0)
    assert "--timeout S stop each hint or solve after S seconds (default: 30)" in said
    assert "--max-states N stop each hint or solve after N states (default: 2,000,000)" in said
    assert "--max-memory MB stop past MB of memory (default: 2048)" in said


def test_the_docs_list_every_route_of_the_api() -> None:
    from pathlib import Path

    from puzint.serve.app import Settings, make_app
    from puzint.serve.guard import allowed_hosts

    docs = (Path(__file__).resolve().parents[2] / "docs" / "playground.md").read_text(encoding="utf-8")
    app = make_app(Settings(jobs=1), allowed_hosts("127.0.0.1", 8123)).app  # inside its guard
    routes = [path for r in app.routes if (path := getattr(r, "path", "")).startswith("/api/")]
    assert len(routes) == 9
    for path in routes:
        assert path.replace("{game}", "ID").replace("{action}", "play") in docs, path
