"""Where the kernel's compiled code is kept, found without importing numba: the plan asks
whether the kernel is compiled already (a warm kernel is worth moving a search to at once; a
cold one costs a compile that a short search should not wait for) before any search runs."""

from __future__ import annotations

import hashlib
import os
import sys
from functools import cache
from pathlib import Path

from ..escapes import visible


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
    change to one of them starts a fresh cache (see `compiling.jit`)."""
    return f"kernel-{sources_hash(Path(__file__).resolve().parent)}"


def sources_hash(kernel: Path) -> str:
    """A hash of every module under `kernel`, its sub-packages' too, each with its path there
    (a module moved to another sub-package changes it), in the order of the paths."""
    digest = hashlib.sha256()
    for path in sorted(kernel.rglob("*.py"), key=lambda path: path.relative_to(kernel).as_posix()):
        content = path.read_bytes()
        digest.update(f"{path.relative_to(kernel).as_posix()}\0{len(content)}\0".encode())
        digest.update(content)
    return digest.hexdigest()[:16]


PREBUILT = "compiled"  # the directory, beside the kernel's modules, of the code compiled at install


def installed_base() -> Path | None:
    """The kernel's code compiled when puzint was installed (setup.py's build_kernel, see
    `puzint.prebuild`): a cache directory inside the package, copied into the user's cache
    when it lacks what it holds (`cache.seed`). None where there is none, or where
    PUZINT_PREBUILT=0 sets it aside (to measure or test a first compile)."""
    if not _prebuilt_wanted():
        return None
    base = Path(__file__).resolve().parent / PREBUILT
    return base if (base / cache_name()).is_dir() else None


_said: set[str] = set()


def _prebuilt_wanted() -> bool:
    """PUZINT_PREBUILT: 0 sets the code compiled at install aside, 1 (or unset) uses it;
    another value is said on stderr, once, and the default kept."""
    value = os.environ.get("PUZINT_PREBUILT", "1")
    if value not in ("0", "1") and value not in _said:
        _said.add(value)
        sys.stderr.write(
            f"puzint: warning: PUZINT_PREBUILT={visible(value)} is neither 0 nor 1: "
            "the kernel compiled at install is used\n"
        )
    return value != "0"


def compiled_before(module: str) -> bool:
    """Whether the cache, or the code compiled at install, holds a kernel module's compiled
    code (a guess from numba's index files, good enough to tell a warm kernel from one that
    is about to be compiled)."""
    bases = [base for base in (cache_base(), installed_base()) if base is not None]
    return any(any((base / cache_name()).glob(f"{module}.*.nbi")) for base in bases)
