"""Dudeney's bishops exchange puzzle, plain BFS.

Rules implemented:
- Board: 5 rows x 4 columns; square (r, c), r = 0 top row, r = 4 bottom row.
- Start: 4 black bishops on row 0, 4 white bishops on row 4.
- Goal: 4 white bishops on row 0, 4 black bishops on row 4.
- A move: one bishop (either colour, no alternation of colours) slides
  diagonally any number >= 1 of squares, through and onto empty squares.
- Attack rule (attack=True): a move is allowed only if afterwards no black and
  white bishop lie on a common diagonal with only empty squares between them.
  (The start position satisfies this.)
- Bishops of one colour are interchangeable: state = (black set, white set),
  encoded as one int: black bitmask << 20 | white bitmask.

reachable(False) is SLOW in plain Python (about 1.6 million states; ~16-21 s).
shortest() uses bidirectional BFS (~0.3 s with the rule, ~4-5 s without);
shortest_plain() is the one-way BFS (slow for attack=False, ~16-20 s).
Both are reported by __main__.
"""

from collections import deque

R, C = 5, 4
N = R * C
RAYS = []  # RAYS[sq] = list of rays, each a list of square indices outward
for r in range(R):
    for c in range(C):
        rays = []
        for dr, dc in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
            ray = []
            rr, cc = r + dr, c + dc
            while 0 <= rr < R and 0 <= cc < C:
                ray.append(rr * C + cc)
                rr, cc = rr + dr, cc + dc
            if ray:
                rays.append(ray)
        RAYS.append(rays)

TOP = sum(1 << c for c in range(C))
BOTTOM = TOP << ((R - 1) * C)
MASK = (1 << N) - 1
START = TOP << N | BOTTOM
GOAL = BOTTOM << N | TOP


def _attacked(black, white):
    """True if some black bishop sees a white bishop along a diagonal."""
    occ = black | white
    b = black
    while b:
        low = b & -b
        sq = low.bit_length() - 1
        b ^= low
        for ray in RAYS[sq]:
            for t in ray:
                if occ >> t & 1:
                    if white >> t & 1:
                        return True
                    break
    return False


def _succ(state, attack):
    black, white = state >> N, state & MASK
    occ = black | white
    for colour in (0, 1):
        own = black if colour == 0 else white
        m = own
        while m:
            low = m & -m
            sq = low.bit_length() - 1
            m ^= low
            for ray in RAYS[sq]:
                for t in ray:
                    if occ >> t & 1:
                        break
                    moved = own ^ low | (1 << t)
                    if colour == 0:
                        nb, nw = moved, white
                    else:
                        nb, nw = black, moved
                    if attack and _attacked(nb, nw):
                        continue
                    yield nb << N | nw


def _bfs(attack, stop_at_goal):
    dist = {START: 0}
    q = deque([START])
    while q:
        s = q.popleft()
        d = dist[s] + 1
        for t in _succ(s, attack):
            if t not in dist:
                dist[t] = d
                if stop_at_goal and t == GOAL:
                    return dist
                q.append(t)
    return dist


def shortest_plain(attack):
    """One-directional BFS; slow for attack=False (~16-20 s)."""
    return _bfs(attack, True)[GOAL]


def shortest(attack):
    """Bidirectional BFS (layer by layer, expanding the smaller frontier).

    Valid because every move is reversible: the bishop can slide back along
    the same diagonal through the same empty squares, and the attack rule is
    a property of the resulting state only (the earlier state satisfied it).
    """
    if START == GOAL:
        return 0
    seen = [{START: 0}, {GOAL: 0}]
    front = [[START], [GOAL]]
    while front[0] and front[1]:
        side = 0 if len(front[0]) <= len(front[1]) else 1
        mine, other = seen[side], seen[1 - side]
        nxt = []
        best = None
        for s in front[side]:
            d = mine[s] + 1
            for t in _succ(s, attack):
                if t in other:
                    cand = d + other[t]
                    if best is None or cand < best:
                        best = cand
                if t not in mine:
                    mine[t] = d
                    nxt.append(t)
        if best is not None:
            return best
        front[side] = nxt
    return None


def reachable(attack):
    """Slow for attack=False (about 1.6 million states)."""
    return len(_bfs(attack, False))


if __name__ == "__main__":
    import time

    for attack in (True, False):
        t = time.perf_counter()
        s = shortest(attack)
        t1 = time.perf_counter()
        print(f"bishops attack_rule={attack}: shortest (bidirectional)={s} ({t1 - t:.3f}s)")
        t = time.perf_counter()
        s = shortest_plain(attack)
        t1 = time.perf_counter()
        n = reachable(attack)
        t2 = time.perf_counter()
        print(f"bishops attack_rule={attack}: shortest (plain BFS)={s} ({t1 - t:.3f}s) reachable={n} ({t2 - t1:.3f}s)")
