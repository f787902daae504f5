"""The magic hexagon of order 3: 1 to 19 on a hexagon of 19 cells (rows of 3, 4, 5, 4, 3), each
of its 15 rows, in all three directions, adding up to 38.

Rules implemented:
- A cell is (q, r) in axial coordinates with |q|, |r|, |q + r| <= 2; the lines are the cells of
  equal r, of equal q and of equal q + r (5 each); every line sums to 38, the 19 numbers used
  once each.
- solutions(): every filling, found cell by cell in a fixed order (the outer ring first), a
  cell's number forced where a line through it has its other cells filled, every full line
  checked.
- symmetries(): the hexagon's 12 (turns by 60 degrees, (q, r) -> (-r, q + r), and those
  followed by the reflection (q, r) -> (r, q)); classes(): the solutions up to them, each class
  known by its least member.
- Cells are read as the grid of the catalogue's spec reads them: row r + 3, column q + 3, row
  by row.

Run: python tests/plain/magic_hexagon.py
"""

CELLS = [(q, r) for r in range(-2, 3) for q in range(-2, 3) if abs(q + r) <= 2]
LINES = [[c for c in CELLS if c[1] == k] for k in range(-2, 3)]
LINES += [[c for c in CELLS if c[0] == k] for k in range(-2, 3)]
LINES += [[c for c in CELLS if c[0] + c[1] == k] for k in range(-2, 3)]
ORDER = [(0, -2), (1, -2), (2, -2), (2, -1), (2, 0), (1, 1), (0, 2), (-1, 2), (-2, 2), (-2, 1), (-2, 0), (-1, -1)]
ORDER += [c for c in CELLS if c not in ORDER]


def solutions():
    found = []
    value = {}
    used = set()
    lines_of = {c: [line for line in LINES if c in line] for c in CELLS}

    def full_lines_hold(cell):
        return all(sum(value[c] for c in line) == 38 for line in lines_of[cell] if all(c in value for c in line))

    def walk(i):
        if i == len(ORDER):
            found.append(tuple(value[c] for c in CELLS))
            return
        cell = ORDER[i]
        forced = None
        for line in lines_of[cell]:
            others = [c for c in line if c != cell]
            if all(c in value for c in others):
                forced = 38 - sum(value[c] for c in others)
                break
        choices = [forced] if forced is not None else range(1, 20)
        for v in choices:
            if 1 <= v <= 19 and v not in used:
                value[cell] = v
                used.add(v)
                if full_lines_hold(cell):
                    walk(i + 1)
                used.discard(v)
                del value[cell]

    walk(0)
    return found


def symmetries():
    def turn(c):
        return (-c[1], c[0] + c[1])

    out = []
    for k in range(6):
        for reflect in (False, True):

            def f(c, k=k, reflect=reflect):
                for _ in range(k):
                    c = turn(c)
                return (c[1], c[0]) if reflect else c

            out.append(f)
    return out


def classes(found):
    index = {c: i for i, c in enumerate(CELLS)}
    least = set()
    for s in found:
        images = []
        for f in symmetries():
            image = [0] * len(CELLS)
            for i, c in enumerate(CELLS):
                image[index[f(c)]] = s[i]
            images.append(tuple(image))
        least.add(min(images))
    return least


if __name__ == "__main__":
    found = solutions()
    print(len(found), "solutions,", len(classes(found)), "up to symmetry")
    print(min(classes(found)))
