"""OR-tools' CP-SAT module imported without importing pandas, which it imports only for
its pandas-indexed helpers (variables and intervals by a `pd.Index`) that puzint never calls.

Importing pandas is most of what importing `ortools.sat.python.cp_model` costs (0.3 s of
0.5 s on a quiet 2-core machine, over 0.8 s under load), and every CP-SAT answer pays it
in a fresh `puzint run`. So while the module is imported, `pandas` is a stand-in whose
`Index` and `Series` are empty classes (the module names them only in its annotations and
in one `Union` at its top); once it is imported, its `pd` is a module that imports the real
pandas on first use, so those helpers still work for a program that calls them. Where
pandas is imported already, or the module is, nothing is done.
"""

from __future__ import annotations

import importlib
import sys
import types

MODULE = "ortools.sat.python.cp_model"


class _PandasOnFirstUse(types.ModuleType):
    """`pandas`, imported when one of its names is first read."""

    def __getattr__(self, name: str) -> object:
        return getattr(importlib.import_module("pandas"), name)


def import_cp_model() -> types.ModuleType:
    """The CP-SAT module, imported (once) without pandas where pandas is not imported yet."""
    if MODULE in sys.modules:
        return sys.modules[MODULE]
    if "pandas" in sys.modules:
        return importlib.import_module(MODULE)
    stand_in = types.ModuleType("pandas", "a stand-in while OR-tools' CP-SAT module is imported")
    stand_in.Index = type("Index", (), {})  # type: ignore[attr-defined]
    stand_in.Series = type("Series", (), {})  # type: ignore[attr-defined]
    sys.modules["pandas"] = stand_in
    try:
        module = importlib.import_module(MODULE)
    except AttributeError:  # a later OR-tools that reads more of pandas as it loads: the real one
        del sys.modules["pandas"]
        return importlib.import_module(MODULE)
    finally:
        if sys.modules.get("pandas") is stand_in:
            del sys.modules["pandas"]
    if getattr(module, "pd", None) is stand_in:
        setattr(module, "pd", _PandasOnFirstUse("pandas"))  # noqa: B010 (a module, not typed as having it)
    return module
