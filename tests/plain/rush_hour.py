"""Rush Hour on the standard 6 x 6 board, plain BFS.

Rules implemented:
- BOARD: 6 strings of 6 characters; '.' empty, each vehicle a distinct
  capital letter covering 2 (car) or 3 (truck) cells in one straight line;
  'X' is the red car, horizontal, in row 3 (index 2).
- Orientation of each vehicle is read off its cells; horizontal vehicles
  move only left/right, vertical ones only up/down.
- A move: one vehicle slides k >= 1 cells in one direction, every cell it
  passes through / lands on being empty and on the board. One slide = one
  move, whatever k is.
- Goal: X occupies the two rightmost cells of row 3 (columns 5 and 6).
- State: the board as one 36-character string.
- reachable(): number of states reachable from the start, start included.
"""

import itertools
from collections import deque

# Position found by a throw-away random generator + this solver, then
# relettered in reading order.
BOARD = [
    "AAA..B",
    "..CDDB",
    "XXCEF.",
    "GHHEFI",
    "G.JEFI",
    "..JKKK",
]

W = 6


def _vehicles(board):
    cells = {}
    for i, ch in enumerate(board):
        if ch != ".":
            cells.setdefault(ch, []).append(i)
    out = []
    for ch, cs in sorted(cells.items()):
        step = 1 if cs[1] - cs[0] == 1 else W
        assert all(b - a == step for a, b in itertools.pairwise(cs)), ch
        if step == 1:
            assert cs[0] // W == cs[-1] // W, ch
        out.append((ch, step, len(cs)))
    return out


def _succ(board, vehicles):
    for ch, step, length in vehicles:
        head = board.index(ch)
        tail = head + step * (length - 1)
        row = head // W
        # backward (left / up)
        pos = head
        k = 0
        while True:
            nxt = pos - step
            if nxt < 0 or (step == 1 and nxt // W != row) or board[nxt] != ".":
                break
            pos = nxt
            k += 1
            yield _shift(board, ch, head, step, length, -k)
        pos = tail
        k = 0
        while True:
            nxt = pos + step
            if nxt >= W * W or (step == 1 and nxt // W != row) or board[nxt] != ".":
                break
            pos = nxt
            k += 1
            yield _shift(board, ch, head, step, length, k)


def _shift(board, ch, head, step, length, k):
    b = list(board)
    for j in range(length):
        b[head + step * j] = "."
    for j in range(length):
        b[head + step * (j + k)] = ch
    return "".join(b)


def _is_goal(board):
    return board[2 * W + 4] == "X" and board[2 * W + 5] == "X"


def _bfs(rows, stop_at_goal):
    start = "".join(rows)
    assert len(start) == W * W
    vehicles = _vehicles(start)
    dist = {start: 0}
    q = deque([start])
    while q:
        s = q.popleft()
        if stop_at_goal and _is_goal(s):
            return dist, s
        for t in _succ(s, vehicles):
            if t not in dist:
                dist[t] = dist[s] + 1
                q.append(t)
    return dist, None


def shortest(rows=BOARD):
    dist, goal = _bfs(rows, True)
    return None if goal is None else dist[goal]


def reachable(rows=BOARD):
    return len(_bfs(rows, False)[0])


if __name__ == "__main__":
    import time

    print("\n".join(BOARD))
    t = time.perf_counter()
    print(f"rush_hour: shortest={shortest()} reachable={reachable()} ({time.perf_counter() - t:.3f}s)")
