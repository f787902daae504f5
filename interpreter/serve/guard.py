"""What the server answers at all, checked before any route (an ASGI middleware):

- the Host header must name the server as it was bound (127.0.0.1, localhost, [::1], or the
  address given with --host, with the port): a page of another site whose name was made to
  point here (DNS rebinding) names its own host, and is refused;
- a request that changes anything (any method but GET and HEAD) must come from the server's
  own pages: its Origin header must be the server's own address; a browser sends it, and a
  page of another site cannot forge it;
- a request a browser marks as made by another site (Sec-Fetch-Site: cross-site) is refused
  whatever its method, so that another site's page cannot make the server draw or search;
- a body past MAX_BODY bytes is refused (413) before it is read whole, by its Content-Length
  or, without one, as it arrives (a body is read here whole, then handed to the route).

Every refusal is 403 (or 413) with a line of plain text saying why."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

MAX_BODY = 256 * 1024
LOOPBACK = ("127.0.0.1", "localhost", "[::1]")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]


def allowed_hosts(host: str, port: int) -> set[str]:
    """The Host headers the server answers to."""
    names = set(LOOPBACK)
    if host not in ("0.0.0.0", "::"):
        names.add(f"[{host}]" if ":" in host else host)
    return {f"{name}:{port}" for name in names}


class Guard:
    def __init__(self, app: App, hosts: set[str], max_body: int = MAX_BODY) -> None:
        self.app = app
        self.hosts = hosts
        self.origins = {f"http://{host}" for host in hosts}
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        problem = self.refusal(scope["method"], headers)
        if problem is not None:
            await _plain(send, problem[0], problem[1])
            return
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            await _plain(send, 413, f"a request's body is {self.max_body // 1024} KiB at most")
            return
        body = b""
        more = True
        while more:  # read whole here (it is small), and refused as soon as it passes the cap
            message = await receive()
            if message["type"] != "http.request":
                return  # the client left
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > self.max_body:
                await _plain(send, 413, f"a request's body is {self.max_body // 1024} KiB at most")
                return
        given = False

        async def replay() -> Message:
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()  # then the disconnect, when it comes

        await self.app(scope, replay, send)

    def refusal(self, method: str, headers: dict[str, str]) -> tuple[int, str] | None:
        if headers.get("host", "") not in self.hosts:
            return 403, "this server answers only requests for its own address (Host)"
        if headers.get("sec-fetch-site") == "cross-site":
            return 403, "this server answers only its own pages"
        if method not in ("GET", "HEAD") and headers.get("origin") not in self.origins:
            return 403, "a change is taken only from this server's own pages (Origin)"
        return None


async def _plain(send: Send, status: int, text: str) -> None:
    body = (text + "\n").encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})
