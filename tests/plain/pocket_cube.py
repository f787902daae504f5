"""The pocket cube (2 x 2 x 2), plain breadth-first search over sticker strings.

Rules implemented:
- 24 stickers: faces U, F, R, B, L, D, each read as a 2 x 2 picture from outside (U with B at
  the top, D with F at the top, the others with U at the top), stickers 1 2 / 3 4.
- Moves: clockwise quarter turns of U, R and F, their inverses, and (half=True) half turns;
  the down-back-left corner never moves.
"""

from collections import deque

FACES = "UFRBLD"
NAMES = [f + str(i) for f in FACES for i in range(1, 5)]
TURNS = {  # a clockwise quarter turn: the sticker at each position moves to the next
    "U": ["U1 U2 U4 U3", "F1 L1 B1 R1", "F2 L2 B2 R2"],
    "R": ["R1 R2 R4 R3", "F2 U2 B3 D2", "F4 U4 B1 D4"],
    "F": ["F1 F2 F4 F3", "U3 R1 D2 L4", "U4 R3 D1 L2"],
}
SOLVED = "WWWWGGGGRRRRBBBBOOOOYYYY"


def _quarter(cycles):
    """The position each sticker comes from: new[i] = old[source[i]]."""
    source = list(range(24))
    for cycle in cycles:
        cells = [NAMES.index(n) for n in cycle.split()]
        for i, cell in enumerate(cells):
            source[cells[(i + 1) % len(cells)]] = cell
    return source


def moves(half=False):
    out = []
    for cycles in TURNS.values():
        once = _quarter(cycles)
        twice = [once[once[i]] for i in range(24)]
        thrice = [once[twice[i]] for i in range(24)]
        out.extend([once, thrice] + ([twice] if half else []))
    return out


def apply(state, source):
    return "".join(state[source[i]] for i in range(24))


def distances(start, half=False):
    """Every position reachable from `start`, with its distance."""
    table = moves(half)
    dist = {start: 0}
    queue = deque([start])
    while queue:
        s = queue.popleft()
        for m in table:
            t = apply(s, m)
            if t not in dist:
                dist[t] = dist[s] + 1
                queue.append(t)
    return dist


def shortest(start, goal=SOLVED, half=False):
    """The fewest moves from start to goal (searched from both ends)."""
    table = moves(half)
    if start == goal:
        return 0
    near, far = {start: 0}, {goal: 0}
    front, back = [start], [goal]
    while front and back:
        grow_near = len(front) <= len(back)
        layer, seen, other = (front, near, far) if grow_near else (back, far, near)
        found = []
        for s in layer:
            for m in table:
                t = apply(s, m)  # the move table is closed under inverses: both ends use it
                if t in other:
                    return seen[s] + 1 + other[t]
                if t not in seen:
                    seen[t] = seen[s] + 1
                    found.append(t)
        if grow_near:
            front = found
        else:
            back = found
    return None
