"""How puzint writes a file, and how it reads back the few small files it keeps for itself.

A folder may hold what someone else put there: a shared checkout, a docs folder, a cache
under /tmp. A symbolic link named as the file (`frog.yaml.new -> ~/.bashrc`) makes a plain
`open(path, "w")` write the file it points to. So every file puzint writes (the case
`check --record` adds, the moves `play` saves, the gallery's page and pictures, the
kernel's cache, the engine `answered` remembers) is written one way, `writing`: into a new
file whose name no one can guess, made exclusively in the target's folder (never through
anything left at a name), then renamed over the target (a rename replaces a name, it never
follows one), so that a reader finds the old file or the new one, whole. Where the target
is a link, a directory or anything but a regular file, nothing is written and the reason is
given: `CannotWrite`, an OSError that reads `cannot write PATH: it is a symbolic link`.

A folder of caches is shared with whatever else runs as the user, and may lie under a
directory others can write: before anything in it is trusted, it and every directory above
it are checked (`unsafe_folder`), and its files are read only where they are the user's own
(`read_own_file`). A cache's trouble never stops a run: it is said once (`warn`).

Nothing heavy is imported (the standard library, and `escapes` for the warnings): the kernel's
cache uses this before numba is imported, and the command before any engine.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import secrets
import stat
import sys
from collections.abc import Iterator
from pathlib import Path

from .escapes import visible

OWNED = hasattr(os, "getuid")  # POSIX: files have owners and modes to check
NO_FOLLOW = getattr(os, "O_NOFOLLOW", 0)
CLOSE_ON_EXEC = getattr(os, "O_CLOEXEC", 0)
NON_BLOCKING = getattr(os, "O_NONBLOCK", 0)  # a FIFO someone put at a name does not hold the run
WRITABLE_BY_OTHERS = stat.S_IWGRP | stat.S_IWOTH

StrPath = str | os.PathLike[str]


class CannotWrite(OSError):
    """A file that was not written, and why (an OSError, so that code that gives up on a
    failed write, as numba's cache does, gives up on this one too)."""

    def __init__(self, path: StrPath, reason: str, code: int = 0):
        super().__init__(code, reason, os.fspath(path))
        self.reason = reason

    def __str__(self) -> str:
        return f"cannot write {self.filename}: {self.reason}"

    def __reduce__(self) -> tuple[type[CannotWrite], tuple[str, str, int]]:
        return (CannotWrite, (str(self.filename), self.reason, self.errno or 0))


class UnusableFile(Exception):
    """A file that must not be read (a link, another user's, writable by others, too large)
    or cannot be."""

    def __init__(self, path: StrPath, problem: str):
        super().__init__(f"{os.fspath(path)} {problem}")


# ---- writing


def unwritable(path: StrPath, replace_links: bool = False) -> str | None:
    """Why no file may be written at `path` (None: one may): its folder must exist, and what
    is at its name must be nothing or a regular file: a link is not followed and a directory
    not replaced. `replace_links`: a link (or a FIFO, a socket, a device) is replaced, never
    written through, as a private cache mends itself; a directory is still refused."""
    try:
        status = os.lstat(path)
    except FileNotFoundError:
        return None if os.path.isdir(os.path.dirname(os.fspath(path)) or ".") else "its folder does not exist"
    except OSError as exc:
        return _reason(exc, path)
    if stat.S_ISDIR(status.st_mode):
        return "it is a directory"
    if stat.S_ISREG(status.st_mode) or replace_links:
        return None
    return "it is a symbolic link" if stat.S_ISLNK(status.st_mode) else "it is not a regular file"


@contextlib.contextmanager
def writing(path: StrPath, mode: int = 0o666, replace_links: bool = False) -> Iterator[io.BufferedWriter]:
    """A new file to write `path`'s bytes into, renamed over `path` when the block ends, and
    removed if it fails. Made with O_EXCL|O_NOFOLLOW under a name no one can guess, with
    `mode` (less the umask: 0o600 for a file only the user may read). What is at `path` is
    checked before and after (`unwritable`). Every failure, the target refused or any
    OSError on the way, is a CannotWrite that names `path`."""
    target = os.fspath(path)
    problem = unwritable(target, replace_links)
    if problem is not None:
        raise CannotWrite(target, problem, errno.EEXIST)
    folder, name = os.path.split(target)
    temporary = os.path.join(folder, f"{name}.tmp.{secrets.token_hex(8)}")
    try:
        handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | NO_FOLLOW | CLOSE_ON_EXEC, mode)
    except OSError as exc:
        raise CannotWrite(target, _reason(exc, target), exc.errno or 0) from None
    try:
        with os.fdopen(handle, "wb") as file:
            yield file
        problem = unwritable(target, replace_links)  # again: something may have been put there meanwhile
        if problem is not None:
            raise CannotWrite(target, problem, errno.EEXIST)
        os.replace(temporary, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(exc, OSError) and not isinstance(exc, CannotWrite):
            raise CannotWrite(target, _reason(exc, target), exc.errno or 0) from exc
        raise


def write_file(path: StrPath, content: str | bytes, mode: int = 0o666) -> None:
    """`content` (text: as UTF-8) written at `path` through `writing`."""
    data = content.encode("utf-8") if isinstance(content, str) else content
    with writing(path, mode) as file:
        file.write(data)


def open_lock(path: StrPath) -> int:
    """The descriptor of a lock file, made if need be (mode 0600): opened without following a
    link and kept only where it is a regular file of the user's own that no one else can
    write (a FIFO or a device put at its name is refused, not waited on)."""
    flags = os.O_RDWR | os.O_CREAT | NO_FOLLOW | NON_BLOCKING | CLOSE_ON_EXEC
    try:
        handle = os.open(path, flags, 0o600)
    except OSError as exc:
        raise CannotWrite(path, _reason(exc, path), exc.errno or 0) from None
    problem = _not_own_file(os.fstat(handle))
    if problem is not None:
        os.close(handle)
        raise CannotWrite(path, f"it {problem}")
    return handle


def _reason(error: OSError, path: StrPath) -> str:
    """An OSError of a write, said of the file being written."""
    if error.errno == errno.ELOOP:
        return "it is a symbolic link"
    if error.errno == errno.ENOENT and not os.path.isdir(os.path.dirname(os.fspath(path)) or "."):
        return "its folder does not exist"
    if error.errno == errno.ENOTDIR:
        return "its folder is not a directory"
    return error.strerror or str(error)


# ---- folders and files that puzint keeps for itself


def unsafe_folder(path: Path, shared: bool = False) -> str | None:
    """Why what is in the directory `path` cannot be trusted (None: it can), said with the
    directory's name: see `unsafe_parents` and `unsafe_directory`."""
    try:
        return unsafe_parents(path) or _named(path, unsafe_directory(path, shared))
    except OSError as exc:
        return f"{exc.filename or path}: {exc.strerror or exc}"


def _named(path: Path, problem: str | None) -> str | None:
    return None if problem is None else f"{path} {problem}"


def unsafe_directory(path: Path, shared: bool = False) -> str | None:
    """Why `path` may not hold the files puzint keeps (None: it may): it must be a directory,
    not a symbolic link, of the user's own that no other user can write. `shared`: a
    directory of caches, which may also be root's, and writable by others if it is sticky
    (as /tmp is: then no one can rename or remove what another user made in it)."""
    try:
        status = os.lstat(path)
    except OSError as exc:
        return f"cannot be examined ({exc.strerror})"
    if stat.S_ISLNK(status.st_mode):
        return "is a symbolic link"
    if not stat.S_ISDIR(status.st_mode):
        return "is not a directory"
    return _foreign(status, shared)


def unsafe_parents(path: Path) -> str | None:
    """Why a directory above `path` lets another user swap it (None: none does): each must be
    root's or the user's, and writable by no one else unless it is sticky."""
    if not OWNED:
        return None
    folder = Path(os.path.realpath(path.parent))
    for parent in (*reversed(folder.parents), folder):
        problem = _foreign(os.stat(parent), shared=True)
        if problem is not None:
            return f"{parent} {problem}"
    return None


def _foreign(status: os.stat_result, shared: bool) -> str | None:
    """Why another user could change what is in this directory or file (None: no one can)."""
    if not OWNED:
        return None
    owners = (os.getuid(), 0) if shared else (os.getuid(),)
    if status.st_uid not in owners:
        return f"belongs to another user (uid {status.st_uid})"
    if status.st_mode & WRITABLE_BY_OTHERS and not (shared and status.st_mode & stat.S_ISVTX):
        return f"can be written by other users ({stat.filemode(status.st_mode)}; chmod go-w makes it private)"
    return None


def read_own_file(path: StrPath, installed: bool = False, most_bytes: int | None = None) -> bytes | None:
    """The bytes of a file puzint keeps (None if there is none), read only if it is a regular
    file, reached without following a link, that the user owns and no one else can write,
    and (given `most_bytes`) no larger than that; else UnusableFile. `installed`: a file of
    the package (the kernel compiled at install), which may also be root's."""
    if not NO_FOLLOW and os.path.islink(path):  # no O_NOFOLLOW here: look first
        raise UnusableFile(path, "is a symbolic link")
    try:
        handle = os.open(path, os.O_RDONLY | NO_FOLLOW | NON_BLOCKING | CLOSE_ON_EXEC)
    except FileNotFoundError:
        return None
    except OSError as exc:
        unreadable = "is a symbolic link" if exc.errno == errno.ELOOP else f"cannot be read ({exc.strerror})"
        raise UnusableFile(path, unreadable) from None
    status = os.fstat(handle)
    problem = _not_own_file(status, installed)  # before fdopen: a directory opens, but fdopen refuses it
    if problem is None and most_bytes is not None and status.st_size > most_bytes:
        problem = f"is larger than {most_bytes} bytes"
    if problem is not None:
        os.close(handle)
        raise UnusableFile(path, problem)
    with os.fdopen(handle, "rb") as file:
        data = file.read() if most_bytes is None else file.read(most_bytes + 1)
    if most_bytes is not None and len(data) > most_bytes:  # it grew meanwhile
        raise UnusableFile(path, f"is larger than {most_bytes} bytes")
    return data


def _not_own_file(status: os.stat_result, installed: bool = False) -> str | None:
    if not stat.S_ISREG(status.st_mode):
        return "is not a regular file"
    if installed and status.st_mode & WRITABLE_BY_OTHERS == 0 and status.st_uid == 0:
        return None
    return _foreign(status, shared=False)


_warned: set[str] = set()


def warn(message: str, kind: str | None = None) -> None:
    """One line on stderr, once per run for each kind of trouble (the first one met): a cache
    is a convenience, and its trouble never stops a run."""
    said = kind or message
    if said not in _warned:
        _warned.add(said)
        sys.stderr.write(f"puzint: warning: {visible(message)}\n")  # a path may hold any character
