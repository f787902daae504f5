"""`--explain`: before each move of a solution, the moves a safety rule forbids from that
state, with the rule and where it fails (a place, the carrier's load, or the whole state)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..compiler import CompiledPuzzle
from ..compiler.families import CarryFamily, Safety
from .moves import describe


@dataclass(frozen=True)
class Rejection:
    move: str  # the move as it would be described
    rule: str  # the safety rule that forbids it
    line: int
    where: str
    pieces: tuple[str, ...] = ()  # the pieces the move would have moved
    name: str = ""  # the move's own rule (its statement's name)


class _Anything(Safety):
    """A safety that allows every state: to see the moves the real one forbids."""

    def __init__(self) -> None:
        self.anything = False

    def ok(self, state: Any) -> bool:
        return True

    def state_ok(self, state: Any) -> bool:
        return True

    def failing(self, scope: str, bag: bytes, state: Any) -> int | None:
        return None


def rejections(compiled: CompiledPuzzle, state: bytes) -> list[Rejection]:
    puzzle = compiled.puzzle
    rules = puzzle.safety
    out: list[Rejection] = []
    allowed = {child for child, _ in compiled.expand(state)}
    if compiled.raw_table is not None:
        for child, number in compiled.raw_table(state):
            if child not in allowed:
                failed, where = _failing(compiled, child)
                if failed is not None:
                    label = compiled.label(number, state)
                    out.append(_table_rejection(compiled, label, failed, where))
    for family in compiled.families:
        if isinstance(family, CarryFamily):
            for load, target, new, _ in family.candidates(state):
                why = family.why_not(state, load, target, new)
                if why is not None:
                    key = (family.index, load, family.read_carrier(state), target)
                    out.append(_rejection(compiled, family, key, state, why[0], why[1]))
            continue
        real = family.safety
        family.safety = _Anything()
        try:
            candidates = family.expand(state)
        finally:
            family.safety = real
        for child, number in candidates:
            if child in allowed:
                continue
            failed, where = _failing(compiled, child)
            if failed is not None:
                out.append(_rejection(compiled, family, compiled.ids.key(number), state, failed, where))
    del rules
    return out


def _failing(compiled: CompiledPuzzle, state: bytes) -> tuple[int | None, str]:
    safety = compiled.safety
    env: list[Any] = [None] * safety.slots
    for i, rule in enumerate(compiled.puzzle.safety):
        if rule.scope == "state" and not compiled.evaluator.function(rule.condition)(state, env):
            return i, "the state"
    for place in range(len(compiled.puzzle.places)):
        failed = safety.failing("places", compiled.layout.bag(state, place), state)
        if failed is not None:
            return failed, compiled.puzzle.places[place].name
    return None, ""


def _table_rejection(compiled: CompiledPuzzle, label: Any, rule: int, where: str) -> Rejection:
    safety = compiled.puzzle.safety[rule]
    pieces = tuple(symbol for symbol, _, _ in label.movers)
    text = describe(label, compiled, short=True).plain
    return Rejection(text, safety.text, safety.pos.line, where, pieces, label.rule)


def _rejection(
    compiled: CompiledPuzzle, family: Any, key: tuple[Any, ...], state: bytes, rule: int, where: str
) -> Rejection:
    change = family.change(key, state, compiled.puzzle)
    from ..compiler import MoveLabel

    text = describe(MoveLabel(family.move.name, change.movers, ()), compiled, short=True).plain
    safety = compiled.puzzle.safety[rule]
    pieces = tuple(symbol for symbol, _, _ in change.movers)
    return Rejection(text, safety.text, safety.pos.line, where, pieces, family.move.name)
