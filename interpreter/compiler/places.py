"""A board of places compiled for the search: a state is `bytes` — the carrier's place, then
the place of every piece, with interchangeable pieces kept in sorted order so that they are
never told apart. A move carries a load with the carrier along a route; safety rules are
checked on the load and on the two places it changes, with results memoised by contents."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import combinations

from ..errors import Diagnostic, SpecError
from ..model import PlacesPuzzle
from .compile import MoveLabel
from .predicates import Env, PredicateContext, compile_predicate

Successor = tuple[bytes, int]


@dataclass(frozen=True)
class Rejection:
    """A candidate move that a safety rule forbids, and where it fails."""

    move: MoveLabel
    rule: str
    line: int
    where: str


@dataclass(frozen=True)
class _Rule:
    check: Callable[[Env], object]
    uses_state: bool
    scope: str
    line: int
    text: str


class CompiledPlaces:
    symmetry = None
    invertible = False
    goal_state = None

    def __init__(self, puzzle: PlacesPuzzle):
        self.puzzle = puzzle
        people = puzzle.people
        self.count = len(people)
        self.runs: list[tuple[int, int]] = []  # [first, end) of each run of interchangeable pieces
        first = 0
        for i in range(1, self.count + 1):
            if i == self.count or people[i].name != people[first].name:
                self.runs.append((first, i))
                first = i
        self.start = self._canonical([puzzle.carrier_start, *puzzle.start])
        self.destinations = {p: sorted(b for a, b in puzzle.routes if a == p) for p in range(len(puzzle.places))}
        context = PredicateContext(people, puzzle.places, puzzle.param_env)
        self.rules: list[_Rule] = []
        for rule in puzzle.safety:
            check, uses_state = compile_predicate(rule.condition, context)  # type: ignore[arg-type]
            self.rules.append(_Rule(check, uses_state, rule.scope, rule.pos.line, rule.text))
        self.uses_state = any(r.uses_state for r in self.rules)
        self._memo: dict[tuple[object, ...], int | None] = {}
        self._kinds = [{p.kind, p.symbol} for p in people]
        self._interchangeable = any(end - first > 1 for first, end in self.runs)
        self._moves: dict[tuple[tuple[int, ...], int, int, int], int] = {}
        self._labels: list[tuple[int, tuple[int, ...], int, int]] = []
        self._goal = [
            (tuple(i for i, p in enumerate(people) if p.name == name), place, count)
            for name, place, count in puzzle.goal
        ]
        broken = self._broken_place(self.start, range(len(puzzle.places)))
        if broken is not None:
            failed, where = broken
            raise SpecError(
                [
                    Diagnostic(
                        puzzle.safety[failed].pos,
                        f"the start already breaks this safety rule (at {puzzle.places[where]})",
                        "a start where every safety rule holds",
                    )
                ]
            )

    # ---- states
    def _canonical(self, where: list[int]) -> bytes:
        for first, end in self.runs:
            if end - first > 1:
                where[1 + first : 1 + end] = sorted(where[1 + first : 1 + end])
        return bytes(where)

    def _fails(self, scope: str, here: frozenset[int], where: bytes | None) -> int | None:
        """The index of the first rule of this scope that fails, or None. Rules that look
        only at the group they check are answered once per group (`where` may then be None)."""
        key = (scope, here, where if self.uses_state else None)
        if key in self._memo:
            return self._memo[key]
        env = Env(where[1:] if where is not None else b"", here)
        failed = None
        for i, rule in enumerate(self.rules):
            if (rule.scope == scope or rule.scope == "everywhere") and not rule.check(env):
                failed = i
                break
        self._memo[key] = failed
        return failed

    def _broken_place(self, state: bytes, places: Iterable[int]) -> tuple[int, int] | None:
        for place in places:
            here = frozenset(i for i in range(self.count) if state[1 + i] == place)
            failed = self._fails("places", here, state)
            if failed is not None:
                return failed, place
        return None

    def _move_id(self, rule: int, load: tuple[int, ...], source: int, target: int) -> int:
        key = (load, source, target, rule)
        found = self._moves.get(key)
        if found is None:
            found = len(self._labels)
            self._moves[key] = found
            self._labels.append((rule, load, source, target))
        return found

    # ---- what the search engine calls
    def candidates(self, state: bytes) -> list[tuple[int, tuple[int, ...], int, bytes]]:
        """Every move the carry rules allow before safety: (rule, load, target, new state)."""
        source = state[0]
        present = [i for i in range(self.count) if state[1 + i] == source]
        out = []
        seen: set[bytes] = set()
        for r, rule in enumerate(self.puzzle.rules):
            for size in range(rule.low, min(rule.high, len(present)) + 1):
                for load in combinations(present, size):
                    if not self._allowed(rule.with_, rule.only, load):
                        continue
                    for target in self.destinations[source]:
                        where = list(state)
                        where[0] = target
                        for i in load:
                            where[1 + i] = target
                        new = self._canonical(where)
                        if (new, r) in seen:  # type: ignore[comparison-overlap]
                            continue
                        seen.add((new, r))  # type: ignore[arg-type]
                        out.append((r, load, target, new))
        return out

    def _why_not(self, state: bytes, load: tuple[int, ...], target: int, new: bytes) -> tuple[int, str] | None:
        failed = self._fails("loads", frozenset(load), new)
        if failed is not None:
            return failed, f"the {self.puzzle.carrier}"
        broken = self._broken_place(new, (state[0], target))
        if broken is not None:
            return broken[0], self.puzzle.places[broken[1]]
        return None

    def expand(self, state: bytes) -> list[Successor]:
        """Loads are checked before any state is built: the load itself, the bank it leaves
        and the place it reaches depend only on who is where, so when no rule looks further
        (the usual case) each check is one lookup in the memo of groups."""
        if self.uses_state:
            return [
                (new, self._move_id(r, load, state[0], target))
                for r, load, target, new in self.candidates(state)
                if self._why_not(state, load, target, new) is None
            ]
        source = state[0]
        members: list[list[int]] = [[] for _ in self.puzzle.places]
        for i in range(self.count):
            members[state[1 + i]].append(i)
        groups = [frozenset(m) for m in members]
        present = members[source]
        fails = self._fails
        out: list[Successor] = []
        seen: set[tuple[bytes, int]] = set()
        for r, rule in enumerate(self.puzzle.rules):
            for size in range(rule.low, min(rule.high, len(present)) + 1):
                for load in combinations(present, size):
                    if not self._allowed(rule.with_, rule.only, load):
                        continue
                    aboard = frozenset(load)
                    if fails("loads", aboard, None) is not None:
                        continue
                    if fails("places", groups[source] - aboard, None) is not None:
                        continue
                    for target in self.destinations[source]:
                        if fails("places", groups[target] | aboard, None) is not None:
                            continue
                        where = list(state)
                        where[0] = target
                        for i in load:
                            where[1 + i] = target
                        new = self._canonical(where) if self._interchangeable else bytes(where)
                        if self._interchangeable:
                            if (new, r) in seen:
                                continue
                            seen.add((new, r))
                        out.append((new, self._move_id(r, load, source, target)))
        return out

    def _allowed(self, with_: tuple[str, ...], only: tuple[str, ...], load: tuple[int, ...]) -> bool:
        if with_ and not all(any(k in self._kinds[i] for i in load) for k in with_):
            return False
        return not only or all(self._kinds[i] & set(only) for i in load)

    def expand_back(self, state: bytes) -> list[Successor]:
        raise NotImplementedError("carry moves are searched forwards only")

    def is_goal(self, state: bytes) -> bool:
        return all(sum(1 for i in members if state[1 + i] == place) >= count for members, place, count in self._goal)

    # ---- what the renderers call
    def label(self, index: int, before: bytes) -> MoveLabel:
        rule, load, source, target = self._labels[index]
        places = self.puzzle.places
        movers = tuple((self.puzzle.people[i].name, places[source], places[target]) for i in load)
        return MoveLabel(self.puzzle.rules[rule].name, movers, load)

    def rejections(self, state: bytes) -> list[Rejection]:
        """The moves the carry rules allow from this state but a safety rule forbids."""
        out = []
        for r, load, target, new in self.candidates(state):
            why = self._why_not(state, load, target, new)
            if why is not None:
                rule, where = why
                label = self.label(self._move_id(r, load, state[0], target), state)
                safety = self.rules[rule]
                out.append(Rejection(label, safety.text, safety.line, where))
        return out

    def contents(self, state: bytes) -> list[list[str]]:
        """The names of the pieces at each place, in declaration order."""
        out: list[list[str]] = [[] for _ in self.puzzle.places]
        for i, person in enumerate(self.puzzle.people):
            out[state[1 + i]].append(person.name)
        return out
