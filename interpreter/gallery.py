"""The gallery: a picture of a solution of every shipped spec, in one page
(docs/gallery.md, the pictures in docs/gallery/), written by `puzint gallery DIR`.

Each entry records a fingerprint of what made its picture (the spec's text, the parameters,
the drawing code), so that a test can say the gallery is stale without drawing it again: a
change to a spec or to the pictures shows in the docs only after the one command is run.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .catalogue import catalogue_dir, shipped_names
from .compiler import CompiledPuzzle
from .engines import RunOptions
from .escapes import visible
from .files import CannotWrite, unwritable, write_file
from .language.parser import parse
from .language.syntax import If, LevelFrom, Statement
from .questions import Question, ask
from .render import glyphs, moves, svg
from .runner import load, solve
from .search import Limits
from .search.result import SOLVED
from .solutions import enumerate_solutions

SHOWN_SOLUTIONS = 4  # a `search all` spec: its first few solutions
# A size that a reader takes in at a glance, where the spec's default makes a picture of
# hundreds of boards (an 8 x 8 knight's tour: 64 of them).
GALLERY_PARAMS: dict[str, dict[str, str]] = {"knights_tour": {"n": "5"}}
DRAWING_CODE = (svg, moves, glyphs)
PAGE = "gallery.md"
PICTURES = "gallery"


@dataclass(frozen=True)
class Entry:
    name: str
    spec: Path
    params: dict[str, str]

    @property
    def command(self) -> str:
        given = "".join(f" -p {k}={v}" for k, v in self.params.items())
        return f"puzint run {self.name}{given} --format svg"

    def fingerprint(self) -> str:
        """What the picture is made from: the spec, the level files it reads (`level n from
        "FILE"`, as the parser read them), its parameters and the drawing code."""
        text = self.spec.read_bytes()
        digest = hashlib.sha256(text)
        levels = _level_files(parse(text.decode("utf-8"), str(self.spec)).statements)
        if levels:
            digest.update(repr(levels).encode())
        digest.update(repr(sorted(self.params.items())).encode())
        for module in DRAWING_CODE:
            digest.update(Path(str(module.__file__)).read_bytes())
        return digest.hexdigest()[:16]


def _level_files(statements: tuple[Statement, ...]) -> list[object]:
    found: list[object] = []
    for st in statements:
        if isinstance(st, LevelFrom):
            found.append((st.file, st.levels))
        elif isinstance(st, If):
            found += _level_files(st.then) + _level_files(st.otherwise)
    return found


def entries() -> Iterator[Entry]:
    folder = catalogue_dir()
    if folder is None:
        return
    for name in shipped_names():
        yield Entry(name, folder / f"{name}.puz", GALLERY_PARAMS.get(name, {}))


def picture(entry: Entry) -> str:
    """The entry's picture, as `puzint run NAME --format svg` draws it (a `search all` spec:
    its first SHOWN_SOLUTIONS solutions)."""
    compiled = load(entry.spec, entry.params)
    title = svg.picture_title(compiled.puzzle)
    asked = ask(compiled, Question(), RunOptions())
    if asked.walk:
        every = enumerate_solutions(compiled, Limits(), SHOWN_SOLUTIONS, keep=True, options=asked.options)
        return svg.boards_svg(compiled, every.solutions, title)
    solved = solve(compiled, asked, Limits(), str(entry.spec))
    if solved.result.status != SOLVED:
        raise RuntimeError(f"{entry.name}: no solution to draw ({solved.result.status})")
    return svg.solution_svg(compiled, solved.result.path, title)


def page(rows: list[tuple[Entry, CompiledPuzzle]]) -> str:
    """docs/gallery.md: each spec's title, what it is about, the command and its picture."""
    lines = [
        "# Gallery",
        "",
        "A solution of every spec puzint ships, as `--format svg` draws it. Written by",
        "`puzint gallery DIR` with the docs folder as DIR (a test says when it is out of date).",
        "",
    ]
    for entry, compiled in rows:
        puzzle = compiled.puzzle
        lines += [
            f"## {visible(puzzle.title)} (`{entry.name}`)",
            "",
            *([visible(puzzle.about), ""] if puzzle.about else []),
            f"`{entry.command}`",
            "",
            f"![{visible(puzzle.title)}]({PICTURES}/{entry.name}.svg)",
            f"<!-- fingerprint {entry.name} {entry.fingerprint()} -->",
            "",
        ]
    return "\n".join(lines)


def write(folder: Path, say: object = None) -> int:
    """The page and every picture, written into `folder` (`files.write_file`: never through a
    link left at a name); pictures of specs no longer shipped removed. Returns how many
    pictures were drawn. A folder that does not exist yet is made (with its parents)."""
    _made(folder)
    problem = unwritable(folder / PAGE)  # said before anything is drawn
    if problem is not None:
        raise CannotWrite(folder / PAGE, problem)
    pictures = _pictures_folder(folder)
    rows = []
    for entry in entries():
        if callable(say):
            say(entry.name)
        write_file(pictures / f"{entry.name}.svg", picture(entry))
        rows.append((entry, load(entry.spec, entry.params)))
    names = {entry.name for entry, _ in rows}
    for stale in pictures.glob("*.svg"):
        if stale.stem not in names:
            try:
                stale.unlink()  # a link is removed, not what it points to
            except OSError as exc:
                raise CannotWrite(stale, f"a stale picture that cannot be removed ({exc.strerror})") from None
    write_file(folder / PAGE, page(rows))
    return len(rows)


def _made(folder: Path) -> None:
    """`folder`, made where nothing is at its name (a link left there is refused after, by
    the checks of what is written)."""
    if folder.exists() or folder.is_symlink():
        return
    try:
        folder.mkdir(parents=True)
    except OSError as exc:
        raise CannotWrite(folder, exc.strerror or str(exc), exc.errno or 0) from None


def _pictures_folder(folder: Path) -> Path:
    """folder/gallery, made if need be; refused where it is a link (the pictures, and the
    removal of stale ones, would happen wherever it points) or not a directory."""
    pictures = folder / PICTURES
    if pictures.is_symlink():
        raise CannotWrite(pictures, "it is a symbolic link")
    try:
        pictures.mkdir(exist_ok=True)
    except FileExistsError:
        raise CannotWrite(pictures, "it is not a directory") from None
    except OSError as exc:
        raise CannotWrite(pictures, exc.strerror or str(exc), exc.errno or 0) from None
    return pictures
