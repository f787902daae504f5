"""The files `puzint serve [DIR|SPEC ...]` may read and write: the specs named, and the `.puz`
files directly in the folders named; nothing else on disk, whatever a request asks. A file is
asked for by the name the page was given (`list`), never by a path: a name that is not one of
them is refused, so `../` or an absolute path never reaches the file system.

Level files (`level n from "FILE"`, `regions from "FILE"`) are read as `puzint run` reads them,
beside the spec, only where that file is itself one the user named, one a named spec names beside
it as its file was when the server started (the user named the spec, and the spec names them),
or a shipped spec's, in the catalogue's folder:
`level_folder` gives the spec's real name to the parser then, and a name such as "<edited>"
(no folder: the parser refuses every level file) otherwise."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..catalogue import catalogue_dir, shipped_names
from ..errors import SpecError
from ..files import write_file
from ..sources import read_source

UNSAVED = "<edited>.puz"  # the name a spec without a file of its own is read under
LEVEL_FROM = re.compile(r'\bfrom\s+"([^"\n]*)"')


class NotNamed(Exception):
    """A file the command line did not name."""


@dataclass
class Named:
    specs: list[Path] = field(default_factory=list)  # the SPEC files named
    folders: list[Path] = field(default_factory=list)  # the DIRs named
    beside: list[Path] = field(default_factory=list)  # the files the named specs name beside them

    @classmethod
    def of(cls, given: list[str]) -> Named:
        """What the command line named: each a folder, a .puz file (made on the first save
        when it does not exist yet), or a level file (readable by the specs beside it)."""
        named = cls()
        for item in given:
            path = Path(item).absolute()
            if path.is_dir():
                named.folders.append(path)
            else:
                named.specs.append(path)
        named.beside = [path for spec in named.specs for path in _named_beside(spec)]
        return named

    def names(self) -> list[str]:
        """The specs the page may open and save, by the names it shows."""
        found = [str(p) for p in self.specs if p.suffix == ".puz"]
        for folder in self.folders:
            found += sorted(str(p) for p in folder.glob("*.puz") if p.is_file() and not p.is_symlink())
        return found

    def path(self, name: str, new: bool = False) -> Path:
        """The file of a name the page was given; with `new`, also a new `.puz` file directly
        in a named folder (a name without a slash, `..` or a leading dot)."""
        if name in self.names() or any(name == str(p) for p in self.specs if p.suffix == ".puz"):
            return Path(name)
        if new:
            candidate = Path(name)
            for folder in self.folders:
                if (
                    candidate.parent == folder
                    and candidate.suffix == ".puz"
                    and not candidate.name.startswith(".")
                    and "/" not in candidate.name
                    and "\\" not in candidate.name
                ):
                    return candidate
        raise NotNamed(f"{name} is not a spec named on the command line (puzint serve DIR|SPEC ...)")

    def read(self, name: str) -> str:
        return read_source(self.path(name))

    def write(self, name: str, text: str) -> Path:
        path = self.path(name, new=True)
        write_file(path, text)
        return path

    def readable(self, path: Path) -> bool:
        """Whether a level file may be read: one named, one a named spec names beside it, one
        directly in a named folder, or one shipped in the catalogue's folder."""
        path = path.absolute()
        folders = [*self.folders, *([catalogue] if (catalogue := catalogue_dir()) is not None else [])]
        return path in self.specs or path in self.beside or any(path.parent == folder.absolute() for folder in folders)

    def level_folder(self, origin: str, text: str) -> str:
        """The name `text` is read under: its file's, where it came from one the user named or
        from the catalogue (`origin`: a name of `names()`, or a shipped spec's) and every level
        file it reads is a plain name of a file `readable` beside it; else UNSAVED."""
        if origin in shipped_names() and (catalogue := catalogue_dir()) is not None:
            path = catalogue / f"{origin}.puz"
        else:
            try:
                path = self.path(origin, new=True)
            except NotNamed:
                return UNSAVED
        for level_file in LEVEL_FROM.findall(text):
            if not _plain(level_file) or not self.readable(path.parent / level_file):
                return UNSAVED
        return str(path)


def _named_beside(spec: Path) -> list[Path]:
    """The files a named `.puz` spec names beside it (`from "FILE"`, a plain name), as its file
    reads now: read once, when the server starts, so that an edit on the page names no more."""
    if spec.suffix != ".puz" or not spec.is_file():
        return []
    try:
        text = read_source(spec)
    except (OSError, SpecError):  # unreadable now: the page says why when it opens it
        return []
    return [spec.parent / name for name in LEVEL_FROM.findall(text) if _plain(name)]


def _plain(name: str) -> bool:
    return bool(name) and "/" not in name and "\\" not in name and not name.startswith(".")
