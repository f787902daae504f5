"""Syntax model + parameter values -> the puzzle model, with semantic checks.

One path for every puzzle, as named passes over the statements chosen by the parameters:
topology (board, places, counters), pieces, layouts (start and goal), moves, rules and
directives. Every check adds to one collector, so a spec with several mistakes gets them all
reported in one run, each at its own line and column.
"""

from __future__ import annotations

from ..errors import SpecError
from ..model.puzzle import Puzzle
from . import syntax as s
from .assemble import assemble
from .context import Elaboration


def elaborate(spec: s.Spec, overrides: dict[str, str] | None = None) -> Puzzle:
    """Apply parameters to a parsed spec and check it; raise SpecError listing every problem."""
    try:
        context = Elaboration(spec, overrides or {})
        context.prepare()
        return assemble(context)
    except SpecError as exc:
        raise exc.with_source(spec.source, spec.filename) from None
