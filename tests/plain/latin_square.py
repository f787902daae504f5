"""Latin squares of order n, counted by plain enumeration.

Rules implemented:
- An n x n Latin square over the symbols 1..n: every row and every column
  holds each symbol exactly once. Nothing is fixed (no reduced form, no fixed
  first row): every such square counts.
- squares(n) yields each square as a tuple of n rows, each a tuple of n ints,
  in lexicographic order of rows.
- count(n) counts them by the same search without building the tuples.
- count_first_row_fixed(n) counts the squares whose first row is 1..n; times
  n! it must equal count(n) (renaming the symbols is a bijection between the
  squares with any given first row and those with first row 1..n). It is a
  cross-check only.
- Search: row by row. Each of the n! permutations is encoded as a bitmask
  with bit (column * n + symbol) set for each of its cells; a row fits if its
  mask shares no bit with the rows above. The candidate list for the next
  row is the current candidate list filtered against the row just placed,
  and the last row is only counted (it is whatever is left, at most one).
"""

from itertools import permutations
from math import factorial


def _perms(n):
    out = []
    for p in permutations(range(n)):
        mask = 0
        for col, sym in enumerate(p):
            mask |= 1 << (col * n + sym)
        out.append((mask, p))
    return out


def squares(n):
    rows = []

    def extend(cands, left):
        if left == 0:
            yield tuple(tuple(s + 1 for s in p) for p in rows)
            return
        for mask, p in cands:
            rows.append(p)
            yield from extend([q for q in cands if not q[0] & mask], left - 1)
            rows.pop()

    yield from extend(_perms(n), n)


def _count_rows(cands, left):
    # cands: masks of the rows that still fit; left: rows still to place (>= 1)
    if left == 1:
        return len(cands)
    total = 0
    for mask in cands:
        total += _count_rows([q for q in cands if not q & mask], left - 1)
    return total


def count(n: int) -> int:
    if n == 0:
        return 1
    return _count_rows([m for m, _ in _perms(n)], n)


def count_first_row_fixed(n: int) -> int:
    if n <= 1:
        return 1
    perms = [m for m, _ in _perms(n)]
    first = perms[0]  # identity permutation 0, 1, ..., n-1
    return _count_rows([q for q in perms if not q & first], n - 1)


if __name__ == "__main__":
    import time

    for n in (1, 2, 3, 4, 5):
        t = time.perf_counter()
        c = count(n)
        t1 = time.perf_counter() - t
        t = time.perf_counter()
        f = count_first_row_fixed(n)
        t2 = time.perf_counter() - t
        print(f"latin_square n={n}: count={c} ({t1:.3f}s); first row fixed={f} x {n}! = {f * factorial(n)} ({t2:.3f}s)")
    t = time.perf_counter()
    s = sum(1 for _ in squares(5))
    print(f"latin_square n=5: squares() yields {s} ({time.perf_counter() - t:.3f}s)")
    t = time.perf_counter()
    f = count_first_row_fixed(6)
    print(f"latin_square n=6: first row fixed={f} x 6! = {f * factorial(6)} ({time.perf_counter() - t:.3f}s)")
