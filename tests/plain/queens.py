"""n-queens: count all solutions and solutions up to the 8 symmetries.

Rules implemented:
- Place n queens on an n x n board, one per row, no two sharing a column or
  a diagonal (either direction).
- A solution is a tuple p with p[r] = column of the queen in row r.
- count(n): number of solutions (plain backtracking).
- count_up_to_symmetry(n): number of orbits of the solution set under the
  dihedral group of the square (4 rotations x optional reflection); each
  orbit is identified by the lexicographically smallest member.
"""


def solutions(n):
    out = []
    cols = [0] * n

    def place(r, used, d1, d2):
        if r == n:
            out.append(tuple(cols))
            return
        for c in range(n):
            if c not in used and (r + c) not in d1 and (r - c) not in d2:
                cols[r] = c
                used.add(c)
                d1.add(r + c)
                d2.add(r - c)
                place(r + 1, used, d1, d2)
                used.discard(c)
                d1.discard(r + c)
                d2.discard(r - c)

    place(0, set(), set(), set())
    return out


def count(n):
    return len(solutions(n))


def _transforms(p):
    n = len(p)
    cells = [(r, p[r]) for r in range(n)]
    maps = [
        lambda r, c: (r, c),
        lambda r, c: (c, n - 1 - r),  # rotate 90
        lambda r, c: (n - 1 - r, n - 1 - c),  # rotate 180
        lambda r, c: (n - 1 - c, r),  # rotate 270
        lambda r, c: (r, n - 1 - c),  # mirror left-right
        lambda r, c: (n - 1 - r, c),  # mirror top-bottom
        lambda r, c: (c, r),  # main-diagonal transpose
        lambda r, c: (n - 1 - c, n - 1 - r),  # anti-diagonal transpose
    ]
    for f in maps:
        q = [None] * n
        for r, c in cells:
            rr, cc = f(r, c)
            q[rr] = cc
        yield tuple(q)


def count_up_to_symmetry(n):
    return len({min(_transforms(p)) for p in solutions(n)})


if __name__ == "__main__":
    import time

    for n in (6, 8):
        t = time.perf_counter()
        print(
            f"queens n={n}: count={count(n)} up_to_symmetry={count_up_to_symmetry(n)} ({time.perf_counter() - t:.3f}s)"
        )
