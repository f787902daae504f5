"""`run --verbose`: the line on stderr that says which engine answered and how, or, where a
limit stopped the run first, that none did and what the engine was doing then (searching,
or still being compiled: a cold kernel cache); then the engine tried first and why it did
not answer, and why `auto` chose an engine alone. Built from the result alone, so that what
it says is what the result says."""

from __future__ import annotations

from ..escapes import visible
from ..search.limits import COMPILING, COMPILING_METHOD
from ..search.result import LIMIT, SearchResult
from ..solutions import AllSolutions


def engine_line(result: AllSolutions | SearchResult) -> str:
    """The `--verbose` line for `result` (without its newline; the spec's text made visible)."""
    line = f"puzint: {_outcome(result)}"
    if result.tried_first is not None:
        line += f"; {result.tried_first} was tried first: {result.tried_first_stopped}"
    if result.chosen is not None:
        line += f"; chosen at once: {result.chosen}"
    return visible(line)


def heuristic_line(result: AllSolutions | SearchResult) -> str | None:
    """The `--verbose` line that says why `auto` derived no heuristic, where it chose not to."""
    why = getattr(result, "heuristic_why", "")
    return visible(f"puzint: {why}") if why else None


def _outcome(result: AllSolutions | SearchResult) -> str:
    engine, method = result.engine, result.method
    how = f" ({method})" if method and method != COMPILING_METHOD else ""
    if result.status == LIMIT:
        limit = result.limit_reason or "a limit"
        if method == COMPILING_METHOD or COMPILING in limit:
            limit = limit.replace(COMPILING, "")  # said here in words of its own
            return f"no engine answered: {engine} was still being compiled when the run stopped ({limit})"
        some = isinstance(result, AllSolutions) and result.count
        answered = f"no engine answered in full ({result.count:,} solution(s) listed)" if some else "no engine answered"
        return f"{answered}: {engine} was searching{how} when the run stopped ({limit})"
    unsure = getattr(result, "unique_unknown", None)
    if unsure is not None:
        return f"answered in part by {engine}{how}: whether the solution is the only one is not known ({unsure})"
    return f"answered by {engine}{how}"
