"""Top-Spin, plain breadth-first search over tuples.

Rules implemented:
- The tokens lie on a ring, listed clockwise from the turntable's first cell. A move spins the
  ring one cell clockwise or one cell back, or turns the turntable over: the first k tokens in
  the opposite order. The goal is 1, 2, ..., n.
"""

from collections import deque


def neighbours(ring, k):
    turned = ring[:k][::-1] + ring[k:]
    return (ring[-1:] + ring[:-1], ring[1:] + ring[:1], turned)


def solve(ring, k=4):
    """(the fewest moves, the number of shortest solutions), or (None, 0)."""
    ring = tuple(ring)
    goal = tuple(sorted(ring))
    dist, ways = {ring: 0}, {ring: 1}
    queue = deque([ring])
    while queue:
        r = queue.popleft()
        if r == goal:
            return dist[r], ways[r]
        for nxt in neighbours(r, k):
            if nxt not in dist:
                dist[nxt], ways[nxt] = dist[r] + 1, 0
                queue.append(nxt)
            if dist[nxt] == dist[r] + 1:
                ways[nxt] += ways[r]
    return None, 0
