"""Sudoku (and its n x n generalisations such as 4 x 4 Shidoku), backtracking.

Rules implemented:
- The grid has size x size cells, given as a string of size*size characters,
  row by row. '0' or '.' marks an empty cell; any other character is a given.
- Symbols are "123456789" for size <= 9; for larger sizes the symbols go on
  with "ABCDEFG..." (so 16 x 16 uses 1-9 and A-G).
- box = (r, c): the grid is cut into boxes of r rows x c columns (r * c must
  equal size). 9 x 9 Sudoku is box (3, 3); Shidoku 4 x 4 is box (2, 2).
- A solution fills every empty cell so that each row, each column and each
  box holds every symbol exactly once; givens are kept. A grid whose givens
  already clash has no solutions.
- solutions(grid, size, box, limit) returns the solutions as strings of
  symbols, row by row, in the order the search finds them; it stops after
  `limit` solutions if limit is not None. count(...) is len(solutions(...)).
- Search: one bitmask of used symbols per row, column and box; always branch
  on an empty cell with the fewest candidates (first such cell, row by row).
"""

SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _parse(grid, size):
    if len(grid) != size * size:
        raise ValueError(f"grid has {len(grid)} characters, expected {size * size}")
    values = []
    for ch in grid:
        if ch in "0.":
            values.append(-1)
        else:
            v = SYMBOLS.index(ch.upper())
            if v >= size:
                raise ValueError(f"symbol {ch!r} is out of range for size {size}")
            values.append(v)
    return values


def solutions(grid: str, size: int = 9, box: tuple[int, int] = (3, 3), limit: int | None = None) -> list[str]:
    br, bc = box
    if br * bc != size:
        raise ValueError(f"box {box} does not tile a {size} x {size} grid")
    values = _parse(grid, size)
    full = (1 << size) - 1
    rows = [0] * size
    cols = [0] * size
    boxes = [0] * size
    box_of = [(i // size) // br * (size // bc) + (i % size) // bc for i in range(size * size)]
    empty = []
    for i, v in enumerate(values):
        if v < 0:
            empty.append(i)
            continue
        r, c, b = i // size, i % size, box_of[i]
        bit = 1 << v
        if (rows[r] | cols[c] | boxes[b]) & bit:
            return []  # the givens clash
        rows[r] |= bit
        cols[c] |= bit
        boxes[b] |= bit

    out = []

    def search(left):
        if not left:
            out.append("".join(SYMBOLS[v] for v in values))
            return limit is not None and len(out) >= limit
        # most constrained empty cell
        best_k, best_cand, best_n = -1, 0, size + 1
        for k, i in enumerate(left):
            cand = full & ~(rows[i // size] | cols[i % size] | boxes[box_of[i]])
            n = cand.bit_count()
            if n < best_n:
                best_k, best_cand, best_n = k, cand, n
                if n <= 1:
                    break
        if best_n == 0:
            return False
        i = left[best_k]
        rest = left[:best_k] + left[best_k + 1 :]
        r, c, b = i // size, i % size, box_of[i]
        cand = best_cand
        while cand:
            bit = cand & -cand
            cand ^= bit
            values[i] = bit.bit_length() - 1
            rows[r] |= bit
            cols[c] |= bit
            boxes[b] |= bit
            stop = search(rest)
            rows[r] ^= bit
            cols[c] ^= bit
            boxes[b] ^= bit
            if stop:
                return True
        values[i] = -1
        return False

    search(empty)
    return out


def count(grid: str, size: int = 9, box: tuple[int, int] = (3, 3), limit: int | None = None) -> int:
    return len(solutions(grid, size, box, limit))


HARD = "800000000003600000070090200050007000000045700000100030001000068008500010090000400"


if __name__ == "__main__":
    import time

    t = time.perf_counter()
    sols = solutions(HARD)
    print(f"sudoku 9x9 {HARD}: solutions={len(sols)} ({time.perf_counter() - t:.3f}s)")
    for s in sols:
        print(f"  {s}")
    t = time.perf_counter()
    n = count("0" * 16, size=4, box=(2, 2))
    print(f"shidoku 4x4 empty (boxes 2x2): solutions={n} ({time.perf_counter() - t:.3f}s)")
