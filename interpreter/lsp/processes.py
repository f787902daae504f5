"""The worker processes of puzint's servers, started and ended one way: the language server's
(lsp/pool.py) and the playground's (serve/pool.py) are each `python -m <module>` of this same
program, talking over their stdin and stdout (frames of lsp/worker.py).

Each leads a session of its own on POSIX: a Ctrl-C in the terminal is the server's to take,
not the workers', and a worker is ended with everything it started (the copies a race forks)
by one signal to its session."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys

OWN_SESSION = sys.platform != "win32"


async def start_worker(module: str) -> asyncio.subprocess.Process:
    """`python -m module`, its stdin and stdout piped to the server (OSError if it cannot start)."""
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        module,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        start_new_session=OWN_SESSION,
    )


def kill_session(process: asyncio.subprocess.Process) -> None:
    """The worker and every process of its session, at once (SIGKILL), unless it has ended."""
    if process.returncode is None:
        with contextlib.suppress(OSError):
            if OWN_SESSION:
                os.killpg(process.pid, signal.SIGKILL)
            else:
                process.kill()
