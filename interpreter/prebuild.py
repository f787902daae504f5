"""The compiled kernel built ahead of time, when puzint is installed.

numba compiles the kernel's machine (`kernel.machine.entry`: every op of every machine
program, one C-callable function) in 25-45 s, a third of it LLVM's and the rest numba's
typing of a large interpreter (docs/performance-kernel.md, "Compilation"). Each search's own
loop then takes 1-8 s on its first use. So setup.py's `build_kernel` runs this module at
install, in a process of its own, into a cache directory inside the package
(`kernel.where.PREBUILT`): the machine, then one small search of each kind the kernel has
(WARM_UP), which compiles that search's loop. A run copies what its own cache lacks from
there (`kernel.compiling.cache.seed`). The loops are compiled for the types of their
arguments (arrays of integers, whatever the spec), so a search of a kind met here loads at
once for any spec; a kind not met here compiles on first use, as before.

Where the build may fork and has two cores, the two share the work: one process compiles the
machine while another runs the warm-up on a stand-in machine that does nothing (a search
calls the machine by the address in its program's header, so its loop compiles the same for
any machine: `kernel.machine.calls`), which compiles the searches' loops and finds no
solution at once; then two processes run the warm-up again, half each, on the machine just
compiled: they load what the stand-in's runs compiled, compile what those runs did not reach,
and say, as a single process does, any search that did not compile. numba's saves into one
cache from several processes are safe (`KernelCacheFile.save` takes the cache's lock).

The files are numba's cache files, keyed as a run keys them (the kernel's sources, numba's
version, Python's, the processor's): where any of these differ from the install's, they are
not used and the kernel compiles on first use, as without them.
"""

from __future__ import annotations

import importlib
import os
import shutil
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

Search = tuple[str, str, dict[str, str], dict[str, Any]]  # the search, the spec, its parameters, the question

# small instances, a second or less each once compiled, of every search of the kernel that a
# catalogue spec asks for
WARM_UP: list[Search] = [
    ("word tables, breadth first", "eight_puzzle", {}, {"reach": True}),
    ("word tables, counts", "knights", {}, {"count": True}),
    ("word tables, reach up to symmetry", "knights", {}, {"reach": True}),
    ("word tables, A*", "eight_puzzle", {}, {"method": "astar"}),
    ("word tables, IDA*", "eight_puzzle", {}, {"method": "idastar"}),
    ("word tables, both ends", "lights_out", {}, {"method": "bidirectional"}),
    ("pattern databases, built and read", "eight_puzzle", {}, {"heuristic": "derived"}),
    ("machine, breadth first", "jealous_husbands", {}, {}),
    ("machine, counts", "jealous_husbands", {}, {"count": True}),
    ("several words a state", "hanoi", {"discs": "11"}, {"reach": True}),
    ("machine, cheapest", "bridge_torch", {}, {}),
    ("machine, search any", "peg_english", {}, {}),
    ("machine, search all", "number_circle", {"n": "8"}, {"count": True}),
    ("machine, search all listed", "queens", {"n": "6"}, {"all": True}),
    ("fill search", "sudoku", {}, {}),
    ("exact cover", "pentominoes", {}, {}),
]


def build(target: Path, specs: Path, processes: int | None = None) -> Path:
    """The kernel compiled into target/<this kernel's cache name>, which is returned: the
    machine, then the searches of WARM_UP on the specs in `specs`. Caches of other versions
    of the kernel under `target` are removed (the directory is the install's alone). The
    files are made readable by all: the package may be installed for every user of the
    machine, and only writing them is the installer's alone. A search that fails to compile
    is said on stderr and left to compile on first use. `processes`: 1 compiles everything
    in this process, 2 shares the work between processes (see the module's docstring); by
    default 2 where this process may fork and has two cores or more."""
    os.environ["PUZINT_CACHE_DIR"] = str(target)
    os.environ["PUZINT_PREBUILT"] = "0"  # never seeded from an older build
    from .kernel.compiling.cache import KERNEL_DIR
    from .kernel.where import cache_name

    if target.is_dir():
        for other in target.iterdir():
            if KERNEL_DIR.fullmatch(other.name) and other.name != cache_name() and not other.is_symlink():
                shutil.rmtree(other)
    built = target / cache_name()
    if (processes or _processes()) < 2:
        importlib.import_module(".kernel.machine.entry", __package__)  # compiles the machine
        _machine_saved(built)
        _warm_up(specs, WARM_UP)
    else:
        from . import api  # noqa: F401 - imported once, before the forks: each copy has it

        _side_by_side(_compile_the_machine, lambda: _warm_up_on_a_stand_in(specs))
        _machine_saved(built)
        _side_by_side(lambda: _warm_up(specs, WARM_UP[0::2]), lambda: _warm_up(specs, WARM_UP[1::2]))
    for folder in (target, built):
        folder.chmod(0o755)
    for file in built.iterdir():
        if file.name.endswith((".nbi", ".nbc")):
            file.chmod(0o644)
        else:
            file.unlink()  # a lock or a temporary file: nothing a run reads
    return built


def _machine_saved(built: Path) -> None:
    if not any(built.glob("entry.*.nbi")):
        raise RuntimeError(f"the machine was compiled, but its cache was not written in {built}")


def _warm_up(specs: Path, searches: list[Search], seconds: float = 300) -> None:
    from .api import load, solve

    os.environ["PUZINT_KEEP_PATTERNS"] = "0"  # the warm-up's tables are not the user's to keep
    for search, spec, params, question in searches:
        try:
            result = solve(load(specs / f"{spec}.puz", params), engine="compiled", timeout=seconds, **question)
        except Exception as exc:  # a search left to compile on first use: the install goes on
            sys.stderr.write(f"{search} ({spec}) not compiled ahead of time: {type(exc).__name__}: {exc}\n")
            continue
        if result.status == "limit":
            sys.stderr.write(f"{search} ({spec}) not compiled ahead of time: stopped ({result.limit})\n")


def _processes() -> int:
    """2 where this process may fork (POSIX, but not macOS, where a forked process may not use
    the system's libraries) and may use two cores or more, else 1."""
    if not hasattr(os, "fork") or sys.platform == "darwin":
        return 1
    affinity = getattr(os, "sched_getaffinity", None)
    cores = len(affinity(0)) if affinity is not None else (os.cpu_count() or 1)
    return 2 if cores >= 2 else 1


def _side_by_side(*tasks: Callable[[], None]) -> None:
    """Each task in a forked copy of this process, all at once; back once all have ended. A
    task that raises says why on stderr (its copy exits 1): what it did not compile, a
    later step compiles or says."""
    children = []
    for task in tasks:
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the copy: never returns
            code = 0
            try:
                task()
            except BaseException as exc:
                sys.stderr.write(f"{type(exc).__name__}: {exc}\n")
                code = 1
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code)
        children.append(pid)
    for pid in children:
        os.waitpid(pid, 0)


def _compile_the_machine() -> None:
    importlib.import_module(".kernel.machine.entry", __package__)


def _warm_up_on_a_stand_in(specs: Path) -> None:
    """The warm-up's searches, their programs calling a machine that does nothing: each loop
    compiles while the machine does in the other process. What they print is left unsaid:
    they find nothing, and fail where a search needs what the machine would have said; the
    next step runs them on the machine and says what did not compile."""
    from numba import cfunc
    from numba import types as numba_types

    from .kernel.machine.calls import ARGUMENTS

    @cfunc(numba_types.int64(*([numba_types.int64] * ARGUMENTS)))
    def nothing(op, mp, mp_length, ws, ws_length, out, rows, extra):  # type: ignore[no-untyped-def]
        return 0  # no successors, no goal, no estimate

    stand_in: Any = types.ModuleType(f"{__package__}.kernel.machine.entry")
    stand_in.ADDRESS = nothing.address  # what `machine.assembly` puts in the programs' headers
    sys.modules[stand_in.__name__] = stand_in
    os.dup2(os.open(os.devnull, os.O_WRONLY), 2)
    _warm_up(specs, WARM_UP, seconds=120)


def main(argv: list[str]) -> int:
    """python -m puzint.prebuild TARGET [SPECS]: 0 once built, 1 (and why, on stderr) if not.
    SPECS: the shipped specs' directory (by default the catalogue's)."""
    if len(argv) not in (1, 2):
        sys.stderr.write("usage: python -m puzint.prebuild TARGET [SPECS]\n")
        return 2
    if len(argv) == 2:
        specs = Path(argv[1])
    else:
        from .catalogue import catalogue_dir

        found = catalogue_dir()
        if found is None:
            sys.stderr.write("the shipped specs are not found: name their directory (SPECS)\n")
            return 2
        specs = found
    try:
        built = build(Path(os.path.abspath(argv[0])), specs)
    except Exception as exc:
        sys.stderr.write(f"the kernel was not compiled ahead of time ({type(exc).__name__}: {exc})\n")
        return 1
    sys.stdout.write(f"the kernel compiled into {built}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
