"""The search engine. It knows nothing about puzzles: it sees a `Problem` (states,
successors labelled with move numbers, a goal test) and returns a `SearchResult`."""

from .limits import Limits
from .problem import Problem
from .result import SearchResult

__all__ = ["Limits", "Problem", "SearchResult"]
