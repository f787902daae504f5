"""Where the kernel's compiled code is kept, and how it is read back without trusting it.

numba keeps compiled code as pickles, and loading a pickle runs whatever code it names: a
cache file that someone else could have written is a way to run their code as the user.
So the cache is a directory of the user's own that no one else can write (and whose
parents no one else can swap), every file is read without following a link and only if
the user owns it and no one else can write it, and every file is written readable by the
user alone. A file that cannot be read back (truncated, empty, garbled) is discarded and
compiled again. numba's fallbacks (a __pycache__ beside the kernel's modules, numba's own
user cache) are never used: where this cache cannot be used, the kernel is compiled
without one, and the run says why, once, on stderr.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import pickle
import re
import shutil
import stat
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numba.core.ccallback
import numba.core.dispatcher
from numba.core import config
from numba.core.caching import (
    CompileResultCacheImpl,
    FunctionCache,
    IndexDataCacheFile,
    _CacheLocator,
    _SourceFileBackedLocatorMixin,
)
from numba.core.runtime.nrt import rtsys

from ...files import OWNED, UnusableFile, open_lock, read_own_file, unsafe_directory, unsafe_folder, warn, writing

SAVING_LOCK = "saving.lock"  # held while a compiled function is saved (KernelCacheFile.save)
UNUSED_DAYS = 30  # a cache of another version of the kernel, unused this long, is removed
KERNEL_DIR = re.compile(r"kernel-[0-9a-f]{16}")


def prepare(base: Path, name: str) -> Path | None:
    """base/name, made if need be, once base and every directory above it, and it, have been
    checked (see `unsafe_directory`); None, said on stderr, when it cannot be used. Making it
    removes the caches of other versions of the kernel left unused for UNUSED_DAYS (each is
    a few MB, and every upgrade of puzint leaves one). Using it marks it used."""
    path = base / name
    try:
        _make_directory(base, parents=True)
        problem = unsafe_folder(base, shared=True)
        made = problem is None and _make_directory(path)
        problem = problem or unsafe_folder(path)
        if problem is None:
            os.utime(path)
    except OSError as exc:
        problem = f"{exc.filename or path}: {exc.strerror or exc}"
    if problem is not None:
        warn(f"the kernel's cache is not used ({problem}): the kernel is compiled without it")
        return None
    if made:
        with contextlib.suppress(OSError):  # tidying is a courtesy: a base it cannot list is left as it is
            forget_unused(base, keep=path)
    return path


def _make_directory(path: Path, parents: bool = False) -> bool:
    """Whether `path` was made now (readable by the user alone); False if it was there."""
    try:
        path.mkdir(mode=0o700, parents=parents)
    except FileExistsError:
        return False
    return True


def forget_unused(base: Path, keep: Path, days: float = UNUSED_DAYS) -> None:
    """Remove the kernel caches under `base` (named kernel-<16 hex digits>, nothing else)
    other than `keep` that were last used more than `days` ago: only directories (not links)
    that the user owns, with everything in them. In a base shared with others, another
    user's cache is theirs to keep."""
    now = time.time()
    for other in base.iterdir():
        if other == keep or not KERNEL_DIR.fullmatch(other.name):
            continue
        try:
            status = os.lstat(other)
        except OSError:
            continue
        unused = now - status.st_mtime > days * 86400
        if unused and stat.S_ISDIR(status.st_mode) and _owned_throughout(other):
            shutil.rmtree(other, ignore_errors=True)


def _owned_throughout(top: Path) -> bool:
    """Whether the user owns `top` and everything in it (links are not followed)."""
    if not OWNED:
        return True
    uid = os.getuid()
    try:
        for folder, _, files in os.walk(top, onerror=_raise):
            for name in [folder, *(os.path.join(folder, f) for f in files)]:
                if os.lstat(name).st_uid != uid:
                    return False
    except OSError:
        return False
    return True


def _raise(error: OSError) -> None:
    raise error


class DamagedCacheFile(Exception):
    """A cache file of the user's own that does not read back (truncated, empty, garbled)."""

    def __init__(self, path: str, error: Exception):
        super().__init__(f"{path} ({type(error).__name__}: {error})")


def seed(path: Path, installed: Path) -> None:
    """Copy into the cache `path` the compiled functions of `installed` (the same kernel's
    code, compiled at install) that it lacks, so that a first search loads them instead of
    compiling them (half a minute for the machine). A function is copied whole (its index
    and data files) where `path` has no index for it, or one another numba wrote (numba
    was upgraded, and puzint installed again) while the install's is this numba's: what the
    user's own compiles wrote for this numba is never replaced. The installed files are
    read as the cache's own are (no links, no file anyone but the user or root could have
    written, in directories no one else can swap); where they cannot be, they are left,
    said once on stderr, and the kernel compiles."""
    try:
        problem = unsafe_folder(installed, shared=True)
        names = sorted(os.listdir(installed)) if problem is None else []
    except OSError as exc:
        problem, names = f"{exc.filename or installed}: {exc.strerror or exc}", []
    try:
        for index in (name for name in names if name.endswith(".nbi")):
            function = index[: -len(".nbi")]
            if os.path.lexists(path / index) and not _outdated(path / index, installed / index):
                continue
            data = [name for name in names if name.startswith(f"{function}.") and name.endswith(".nbc")]
            for name in [*data, index]:  # the index last: numba finds the data it names
                content = read_own_file(str(installed / name), installed=True)
                if content is not None:
                    _write_private(path / name, content)
    except (OSError, UnusableFile) as exc:
        problem = str(exc)
    if problem is not None:
        warn(f"the kernel compiled at install is not used ({problem}): it is compiled again", "installed")


def _outdated(own: Path, installed: Path) -> bool:
    """Whether the cache's index `own` was written by another numba than the one running,
    and the install's `installed` by this one (numba's index files begin with its version)."""
    running = numba.__version__
    return _written_by(own, installed=False) not in (running, None) and _written_by(installed, True) == running


def _written_by(index: Path, installed: bool) -> object:
    """The numba version an index file begins with (None: it cannot be read or is not one)."""
    try:
        data = read_own_file(str(index), installed)
        return None if data is None else pickle.load(io.BytesIO(data))
    except Exception:
        return None


def _write_private(path: Path, content: bytes) -> None:
    """`content` at `path`, as numba's cache writes (see KernelCacheFile._open_for_write)."""
    with _private_file(str(path)) as file:
        file.write(content)


@contextlib.contextmanager
def _private_file(filepath: str) -> Iterator[io.BufferedWriter]:
    """A new file (never one through something left at its name), readable by the user
    alone, renamed over `filepath` once written whole (see `files.writing`). A link at its
    name (which was not read) is replaced: the cache mends itself."""
    with writing(filepath, mode=0o600, replace_links=True) as file:
        yield file


@contextlib.contextmanager
def _saving(directory: Path) -> Iterator[None]:
    """The cache's lock (a file in it), held for the block: one save at a time (where the
    platform has file locks: on Windows, none)."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    handle = open_lock(directory / SAVING_LOCK)  # a link or a FIFO put there: refused (numba: not saved)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        os.close(handle)


# numba's cache, with the classes below in place of its own: only this directory, checked reads
# and private writes.

_directory: Path | None = None  # the directory a KernelCacheLocator made now points to


@contextlib.contextmanager
def caching_in(directory: Path) -> Iterator[None]:
    """While a kernel function is defined, numba's decorators make a KernelCache (in
    `directory`) where they would make their FunctionCache: numba takes no cache class as a
    parameter. NUMBA_CACHE_LOCATOR_CLASSES, where numba reads it, is set aside too."""
    global _directory
    replaced: list[tuple[Any, str, Any]] = [
        (numba.core.dispatcher, "FunctionCache", KernelCache),
        (numba.core.ccallback, "FunctionCache", KernelCache),
    ]
    if getattr(config, "CACHE_LOCATOR_CLASSES", None):
        replaced.append((config, "CACHE_LOCATOR_CLASSES", ""))
    kept = [getattr(owner, name) for owner, name, _ in replaced]
    _directory = directory
    for owner, name, value in replaced:
        setattr(owner, name, value)
    try:
        yield
    finally:
        _directory = None
        for (owner, name, _), value in zip(replaced, kept, strict=True):
            setattr(owner, name, value)


class KernelCacheLocator(_SourceFileBackedLocatorMixin, _CacheLocator):  # type: ignore[misc]
    """The checked directory, and nothing else (numba's own locators fall back to a
    __pycache__ beside the module when their directory cannot be used)."""

    def __init__(self, py_func: Any, py_file: str):
        assert _directory is not None, "a KernelCache is made inside caching_in"
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = str(_directory)

    def get_cache_path(self) -> str:
        return self._cache_path

    def ensure_cache_path(self) -> None:
        """Before numba saves: the directory made again if it was removed, and checked again."""
        path = Path(self._cache_path)
        _make_directory(path)
        problem = unsafe_directory(path)
        if problem is not None:
            raise OSError(errno.EPERM, problem, self._cache_path)

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> KernelCacheLocator:
        return cls(py_func, py_file)


class KernelCacheImpl(CompileResultCacheImpl):  # type: ignore[misc]
    _locator_classes = [KernelCacheLocator]  # noqa: RUF012 - numba's own attribute


class KernelCacheFile(IndexDataCacheFile):  # type: ignore[misc]
    """numba's index and data files, read through `read_own_file` and written private."""

    def _load_index(self) -> dict[Any, str]:
        data = read_own_file(self._index_path)
        if data is None:
            return {}
        try:
            stream = io.BytesIO(data)
            if pickle.load(stream) != self._version:  # another numba's: not read further
                return {}
            stamp, overloads = pickle.loads(stream.read())
        except Exception as exc:
            raise DamagedCacheFile(self._index_path, exc) from exc
        return overloads if stamp == self._source_stamp else {}  # type: ignore[no-any-return]

    def save(self, key: Any, data: Any) -> None:
        """numba's, from a new index where the old one must not or cannot be read (its file
        is replaced, never read or written through), holding the cache's lock: numba reads
        the index, adds the new overload and writes it back, and two processes doing so at
        once for one function (the install's compiles, side by side) could each write an
        index without the other's overload, both naming one data file."""
        with _saving(Path(self._cache_path)):
            try:
                self._load_index()
            except (UnusableFile, DamagedCacheFile):
                self._save_index({})
            super().save(key, data)

    def _load_data(self, name: str) -> Any:
        path = self._data_path(name)
        data = read_own_file(path)
        if data is None:
            raise FileNotFoundError(errno.ENOENT, "no such file", path)  # numba: the index outlived it
        try:
            return pickle.loads(data)
        except Exception as exc:
            raise DamagedCacheFile(path, exc) from exc

    @contextlib.contextmanager
    def _open_for_write(self, filepath: str) -> Iterator[io.BufferedWriter]:
        """numba's way (a new file, then renamed over the old one), the new file made afresh
        (never through something left at its name) and readable by the user alone."""
        with _private_file(filepath) as file:
            yield file


class KernelCache(FunctionCache):  # type: ignore[misc]
    """numba's per-function cache in the checked directory. A file that must not be loaded is
    not (the function is compiled, and saving it replaces the file); a damaged one is
    discarded; a cache that cannot be written only means that later runs compile again."""

    _impl_class = KernelCacheImpl

    def __init__(self, py_func: Any):
        super().__init__(py_func)
        self._cache_file = KernelCacheFile(
            self._cache_path, self._impl.filename_base, self._impl.locator.get_source_stamp()
        )

    def load_overload(self, sig: Any, target_context: Any) -> Any:
        """numba's load, without its refresh of the target: that imports and installs every
        typing and lowering registry (numpy's, the typed containers', ...: 0.2 s, the
        larger part of a warm kernel's start), which code already compiled never asks for.
        What it does call, numba's runtime (its allocator), is set up here; a compile (a
        cache miss) refreshes the target itself."""
        try:
            rtsys.initialize(target_context)
            with self._guard_against_spurious_io_errors():
                return self._load_overload(sig, target_context)
        except UnusableFile as exc:
            warn(f"the kernel's cache is not loaded ({exc}): the kernel is compiled again", "unusable")
        except Exception as exc:  # the file read, but numba could not rebuild the code from it
            damaged = exc if isinstance(exc, DamagedCacheFile) else f"{self._name} ({type(exc).__name__}: {exc})"
            warn(f"the kernel's cache held a damaged file, discarded and rebuilt: {damaged}", "damaged")
            with contextlib.suppress(OSError):
                self.flush()  # an empty index: the function's files are written anew once compiled
        return None

    def save_overload(self, sig: Any, data: Any) -> None:
        try:
            super().save_overload(sig, data)
        except OSError as exc:
            warn(f"the compiled kernel was not saved in its cache ({exc}): later runs compile it again", "unsaved")
