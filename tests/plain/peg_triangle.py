"""Triangular peg solitaire, 15 holes, plain BFS.

Rules implemented:
- Holes (r, c) with 0 <= c <= r <= 4 (row r has r+1 holes; reported 1-based).
- The six lattice directions are (0,+1), (0,-1), (+1,0), (-1,0), (+1,+1),
  (-1,-1) in (row, index) coordinates.
- Start: every hole holds a peg except the top hole (0, 0).
- A jump: a peg at p jumps over a peg at p+d into the empty hole at p+2d
  (all three on the board); the jumped peg is removed.
- State: bitmask of occupied holes.
"""

from collections import deque

HOLES = [(r, c) for r in range(5) for c in range(r + 1)]
INDEX = {h: i for i, h in enumerate(HOLES)}
DIRS = [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1)]
JUMPS = []  # (from, over, to)
for r, c in HOLES:
    for dr, dc in DIRS:
        o, t = (r + dr, c + dc), (r + 2 * dr, c + 2 * dc)
        if o in INDEX and t in INDEX:
            JUMPS.append((INDEX[(r, c)], INDEX[o], INDEX[t]))

START = ((1 << 15) - 1) & ~(1 << INDEX[(0, 0)])


def _succ(s):
    for a, b, c in JUMPS:
        if s >> a & 1 and s >> b & 1 and not s >> c & 1:
            yield s & ~(1 << a) & ~(1 << b) | (1 << c)


def _bfs():
    dist = {START: 0}
    q = deque([START])
    while q:
        s = q.popleft()
        for t in _succ(s):
            if t not in dist:
                dist[t] = dist[s] + 1
                q.append(t)
    return dist


def reachable():
    return len(_bfs())


def _singles(dist):
    return {s: d for s, d in dist.items() if bin(s).count("1") == 1}


def shortest_to_one_peg():
    return min(_singles(_bfs()).values())


def final_holes():
    out = []
    for s in _singles(_bfs()):
        r, c = HOLES[s.bit_length() - 1]
        out.append((r + 1, c + 1))
    return sorted(out)


if __name__ == "__main__":
    import time

    t = time.perf_counter()
    print(
        f"peg_triangle: reachable={reachable()} shortest_to_one_peg={shortest_to_one_peg()} "
        f"final_holes={final_holes()} ({time.perf_counter() - t:.3f}s)"
    )
