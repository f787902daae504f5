"""3 x 3 magic squares with the numbers 1..9, each used once.

Rules implemented:
- Fill a 3x3 grid with 1..9 (a permutation), so that the 3 rows, the 3
  columns and both main diagonals each sum to 15.
- count(): number of such grids (brute force over all 9! permutations).
- count_up_to_symmetry(): number of orbits under the 8 symmetries of the
  square (rotations and reflections), each orbit identified by its
  lexicographically smallest member (grid read row by row).
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


def count():
    return len(squares())


def count_up_to_symmetry():
    return len({min(_symmetries(p)) for p in squares()})


if __name__ == "__main__":
    import time

    t = time.perf_counter()
    print(f"magic_square 3x3: count={count()} up_to_symmetry={count_up_to_symmetry()} ({time.perf_counter() - t:.3f}s)")
