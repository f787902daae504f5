"""The safety rules, compiled for the move families."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..model import expr as m
from ..model.puzzle import (
    Puzzle,
)
from .evaluate import HERE, Evaluator, Fn
from .layout import StateLayout


class Safety:
    """The safety rules, compiled: rules on the whole state, and rules on each place (or load)
    whose answer, when they only look at that place, is remembered per contents."""

    def __init__(self, puzzle: Puzzle, layout: StateLayout, evaluator: Evaluator):
        self.layout = layout
        self.slots = max([r.slots for r in puzzle.safety] + [2])
        self.state_rules = [evaluator.function(r.condition) for r in puzzle.safety if r.scope == "state"]
        self.place_rules: list[tuple[int, Fn, bool]] = []  # (rule number, check, only looks at here)
        self.load_rules: list[tuple[int, Fn, bool]] = []
        for i, rule in enumerate(puzzle.safety):
            fn = evaluator.function(rule.condition)
            local = m.only_here(rule.condition)
            if rule.scope in ("places", "everywhere"):
                self.place_rules.append((i, fn, local))
            if rule.scope in ("loads", "everywhere"):
                self.load_rules.append((i, fn, local))
        self.rules = puzzle.safety
        self._memo: dict[tuple[str, bytes], int | None] = {}
        self.places_local = all(local for _, _, local in self.place_rules)
        self.loads_local = all(local for _, _, local in self.load_rules)
        self.anything = bool(self.state_rules or self.place_rules)
        self._env: list[Any] = [None] * self.slots
        self.single_rule: tuple[Fn, list[Any]] | None = None
        if not self.place_rules and len(self.state_rules) == 1:
            self.single_rule = (self.state_rules[0], self._env)
        self.check = self._fastest_check()

    def _fastest_check(self) -> Callable[[bytes | bytearray], bool]:
        """`ok`, as few calls deep as the rules allow (it runs on every candidate move)."""
        if self.place_rules or len(self.state_rules) != 1:
            return self.ok
        rule, env = self.state_rules[0], self._env
        return lambda state: rule(state, env)  # type: ignore[no-any-return]

    def state_ok(self, state: bytes | bytearray) -> bool:
        env = self._env  # rules are evaluated one at a time: one environment serves them all
        return all(rule(state, env) for rule in self.state_rules)

    def failing(self, scope: str, bag: bytes, state: bytes | bytearray | None) -> int | None:
        """The first rule of `scope` ("places" or "loads") that fails on this contents, or None."""
        rules = self.place_rules if scope == "places" else self.load_rules
        if not rules:
            return None
        local = self.places_local if scope == "places" else self.loads_local
        key = (scope, bag)
        if local and key in self._memo:
            return self._memo[key]
        env: list[Any] = [None] * self.slots
        env[HERE] = bag
        failed = None
        for number, rule, _ in rules:
            if not rule(state, env):
                failed = number
                break
        if local:
            self._memo[key] = failed
        return failed

    def places_ok(self, state: bytes | bytearray, places: range | tuple[int, ...] | list[int] | None = None) -> bool:
        if not self.place_rules:
            return True
        for p in places if places is not None else range(len(self.layout.places)):
            if self.failing("places", self.layout.bag(state, p), state) is not None:
                return False
        return True

    def ok(self, state: bytes | bytearray) -> bool:
        if not self.state_ok(state):
            return False
        return not self.place_rules or self.places_ok(state)
