"""The catalogue of specs shipped with puzint, so that `puzint run frog` works after a plain
`pip install` as well as in a checkout: a name that is not a file is looked up here."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

CATALOGUE_PACKAGE = "puzint.specs"


def catalogue_dir() -> Path | None:
    """The directory of the shipped specs (inside the installed package, or the checkout's
    specs/ in an editable install), if there is one."""
    try:
        root = resources.files(CATALOGUE_PACKAGE)
    except (ModuleNotFoundError, TypeError):
        return None
    path = Path(str(root))
    return path if path.is_dir() else None


def shipped_names() -> list[str]:
    """The names of the shipped specs (`frog`, `knights`, ...)."""
    folder = catalogue_dir()
    return sorted(path.stem for path in folder.glob("*.puz")) if folder is not None else []


def resolve_spec(name: str | Path) -> Path:
    """`name` itself when it is a file (or looks like a path); otherwise the catalogue spec of
    that name (`frog` or `frog.puz`). A name found nowhere is returned unchanged, for the
    reader to report."""
    path = Path(name)
    if path.exists() or len(path.parts) > 1:
        return path
    folder = catalogue_dir()
    if folder is not None:
        shipped = folder / (path.name if path.suffix == ".puz" else path.name + ".puz")
        if shipped.is_file():
            return shipped
    return path
