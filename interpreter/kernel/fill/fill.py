"""The kernel's fill search: every filling that keeps the rules, by propagation and the
most constrained thing first, in numba.

Each open thing's values still possible are the bits of one word (its *domain*). After each
decision the constraints of `kernel.fill.fill_model` are brought to a fixpoint: a linear one
takes from each thing the values that would put its sum out of bounds whatever the others
take (the least and the most each thing can still add tell it), a table the values that no
allowed combination of the others' values supports. A thing whose domain empties ends the
branch; a thing left with one value is decided without a branch. When every thing has one
value, every constraint holds of them: a solution. Then the open thing with the fewest
values is tried with each of them (ties: the first in the filling's order).

The walk is a loop over an explicit stack of domains, so that it can stop after a number of
decisions and go on from where it was: the Python side checks the run's limits between
calls and streams the solutions one by one.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ...compiler import CompiledPuzzle
from ...search.limits import Limits
from ..compiling.jit import njit
from .fill_model import FillModel, translate

STEP = 20_000  # decisions between two looks at the limits, at most (a few milliseconds)
FINISHED, FOUND, PAUSED = 0, 1, 2
LOW = -(2**62)
HIGH = 2**62


@njit(cache=True, nogil=True)
def _count_bits(x: int) -> int:
    """The bits set in a word of at most 62 bits (so that it stays positive)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((x * 0x0101010101010101) >> 56) & 0xFF


@njit(cache=True, nogil=True)
def _enqueue(v, dom_constraints_start, dom_constraints, queue, queued, tail, size):  # type: ignore[no-untyped-def]
    for j in range(dom_constraints_start[v], dom_constraints_start[v + 1]):
        c = dom_constraints[j]
        if not queued[c]:
            queued[c] = 1
            queue[tail % size] = c
            tail += 1
    return tail


@njit(cache=True, nogil=True)
def _dropped(queue, queued, head, tail):  # type: ignore[no-untyped-def]
    """A domain emptied: the constraints still queued are let go (False, for the caller)."""
    size = queue.shape[0]
    for j in range(head, tail):
        queued[queue[j % size]] = 0
    return False


@njit(cache=True, nogil=True)
def _propagate(dom, head, tail, model):  # type: ignore[no-untyped-def]
    """Brings the queued constraints to a fixpoint on `dom`: False where a domain empties.
    `model`: the arrays of `FillKernel.arrays`, in their order."""
    (
        queue,
        queued,
        sizes,
        lin_lo,
        lin_hi,
        lin_start,
        lin_clause,
        term_mask,
        term_var,
        term_coef,
        term_min,
        term_max,
        dis_start,
        dis_var,
        dis_key,
        dis_taken,
        tab_start,
        tab_var,
        bits_start,
        bits,
        support,
        var_start,
        var_constraints,
    ) = model
    n_linear = lin_lo.shape[0]
    n_distinct = n_linear + dis_taken.shape[0]
    size = queue.shape[0]
    while head < tail:
        c = queue[head % size]
        head += 1
        queued[c] = 0
        if c < n_linear and lin_clause[c]:
            # at least one thing takes a value of its mask: done where one must, else the
            # only one that still can is made to
            open_term = -1
            can = 0
            done = False
            for t in range(lin_start[c], lin_start[c + 1]):
                m = dom[term_var[t]]
                if m & term_mask[t]:
                    if m & ~term_mask[t] == 0:
                        done = True
                        break
                    can += 1
                    open_term = t
            if done:
                continue
            if can == 0:
                return _dropped(queue, queued, head, tail)
            if can == 1:
                v = term_var[open_term]
                dom[v] &= term_mask[open_term]
                tail = _enqueue(v, var_start, var_constraints, queue, queued, tail, size)
        elif c < n_linear:
            least = 0
            most = 0
            spread = 0
            for t in range(lin_start[c], lin_start[c + 1]):
                m = dom[term_var[t]]
                if m & (m - 1) == 0:
                    lo = term_coef[t, _count_bits(m - 1)]
                    hi = lo
                else:
                    lo = HIGH
                    hi = LOW
                    while m:
                        low = m & -m
                        value = term_coef[t, _count_bits(low - 1)]
                        if value < lo:
                            lo = value
                        if value > hi:
                            hi = value
                        m ^= low
                    if hi - lo > spread:
                        spread = hi - lo
                term_min[t] = lo
                term_max[t] = hi
                least += lo
                most += hi
            if least > lin_hi[c] or most < lin_lo[c]:
                return _dropped(queue, queued, head, tail)
            room_up = lin_hi[c] - least
            room_down = most - lin_lo[c]
            if spread <= room_up and spread <= room_down:
                continue
            for t in range(lin_start[c], lin_start[c + 1]):
                if term_max[t] - term_min[t] <= room_up and term_max[t] - term_min[t] <= room_down:
                    continue
                v = term_var[t]
                m = dom[v]
                kept = m
                while m:
                    low = m & -m
                    value = term_coef[t, _count_bits(low - 1)]
                    if value - term_min[t] > room_up or term_max[t] - value > room_down:
                        kept ^= low
                    m ^= low
                if kept != dom[v]:
                    if kept == 0:
                        return _dropped(queue, queued, head, tail)
                    dom[v] = kept
                    tail = _enqueue(v, var_start, var_constraints, queue, queued, tail, size)
        elif c < n_distinct:
            k = c - n_linear
            used = dis_taken[k]
            for t in range(dis_start[k], dis_start[k + 1]):
                m = dom[dis_var[t]]
                if m & (m - 1) == 0:
                    key = dis_key[t, _count_bits(m - 1)]
                    if key >= 0:
                        if (used >> key) & 1:
                            return _dropped(queue, queued, head, tail)
                        used |= 1 << key
            for t in range(dis_start[k], dis_start[k + 1]):
                v = dis_var[t]
                m = dom[v]
                if m & (m - 1) == 0:
                    continue
                kept = m
                while m:
                    low = m & -m
                    key = dis_key[t, _count_bits(low - 1)]
                    if key >= 0 and (used >> key) & 1:
                        kept ^= low
                    m ^= low
                if kept != dom[v]:
                    if kept == 0:
                        return _dropped(queue, queued, head, tail)
                    dom[v] = kept
                    tail = _enqueue(v, var_start, var_constraints, queue, queued, tail, size)
        else:
            k = c - n_distinct
            first = tab_start[k]
            arity = tab_start[k + 1] - first
            for j in range(arity):
                support[j] = 0
            base = bits_start[k]
            for index in range(bits_start[k + 1] - base):
                if not bits[base + index]:
                    continue
                rest = index
                fits = True
                for j in range(arity):
                    v = tab_var[first + j]
                    if not (dom[v] >> (rest % sizes[v])) & 1:
                        fits = False
                        break
                    rest //= sizes[v]
                if fits:
                    rest = index
                    for j in range(arity):
                        v = tab_var[first + j]
                        support[j] |= 1 << (rest % sizes[v])
                        rest //= sizes[v]
                    if arity == 0:
                        support[0] = 1
            if arity == 0 and support[0] == 0:
                return _dropped(queue, queued, head, tail)
            for j in range(arity):
                v = tab_var[first + j]
                kept = dom[v] & support[j]
                if kept != dom[v]:
                    if kept == 0:
                        return _dropped(queue, queued, head, tail)
                    dom[v] = kept
                    tail = _enqueue(v, var_start, var_constraints, queue, queued, tail, size)
    return True


@njit(cache=True, nogil=True)
def _walk(doms, chosen, untried, where, found, counted, budget, counting, model):  # type: ignore[no-untyped-def]
    """Goes on with the walk from `where` = [depth, fresh, decisions]: FOUND (the solution's
    domains are in `found`), FINISHED, or PAUSED after `budget` decisions. `counting`: count
    the solutions in counted[0] instead of stopping at each."""
    queue, queued, var_start, var_constraints = model[0], model[1], model[21], model[22]
    n = doms.shape[1]
    depth = where[0]
    fresh = where[1]
    spent = 0
    while True:
        if fresh:
            best = -1
            fewest = 99
            for v in range(n):
                bits_left = _count_bits(doms[depth, v])
                if 1 < bits_left < fewest:
                    fewest = bits_left
                    best = v
                    if bits_left == 2:
                        break
            if best < 0:
                fresh = 0
                depth -= 1
                if counting:
                    counted[0] += 1
                else:
                    for v in range(n):
                        found[v] = doms[depth + 1, v]
                    where[0] = depth
                    where[1] = 0
                    where[2] += spent
                    return FOUND
                if depth < 0:
                    where[2] += spent
                    return FINISHED
                continue
            chosen[depth] = best
            untried[depth] = doms[depth, best]
            fresh = 0
        if depth < 0:
            where[2] += spent
            return FINISHED
        m = untried[depth]
        if m == 0:
            depth -= 1
            if depth < 0:
                where[0] = depth
                where[2] += spent
                return FINISHED
            continue
        low = m & -m
        untried[depth] = m ^ low
        v = chosen[depth]
        for u in range(n):
            doms[depth + 1, u] = doms[depth, u]
        doms[depth + 1, v] = low
        spent += 1
        tail = _enqueue(v, var_start, var_constraints, queue, queued, 0, queue.shape[0])
        if _propagate(doms[depth + 1], 0, tail, model):
            depth += 1
            fresh = 1
        if spent >= budget:
            where[0] = depth
            where[1] = fresh
            where[2] += spent
            return PAUSED


class FillKernel:
    """One filling's model as the kernel's arrays, and its walk."""

    def __init__(self, model: FillModel):
        self.model = model
        n = len(model.values)
        self.n = n
        self.sizes = np.array([len(v) for v in model.values], dtype=np.int64)
        words = max([1, *(len(v) for v in model.values)])
        linear = model.linear
        self.lin_lo = np.array([c.lo for c in linear], dtype=np.int64)
        self.lin_hi = np.array([c.hi for c in linear], dtype=np.int64)
        starts, variables, coefs = [0], [], []
        for constraint in linear:
            for k, row in sorted(constraint.terms.items()):
                variables.append(k)
                coefs.append(row + [0] * (words - len(row)))
            starts.append(len(variables))
        self.lin_start = np.array(starts, dtype=np.int64)
        self.term_var = np.array(variables, dtype=np.int64)
        self.term_coef = np.array(coefs, dtype=np.int64).reshape(len(variables), words)
        self.lin_clause = np.array(
            [c.lo == 1 and c.hi >= HIGH and all(x in (0, 1) for row in c.terms.values() for x in row) for c in linear],
            dtype=np.uint8,
        )
        self.term_mask = np.array([sum(1 << i for i, x in enumerate(row) if x == 1) for row in coefs], dtype=np.int64)
        self.term_min = np.zeros(len(variables), dtype=np.int64)
        self.term_max = np.zeros(len(variables), dtype=np.int64)
        dis_start, dis_var, dis_key = [0], [], []
        for distinct in model.distinct:
            for k, keys in sorted(distinct.keys.items()):
                dis_var.append(k)
                dis_key.append(keys + [-1] * (words - len(keys)))
            dis_start.append(len(dis_var))
        self.dis_start = np.array(dis_start, dtype=np.int64)
        self.dis_var = np.array(dis_var, dtype=np.int64)
        self.dis_key = np.array(dis_key, dtype=np.int64).reshape(len(dis_var), words)
        self.dis_taken = np.array([d.taken for d in model.distinct], dtype=np.int64)
        tab_start, bits_start = [0], [0]
        tab_var: list[int] = []
        bits: list[np.ndarray] = []
        for table in model.tables:
            tab_var.extend(table.things)
            tab_start.append(len(tab_var))
            bits.append(table.allowed)
            bits_start.append(bits_start[-1] + len(table.allowed))
        self.tab_start = np.array(tab_start, dtype=np.int64)
        self.tab_var = np.array(tab_var, dtype=np.int64)
        self.bits_start = np.array(bits_start, dtype=np.int64)
        self.bits = np.concatenate(bits) if bits else np.zeros(0, dtype=np.uint8)
        self.support = np.zeros(max([1, *(len(t.things) for t in model.tables)]), dtype=np.int64)
        touching: list[list[int]] = [[] for _ in range(n)]
        for c, constraint in enumerate(linear):
            for k in constraint.terms:
                touching[k].append(c)
        for d, distinct in enumerate(model.distinct):
            for k in distinct.keys:
                touching[k].append(len(linear) + d)
        for t, table in enumerate(model.tables):
            for k in dict.fromkeys(table.things):
                touching[k].append(len(linear) + len(model.distinct) + t)
        self.var_start = np.array([0, *np.cumsum([len(t) for t in touching])], dtype=np.int64)
        self.var_constraints = np.array([c for t in touching for c in t], dtype=np.int64)
        total = len(linear) + len(model.distinct) + len(model.tables)
        self.constraints = total
        self.queue = np.zeros(max(1, total), dtype=np.int64)
        self.queued = np.zeros(max(1, total), dtype=np.uint8)

    def arrays(self) -> tuple[np.ndarray, ...]:
        """The model's arrays, as the numba functions take them (one tuple)."""
        return (
            self.queue,
            self.queued,
            self.sizes,
            self.lin_lo,
            self.lin_hi,
            self.lin_start,
            self.lin_clause,
            self.term_mask,
            self.term_var,
            self.term_coef,
            self.term_min,
            self.term_max,
            self.dis_start,
            self.dis_var,
            self.dis_key,
            self.dis_taken,
            self.tab_start,
            self.tab_var,
            self.bits_start,
            self.bits,
            self.support,
            self.var_start,
            self.var_constraints,
        )

    def walk(self, limits: Limits, visited: list[int], counted: list[int] | None = None) -> Iterator[list[int]]:
        """Each solution's value indices (thing by thing), as found; with `counted`, the
        solutions are counted in counted[0] and none is yielded. visited[0]: decisions."""
        n = self.n
        doms = np.zeros((n + 2, n), dtype=np.int64)
        doms[0] = (np.int64(1) << self.sizes) - 1
        queue, queued = self.queue, self.queued
        queued[:] = 0
        for c in range(self.constraints):
            queue[c] = c
            queued[c] = 1
        if not _propagate(doms[0], 0, self.constraints, self.arrays()):
            return
        chosen = np.zeros(n + 1, dtype=np.int64)
        untried = np.zeros(n + 1, dtype=np.int64)
        where = np.array([0, 1, 0], dtype=np.int64)
        found = np.zeros(max(1, n), dtype=np.int64)
        count = np.zeros(1, dtype=np.int64)
        counting = counted is not None
        while True:
            budget = limits.check(visited[0], stored=False)  # decisions until the next look: the state limit's own
            outcome = _walk(doms, chosen, untried, where, found, count, min(budget, STEP), counting, self.arrays())
            visited[0] = int(where[2])
            if counted is not None:
                counted[0] = int(count[0])
            if outcome == FINISHED:
                return
            if outcome == FOUND:
                yield [int(found[k]).bit_length() - 1 for k in range(n)]


def model_of(compiled: CompiledPuzzle) -> FillKernel:
    return FillKernel(translate(compiled))
