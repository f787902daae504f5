"""`puzint serve`: the socket bound (127.0.0.1 and a free port unless told otherwise; an
address that other machines reach only with --public), the address said, the browser opened
where asked, and uvicorn run on the socket until Ctrl-C."""

from __future__ import annotations

import ipaddress
import socket
import sys
import webbrowser
from collections.abc import Callable

from .app import Settings, make_app
from .guard import allowed_hosts


class NotServed(Exception):
    """An address that cannot be served (refused, or taken)."""


def loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def bind(host: str, port: int, public: bool) -> socket.socket:
    """The listening socket; an address other than the loopback's only with `public`."""
    if not loopback(host) and not public:
        raise NotServed(
            f"{host} would let other machines reach the playground: it serves 127.0.0.1 unless --public "
            "is given too (docs/security.md says what that exposes)"
        )
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise NotServed(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def serve(settings: Settings, host: str, port: int, public: bool, browse: bool, say: Callable[[str], None]) -> None:
    import uvicorn  # only where the playground is served

    sock = bind(host, port, public)
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{bound}/"
    app = make_app(settings, allowed_hosts(host, bound))
    say(f"puzint playground: {url} (Ctrl-C stops it)")
    if browse:
        webbrowser.open(url)
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on", timeout_graceful_shutdown=3)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()
    sys.stdout.flush()
