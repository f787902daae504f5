"""Pentomino rectangles: tile a rows x cols rectangle with the 12 pentominoes.

Rules implemented:
- The 12 free pentominoes F I L N P T U V W X Y Z (shapes in PIECES below),
  each used exactly once, may be turned and flipped freely; every cell of
  the rectangle is covered exactly once, nothing sticks out. So rows * cols
  must be 60 (otherwise there are no tilings).
- A tiling is a tuple of `rows` strings of length `cols`; the letter in a
  cell names the piece covering it.
- tilings(rows, cols, limit) yields the tilings (all of them, or the first
  `limit`); count(rows, cols) counts them. Two tilings that are mirror
  images or turns of each other are different tilings here.
- count_up_to_symmetry(rows, cols): the number of classes of tilings under
  the symmetries of the rectangle. For rows != cols these are the identity,
  the left-right mirror, the up-down flip and the half turn; for a square
  (never 60 cells, so only for completeness) all 8 symmetries. Piece letters
  are kept by a symmetry (the pieces may be turned and flipped), and each
  class is identified by its smallest member (tuple of row strings).
- Search: exact cover by bitmasks. The cells are numbered along the short
  side first (column by column if rows <= cols); always fill the lowest
  empty cell, trying every placement of every unused piece whose lowest
  cell is that one.
"""

PIECES = {
    "F": [".##", "##.", ".#."],
    "I": ["#####"],
    "L": ["#...", "####"],
    "N": ["##..", ".###"],
    "P": ["##", "##", "#."],
    "T": ["###", ".#.", ".#."],
    "U": ["#.#", "###"],
    "V": ["#..", "#..", "###"],
    "W": ["#..", "##.", ".##"],
    "X": [".#.", "###", ".#."],
    "Y": ["..#.", "####"],
    "Z": ["##.", ".#.", ".##"],
}
LETTERS = sorted(PIECES)


def _cells(picture):
    return [(r, c) for r, line in enumerate(picture) for c, ch in enumerate(line) if ch == "#"]


def _normalise(cells):
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return tuple(sorted((r - r0, c - c0) for r, c in cells))


def orientations(cells):
    """The distinct shapes obtained by the 8 turns and flips of a piece."""
    out = set()
    for flip in (False, True):
        shape = [(r, -c) for r, c in cells] if flip else list(cells)
        for _ in range(4):
            shape = [(c, -r) for r, c in shape]  # quarter turn
            out.add(_normalise(shape))
    return sorted(out)


def _placements(rows, cols):
    """place[cell][piece] = list of masks covering `cell` as their lowest cell."""
    short_first = rows <= cols

    def index(r, c):
        return c * rows + r if short_first else r * cols + c

    n = rows * cols
    place = [[[] for _ in LETTERS] for _ in range(n)]
    for p, letter in enumerate(LETTERS):
        for shape in orientations(_cells(PIECES[letter])):
            h = 1 + max(r for r, _ in shape)
            w = 1 + max(c for _, c in shape)
            for r0 in range(rows - h + 1):
                for c0 in range(cols - w + 1):
                    idx = [index(r0 + r, c0 + c) for r, c in shape]
                    mask = sum(1 << i for i in idx)
                    place[min(idx)][p].append(mask)
    return place, index


def _raw_tilings(rows, cols):
    """Yield each tiling as a list of (piece index, mask)."""
    n = rows * cols
    if n != 5 * len(LETTERS):
        return
    place, _ = _placements(rows, cols)
    full = (1 << n) - 1
    chosen = []

    def fill(filled, unused):
        if filled == full:
            yield list(chosen)
            return
        low = ~filled & (filled + 1)  # lowest empty cell
        options = place[low.bit_length() - 1]
        for p in unused:
            rest = None
            for mask in options[p]:
                if filled & mask:
                    continue
                if rest is None:
                    rest = [q for q in unused if q != p]
                chosen.append((p, mask))
                yield from fill(filled | mask, rest)
                chosen.pop()

    yield from fill(0, list(range(len(LETTERS))))


def _draw(rows, cols, chosen, index):
    grid = [[""] * cols for _ in range(rows)]
    for p, mask in chosen:
        for r in range(rows):
            for c in range(cols):
                if mask >> index(r, c) & 1:
                    grid[r][c] = LETTERS[p]
    return tuple("".join(row) for row in grid)


def tilings(rows, cols, limit=None):
    _, index = _placements(rows, cols)
    for k, chosen in enumerate(_raw_tilings(rows, cols)):
        if limit is not None and k >= limit:
            return
        yield _draw(rows, cols, chosen, index)


def count(rows, cols):
    return sum(1 for _ in _raw_tilings(rows, cols))


def symmetries(tiling):
    """The images of a tiling under the symmetries of its rectangle."""
    t = tuple(tiling)
    out = [t, tuple(row[::-1] for row in t), t[::-1], tuple(row[::-1] for row in t[::-1])]
    if len(t) == len(t[0]):
        tr = tuple("".join(col) for col in zip(*t, strict=True))  # transpose
        out += [tr, tuple(row[::-1] for row in tr), tr[::-1], tuple(row[::-1] for row in tr[::-1])]
    return out


def count_up_to_symmetry(rows, cols):
    return len({min(symmetries(t)) for t in tilings(rows, cols)})


def check(rows, cols, tiling):
    """True if `tiling` obeys the rules above (used by the tests)."""
    if len(tiling) != rows or any(len(row) != cols for row in tiling):
        return False
    for letter in LETTERS:
        cells = [(r, c) for r in range(rows) for c in range(cols) if tiling[r][c] == letter]
        if len(cells) != 5 or _normalise(cells) not in orientations(_cells(PIECES[letter])):
            return False
    return True


if __name__ == "__main__":
    import sys
    import time

    sizes = [(3, 20), (4, 15), (5, 12), (6, 10)]
    if len(sys.argv) > 1:  # e.g. `pentominoes.py 3x20 6x10`
        sizes = [tuple(int(x) for x in a.split("x")) for a in sys.argv[1:]]
    for rows, cols in sizes:
        t = time.perf_counter()
        all_t = list(tilings(rows, cols))
        dt = time.perf_counter() - t
        assert all(check(rows, cols, x) for x in all_t)
        classes = len({min(symmetries(x)) for x in all_t})
        print(f"pentominoes {rows}x{cols}: tilings={len(all_t)} up_to_symmetry={classes} ({dt:.2f}s)")
        if rows == 3:
            for x in sorted({min(symmetries(x)) for x in all_t}):
                print("\n".join(f"  {row}" for row in x))
                print()
