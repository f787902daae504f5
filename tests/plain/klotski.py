"""Klotski (Huarong Dao), plain breadth-first search over the blocks' positions.

Rules implemented:
- A board of ROWS x COLS squares; each block is a rectangle (height, width) at a top-left
  square. Blocks of the same size are interchangeable.
- A step moves one block one square up, down, left or right onto empty squares.
- pieces=True: one move is any number of steps of one block (its whole path, through
  arrangements not met on the way); pieces=False: each step is a move.
- The goal: the 2 x 2 block with its top-left square at `goal`.
"""

from collections import deque

ROWS, COLS = 5, 4
# Heng dao li ma ("Guan Yu blocks the way"): the classic start
START = (
    ((2, 2), (0, 1)),
    ((2, 1), (0, 0)),
    ((2, 1), (0, 3)),
    ((2, 1), (2, 0)),
    ((2, 1), (2, 3)),
    ((1, 2), (2, 1)),
    ((1, 1), (3, 1)),
    ((1, 1), (3, 2)),
    ((1, 1), (4, 0)),
    ((1, 1), (4, 3)),
)
GOAL = (3, 1)


def _key(blocks):
    return tuple(sorted(blocks))


def _cells(size, at):
    return {(at[0] + r, at[1] + c) for r in range(size[0]) for c in range(size[1])}


def _steps(blocks):
    """(index of the block, new state) for every single step."""
    taken = set()
    for size, at in blocks:
        taken |= _cells(size, at)
    for i, (size, at) in enumerate(blocks):
        own = _cells(size, at)
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            to = (at[0] + dr, at[1] + dc)
            moved = _cells(size, to)
            if all(0 <= r < ROWS and 0 <= c < COLS for r, c in moved) and not (moved - own) & taken:
                yield i, (*blocks[:i], (size, to), *blocks[i + 1 :])


def _moves(blocks, pieces):
    if not pieces:
        for _, after in _steps(blocks):
            yield after
        return
    for i in range(len(blocks)):
        seen = {_key(blocks)}
        frontier = [blocks]
        while frontier:
            state = frontier.pop()
            for j, after in _steps(state):
                if j != i or _key(after) in seen:
                    continue
                seen.add(_key(after))
                frontier.append(after)
                yield after


def fewest_moves(start=START, goal=GOAL, pieces=True):
    start = tuple(start)
    dist = {_key(start): 0}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        if ((2, 2), goal) in state:
            return dist[_key(state)]
        for after in _moves(state, pieces):
            if _key(after) not in dist:
                dist[_key(after)] = dist[_key(state)] + 1
                queue.append(after)
    return None
