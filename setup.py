"""puzint's build: the package as pyproject.toml describes it, plus one step, `build_kernel`,
that compiles the search kernel at install (see interpreter/prebuild.py), so that no first
search waits for it (half a minute for the machine). The step never fails an install: where
it cannot compile (no numba for this Python, a compile error), it says why and the kernel
compiles on first use instead; PUZINT_BUILD_KERNEL=0 leaves it out (a minute: the tests
that only look into the wheel)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import ClassVar

from setuptools import Command, setup
from setuptools.command.build import build

ROOT = Path(__file__).resolve().parent

# The build's Python has numba, lark and rich (pyproject's build requirements) but not
# puzint: the package is loaded from the source tree under its installed name, so that
# numba's cache files are named as an installed run names them.
FROM_SOURCE = """
import importlib.util, sys
for name, folder in (("puzint", "interpreter"), ("puzint.grammar", "grammar")):
    spec = importlib.util.spec_from_file_location(
        name, folder + "/__init__.py", submodule_search_locations=[folder]
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
from puzint.prebuild import main
sys.exit(main(sys.argv[1:]))
"""


class BuildKernel(Command):
    """Compile the kernel into the package: into the source tree for an editable
    install (as setuptools builds extensions in place), else into the build's tree, so that
    it is in the wheel."""

    description = "compile the search kernel (numba) into the package"
    user_options: ClassVar[list[tuple[str, str | None, str]]] = []

    def initialize_options(self) -> None:
        self.build_lib: str | None = None
        self.editable_mode = False
        self.outputs: list[str] = []

    def finalize_options(self) -> None:
        self.set_undefined_options("build_py", ("build_lib", "build_lib"))

    def run(self) -> None:
        wanted = os.environ.get("PUZINT_BUILD_KERNEL", "1")
        if wanted not in ("0", "1"):
            self.warn(f"PUZINT_BUILD_KERNEL={wanted!r} is neither 0 nor 1: the kernel is compiled")
        package = ROOT / "interpreter" if self.editable_mode else Path(str(self.build_lib)) / "puzint"
        target = package / "kernel" / "compiled"
        if wanted == "0":
            if not self.editable_mode:
                shutil.rmtree(target, ignore_errors=True)  # an earlier build's, left in build/
            self.announce("PUZINT_BUILD_KERNEL=0: the kernel compiles on its first search instead", level=2)
            return
        argv = [sys.executable, "-c", FROM_SOURCE, str(target), str(ROOT / "specs")]
        done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True)
        if done.returncode != 0:
            self.warn(f"{done.stderr.strip()}; the kernel compiles on its first search instead")
            return
        self.announce(done.stdout.strip(), level=2)
        if done.stderr.strip():  # searches of the warm-up that did not compile: they will on first use
            self.warn(done.stderr.strip())
        if not self.editable_mode:
            self.outputs = [str(path) for path in target.rglob("*") if path.is_file()]

    def get_outputs(self) -> list[str]:
        return self.outputs

    def get_output_mapping(self) -> dict[str, str]:
        return {}


class Build(build):
    sub_commands: ClassVar[list[tuple[str, object]]] = [*build.sub_commands, ("build_kernel", None)]


setup(cmdclass={"build": Build, "build_kernel": BuildKernel})
