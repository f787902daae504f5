"""Bridge and torch puzzle, Dijkstra with counting of cheapest sequences.

Rules implemented:
- People with crossing times `times` all start on the near side with the
  torch. Goal: everybody on the far side (torch then necessarily there too).
- A crossing: one or two people who are on the torch's side cross together
  with the torch; it costs the larger of their times. No crossing without
  the torch, never more than two people.
- State: (bitmask of people on the near side, torch side 0=near/1=far).
- Total time = sum of crossing costs; Dijkstra gives the cheapest total.
- A "move" is the set of people crossing; a solution is the sequence of
  moves. All times are positive, so cheapest paths form a DAG of tight
  edges (dist[u] + cost == dist[v]); the number of distinct cheapest move
  sequences is the number of start->goal paths in that DAG. Two different
  move sets always lead to different states, so paths == move sequences.
- `crossings` = number of crossings of a cheapest solution; if cheapest
  solutions differ in length the minimum is returned (cheapest_full() also
  returns the maximum).
"""

import heapq
from functools import cache
from itertools import combinations


def _succ(state, times):
    near, torch = state
    n = len(times)
    side = [i for i in range(n) if (near >> i & 1) == (torch == 0)]
    groups = [(i,) for i in side] + list(combinations(side, 2))
    for g in groups:
        m = 0
        for i in g:
            m |= 1 << i
        cost = max(times[i] for i in g)
        yield (near ^ m, 1 - torch), cost


def cheapest_full(times):
    n = len(times)
    start = ((1 << n) - 1, 0)
    goal = (0, 1)
    dist = {start: 0}
    heap = [(0, start)]
    done = set()
    while heap:
        d, s = heapq.heappop(heap)
        if s in done:
            continue
        done.add(s)
        for t, c in _succ(s, times):
            if t not in dist or d + c < dist[t]:
                dist[t] = d + c
                heapq.heappush(heap, (d + c, t))
    best = dist[goal]

    @cache
    def paths(s):
        """(count, min crossings, max crossings) of cheapest s->goal paths,
        restricted to tight edges of the start-rooted shortest-path DAG."""
        if s == goal:
            return 1, 0, 0
        cnt, lo, hi = 0, None, None
        for t, c in _succ(s, times):
            if dist[s] + c == dist.get(t) and dist[t] <= best:
                k, a, b = paths(t)
                if k:
                    cnt += k
                    lo = a + 1 if lo is None else min(lo, a + 1)
                    hi = b + 1 if hi is None else max(hi, b + 1)
        return cnt, lo, hi

    # Only paths that end at goal with total dist[goal] are counted, and every
    # tight edge chain from start has cost equal to dist of its endpoint.
    cnt, lo, hi = paths(start)
    return best, lo, hi, cnt


def cheapest(times):
    best, lo, _hi, cnt = cheapest_full(times)
    return best, lo, cnt


if __name__ == "__main__":
    import time

    for times in ([1, 2, 5, 10], [1, 2, 5, 8], [1, 3, 6, 8, 12]):
        t = time.perf_counter()
        best, lo, hi, cnt = cheapest_full(times)
        extra = "" if lo == hi else f" (longest cheapest solution: {hi} crossings)"
        print(
            f"bridge_torch times={times}: total_time={best} crossings={lo} "
            f"cheapest_solutions={cnt}{extra} ({time.perf_counter() - t:.4f}s)"
        )
