"""English (33-hole cross) peg solitaire, depth-first search.

Rules implemented:
- Board: the 7x7 grid minus the four 2x2 corners (33 holes).
- Start: every hole filled except the centre (3, 3).
- A jump: a peg jumps orthogonally over an adjacent peg into the empty hole
  directly behind it; the jumped peg is removed.
- Goal: exactly one peg left, in the centre.
- Search: plain recursive DFS over bitmask states; a set of states already
  fully explored without success ("dead") prunes repeats. No symmetry
  reduction, no heuristics. Jumps are tried in a fixed order (by source
  hole in row-major order, then direction up/down/left/right).
- `nodes` counts states expanded (i.e. whose successors were generated).
"""

import time

HOLES = [(r, c) for r in range(7) for c in range(7) if (2 <= r <= 4) or (2 <= c <= 4)]
INDEX = {h: i for i, h in enumerate(HOLES)}
CENTRE = INDEX[(3, 3)]
JUMPS = []
for r, c in HOLES:
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        o, t = (r + dr, c + dc), (r + 2 * dr, c + 2 * dc)
        if o in INDEX and t in INDEX:
            JUMPS.append((1 << INDEX[(r, c)], 1 << INDEX[o], 1 << INDEX[t]))

START = ((1 << 33) - 1) & ~(1 << CENTRE)
GOAL = 1 << CENTRE


class _Timeout(Exception):
    pass


def solve_dfs(limit_seconds=60):
    """Return (jumps_in_solution or None, nodes_expanded, seconds)."""
    dead = set()
    path = []
    nodes = 0
    t0 = time.perf_counter()
    deadline = t0 + limit_seconds

    def dfs(s):
        nonlocal nodes
        if s == GOAL:
            return True
        if s in dead:
            return False
        nodes += 1
        if not nodes & 0xFFF and time.perf_counter() > deadline:
            raise _Timeout
        for a, b, c in JUMPS:
            if s & a and s & b and not s & c:
                path.append((a, b, c))
                if dfs(s ^ a ^ b ^ c):
                    return True
                path.pop()
        dead.add(s)
        return False

    try:
        found = dfs(START)
    except _Timeout:
        found = False
    secs = time.perf_counter() - t0
    return (len(path) if found else None), nodes, secs


if __name__ == "__main__":
    jumps, nodes, secs = solve_dfs()
    print(f"peg_english: jumps={jumps} nodes_expanded={nodes} ({secs:.3f}s)")
