"""Tower of Hanoi, 3 pegs, plain BFS.

Rules implemented:
- n discs, disc 0 is the smallest, disc n-1 the largest.
- State: tuple s where s[d] is the peg (0, 1, 2) that disc d is on.
- Start: all discs on peg 0.  Goal (for `shortest`): all discs on peg 2.
- A move takes the top disc of one peg (the smallest disc on it) and puts it
  on another peg, provided that peg is empty or its top disc is larger.
"""

from collections import deque


def _moves(state):
    n = len(state)
    top = [None, None, None]
    for d in range(n):  # smallest first
        if top[state[d]] is None:
            top[state[d]] = d
    for src in range(3):
        d = top[src]
        if d is None:
            continue
        for dst in range(3):
            if dst != src and (top[dst] is None or top[dst] > d):
                s = list(state)
                s[d] = dst
                yield tuple(s)


def _bfs(discs):
    start = (0,) * discs
    dist = {start: 0}
    q = deque([start])
    while q:
        s = q.popleft()
        for t in _moves(s):
            if t not in dist:
                dist[t] = dist[s] + 1
                q.append(t)
    return dist


def shortest(discs):
    return _bfs(discs)[(2,) * discs]


def reachable(discs):
    return len(_bfs(discs))


if __name__ == "__main__":
    import time

    for n in (4, 5, 8):
        t = time.perf_counter()
        a, b = shortest(n), reachable(n)
        print(f"hanoi discs={n}: shortest={a} reachable={b} ({time.perf_counter() - t:.3f}s)")
