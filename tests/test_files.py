"""How puzint writes a file (files.py): a new file made exclusively beside the target, renamed
over it; never through a link, never over a directory, every failure one CannotWrite that
says which file and why, and nothing left behind. And how the folders and files puzint keeps
for itself are checked before they are trusted: the user's own, writable by no one else,
never reached through a link."""

from __future__ import annotations

import errno
import os
import pickle
import stat
from pathlib import Path

import pytest
from puzint import files
from puzint.files import (
    CannotWrite,
    UnusableFile,
    open_lock,
    read_own_file,
    unsafe_directory,
    unsafe_folder,
    unsafe_parents,
    unwritable,
    warn,
    write_file,
    writing,
)

OTHER_USER = os.getuid() + 4242 if hasattr(os, "getuid") else 0
posix_only = pytest.mark.skipif(not hasattr(os, "getuid"), reason="owners and modes are POSIX's")


def leftovers(folder: Path) -> list[str]:
    """The temporary files a write left in `folder` (none, whatever happened)."""
    return sorted(p.name for p in folder.iterdir() if ".tmp." in p.name)


@pytest.fixture
def victim(tmp_path: Path) -> Path:
    """A file of the user's that a link planted at a name points to."""
    path = tmp_path / "victim"
    path.write_text("the user's own\n")
    return path


# ---- writing


def test_a_file_is_written_whole_with_the_mode_asked(tmp_path: Path) -> None:
    path = tmp_path / "out.txt"
    write_file(path, "first\n")
    write_file(path, "second ✓\n", mode=0o600)
    assert path.read_text(encoding="utf-8") == "second ✓\n"
    if hasattr(os, "getuid"):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert leftovers(tmp_path) == []


def test_a_link_at_the_name_is_refused_and_its_target_untouched(tmp_path: Path, victim: Path) -> None:
    link = tmp_path / "out.txt"
    link.symlink_to(victim)
    with pytest.raises(CannotWrite) as refused:
        write_file(link, "planted\n")
    assert str(refused.value) == f"cannot write {link}: it is a symbolic link"
    assert victim.read_text() == "the user's own\n" and link.is_symlink()
    assert leftovers(tmp_path) == []


def test_a_link_to_nothing_is_refused_and_nothing_made_where_it_points(tmp_path: Path) -> None:
    link = tmp_path / "out.txt"
    link.symlink_to(tmp_path / "made-through-the-link")
    with pytest.raises(CannotWrite, match=r"it is a symbolic link$"):
        write_file(link, "planted\n")
    assert not (tmp_path / "made-through-the-link").exists()


def test_a_cache_replaces_a_link_without_writing_through_it(tmp_path: Path, victim: Path) -> None:
    link = tmp_path / "cache.nbi"
    link.symlink_to(victim)
    with writing(link, mode=0o600, replace_links=True) as out:
        out.write(b"mended")
    assert not link.is_symlink() and link.read_bytes() == b"mended"
    assert victim.read_text() == "the user's own\n"


@pytest.mark.parametrize("replace_links", [False, True])
def test_a_directory_at_the_name_is_refused(tmp_path: Path, replace_links: bool) -> None:
    folder = tmp_path / "out.txt"
    folder.mkdir()
    (folder / "kept").write_text("kept")
    with pytest.raises(CannotWrite) as refused, writing(folder, replace_links=replace_links) as out:
        out.write(b"x")
    assert str(refused.value) == f"cannot write {folder}: it is a directory"
    assert (folder / "kept").read_text() == "kept" and leftovers(tmp_path) == []


@posix_only
def test_a_fifo_at_the_name_is_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "out.txt"
    os.mkfifo(fifo)
    with pytest.raises(CannotWrite, match=r"out\.txt: it is not a regular file$"):
        write_file(fifo, "x")


def test_a_missing_folder_or_a_file_as_folder_is_said(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    with pytest.raises(CannotWrite) as missing:
        write_file(tmp_path / "none" / "out.txt", "x")
    assert str(missing.value) == f"cannot write {tmp_path / 'none' / 'out.txt'}: its folder does not exist"
    with pytest.raises(CannotWrite) as not_a_folder:
        write_file(tmp_path / "file" / "out.txt", "x")  # a real ENOTDIR
    assert str(not_a_folder.value) == f"cannot write {tmp_path / 'file' / 'out.txt'}: its folder is not a directory"


def test_a_read_only_folder_is_said(tmp_path: Path, read_only_file_system: None) -> None:
    with pytest.raises(CannotWrite) as refused:
        write_file(tmp_path / "out.txt", "x")
    assert str(refused.value) == f"cannot write {tmp_path / 'out.txt'}: Read-only file system"
    assert refused.value.errno == errno.EROFS and not (tmp_path / "out.txt").exists()


def test_the_temporary_name_cannot_be_guessed(tmp_path: Path, victim: Path) -> None:
    """Links planted at the names a writer might have used leave the write and their targets
    alone (the old `check --record` wrote NAME.new, through whatever was there)."""
    for name in ("out.txt.new", "out.txt.tmp", ".out.txt.swp"):
        (tmp_path / name).symlink_to(victim)
    write_file(tmp_path / "out.txt", "new\n")
    assert (tmp_path / "out.txt").read_text() == "new\n"
    assert victim.read_text() == "the user's own\n"
    assert all((tmp_path / name).is_symlink() for name in ("out.txt.new", "out.txt.tmp", ".out.txt.swp"))


def test_a_link_put_at_the_name_while_writing_is_not_replaced(tmp_path: Path, victim: Path) -> None:
    path = tmp_path / "out.txt"
    with pytest.raises(CannotWrite, match=r"it is a symbolic link$"), writing(path) as out:
        out.write(b"x")
        path.symlink_to(victim)
    assert path.is_symlink() and victim.read_text() == "the user's own\n" and leftovers(tmp_path) == []


def test_a_failure_while_writing_removes_the_temporary_file(tmp_path: Path) -> None:
    path = tmp_path / "out.txt"
    path.write_text("old\n")
    with pytest.raises(ValueError, match=r"^not written$"), writing(path) as out:
        out.write(b"half")
        raise ValueError("not written")
    with pytest.raises(CannotWrite) as full, writing(path) as out:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    assert str(full.value) == f"cannot write {path}: No space left on device"
    assert path.read_text() == "old\n" and leftovers(tmp_path) == []


def test_cannot_write_is_an_os_error_that_survives_a_pickle() -> None:
    error = CannotWrite("/a/b.moves", "it is a directory", errno.EISDIR)
    again = pickle.loads(pickle.dumps(error))
    assert isinstance(again, OSError)
    assert (str(again), again.errno, again.filename) == ("cannot write /a/b.moves: it is a directory", 21, "/a/b.moves")


def test_what_may_be_written_is_said_before_writing(tmp_path: Path, victim: Path) -> None:
    (tmp_path / "link").symlink_to(victim)
    assert unwritable(tmp_path / "new") is None
    assert unwritable(victim) is None
    assert unwritable(tmp_path / "link") == "it is a symbolic link"
    assert unwritable(tmp_path / "link", replace_links=True) is None
    assert unwritable(tmp_path) == "it is a directory"


# ---- a lock file


@posix_only
def test_a_lock_file_is_made_private_and_opened_again(tmp_path: Path) -> None:
    path = tmp_path / "compiling.lock"
    os.close(open_lock(path))
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    os.close(open_lock(path))


@posix_only
def test_a_lock_file_that_is_a_link_a_fifo_or_another_user_s_is_refused(
    tmp_path: Path, victim: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "link.lock").symlink_to(victim)
    with pytest.raises(CannotWrite, match=r"link\.lock: it is a symbolic link$"):
        open_lock(tmp_path / "link.lock")
    os.mkfifo(tmp_path / "fifo.lock")
    with pytest.raises(CannotWrite, match=r"fifo\.lock: it is not a regular file$"):  # not waited on
        open_lock(tmp_path / "fifo.lock")
    os.close(open_lock(tmp_path / "own.lock"))
    monkeypatch.setattr(os, "getuid", lambda: OTHER_USER)
    with pytest.raises(CannotWrite, match=r"own\.lock: it belongs to another user \(uid \d+\)$"):
        open_lock(tmp_path / "own.lock")


# ---- which folders may hold what puzint keeps


@posix_only
def test_a_private_directory_may_hold_the_cache(tmp_path: Path) -> None:
    path = tmp_path / "private"
    path.mkdir(mode=0o700)
    assert unsafe_directory(path) is None


@posix_only
@pytest.mark.parametrize("mode", [0o770, 0o707, 0o777, 0o1777])
def test_a_directory_others_can_write_may_not(tmp_path: Path, mode: int) -> None:
    path = tmp_path / "open"
    path.mkdir()
    path.chmod(mode)
    problem = unsafe_directory(path)
    assert problem is not None and problem.startswith("can be written by other users (d")


@posix_only
def test_a_shared_base_may_be_writable_by_all_if_it_is_sticky(tmp_path: Path) -> None:
    path = tmp_path / "shared"
    path.mkdir()
    path.chmod(0o1777)  # as /tmp is: no one can rename or remove what another user made in it
    assert unsafe_directory(path, shared=True) is None
    path.chmod(0o777)
    assert unsafe_directory(path, shared=True) is not None


@posix_only
def test_another_users_directory_may_not(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "theirs"
    path.mkdir(mode=0o700)
    monkeypatch.setattr(os, "getuid", lambda: OTHER_USER)  # the directory is now someone else's
    assert unsafe_directory(path) == f"belongs to another user (uid {path.stat().st_uid})"


def test_a_link_or_a_file_may_not(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir(mode=0o700)
    (tmp_path / "link").symlink_to(real)
    (tmp_path / "file").write_text("")
    assert unsafe_directory(tmp_path / "link") == "is a symbolic link"
    assert unsafe_directory(tmp_path / "file") == "is not a directory"


@posix_only
def test_a_parent_that_others_can_write_lets_them_swap_the_cache(tmp_path: Path) -> None:
    parent = tmp_path / "parent"
    parent.mkdir()
    parent.chmod(0o777)
    assert (
        unsafe_parents(parent / "cache")
        == f"{parent} can be written by other users (drwxrwxrwx; chmod go-w makes it private)"
    )
    parent.chmod(0o1777)
    assert unsafe_parents(parent / "cache") is None


@posix_only
def test_a_folder_is_checked_with_its_parents_and_named(tmp_path: Path) -> None:
    folder = tmp_path / "parent" / "cache"
    folder.mkdir(parents=True, mode=0o700)
    assert unsafe_folder(folder) is None
    folder.chmod(0o777)
    assert unsafe_folder(folder) == f"{folder} can be written by other users (drwxrwxrwx; chmod go-w makes it private)"
    folder.parent.chmod(0o777)  # the parent is said first: whoever can swap the folder need not write in it
    assert unsafe_folder(folder) == (
        f"{folder.parent} can be written by other users (drwxrwxrwx; chmod go-w makes it private)"
    )
    assert unsafe_folder(tmp_path / "none") == f"{tmp_path / 'none'} cannot be examined (No such file or directory)"


# ---- which files are read


def test_a_linked_file_is_not_read(tmp_path: Path) -> None:
    (tmp_path / "elsewhere.nbi").write_bytes(b"planted")
    (tmp_path / "f.nbi").symlink_to(tmp_path / "elsewhere.nbi")
    with pytest.raises(UnusableFile, match=r"f\.nbi is a symbolic link$"):
        read_own_file(str(tmp_path / "f.nbi"))


@posix_only
def test_a_file_others_can_write_or_own_is_not_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "f.nbi"
    path.write_bytes(b"data")
    path.chmod(0o600)
    assert read_own_file(str(path)) == b"data"
    path.chmod(0o620)
    with pytest.raises(UnusableFile, match="can be written by other users"):
        read_own_file(str(path))
    path.chmod(0o600)
    monkeypatch.setattr(os, "getuid", lambda: OTHER_USER)
    with pytest.raises(UnusableFile, match="belongs to another user"):
        read_own_file(str(path))


def test_a_missing_file_is_none(tmp_path: Path) -> None:
    assert read_own_file(str(tmp_path / "none.nbi")) is None


@posix_only
def test_a_directory_a_fifo_or_a_large_file_is_not_read(tmp_path: Path) -> None:
    (tmp_path / "folder").mkdir()
    os.mkfifo(tmp_path / "fifo")  # reading it would wait for a writer for ever
    (tmp_path / "large").write_bytes(b"x" * 11)
    (tmp_path / "large").chmod(0o600)
    with pytest.raises(UnusableFile, match=r"folder is not a regular file$"):
        read_own_file(tmp_path / "folder")
    with pytest.raises(UnusableFile, match=r"fifo is not a regular file$"):
        read_own_file(tmp_path / "fifo")
    with pytest.raises(UnusableFile, match=r"large is larger than 10 bytes$"):
        read_own_file(tmp_path / "large", most_bytes=10)
    assert read_own_file(tmp_path / "large", most_bytes=11) == b"x" * 11


def test_a_warning_is_said_once_for_each_kind(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(files, "_warned", set())
    warn("first \x1b[2J", "kind")
    warn("second", "kind")
    warn("other")
    assert capsys.readouterr().err == "puzint: warning: first \\x1b[2J\npuzint: warning: other\n"
