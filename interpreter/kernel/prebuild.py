"""The kernel's machine compiled ahead of time, when puzint is installed.

numba compiles the machine (`entry`: every op of every machine program, one C-callable
function) in 25-45 s, a third of it LLVM's and the rest numba's typing of a large
interpreter; no split of it was found that a typical spec would not need whole. So it is
compiled once at install: setup.py's `build_kernel` runs this module in a process of its
own, into a cache directory inside the package (`where.PREBUILT`), and a run copies what
its own cache lacks from there (`cache.seed`). A search's own loop still compiles on its
first use (1-4 s), into the user's cache as before.

The files are numba's cache files, keyed as a run keys them (the kernel's sources, numba's
version, Python's, the processor's): where any of these differ from the install's, they are
not used and the machine compiles on first use, as without them.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path


def build(target: Path) -> Path:
    """The machine compiled into target/<this kernel's cache name>, which is returned; caches
    of other versions of the kernel under `target` are removed (the directory is the
    install's alone). Its files are made readable by all: the package may be installed for
    every user of the machine, and only writing them is the installer's alone."""
    os.environ["PUZINT_CACHE_DIR"] = str(target)
    os.environ["PUZINT_PREBUILT"] = "0"  # never seeded from an older build
    from .cache import KERNEL_DIR
    from .where import cache_name

    if target.is_dir():
        for other in target.iterdir():
            if KERNEL_DIR.fullmatch(other.name) and other.name != cache_name() and not other.is_symlink():
                shutil.rmtree(other)
    from . import entry  # compiles the machine into the cache, or finds it there

    del entry
    built = target / cache_name()
    if not any(built.glob("entry.*.nbi")):
        raise RuntimeError(f"the machine was compiled, but its cache was not written in {built}")
    for folder in (target, built):
        folder.chmod(0o755)
    for file in built.iterdir():
        if file.name.endswith((".nbi", ".nbc")):
            file.chmod(0o644)
        else:
            file.unlink()  # a lock or a temporary file: nothing a run reads
    return built


def main(argv: list[str]) -> int:
    """python -m puzint.kernel.prebuild TARGET: 0 once built, 1 (and why, on stderr) if not."""
    if len(argv) != 1:
        sys.stderr.write("usage: python -m puzint.kernel.prebuild TARGET\n")
        return 2
    try:
        built = build(Path(os.path.abspath(argv[0])))
    except Exception as exc:
        sys.stderr.write(f"the kernel was not compiled ahead of time ({type(exc).__name__}: {exc})\n")
        return 1
    sys.stdout.write(f"the kernel's machine compiled into {built}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
