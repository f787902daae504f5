"""3 x 3 and 4 x 4 magic squares with the numbers 1..n*n, each used once.

Rules implemented:
- Fill a 3x3 grid with 1..9 (a permutation), so that the 3 rows, the 3
  columns and both main diagonals each sum to 15.
- count(): number of such grids (brute force over all 9! permutations).
- count_up_to_symmetry(): number of orbits under the 8 symmetries of the
  square (rotations and reflections), each orbit identified by its
  lexicographically smallest member (grid read row by row).
- 4x4: fill a 4x4 grid with 1..16, each once, so that the 4 rows, the 4
  columns and both main diagonals each sum to 34 (nothing else is asked:
  no pandiagonal or other extra condition). squares4() lists them as
  16-tuples read row by row; count4() returns (number of squares, number of
  orbits under the same 8 symmetries, each orbit identified by its smallest
  member). Search: the two diagonals first (ordered 4-tuples of distinct
  numbers summing to 34), then b in the top row; every other cell is then
  forced by a line sum except e, which is tried in turn (see squares4).
"""

from itertools import permutations

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def squares():
    return [p for p in permutations(range(1, 10)) if all(p[a] + p[b] + p[c] == 15 for a, b, c in LINES)]


def _symmetries(p):
    g = [p[0:3], p[3:6], p[6:9]]
    out = []
    for _ in range(4):
        g = [list(row) for row in zip(*g[::-1], strict=True)]  # rotate 90
        out.append(tuple(x for row in g for x in row))
        m = [row[::-1] for row in g]  # mirror
        out.append(tuple(x for row in m for x in row))
    return out


def _symmetries4(p):
    g = [p[0:4], p[4:8], p[8:12], p[12:16]]
    out = []
    for _ in range(4):
        g = [list(row) for row in zip(*g[::-1], strict=True)]  # rotate 90
        out.append(tuple(x for row in g for x in row))
        m = [row[::-1] for row in g]  # mirror
        out.append(tuple(x for row in m for x in row))
    return out


def squares4():
    """All 4x4 magic squares of 1..16 (magic sum 34), cells named

    a b c d
    e f g h
    i j k l
    m n o p

    (cell l is the variable `el`)
    """
    s = 34
    quads = []  # ordered 4-tuples of distinct numbers with sum 34, with their bitmask
    for w in range(1, 17):
        for x in range(1, 17):
            for y in range(1, 17):
                z = s - w - x - y
                if 1 <= z <= 16 and len({w, x, y, z}) == 4:
                    quads.append(((1 << w) | (1 << x) | (1 << y) | (1 << z), (w, x, y, z)))

    def free(v, used):  # v is a number 1..16 not used yet
        return 1 <= v <= 16 and not used >> v & 1

    out = []
    for m1, (a, f, k, p) in quads:  # main diagonal
        for m2, (d, g, j, m) in quads:  # anti-diagonal
            if m1 & m2:
                continue
            u2 = m1 | m2
            for b in range(1, 17):
                if u2 >> b & 1:
                    continue
                c = s - a - b - d  # top row
                if c == b or not free(c, u2):
                    continue
                u3 = u2 | (1 << b) | (1 << c)
                n = s - b - f - j  # column 1
                if not free(n, u3):
                    continue
                o = s - m - n - p  # bottom row
                if o == n or not free(o, u3) or c + g + k + o != s:  # column 2
                    continue
                u4 = u3 | (1 << n) | (1 << o)
                for e in range(1, 17):
                    if u4 >> e & 1:
                        continue
                    h = s - e - f - g  # row 1
                    i = s - a - e - m  # column 0
                    el = s - i - j - k  # row 2 (cell l)
                    if len({e, h, i, el}) != 4 or not all(free(v, u4) for v in (h, i, el)):
                        continue
                    if d + h + el + p != s:  # column 3
                        continue
                    out.append((a, b, c, d, e, f, g, h, i, j, k, el, m, n, o, p))
    return out


def count4():
    sq = squares4()
    return len(sq), len({min(_symmetries4(p)) for p in sq})


def count():
    return len(squares())


def count_up_to_symmetry():
    return len({min(_symmetries(p)) for p in squares()})


if __name__ == "__main__":
    import time

    t = time.perf_counter()
    print(f"magic_square 3x3: count={count()} up_to_symmetry={count_up_to_symmetry()} ({time.perf_counter() - t:.3f}s)")
    t = time.perf_counter()
    n4, orbits4 = count4()
    print(f"magic_square 4x4: count={n4} up_to_symmetry={orbits4} ({time.perf_counter() - t:.3f}s)")
