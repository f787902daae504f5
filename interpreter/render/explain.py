"""`--explain`: before each move of a solution, the moves a safety rule forbids from that
state, with the rule and where it fails (a place, the carrier's load, or the whole state)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..compiler import CompiledPuzzle
from ..compiler.families import CarryFamily, Safety
from ..model.puzzle import ANY, EMPTY
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


# ---- a spec without a solution: how near the reachable states come to the goal

NEAREST_CAP = 200_000  # states explored to say how near the goal comes (a proof needs them all)


@dataclass(frozen=True)
class GoalPart:
    """One thing the goal asks (a cell's content, a piece in a place, a stack's order, a
    condition), in words, with the test of whether a state has it."""

    words: str
    holds: Any  # Callable[[bytes], bool]


@dataclass
class Nearest:
    """How near the reachable states come to the goal: the goal's parts; the parts no state
    reached has (what is never achieved); the most any state has, and one such state."""

    parts: list[GoalPart]
    never: list[GoalPart]
    best: int
    state: bytes
    explored: int
    complete: bool  # every reachable state explored (else only the first NEAREST_CAP)


def goal_parts(compiled: CompiledPuzzle) -> list[GoalPart]:
    """The goal cut into the things it asks, each testable on its own."""
    puzzle, layout = compiled.puzzle, compiled.layout
    goal = puzzle.goal
    parts: list[GoalPart] = []
    board = puzzle.board
    for cell, code in enumerate(goal.cells or ()):
        if code == ANY or board is None:
            continue
        what = "is empty" if code == EMPTY else f"holds {puzzle.symbol(code)}"
        name = board.name(cell)
        where = f"cell {name}" if name.isdigit() else name
        parts.append(GoalPart(f"{where} {what}", lambda s, c=cell, v=code: s[c] == v))
    for place_goal in goal.places:
        place = puzzle.places[place_goal.place].name
        if place_goal.sequence is not None:
            slot = layout.places[place_goal.place]
            want = bytes(place_goal.sequence) + bytes(slot.length - len(place_goal.sequence))
            order = " ".join(puzzle.pieces[c - 1].symbol for c in place_goal.sequence)
            parts.append(
                GoalPart(
                    f"{place} holds {order or 'nothing'}, in that order",
                    lambda s, lo=slot.offset, hi=slot.offset + slot.length, w=want: s[lo:hi] == w,
                )
            )
            continue
        for index, need in enumerate(place_goal.at_least or ()):
            if need:
                count = f"{need} x " if need > 1 else ""
                parts.append(
                    GoalPart(
                        f"{place} holds {count}{puzzle.pieces[index].symbol}",
                        lambda s, p=place_goal.place, i=index, n=need: layout.bag(s, p)[i] >= n,
                    )
                )
    env: list[Any] = [None] * max(2, puzzle.goal_slots)
    source = puzzle.source.split("\n") if puzzle.source else []
    for condition in goal.conditions:
        line = getattr(getattr(condition, "pos", None), "line", 0) or goal.pos.line
        shown = source[line - 1].strip() if 0 < line <= len(source) else "the goal's condition"
        test = compiled.evaluator.function(condition)
        parts.append(GoalPart(f"{shown} (line {line})", lambda s, f=test: bool(f(s, env))))
    return parts


def nearest(compiled: CompiledPuzzle, cap: int = NEAREST_CAP) -> Nearest:
    """Every reachable state (up to `cap`), breadth first, scored by how many of the goal's
    parts it has."""
    parts = goal_parts(compiled)
    reached = [False] * len(parts)
    best, best_state = -1, compiled.start
    seen = {compiled.start}
    frontier = [compiled.start]
    complete = True
    while frontier:
        following = []
        for state in frontier:
            has = [part.holds(state) for part in parts]
            reached = [a or b for a, b in zip(reached, has, strict=True)]
            if sum(has) > best:
                best, best_state = sum(has), state
            for child, _ in compiled.expand(state):
                if child not in seen:
                    if len(seen) >= cap:
                        complete = False
                        break
                    seen.add(child)
                    following.append(child)
        frontier = following
    never = [part for part, hit in zip(parts, reached, strict=True) if not hit]
    return Nearest(parts, never, max(best, 0), best_state, len(seen), complete)
