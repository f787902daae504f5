"""Lights Out on an n x n grid, plain BFS.

Rules implemented:
- State: bitmask of lit cells, bit r*n + c.
- Start: all lights on.  Goal: all lights off.
- A press of cell (r, c) toggles that cell and its orthogonal neighbours
  that exist on the board (no wrap-around). One press = one move.
- shortest(n) returns None if the goal is unreachable.
"""

from collections import deque


def _masks(n):
    out = []
    for r in range(n):
        for c in range(n):
            m = 0
            for rr, cc in ((r, c), (r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= rr < n and 0 <= cc < n:
                    m |= 1 << (rr * n + cc)
            out.append(m)
    return out


def _bfs(n):
    masks = _masks(n)
    start = (1 << (n * n)) - 1
    dist = {start: 0}
    q = deque([start])
    while q:
        s = q.popleft()
        for m in masks:
            t = s ^ m
            if t not in dist:
                dist[t] = dist[s] + 1
                q.append(t)
    return dist


def shortest(n):
    return _bfs(n).get(0)


def reachable(n):
    return len(_bfs(n))


if __name__ == "__main__":
    import time

    for n in (3, 4):
        t = time.perf_counter()
        a, b = shortest(n), reachable(n)
        print(f"lights_out n={n}: shortest={a} reachable={b} ({time.perf_counter() - t:.3f}s)")
