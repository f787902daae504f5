"""The fill search with propagation, in plain Python: the kernel's fill search
(`kernel/fill/fill.py`) step for step, for the Python engine, which must answer every
filling even where numba is not installed or refuses.

The forward checking of `search.fill` looks at one decided thing at a time, so a count such
as "one queen on each row" only bites once a row has a single open cell left: queens n = 10
goes through hundreds of millions of decisions. Here the filling is the kernel's model, a
`FillModel` (taken as plain data, `Model` below: `search/` sees no compiler and no kernel):
each open thing's values still possible are the bits of a Python int (its *domain*), and
after each decision every constraint touching what changed is revised until nothing changes
(a fixpoint), exactly as the kernel revises them:

- a linear constraint (lo <= sum of each thing's contribution <= hi) by its bounds: the least
  and the most each thing can still add tell which of its values would put the sum out of
  bounds whatever the others take. A constraint whose contributions are all 0 or 1 (a count,
  a clause) is the same rule on counts of things that must and things that may, which is
  what most rules of logic puzzles are, and is revised without reading a value;
- an `all different` takes the keys of its decided things from the others;
- a table keeps the values some allowed combination of the others' values supports.

A domain that empties ends the branch; when every thing has one value, every constraint was
revised on those values, so every one holds: a solution. Then the open thing with the fewest
values is tried with each of them, the lowest first (ties: the first in the filling's order),
as the kernel does, so both find the solutions in the same order.

The walk is a loop over an explicit stack, not a recursion: a generator per level would pass
each solution up through every level, and a count would pay for that on each.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Protocol

from .limits import Limits

STEP = 256  # decisions between two looks at the limits, at most
REVISIONS = 4096  # revisions of constraints within one propagation between two looks at the limits


class Linear(Protocol):
    """lo <= the sum of each thing's contribution (`terms`: for each of its values) <= hi."""

    @property
    def terms(self) -> Mapping[int, Sequence[int]]: ...

    @property
    def lo(self) -> int: ...

    @property
    def hi(self) -> int: ...


class Distinct(Protocol):
    """No two things take values of the same key (-1: no key); `taken`: the givens' keys, as bits."""

    @property
    def keys(self) -> Mapping[int, Sequence[int]]: ...

    @property
    def taken(self) -> int: ...


class Table(Protocol):
    """The combinations of the things' value indices (the first thing's fastest) it allows."""

    @property
    def things(self) -> tuple[int, ...]: ...

    @property
    def allowed(self) -> Iterable[Any]: ...


class Model(Protocol):
    """A filling as the kernel's fill search takes it (its `FillModel`, which `translate`
    makes): each thing's values, and the constraints on their indices."""

    @property
    def values(self) -> Sequence[Sequence[int]]: ...

    @property
    def linear(self) -> Sequence[Linear]: ...

    @property
    def distinct(self) -> Sequence[Distinct]: ...

    @property
    def tables(self) -> Sequence[Table]: ...


Path = list[tuple[int, bytes]]
Revise = Callable[[list[int]], Sequence[int] | None]  # a constraint's revision: the things it changed, None: it fails


class Propagation:
    """A model as one revision per constraint (a closure over the constraint's data, in the
    form that revision reads fastest), and the walk over it."""

    def __init__(self, model: Model):
        self.sizes = [len(v) for v in model.values]
        n = len(self.sizes)
        self.n = n
        self.full = [(1 << size) - 1 for size in self.sizes]
        revisions: list[tuple[tuple[int, ...], Revise]] = [self._linear(c) for c in model.linear]
        revisions += [_distinct(c) for c in model.distinct]
        revisions += [self._table(c) for c in model.tables]
        self.revise = [revise for _, revise in revisions]
        touching: list[list[int]] = [[] for _ in range(n)]
        for c, (things, _) in enumerate(revisions):
            for k in dict.fromkeys(things):
                touching[k].append(c)
        self.touching = [tuple(t) for t in touching]
        self.queued = [False] * len(revisions)
        self.revisions = 0  # since the last look at the limits

    def _linear(self, linear: Linear) -> tuple[tuple[int, ...], Revise]:
        things = tuple(sorted(k for k, coefs in linear.terms.items() if any(coefs)))
        rows = [(*linear.terms[k], *[0] * (self.sizes[k] - len(linear.terms[k]))) for k in things]
        if all(c in (0, 1) for row in rows for c in row):  # a count of things that take some values
            masks = [sum(1 << i for i, c in enumerate(row) if c) for row in rows]
            terms = tuple((k, mask, self.full[k] & ~mask) for k, mask in zip(things, masks, strict=True))
            return things, _count(terms, linear.lo, linear.hi)
        terms_ = []
        for k, row in zip(things, rows, strict=True):
            ascending = tuple(sorted((c, 1 << i) for i, c in enumerate(row)))
            terms_.append((k, row, ascending, ascending[::-1]))
        return things, _linear(tuple(terms_), linear.lo, linear.hi)

    def _table(self, table: Table) -> tuple[tuple[int, ...], Revise]:
        things = tuple(table.things)
        sizes = [self.sizes[k] for k in things]
        combinations = []
        for index, allowed in enumerate(table.allowed):
            if not allowed:
                continue
            rest, combination = index, []
            for size in sizes:
                combination.append(1 << (rest % size))
                rest //= size
            combinations.append(tuple(combination))
        return things, _table(things, tuple(combinations))

    def propagate(self, doms: list[int], queue: list[int], limits: Limits, visited: list[int]) -> bool:
        """Revise the constraints of `queue` (and those that their changes touch) until
        nothing changes: False where a domain empties (`doms` is then half revised). Each
        revision reaches its own fixpoint, so a constraint is not queued again by its own
        changes (it stays marked while it is revised)."""
        revise, touching, queued = self.revise, self.touching, self.queued
        for c in queue:
            queued[c] = True
        head = 0
        revisions = self.revisions
        while head < len(queue):
            c = queue[head]
            head += 1
            revisions += 1
            if revisions >= REVISIONS:
                revisions = self.revisions = 0
                try:
                    limits.check(visited[0], stored=False)
                except BaseException:  # a stop: the marks are let go, so that nothing is left half done
                    for other in queue[head - 1 :]:
                        queued[other] = False
                    raise
            changed = revise[c](doms)
            if changed is None:
                for other in queue[head - 1 :]:
                    queued[other] = False
                self.revisions = revisions
                return False
            for k in changed:
                for other in touching[k]:
                    if not queued[other]:
                        queued[other] = True
                        queue.append(other)
            queued[c] = False
        self.revisions = revisions
        return True

    def solutions(self, limits: Limits, visited: list[int], counted: list[int] | None = None) -> Iterator[list[int]]:
        """Each solution's value indices (thing by thing), as found; with `counted`, the
        solutions are counted in counted[0] and none is yielded. visited[0]: decisions, each
        counted before it is made, once the limits allow it."""
        doms = list(self.full)
        if 0 in doms or not self.propagate(doms, list(range(len(self.revise))), limits, visited):
            return
        touching = self.touching
        stack: list[list[Any]] = []  # [domains, the thing tried, its values not tried yet]
        budget = 0
        fresh = True
        while True:
            if fresh:
                best, fewest = -1, 1 << 62
                for k, d in enumerate(doms):
                    if d & (d - 1):
                        left = d.bit_count()
                        if left < fewest:
                            best, fewest = k, left
                            if left == 2:
                                break
                if best < 0:
                    if counted is not None:
                        counted[0] += 1
                    else:
                        yield [d.bit_length() - 1 for d in doms]
                else:
                    stack.append([doms, best, doms[best]])
                fresh = False
            while stack:
                top = stack[-1]
                untried = top[2]
                if not untried:
                    stack.pop()
                    continue
                low = untried & -untried
                top[2] = untried ^ low
                if budget <= 0:
                    budget = min(STEP, limits.check(visited[0], stored=False))
                budget -= 1
                visited[0] += 1
                k = top[1]
                child = top[0].copy()
                child[k] = low
                if self.propagate(child, list(touching[k]), limits, visited):
                    doms, fresh = child, True
                    break
            if not fresh:
                return


def _count(terms: tuple[tuple[int, int, int], ...], lo: int, hi: int) -> Revise:
    """lo <= the things whose domain lies in their mask (they must count) plus some of those
    whose domain meets it (they may) <= hi: with `must` at hi the others lose the mask; where
    every one that may is needed for lo, they keep only the mask. That is the bounds rule of a
    sum of contributions 0 and 1. Each term: the thing, its mask, the rest of its values."""
    loose = hi >= len(terms)  # hi never binds (a clause, "at least"): done once lo things must

    def revise(doms: list[int]) -> Sequence[int] | None:
        must = 0
        maybe = []
        for term in terms:
            d = doms[term[0]]
            if d & term[1]:
                if d & term[2]:
                    maybe.append(term)
                else:
                    must += 1
                    if loose and must >= lo:
                        return ()
        if must > hi or must + len(maybe) < lo:
            return None
        if must == hi:
            for k, _, rest in maybe:
                doms[k] &= rest
        elif must + len(maybe) == lo:
            for k, mask, _ in maybe:
                doms[k] &= mask
        else:
            return ()
        return [term[0] for term in maybe]

    return revise


def _linear(
    terms: tuple[tuple[int, tuple[int, ...], tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]], ...],
    lo: int,
    hi: int,
) -> Revise:
    """lo <= sum <= hi by its bounds: the least and the most each thing can still add; a value
    that would take the sum past a bound whatever the others take is dropped, until none is.
    Each term: the thing, its contribution by value, (contribution, bit) ascending, descending."""

    def revise(doms: list[int]) -> Sequence[int] | None:
        changed: list[int] = []
        while True:
            least = most = spread = 0
            bounds = []
            for k, row, ascending, descending in terms:
                d = doms[k]
                if d & (d - 1) == 0:
                    low = high = row[d.bit_length() - 1]
                else:
                    low = next(c for c, bit in ascending if d & bit)
                    high = next(c for c, bit in descending if d & bit)
                    if high - low > spread:
                        spread = high - low
                bounds.append((low, high))
                least += low
                most += high
            if least > hi or most < lo:
                return None
            room_up, room_down = hi - least, most - lo
            if spread <= room_up and spread <= room_down:
                return changed
            for (k, _, ascending, descending), (low, high) in zip(terms, bounds, strict=True):
                if high - low <= room_up and high - low <= room_down:
                    continue
                d = kept = doms[k]
                top, bottom = low + room_up, high - room_down
                for c, bit in descending:
                    if c <= top:
                        break
                    kept &= ~bit
                for c, bit in ascending:
                    if c >= bottom:
                        break
                    kept &= ~bit
                if kept != d:
                    if not kept:
                        return None
                    doms[k] = kept
                    changed.append(k)

    return revise


def _distinct(distinct: Distinct) -> tuple[tuple[int, ...], Revise]:
    """The keys of the decided things, each once, taken from the open ones; a thing left with
    one value takes its key from the others in turn."""
    things = tuple(sorted(distinct.keys))
    taken = distinct.taken
    terms = []
    for k in things:
        keys = tuple(distinct.keys[k])
        # what a thing loses to the keys used: where each value's key is its index shifted by
        # one amount (a Sudoku's cells: 1..9 are keys 0..8), a shift of the used keys; else
        # the values of each key, by key
        offsets = {key - i for i, key in enumerate(keys) if key >= 0}
        shift = offsets.pop() if len(offsets) == 1 else None
        keyed = sum(1 << i for i, key in enumerate(keys) if key >= 0)
        by_key: dict[int, int] = {}
        for i, key in enumerate(keys):
            if key >= 0:
                by_key[1 << key] = by_key.get(1 << key, 0) | 1 << i
        terms.append((k, keys, shift, keyed, tuple(by_key.items())))

    def revise(doms: list[int]) -> Sequence[int] | None:
        used = taken
        open_terms = []
        for term in terms:
            d = doms[term[0]]
            if d & (d - 1):
                open_terms.append(term)
                continue
            key = term[1][d.bit_length() - 1]
            if key >= 0:
                if (used >> key) & 1:
                    return None
                used |= 1 << key
        changed: list[int] = []
        while used and open_terms:
            still = []
            before = used
            for term in open_terms:
                k, keys, shift, keyed, by_key = term
                d = doms[k]
                if shift is None:
                    gone = 0
                    for key_bit, values in by_key:
                        if used & key_bit:
                            gone |= values
                elif shift >= 0:
                    gone = (used >> shift) & keyed
                else:
                    gone = (used << -shift) & keyed
                if d & gone:
                    d &= ~gone
                    if not d:
                        return None
                    doms[k] = d
                    changed.append(k)
                    if d & (d - 1) == 0:
                        key = keys[d.bit_length() - 1]
                        if key >= 0:
                            if (used >> key) & 1:
                                return None
                            used |= 1 << key
                        continue
                still.append(term)
            if used == before:
                break
            open_terms = still
        return changed

    return things, revise


def _table(things: tuple[int, ...], combinations: tuple[tuple[int, ...], ...]) -> Revise:
    """The values some allowed combination of the others' values still supports (each
    combination: one bit for each thing)."""

    def revise(doms: list[int]) -> Sequence[int] | None:
        now = [doms[k] for k in things]
        support = [0] * len(things)
        supported = False
        for combination in combinations:
            if all(d & bit for d, bit in zip(now, combination, strict=True)):
                supported = True
                for j, bit in enumerate(combination):
                    support[j] |= bit
        if not supported:
            return None
        changed = []
        for k, d, bits in zip(things, now, support, strict=True):
            if bits != d:
                doms[k] &= bits  # never empty: a supported combination has a value of each
                changed.append(k)
        return changed

    return revise


def fillings(model: Model, path: Callable[[list[int]], Path], limits: Limits, visited: list[int]) -> Iterator[Path]:
    """Every filling that keeps the rules, as `path` lays it out (the state-space walk's path,
    from the things' values, not their indices)."""
    values = model.values
    for indices in Propagation(model).solutions(limits, visited):
        yield path([values[k][i] for k, i in enumerate(indices)])


def count_fillings(model: Model, limits: Limits, counter: list[int]) -> None:
    """How many fillings keep the rules, none of them made: counter is [things decided,
    fillings found], kept up to date where a limit stops the count."""
    visited, counted = [0], [0]
    try:
        for _ in Propagation(model).solutions(limits, visited, counted):
            pass
    finally:
        counter[0], counter[1] = visited[0], counted[0]
