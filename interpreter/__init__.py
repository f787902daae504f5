"""puzint: solve state-space puzzles written as short declarative `.puz` specs.

    import puzint
    result = puzint.solve("frog", n=4)      # see puzint.api and docs/api.md

Data flows one way: text -> parse tree (`language.parser`) -> syntax model
(`language.syntax`) -> instantiated puzzle (`language.elaborate`) -> compiled puzzle
(`compiler`) -> search (`search`) -> result -> rendering (`render`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.2.0"
__all__ = [
    "Forbidden",
    "LegalMove",
    "Move",
    "Mover",
    "Puzzle",
    "Result",
    "SpecError",
    "State",
    "__version__",
    "load",
    "solve",
]

if TYPE_CHECKING:
    from .api import Forbidden, LegalMove, Move, Mover, Puzzle, Result, SpecError, State, load, solve


def __getattr__(name: str) -> Any:
    """The API is imported on first use, so that `import puzint` stays cheap."""
    if name in __all__:
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'puzint' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The public API, for `dir(puzint)` and a notebook's completion: the names load lazily
    (`__getattr__`), so the module's own namespace does not hold them yet."""
    return sorted({*__all__, "__doc__", "__file__", "__name__", "__path__", "__spec__"})
