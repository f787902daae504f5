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
