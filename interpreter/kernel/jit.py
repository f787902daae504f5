"""numba's `njit`, with the compiled code cached in a directory named after the kernel's
sources.

numba checks a cached function against its own source file only. The kernel's functions
call each other across modules and compile the callee into the caller, and they read
constants of other modules (the opcodes of `bytecode`, the records of `program`), so a
change to one file could leave another file's cached code stale. Naming the directory after
a hash of every kernel source makes any change start a fresh cache. The directory is under
$PUZINT_CACHE_DIR, else $NUMBA_CACHE_DIR, else the user's cache directory; numba's own
setting is changed only while a kernel function is being defined.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import numba

F = TypeVar("F", bound=Callable[..., Any])


UNUSED_DAYS = 30  # a cache of another version of the kernel, unused this long, is removed


def cache_dir() -> Path | None:
    """Where the kernel's compiled code is kept (None: numba's default, beside the module),
    creating it; None too if it cannot be created. Using it marks it used; making it removes
    the caches of other versions of the kernel left unused for UNUSED_DAYS (each is a few
    MB, and every upgrade of puzint leaves one)."""
    digest = hashlib.sha256()
    for source in sorted(Path(__file__).resolve().parent.glob("*.py")):  # every kernel module
        digest.update(source.read_bytes())
    users = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "puzint"
    base = Path(os.environ.get("PUZINT_CACHE_DIR") or os.environ.get("NUMBA_CACHE_DIR") or users)
    path = base / f"kernel-{digest.hexdigest()[:16]}"
    try:
        made = not path.exists()
        path.mkdir(parents=True, exist_ok=True)
        os.utime(path)
    except OSError:
        return None
    if made:
        forget_unused(base, keep=path)
    return path


def forget_unused(base: Path, keep: Path, days: float = UNUSED_DAYS) -> None:
    """Remove the kernel caches under `base` (named kernel-<16 hex digits>, nothing else)
    other than `keep` that were last used more than `days` ago."""
    now = time.time()
    for other in base.glob("kernel-*"):
        if other == keep or not re.fullmatch(r"kernel-[0-9a-f]{16}", other.name) or not other.is_dir():
            continue
        try:
            if now - other.stat().st_mtime > days * 86400:
                shutil.rmtree(other, ignore_errors=True)
        except OSError:
            continue


CACHE_DIR = cache_dir()


def compiled_before(module: str) -> bool:
    """Whether the cache holds a kernel module's compiled code (a guess from numba's index
    files, good enough to warn that a first compilation is about to take a while)."""
    if CACHE_DIR is None:
        return False
    return any(CACHE_DIR.glob(f"*/{module}.*.nbi"))


def njit(**options: Any) -> Callable[[F], F]:
    """numba.njit(**options), its cache (with cache=True) in CACHE_DIR."""
    return _cached(numba.njit, (), options)


def cfunc(signature: Any, **options: Any) -> Callable[[F], Any]:
    """numba.cfunc(signature, **options), compiled (or loaded from CACHE_DIR) when defined."""
    return _cached(numba.cfunc, (signature,), options)


def _cached(decorator: Any, args: tuple[Any, ...], options: dict[str, Any]) -> Callable[[F], Any]:
    def define(function: F) -> Any:
        if CACHE_DIR is None:
            return decorator(*args, **options)(function)
        previous = numba.config.CACHE_DIR  # type: ignore[attr-defined]
        numba.config.CACHE_DIR = str(CACHE_DIR)  # type: ignore[attr-defined]
        try:
            return decorator(*args, **options)(function)
        finally:
            numba.config.CACHE_DIR = previous  # type: ignore[attr-defined]

    return define
