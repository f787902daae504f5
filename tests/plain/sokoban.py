"""Sokoban, plain BFS over (worker position, box positions).

Rules implemented:
- ROOM uses: '#' wall, ' ' floor, '$' box, '.' target, '@' worker,
  '*' box on target, '+' worker on target. Everything not '#' is floor.
- A move: the worker steps one cell up/down/left/right. If that cell is empty
  floor he just walks there; if it holds a box, he pushes the box one cell
  further in the same direction, allowed only if the cell beyond is floor
  and holds no box. No pulling. Every step (walk or push) counts one move.
- Boxes are interchangeable: state = (worker cell, frozenset of box cells).
- Goal: every box on a target (worker anywhere).
- reachable(): number of states reachable from the start, start included.
"""

from collections import deque

ROOM = [
    "#######",
    "#     #",
    "# $#  #",
    "#  # .#",
    "#  $  #",
    "#. #@ #",
    "#######",
]


def parse(room=ROOM):
    floor, boxes, targets, worker = set(), set(), set(), None
    for r, line in enumerate(room):
        for c, ch in enumerate(line):
            if ch == "#":
                continue
            floor.add((r, c))
            if ch in "$*":
                boxes.add((r, c))
            if ch in ".*+":
                targets.add((r, c))
            if ch in "@+":
                worker = (r, c)
    return floor, frozenset(boxes), frozenset(targets), worker


def _succ(state, floor):
    w, boxes = state
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        n = (w[0] + dr, w[1] + dc)
        if n not in floor:
            continue
        if n in boxes:
            b = (n[0] + dr, n[1] + dc)
            if b in floor and b not in boxes:
                yield n, boxes - {n} | {b}
        else:
            yield n, boxes


def _bfs(room, stop_at_goal):
    floor, boxes, targets, worker = parse(room)
    start = (worker, boxes)
    dist = {start: 0}
    q = deque([start])
    while q:
        s = q.popleft()
        if stop_at_goal and s[1] <= targets:
            return dist, s
        for t in _succ(s, floor):
            if t not in dist:
                dist[t] = dist[s] + 1
                q.append(t)
    return dist, None


def shortest_moves(room=ROOM):
    dist, goal = _bfs(room, True)
    return None if goal is None else dist[goal]


def reachable(room=ROOM):
    return len(_bfs(room, False)[0])


if __name__ == "__main__":
    import time

    print("\n".join(ROOM))
    t = time.perf_counter()
    print(f"sokoban: shortest_moves={shortest_moves()} reachable={reachable()} ({time.perf_counter() - t:.3f}s)")


def fewest_pushes(room=ROOM):
    """The fewest pushes that put every box on a target (walking is free): a 0-1 breadth-first
    search, walks at the front of the queue, pushes at the back."""
    floor, boxes, targets, worker = parse(room)
    start = (worker, frozenset(boxes))
    best = {start: 0}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        pushes = best[state]
        if state[1] <= targets:
            return pushes
        for child in _succ(state, floor):
            cost = pushes + (child[1] != state[1])
            if cost < best.get(child, cost + 1):
                best[child] = cost
                if cost == pushes:
                    queue.appendleft(child)
                else:
                    queue.append(child)
    return None


MICROBAN = {  # levels 1-3 of David W. Skinner's Microban, in XSB text
    1: ["####", "# .#", "#  ###", "#*@  #", "#  $ #", "#  ###", "####"],
    2: ["######", "#    #", "# #@ #", "# $* #", "# .* #", "#    #", "######"],
    3: ["  ####", "###  ####", "#     $ #", "# #  #$ #", "# . .#@ #", "#########"],
}


def fewest_pushes_then_moves(room=ROOM):
    """(pushes, moves) of the solution with the fewest pushes and, among those, the fewest
    moves: Dijkstra's search on pairs, compared first by pushes."""
    import heapq

    floor, boxes, targets, worker = parse(room)
    start = (worker, frozenset(boxes))
    best = {start: (0, 0)}
    heap = [(0, 0, 0, start)]
    tie = 0
    while heap:
        pushes, moves, _, state = heapq.heappop(heap)
        if best[state] < (pushes, moves):
            continue
        if state[1] <= targets:
            return pushes, moves
        for child in _succ(state, floor):
            cost = (pushes + (child[1] != state[1]), moves + 1)
            if child not in best or cost < best[child]:
                best[child] = cost
                tie += 1
                heapq.heappush(heap, (*cost, tie, child))
    return None
