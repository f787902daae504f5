"""Water jug puzzles, plain BFS.

(a) Two jugs, capacities a (small, jug 0) and b (big, jug 1), both start empty.
    Moves: fill a jug completely from the tap; empty a jug onto the ground;
    pour jug i into jug j until i is empty or j is full. Moves that leave the
    state unchanged are ignored (they never matter for BFS). State: (x, y).
    shortest(a, b, want_in_b): fewest moves until jug b holds exactly
    want_in_b (jug a may hold anything). reachable(a, b): states reachable
    from (0, 0), start included.
(b) Jugs with capacities caps, start state `start`, only pouring allowed
    (pour i into j until i empty or j full; no tap, no ground).
    shortest_pour(caps, start, goal): fewest pours to the exact state goal.
    reachable_pour(caps, start): states reachable, start included.
"""

from collections import deque


def _bfs(start, succ):
    dist = {start: 0}
    q = deque([start])
    while q:
        s = q.popleft()
        for t in succ(s):
            if t not in dist:
                dist[t] = dist[s] + 1
                q.append(t)
    return dist


def _pours(caps, s):
    for i in range(len(caps)):
        for j in range(len(caps)):
            if i != j and s[i] > 0 and s[j] < caps[j]:
                amount = min(s[i], caps[j] - s[j])
                t = list(s)
                t[i] -= amount
                t[j] += amount
                yield tuple(t)


def _two_jug_succ(a, b):
    caps = (a, b)

    def succ(s):
        x, y = s
        yield (a, y)
        yield (x, b)
        yield (0, y)
        yield (x, 0)
        yield from _pours(caps, s)

    return succ


def shortest(a, b, want_in_b):
    dist = _bfs((0, 0), _two_jug_succ(a, b))
    hits = [d for (x, y), d in dist.items() if y == want_in_b]
    return min(hits) if hits else None


def reachable(a, b):
    return len(_bfs((0, 0), _two_jug_succ(a, b)))


def shortest_pour(caps, start, goal):
    return _bfs(tuple(start), lambda s: _pours(caps, s)).get(tuple(goal))


def reachable_pour(caps, start):
    return len(_bfs(tuple(start), lambda s: _pours(caps, s)))


if __name__ == "__main__":
    import time

    t = time.perf_counter()
    print(
        f"water_jugs (3,5) want 4 in big jug: shortest={shortest(3, 5, 4)} "
        f"reachable={reachable(3, 5)} ({time.perf_counter() - t:.4f}s)"
    )
    t = time.perf_counter()
    caps, start, goal = (8, 5, 3), (8, 0, 0), (4, 4, 0)
    print(
        f"water_jugs pour-only caps={caps} start={start} goal={goal}: "
        f"shortest={shortest_pour(caps, start, goal)} "
        f"reachable={reachable_pour(caps, start)} ({time.perf_counter() - t:.4f}s)"
    )
