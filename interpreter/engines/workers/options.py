"""Where the workers are: how many on this machine (`--workers N`, checked against its cores),
or a running cluster's scheduler (`--cluster ADDRESS`, checked as it is read and asked
whether it answers before anything starts), and whether Dask is installed at all."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

NOT_INSTALLED = "Dask is not installed (pip install 'puzint[parallel]')"
WORKERS_PER_CORE = 2  # the most local workers for each core (see `count_problem`)
CONNECT_SECONDS = 5.0  # how long a scheduler has to answer (see `reach`)
SCHEMES = ("tcp", "tls")  # how a scheduler is reached from here (see `address_problem`)
HOST = re.compile(r"[A-Za-z0-9_]([A-Za-z0-9_-]*[A-Za-z0-9_])?(\.[A-Za-z0-9_]([A-Za-z0-9_-]*[A-Za-z0-9_])?)*\.?")


def installed() -> bool:
    try:
        import distributed  # noqa: F401
    except ImportError:
        return False
    return True


def cores() -> int:
    """The cores this process may run on (those it may be scheduled on: a container's share,
    not the machine's count)."""
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) if affinity is not None else (os.cpu_count() or 1)


def count_problem(count: int) -> str | None:
    """Why `count` local workers are not started (None: they are). Each is a process of its
    own with a Python and the spec compiled in it; the walk is bound by the cores, so more
    workers than cores only take turns on them, each taking its memory all the same: 4,096 on
    two cores is half a gigabyte a core for nothing. Twice the cores is allowed (a worker
    waiting on the driver leaves its core to another), more is refused, with the way to more."""
    most = WORKERS_PER_CORE * cores()
    if count <= most:
        return None
    return (
        f"at most {most} workers here ({WORKERS_PER_CORE} for each of the {cores()} cores this process may use): "
        f"each worker is a process of its own, and more than the cores only take turns on them "
        f"(--cluster ADDRESS runs the search on a cluster's workers)"
    )


def scheduler_address(text: str) -> str:
    """The address of a Dask scheduler as given (`tcp://host:8786`; `host:8786` is read as
    tcp://, as Dask reads it), checked before anything is started: Dask's own check comes as
    a ValueError from deep in a connection (`missing port number`, `unknown address scheme`).
    Raises ValueError with what is wrong and an example."""
    example = "such as tcp://scheduler-host:8786"
    given = text.strip()
    if not given:
        raise ValueError(f"expected a Dask scheduler's address {example}, got an empty one")
    written = given if "://" in given else f"tcp://{given}"
    try:
        parts = urlsplit(written)
        port = parts.port
    except ValueError as exc:  # `tcp://[::1`, `tcp://host:http`, a port past 65535
        raise ValueError(f"expected a Dask scheduler's address {example}, got '{text}' ({exc})") from None
    scheme = parts.scheme.lower()
    if scheme not in SCHEMES:
        raise ValueError(
            f"a Dask scheduler is reached by tcp:// (or tls://, with Dask's TLS settings), not {scheme}:// ('{text}')"
        )
    host = parts.hostname or ""
    if not host or not (HOST.fullmatch(host) or _ip6(host)):
        raise ValueError(f"expected a Dask scheduler's address {example}, got '{text}' (no host name)")
    if parts.username is not None or parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ValueError(f"expected a Dask scheduler's address {example}: scheme, host and port only, got '{text}'")
    if port is None or port == 0:
        raise ValueError(
            f"expected a Dask scheduler's address {example}, got '{text}' "
            "(no port; a scheduler listens on 8786 unless told otherwise)"
        )
    return f"{scheme}://{f'[{host}]' if ':' in host else host}:{port}"


def _ip6(host: str) -> bool:
    import ipaddress  # here: only an address given to --cluster needs it (see `reach`)

    try:
        return ipaddress.ip_address(host).version == 6
    except ValueError:
        return False


class Unreachable(Exception):
    """No Dask scheduler answers at the address given: the reason, in the user's words."""


def reach(address: str, seconds: float | None = None) -> None:
    """Ask the scheduler at `address` who it is, within `seconds`; raise Unreachable with
    what happened where it does not answer as a scheduler.

    Why before the search, and in our own words: Dask's client, given an address where no
    scheduler listens, retries for 30 s and then raises an OSError; given a server that
    speaks something else, it waits for ever for a handshake that never comes (a web server
    waiting for a line), or reads the first 8 bytes of an answer as the size of Dask's next
    message (`HTTP/1.0`: 3 EiB) and fails with a MemoryError. Here the connection is made
    first (a refusal or an unknown host is said at once), Dask's handshake and an `identity`
    question then have `seconds` to be answered, and anything else that comes back says that
    this is not a scheduler."""
    import asyncio  # here: only --cluster needs it, and its import (ssl, sockets) costs 0.05 s
    import socket  # the same: every run imports this module (the default options), few use a cluster

    seconds = CONNECT_SECONDS if seconds is None else seconds
    parts = urlsplit(address)
    host, port = parts.hostname or "", parts.port or 0
    started = time.monotonic()
    try:
        socket.create_connection((host, port), timeout=seconds).close()
    except socket.gaierror as exc:
        raise Unreachable(f"no Dask scheduler at {address}: the host '{host}' is not known ({exc.strerror})") from None
    except TimeoutError:
        raise Unreachable(f"no Dask scheduler answered at {address} within {seconds:g} s") from None
    except OSError as exc:
        why = exc.strerror or type(exc).__name__
        raise Unreachable(f"no Dask scheduler at {address}: {why.lower()}") from None
    connection = _connection_args(address)
    left = max(0.5, seconds - (time.monotonic() - started))
    try:
        who = _run_apart(lambda: asyncio.wait_for(_identity(address, left, connection), left))
    except (asyncio.TimeoutError, TimeoutError):
        raise Unreachable(
            f"no Dask scheduler answered at {address} within {seconds:g} s "
            "(something accepted the connection, but said nothing of Dask's)"
        ) from None
    except MemoryError:
        raise Unreachable(
            f"what answers at {address} is not a Dask scheduler: it does not speak Dask's protocol "
            "(its first bytes, read as the size of a message, ask for more memory than there is)"
        ) from None
    except Unreachable:
        raise
    except Exception as exc:  # a closed stream, a message that is not Dask's
        from distributed.comm.core import CommClosedError

        why = (
            "it closed the connection without Dask's handshake"
            if isinstance(exc, CommClosedError)
            else f"what it sent is not Dask's protocol ({said(exc)})"
        )
        raise Unreachable(f"what answers at {address} is not a Dask scheduler: {why}") from None
    kind = who.get("type") if isinstance(who, dict) else None
    if kind != "Scheduler":
        what = (
            f"a Dask {str(kind).lower()}" if isinstance(kind, str) and kind.isidentifier() else "not a Dask scheduler"
        )
        raise Unreachable(
            f"what answers at {address} is {what}, not a scheduler: give the scheduler's address "
            "(the one `dask worker` is given)"
        )


def _run_apart(work: Callable[[], Coroutine[Any, Any, Any]]) -> Any:
    """A coroutine run to its end on an event loop of its own: here, or, where this thread
    already runs a loop (a notebook calling the API), in a thread of its own."""
    import asyncio
    import concurrent.futures

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(work())
    with concurrent.futures.ThreadPoolExecutor(1) as apart:
        return apart.submit(lambda: asyncio.run(work())).result()


def _connection_args(address: str) -> dict[str, Any]:
    """Dask's connection arguments for the address: TLS's from Dask's configuration (the
    certificates a tls:// scheduler asks for), refused where none are set."""
    from distributed.security import Security

    connection: dict[str, Any] = Security().get_connection_args("client")
    if address.startswith("tls://") and connection.get("ssl_context") is None:
        raise Unreachable(
            f"{address} is reached over TLS, and Dask's configuration sets no TLS certificates for a client "
            "(distributed.comm.tls.ca-file, .client.cert and .client.key; or a tcp:// address)"
        )
    return connection


async def _identity(address: str, seconds: float, connection: dict[str, Any]) -> Any:
    """Dask's handshake, then the `identity` question any Dask server answers."""
    from distributed.comm.core import connect

    comm = await connect(address, timeout=seconds, **connection)
    try:
        await comm.write({"op": "identity", "reply": True})
        return await comm.read()
    finally:
        comm.abort()


def said(exc: BaseException) -> str:
    """An exception of Dask's in one line: its kind and the first line of its message."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


@dataclass(frozen=True)
class Workers:
    """How many workers (None: one per core of this machine), or the address of a running
    cluster's scheduler (its workers, however many)."""

    count: int | None = None
    address: str | None = None

    def describe(self) -> str:
        return f"the cluster at {self.address}" if self.address else f"{self.size()} local workers"

    def size(self) -> int:
        return self.count or cores()
