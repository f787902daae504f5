"""Frog jump, plain BFS.

Rules implemented:
- A line of 2n+1 cells: n black frogs (B) on the left, an empty cell, n white frogs (W).
- A black frog moves right only: a slide to the empty cell next to it, or a jump over one
  white frog to the empty cell beyond. A white frog moves left the same way over a black one.
- Goal: the white frogs on the left, the black ones on the right.
"""

from collections import deque


def _moves(state):
    cells = len(state)
    for i, frog in enumerate(state):
        step = 1 if frog == "B" else -1 if frog == "W" else 0
        if not step:
            continue
        other = "W" if frog == "B" else "B"
        to = i + step
        if 0 <= to < cells and state[to] == "_":
            yield i, to
        to = i + 2 * step
        if 0 <= to < cells and state[to] == "_" and state[i + step] == other:
            yield i, to


def shortest(n):
    """The moves of a shortest solution, each (from, to) as 1-based cell numbers."""
    start = "B" * n + "_" + "W" * n
    goal = "W" * n + "_" + "B" * n
    came = {start: None}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        if state == goal:
            break
        for i, to in _moves(state):
            cells = list(state)
            cells[to], cells[i] = cells[i], "_"
            after = "".join(cells)
            if after not in came:
                came[after] = (state, i, to)
                queue.append(after)
    path = []
    state = goal
    while came[state] is not None:
        state, i, to = came[state]
        path.append((i + 1, to + 1))
    return path[::-1]
