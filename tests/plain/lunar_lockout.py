"""Lunar Lockout, plain breadth-first search over strings.

Rules implemented:
- A 5 x 5 board, row by row: X the red robot, H a helper, _ empty.
- A move takes one robot in one of the four directions through empty cells until the next cell
  holds a robot; it stops in front of it, having moved at least one cell. A robot with no robot
  ahead in that direction would leave the board: no move.
- The goal: X on the centre cell.
"""

from collections import deque

N = 5
CENTRE = 12


def moves(board):
    for i, robot in enumerate(board):
        if robot == "_":
            continue
        r, c = divmod(i, N)
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            rr, cc = r + dr, c + dc
            while 0 <= rr < N and 0 <= cc < N and board[rr * N + cc] == "_":
                rr, cc = rr + dr, cc + dc
            stop = (rr - dr) * N + (cc - dc)
            if 0 <= rr < N and 0 <= cc < N and stop != i:
                cells = list(board)
                cells[i], cells[stop] = "_", robot
                yield "".join(cells)


def solve(board):
    """(the fewest moves, the number of shortest solutions, the positions reachable)."""
    dist, ways = {board: 0}, {board: 1}
    queue = deque([board])
    found = None
    while queue:
        b = queue.popleft()
        if found is not None and dist[b] >= found:
            continue
        if b[CENTRE] == "X":
            found = dist[b]
            continue
        for nxt in moves(b):
            if nxt not in dist:
                dist[nxt], ways[nxt] = dist[b] + 1, 0
                queue.append(nxt)
            if dist[nxt] == dist[b] + 1:
                ways[nxt] += ways[b]
    if found is None:
        return None, 0, len(dist)
    return found, sum(w for b, w in ways.items() if b[CENTRE] == "X" and dist[b] == found), None


def reachable(board):
    seen = {board}
    queue = deque([board])
    while queue:
        for nxt in moves(queue.popleft()):
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return len(seen)
