"""Knight's tours from the corner of an n x n board, plain backtracking in the order of the
eight leaps (no heuristic): whether a tour exists, and whether a list of squares is one.

Rules implemented:
- The knight starts on square (0, 0) and leaps (±1, ±2) or (±2, ±1) onto a square not yet
  visited; a tour visits all n*n squares.
"""

import itertools

LEAPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))


def tour(n):
    """A tour as a list of (row, col) squares, or None if there is none."""
    path = [(0, 0)]
    visited = {(0, 0)}

    def extend():
        if len(path) == n * n:
            return True
        r, c = path[-1]
        for dr, dc in LEAPS:
            square = (r + dr, c + dc)
            if 0 <= square[0] < n and 0 <= square[1] < n and square not in visited:
                path.append(square)
                visited.add(square)
                if extend():
                    return True
                path.pop()
                visited.discard(square)
        return False

    return list(path) if extend() else None


def is_tour(n, squares):
    """Whether `squares` is a knight's tour of the n x n board from the corner."""
    if squares[:1] != [(0, 0)] or len(squares) != n * n or len(set(squares)) != n * n:
        return False
    leaps = {(abs(a), abs(b)) for a, b in LEAPS}
    return all((abs(r2 - r1), abs(c2 - c1)) in leaps for (r1, c1), (r2, c2) in itertools.pairwise(squares))
