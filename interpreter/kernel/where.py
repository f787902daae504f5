"""Where the kernel's compiled code is kept, found without importing numba: the planner asks
whether the kernel is compiled already (a warm kernel is worth moving a search to at once; a
cold one costs a compile that a short search should not wait for) before any search runs."""

from __future__ import annotations

import hashlib
import os
from functools import cache
from pathlib import Path


def cache_base() -> Path | None:
    """The directory that holds the kernel's caches: $PUZINT_CACHE_DIR, else $NUMBA_CACHE_DIR
    (both taken from the current directory when relative, as numba takes its own), else
    puzint/ under $XDG_CACHE_HOME, else ~/.cache/puzint. A relative XDG_CACHE_HOME is ignored,
    as the XDG Base Directory rules say, and so is a HOME that is empty or relative (Python
    would take the root or the current directory): None when there is no home to use."""
    chosen = os.environ.get("PUZINT_CACHE_DIR") or os.environ.get("NUMBA_CACHE_DIR")
    if chosen:
        return Path(os.path.abspath(chosen))
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    if os.path.isabs(xdg):
        return Path(xdg) / "puzint"
    home = os.environ.get("HOME")
    if home is None:
        home = os.path.expanduser("~")  # from the password database
    return Path(home) / ".cache" / "puzint" if os.path.isabs(home) else None


@cache
def cache_name() -> str:
    """The name of this kernel's cache directory: a hash of every kernel source, so that any
    change to one of them starts a fresh cache (see `jit`)."""
    digest = hashlib.sha256()
    for source in sorted(Path(__file__).resolve().parent.glob("*.py")):  # every kernel module
        digest.update(source.read_bytes())
    return f"kernel-{digest.hexdigest()[:16]}"


def compiled_before(module: str) -> bool:
    """Whether the cache holds a kernel module's compiled code (a guess from numba's index
    files, good enough to tell a warm kernel from one that is about to be compiled)."""
    base = cache_base()
    return base is not None and any((base / cache_name()).glob(f"{module}.*.nbi"))
