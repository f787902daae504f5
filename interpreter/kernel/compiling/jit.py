"""numba's `njit` and `cfunc`, with the compiled code cached in a directory named after the
kernel's sources, that `kernel.compiling.cache` checks and reads without trusting (and
numba's `int64`, typed for mypy, that the machine and the stores convert with).

numba checks a cached function against its own source file only. The kernel's functions
call each other across modules and compile the callee into the caller, and they read
constants of other modules (the opcodes of `machine.bytecode`, the records of
`machine.records`), so a change to one file could leave another file's cached code stale.
Naming the directory after a hash of every kernel source (those of its sub-packages too,
see `where.cache_name`) makes any change start a fresh cache.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import numba

from ...files import warn
from ...search.limits import UNINTERRUPTIBLE
from ..where import cache_base, cache_name, installed_base
from .cache import caching_in, prepare, seed

F = TypeVar("F", bound=Callable[..., Any])

if TYPE_CHECKING:

    def int64(value: object) -> int:
        """numba's int64: the value as a 64-bit integer, never typed as a literal (each
        literal value a function is called with makes numba compile it once more)."""
        return int(value)  # type: ignore[call-overload,no-any-return]
else:
    int64 = numba.int64


def cache_dir() -> Path | None:
    """Where the kernel's compiled code is kept, made and checked (see `cache.prepare`), and
    given what was compiled at install that it lacks (`cache.seed`); None where there is no
    usable place: the kernel is then compiled without a cache."""
    base = cache_base()
    if base is None:
        warn("the kernel's cache is not used (no home directory, and no PUZINT_CACHE_DIR): it is compiled on every run")
        return None
    path = prepare(base, cache_name())
    installed = installed_base()
    if path is not None and installed is not None:
        seed(path, installed / cache_name())
    return path


def _callbacks_from_llvm() -> None:
    """LLVM calls back into Python while numba compiles (llvmlite's object-code hooks). An
    exception raised there by a signal handler (a stop: SIGTERM, a time limit, Ctrl-C) is
    printed and swallowed by ctypes, and leaves numba's compiled object missing: the limits
    raise it a moment later instead (see `search.limits.UNINTERRUPTIBLE`)."""
    from llvmlite.binding.executionengine import ExecutionEngine

    for name in ("_raw_object_cache_notify", "_raw_object_cache_getbuffer"):
        hook = getattr(ExecutionEngine, name, None)
        if hook is not None:
            UNINTERRUPTIBLE.add(hook.__code__)


_callbacks_from_llvm()
CACHE_DIR = cache_dir()


def njit(**options: Any) -> Callable[[F], F]:
    """numba.njit(**options), its cache (with cache=True) in CACHE_DIR."""
    return _cached(numba.njit, (), options)


def cfunc(signature: Any, **options: Any) -> Callable[[F], Any]:
    """numba.cfunc(signature, **options), compiled (or loaded from CACHE_DIR) when defined."""
    return _cached(numba.cfunc, (signature,), options)


def _cached(decorator: Any, args: tuple[Any, ...], options: dict[str, Any]) -> Callable[[F], Any]:
    def define(function: F) -> Any:
        if not options.get("cache") or CACHE_DIR is None:
            return decorator(*args, **{**options, "cache": False})(function)
        with caching_in(CACHE_DIR):
            return decorator(*args, **options)(function)

    return define
