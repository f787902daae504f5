"""The 8-puzzle, plain breadth-first search over strings.

Rules implemented:
- A state is 9 characters read row by row, "_" the hole.
- A move slides a tile next to the hole (up, down, left, right) into it.
- layers(state) gives how many states lie 0, 1, 2, ... moves from `state`; the moves undo
  each other, so these are also the distances *to* `state`.
"""

from collections import deque


def _neighbours(state):
    hole = state.index("_")
    row, col = divmod(hole, 3)
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        r, c = row + dr, col + dc
        if 0 <= r < 3 and 0 <= c < 3:
            other = 3 * r + c
            cells = list(state)
            cells[hole], cells[other] = cells[other], cells[hole]
            yield "".join(cells)


def distances(state):
    dist = {state: 0}
    queue = deque([state])
    while queue:
        s = queue.popleft()
        for t in _neighbours(s):
            if t not in dist:
                dist[t] = dist[s] + 1
                queue.append(t)
    return dist


def layers(state):
    dist = distances(state)
    sizes = [0] * (max(dist.values()) + 1)
    for d in dist.values():
        sizes[d] += 1
    return sizes


def farthest(state):
    dist = distances(state)
    most = max(dist.values())
    return sorted(s for s, d in dist.items() if d == most)
