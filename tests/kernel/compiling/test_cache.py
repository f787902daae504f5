"""The kernel's cache holds pickles, and loading a pickle runs code: it is read only from a
directory of the user's own that no one else can write, never through a link, and a file
that does not read back is discarded and rebuilt. Where the cache cannot be used, the kernel
is compiled without one, never into a __pycache__ beside the code, and the run says why.

Most tests check the functions that decide; a few compile a one-line function through the
kernel's own decorator (a fraction of a second), to see what numba really reads and writes."""

from __future__ import annotations

import os
import pickle
import stat
import sys
from pathlib import Path

import pytest
from puzint.kernel import installed

pytestmark = pytest.mark.skipif(not installed(), reason="numba is not installed")

KERNEL = "kernel-0123456789abcdef"
OTHER_USER = os.getuid() + 4242 if hasattr(os, "getuid") else 0
posix_only = pytest.mark.skipif(not hasattr(os, "getuid"), reason="owners and modes are POSIX's")


def add_one(x: int) -> int:
    return x + 1


INDEX = f"test_cache.add_one-{add_one.__code__.co_firstlineno}.py{sys.version_info[0]}{sys.version_info[1]}.nbi"


class CreatesOnLoad:
    """A pickle that, loaded, creates a file: what an attacker would plant in a cache."""

    def __init__(self, marker: Path):
        self.marker = str(marker)

    def __reduce__(self) -> tuple[object, tuple[str, str]]:
        return (open, (self.marker, "w"))


def planted(marker: Path) -> bytes:
    return pickle.dumps(CreatesOnLoad(marker))


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A checked cache directory that the kernel's decorator uses."""
    from puzint.kernel.compiling import jit
    from puzint.kernel.compiling.cache import prepare

    base = tmp_path / "cache"
    path = prepare(base, KERNEL)
    assert path is not None
    monkeypatch.setattr(jit, "CACHE_DIR", path)
    return path


@pytest.fixture(autouse=True)
def every_warning_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    from puzint import files

    monkeypatch.setattr(files, "_warned", set())


def compiled_add_one() -> object:
    """A new dispatcher of add_one through the kernel's decorator, called once: as a new run
    would define and call a kernel function. Returns its numba statistics."""
    from puzint.kernel.compiling import jit

    function = jit.njit(cache=True)(add_one)
    assert function(41) == 42
    return function.stats


def files(path: Path, pattern: str) -> list[Path]:
    return sorted(path.glob(pattern))


# ---- where the cache is


def test_the_cache_base_follows_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from puzint.kernel.where import cache_base

    for name in ("PUZINT_CACHE_DIR", "NUMBA_CACHE_DIR", "XDG_CACHE_HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    assert cache_base() == tmp_path / "home" / ".cache" / "puzint"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")  # the XDG rules: a relative path is ignored
    assert cache_base() == tmp_path / "home" / ".cache" / "puzint"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_base() == tmp_path / "xdg" / "puzint"
    monkeypatch.setenv("PUZINT_CACHE_DIR", "mine")  # puzint's own setting: from the current directory
    assert cache_base() == tmp_path / "mine"


def test_the_cache_is_named_after_every_module_below_the_kernel(tmp_path: Path) -> None:
    """numba checks a cached function against its own file only: the cache's name changes with
    any module of the kernel, one in a sub-package too, and with where a module is."""
    from puzint.kernel.where import sources_hash

    (tmp_path / "part").mkdir()
    (tmp_path / "front.py").write_text("A = 1\n")
    (tmp_path / "part" / "inner.py").write_text("B = 2\n")
    (tmp_path / "part" / "data.nbi").write_bytes(b"not a source")
    first = sources_hash(tmp_path)
    (tmp_path / "part" / "data.nbi").write_bytes(b"compiled code")
    assert sources_hash(tmp_path) == first  # only the sources count
    (tmp_path / "part" / "inner.py").write_text("B = 3\n")
    changed = sources_hash(tmp_path)
    assert changed != first
    (tmp_path / "other").mkdir()
    (tmp_path / "part" / "inner.py").rename(tmp_path / "other" / "inner.py")
    assert sources_hash(tmp_path) not in (first, changed)


def test_no_two_kernel_modules_share_a_file_name() -> None:
    """numba names a function's cache files after its module's file name, not its package, in
    the one directory of the kernel's cache (and `where.compiled_before` asks by that name):
    two modules of one name in two sub-packages would take each other's files."""
    import puzint.kernel

    kernel = Path(puzint.kernel.__file__).parent
    modules = [path for path in kernel.rglob("*.py") if path.name != "__init__.py"]
    names = sorted(path.stem for path in modules)
    assert len(modules) > 20 and names == sorted(set(names))
    packages = list(kernel.rglob("__init__.py"))
    assert not [path for path in packages if "@njit" in path.read_text() or "@cfunc" in path.read_text()]


@pytest.mark.parametrize("home", ["", "relative"])
def test_no_home_means_no_cache_rather_than_one_in_the_current_directory(
    home: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from puzint.kernel.where import cache_base

    for name in ("PUZINT_CACHE_DIR", "NUMBA_CACHE_DIR", "XDG_CACHE_HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", home)
    assert cache_base() is None


# ---- which directories may hold it (the checks themselves: tests/test_files.py)


@posix_only
def test_an_unusable_cache_is_said_once_in_one_line_and_not_used(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from puzint.kernel.compiling.cache import prepare

    base = tmp_path / "base"
    (base / KERNEL).mkdir(parents=True, mode=0o700)
    (base / KERNEL).chmod(0o775)
    assert prepare(base, KERNEL) is None
    assert prepare(base, KERNEL) is None
    assert capsys.readouterr().err == (
        f"puzint: warning: the kernel's cache is not used ({base / KERNEL} can be written by other users "
        "(drwxrwxr-x; chmod go-w makes it private)): the kernel is compiled without it\n"
    )


def test_a_cache_that_cannot_be_made_is_said_and_not_used(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from puzint.kernel.compiling.cache import prepare

    (tmp_path / "base").write_text("a file where the cache would go")
    assert prepare(tmp_path / "base", KERNEL) is None
    assert capsys.readouterr().err == (
        f"puzint: warning: the kernel's cache is not used ({tmp_path / 'base'} is not a directory): "
        "the kernel is compiled without it\n"
    )


@posix_only
def test_a_new_cache_is_private(tmp_path: Path) -> None:
    from puzint.kernel.compiling.cache import prepare

    path = prepare(tmp_path / "base", KERNEL)
    assert path == tmp_path / "base" / KERNEL
    assert stat.S_IMODE(path.stat().st_mode) == 0o700 and stat.S_IMODE(path.parent.stat().st_mode) == 0o700


# ---- which files are read (the checks themselves: tests/test_files.py)


def test_the_planted_pickle_would_run_code_if_loaded(tmp_path: Path) -> None:
    """The tests below rely on it: this pickle, loaded, creates its marker."""
    pickle.loads(planted(tmp_path / "marker"))
    assert (tmp_path / "marker").exists()


# ---- numba, reading and writing through the kernel's decorator


def test_compiled_code_is_saved_private_and_loaded_again(cache: Path) -> None:
    assert not compiled_add_one().cache_hits
    index = files(cache, "test_cache.add_one-*.nbi")
    data = files(cache, "test_cache.add_one-*.nbc")
    assert len(index) == 1 and len(data) == 1
    if hasattr(os, "getuid"):
        assert {stat.S_IMODE(f.stat().st_mode) for f in index + data} == {0o600}
    assert compiled_add_one().cache_hits


@posix_only
def test_a_save_holds_the_cache_s_lock(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """numba reads the index, adds the new overload and writes it back: two processes saving
    into one cache at once (the install's compiles, side by side) take turns, so that neither
    writes an index without the other's overload."""
    import fcntl

    from numba.core.caching import IndexDataCacheFile
    from puzint.kernel.compiling.cache import SAVING_LOCK

    held: list[bool] = []
    save_index = IndexDataCacheFile._save_index

    def watched(self: IndexDataCacheFile, overloads: object) -> None:
        handle = os.open(cache / SAVING_LOCK, os.O_RDWR)  # another holder, as another process is
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            held.append(False)
        except BlockingIOError:
            held.append(True)
        finally:
            os.close(handle)
        save_index(self, overloads)

    monkeypatch.setattr(IndexDataCacheFile, "_save_index", watched)
    assert not compiled_add_one().cache_hits
    assert held == [True]
    assert compiled_add_one().cache_hits


def test_a_pickle_linked_into_the_cache_is_not_loaded(cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    compiled_add_one()
    index = cache / INDEX
    marker = cache.parent.parent / "marker"
    (cache.parent.parent / "planted.nbi").write_bytes(planted(marker))
    index.unlink()
    index.symlink_to(cache.parent.parent / "planted.nbi")
    assert not compiled_add_one().cache_hits  # compiled again: the link was not read
    assert not marker.exists()
    assert capsys.readouterr().err == (
        f"puzint: warning: the kernel's cache is not loaded ({index} is a symbolic link): "
        "the kernel is compiled again\n"
    )
    assert not index.is_symlink()  # saving the code replaced the link, without writing through it
    assert (cache.parent.parent / "planted.nbi").read_bytes() == planted(marker)
    assert compiled_add_one().cache_hits


def test_a_directory_at_a_cache_file_s_name_is_left_and_said(cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (cache / INDEX).mkdir()
    (cache / INDEX / "kept").write_text("kept")
    assert not compiled_add_one().cache_hits
    assert capsys.readouterr().err == (
        f"puzint: warning: the kernel's cache is not loaded ({cache / INDEX} is not a regular file): "
        "the kernel is compiled again\n"
        f"puzint: warning: the compiled kernel was not saved in its cache (cannot write {cache / INDEX}: "
        "it is a directory): later runs compile it again\n"
    )
    assert (cache / INDEX / "kept").read_text() == "kept"
    assert not files(cache, "*.tmp.*")  # the new file that could not take its place is removed


@posix_only
def test_a_pickle_others_could_write_is_not_loaded(cache: Path) -> None:
    compiled_add_one()
    (index,) = files(cache, "test_cache.add_one-*.nbi")
    marker = cache.parent.parent / "marker"
    index.write_bytes(planted(marker))
    index.chmod(0o666)
    assert not compiled_add_one().cache_hits
    assert not marker.exists()


@posix_only
def test_a_pickle_in_a_directory_others_can_write_is_not_loaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from puzint.kernel.compiling import jit
    from puzint.kernel.compiling.cache import prepare

    shared = tmp_path / "base" / KERNEL
    shared.mkdir(parents=True)
    shared.chmod(0o777)
    marker = tmp_path / "marker"
    (shared / INDEX).write_bytes(planted(marker))
    monkeypatch.setattr(jit, "CACHE_DIR", prepare(tmp_path / "base", KERNEL))
    assert jit.CACHE_DIR is None
    compiled_add_one()
    assert not marker.exists()
    assert "the kernel's cache is not used" in capsys.readouterr().err


@pytest.mark.parametrize("damage", ["truncated", "empty", "garbled"])
@pytest.mark.parametrize("which", ["nbi", "nbc"])
def test_a_damaged_cache_file_is_discarded_and_rebuilt(
    cache: Path, capsys: pytest.CaptureFixture[str], damage: str, which: str
) -> None:
    compiled_add_one()
    (path,) = files(cache, f"test_cache.add_one-*.{which}")
    whole = path.read_bytes()
    path.write_bytes({"truncated": whole[: len(whole) // 2], "empty": b"", "garbled": b"garbage\n" * 10}[damage])
    assert not compiled_add_one().cache_hits  # compiled again, and answers
    err = capsys.readouterr().err
    assert err.startswith(f"puzint: warning: the kernel's cache held a damaged file, discarded and rebuilt: {path} (")
    assert err.count("\n") == 1
    assert compiled_add_one().cache_hits  # rebuilt: the next run loads it


def test_without_a_cache_nothing_is_written_beside_the_code(monkeypatch: pytest.MonkeyPatch) -> None:
    """numba's own fallback, where its cache directory cannot be used, is a __pycache__
    beside the module: inside the installed package (any of the kernel's sub-packages)."""
    import puzint.kernel
    from puzint.kernel.compiling import jit

    monkeypatch.setattr(jit, "CACHE_DIR", None)
    here = Path(__file__).parent / "__pycache__"
    package = Path(puzint.kernel.__file__).parent
    before = files(here, "*.nb*") + files(package, "**/__pycache__/*.nb*")
    stats = compiled_add_one()
    assert not stats.cache_hits
    assert files(here, "*.nb*") + files(package, "**/__pycache__/*.nb*") == before
    assert not files(here, "test_cache.add_one-*")


# ---- tidying the base


def old(path: Path) -> None:
    long_ago = os.stat(path).st_mtime - 40 * 86400
    os.utime(path, (long_ago, long_ago), follow_symlinks=False)


def test_tidying_follows_no_link(tmp_path: Path) -> None:
    from puzint.kernel.compiling.cache import forget_unused

    base, elsewhere = tmp_path / "base", tmp_path / "elsewhere"
    base.mkdir()
    elsewhere.mkdir()
    (elsewhere / "precious").write_text("")
    link = base / "kernel-aaaaaaaaaaaaaaaa"
    link.symlink_to(elsewhere)
    old(elsewhere)
    old(link)
    forget_unused(base, keep=base / KERNEL)
    assert (elsewhere / "precious").exists() and link.is_symlink()


@posix_only
def test_tidying_leaves_another_users_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from puzint.kernel.compiling.cache import forget_unused

    theirs = tmp_path / "kernel-bbbbbbbbbbbbbbbb"
    theirs.mkdir()
    (theirs / "code.nbi").write_text("")
    old(theirs)
    monkeypatch.setattr(os, "getuid", lambda: OTHER_USER)
    forget_unused(tmp_path, keep=tmp_path / KERNEL)
    assert (theirs / "code.nbi").exists()
    monkeypatch.undo()
    forget_unused(tmp_path, keep=tmp_path / KERNEL)
    assert not theirs.exists()


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="giving a file away takes root")
def test_tidying_leaves_a_cache_holding_another_users_file(tmp_path: Path) -> None:
    from puzint.kernel.compiling.cache import forget_unused

    mine = tmp_path / "kernel-cccccccccccccccc"
    mine.mkdir()
    (mine / "theirs.nbi").write_text("")
    os.chown(mine / "theirs.nbi", OTHER_USER, OTHER_USER)
    old(mine)
    forget_unused(tmp_path, keep=tmp_path / KERNEL)
    assert (mine / "theirs.nbi").exists()


# ---- the code compiled at install (kernel/prebuild.py), copied into a cache that lacks it


@pytest.fixture
def installed_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """add_one compiled into a directory as the install compiles the machine (readable by all)."""
    from puzint.kernel.compiling import jit
    from puzint.kernel.compiling.cache import prepare

    built = prepare(tmp_path / "package", KERNEL)
    assert built is not None
    monkeypatch.setattr(jit, "CACHE_DIR", built)
    compiled_add_one()
    for file in built.iterdir():
        if file.name.endswith((".nbi", ".nbc")):
            file.chmod(0o644)
        else:
            file.unlink()  # the lock of the save: prebuild removes it too
    return built


def test_the_code_compiled_at_install_is_copied_and_loaded(
    installed_code: Path, cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from puzint.kernel.compiling.cache import seed

    seed(cache, installed_code)
    copied = sorted(f.name for f in cache.iterdir())
    assert copied == sorted(f.name for f in installed_code.iterdir()) and INDEX in copied
    if hasattr(os, "getuid"):
        assert {stat.S_IMODE(f.stat().st_mode) for f in cache.iterdir()} == {0o600}
    assert compiled_add_one().cache_hits  # loaded, not compiled
    assert capsys.readouterr().err == ""


def test_what_the_cache_holds_already_is_kept(installed_code: Path, cache: Path) -> None:
    from puzint.kernel.compiling.cache import seed

    (cache / INDEX).write_bytes(b"the user's own")
    seed(cache, installed_code)
    assert (cache / INDEX).read_bytes() == b"the user's own"
    assert not files(cache, "test_cache.add_one-*.nbc")  # the function is copied whole or not at all


def test_an_index_another_numba_wrote_is_replaced_by_the_installs(installed_code: Path, cache: Path) -> None:
    """numba upgraded and puzint installed again: the kernel's sources, and so its cache's
    name, are the same, but the cache's files are the old numba's (never loaded again)."""
    from puzint.kernel.compiling.cache import seed

    (cache / INDEX).write_bytes(pickle.dumps("0.1.0") + pickle.dumps(("stamp", {})))
    seed(cache, installed_code)
    assert (cache / INDEX).read_bytes() == (installed_code / INDEX).read_bytes()
    assert compiled_add_one().cache_hits


@posix_only
@pytest.mark.parametrize("trouble", ["writable", "link", "directory"])
def test_installed_code_others_could_have_written_is_not_copied(
    installed_code: Path, cache: Path, capsys: pytest.CaptureFixture[str], trouble: str
) -> None:
    from puzint.kernel.compiling.cache import seed

    marker = installed_code.parent.parent / "marker"
    if trouble == "writable":
        (installed_code / INDEX).write_bytes(planted(marker))
        (installed_code / INDEX).chmod(0o666)
        expected = f"{installed_code / INDEX} can be written by other users"
    elif trouble == "link":
        (installed_code.parent.parent / "planted.nbi").write_bytes(planted(marker))
        (installed_code / INDEX).unlink()
        (installed_code / INDEX).symlink_to(installed_code.parent.parent / "planted.nbi")
        expected = f"{installed_code / INDEX} is a symbolic link"
    else:
        installed_code.chmod(0o777)
        expected = f"{installed_code} can be written by other users"
    seed(cache, installed_code)
    assert not (cache / INDEX).exists()
    assert not compiled_add_one().cache_hits  # compiled, as without the install's code
    assert not marker.exists()
    err = capsys.readouterr().err
    assert err.startswith(f"puzint: warning: the kernel compiled at install is not used ({expected}")
    assert err.endswith("): it is compiled again\n")


def test_the_install_is_known_to_have_compiled_the_machine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from puzint.kernel import where

    monkeypatch.setenv("PUZINT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(where, "installed_base", lambda: tmp_path / "package")
    assert not where.compiled_before("entry")
    (tmp_path / "package" / where.cache_name()).mkdir(parents=True)
    (tmp_path / "package" / where.cache_name() / "entry._entry-54.py311.nbi").write_bytes(b"")
    assert where.compiled_before("entry")


def test_prebuilt_takes_0_or_1(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from puzint.kernel import where

    monkeypatch.setenv("PUZINT_PREBUILT", "0")
    assert where.installed_base() is None
    monkeypatch.setenv("PUZINT_PREBUILT", "no\x1b[2J")
    monkeypatch.setattr(where, "_said", set())
    where.installed_base()
    where.installed_base()
    assert capsys.readouterr().err == (
        "puzint: warning: PUZINT_PREBUILT=no\\x1b[2J is neither 0 nor 1: the kernel compiled at install is used\n"
    )
