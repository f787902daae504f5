"""puzint's build: the package as pyproject.toml describes it, plus one step, `build_kernel`,
that compiles the search kernel's machine at install (see interpreter/kernel/prebuild.py),
so that no first search waits half a minute for it. The step never fails an install: where
it cannot compile (no numba for this Python, a compile error), it says why and the kernel
compiles on first use instead."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import ClassVar

from setuptools import Command, setup
from setuptools.command.build import build

ROOT = Path(__file__).resolve().parent

# The build's Python has numba (pyproject's build requirements) but not puzint: the package
# is loaded from the source tree under its installed name, so that numba's cache files are
# named as an installed run names them.
FROM_SOURCE = """
import importlib.util, sys
spec = importlib.util.spec_from_file_location(
    "puzint", "interpreter/__init__.py", submodule_search_locations=["interpreter"]
)
module = importlib.util.module_from_spec(spec)
sys.modules["puzint"] = module
spec.loader.exec_module(module)
from puzint.kernel.prebuild import main
sys.exit(main(sys.argv[1:]))
"""


class BuildKernel(Command):
    """Compile the kernel's machine into the package: into the source tree for an editable
    install (as setuptools builds extensions in place), else into the build's tree, so that
    it is in the wheel."""

    description = "compile the search kernel's machine (numba) into the package"
    user_options: ClassVar[list[tuple[str, str | None, str]]] = []

    def initialize_options(self) -> None:
        self.build_lib: str | None = None
        self.editable_mode = False
        self.outputs: list[str] = []

    def finalize_options(self) -> None:
        self.set_undefined_options("build_py", ("build_lib", "build_lib"))

    def run(self) -> None:
        package = ROOT / "interpreter" if self.editable_mode else Path(str(self.build_lib)) / "puzint"
        target = package / "kernel" / "compiled"
        done = subprocess.run(
            [sys.executable, "-c", FROM_SOURCE, str(target)], cwd=ROOT, capture_output=True, text=True
        )
        if done.returncode != 0:
            self.warn(f"{done.stderr.strip()}; the kernel compiles on its first search instead")
            return
        self.announce(done.stdout.strip(), level=2)
        if not self.editable_mode:
            self.outputs = [str(path) for path in target.rglob("*") if path.is_file()]

    def get_outputs(self) -> list[str]:
        return self.outputs

    def get_output_mapping(self) -> dict[str, str]:
        return {}


class Build(build):
    sub_commands: ClassVar[list[tuple[str, object]]] = [*build.sub_commands, ("build_kernel", None)]


setup(cmdclass={"build": Build, "build_kernel": BuildKernel})
