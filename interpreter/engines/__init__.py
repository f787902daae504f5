"""Engines behind one question: the Python searches and the compiled kernel each say whether
they answer a question on a compiled puzzle, and answer it with the same result type under
the same limits; `planner` chooses which (docs/architecture.md)."""

from .base import Engine, HandOver
from .planner import ENGINES, NAMES, explain, plan, search, using_workers
from .query import METHODS, Query

__all__ = ["ENGINES", "METHODS", "NAMES", "Engine", "HandOver", "Query", "explain", "plan", "search", "using_workers"]
