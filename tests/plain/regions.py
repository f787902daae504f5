"""Latin squares with regions, counted by plain enumeration: jigsaw and Killer puzzles on
small grids.

Rules implemented:
- An n x n grid over the numbers 1..n: every row and every column holds each number once
  (a Latin square).
- regions: a picture, one string per row, one letter per cell; every region (the cells of
  one letter) holds each of its numbers at most once.
- sums (optional): for some letters, the numbers in that region add up to the value.
- givens (optional): a string of n*n characters, a digit where the cell is given, '.'
  where it is open.
- solutions(...) lists every grid that keeps the rules, as a string of n*n digits read row
  by row; the search builds the square row by row from the permutations of 1..n.
"""

from itertools import permutations


def solutions(n, regions, sums=None, givens=None):
    sums = sums or {}
    givens = givens or "." * (n * n)
    label = [regions[r][c] for r in range(n) for c in range(n)]
    perms = list(permutations(range(1, n + 1)))
    found = []

    def fits(rows):
        grid = [v for row in rows for v in row]
        k = len(grid)
        for i, v in enumerate(grid):
            if givens[i] != "." and int(givens[i]) != v:
                return False
        seen = {}
        totals = {}
        for i, v in enumerate(grid):
            key = (label[i], v)
            if key in seen:
                return False
            seen[key] = True
            totals[label[i]] = totals.get(label[i], 0) + v
        complete = {letter for letter in set(label) if all(i < k for i in range(n * n) if label[i] == letter)}
        for letter, total in sums.items():
            if letter in complete and totals.get(letter, 0) != total:
                return False
            if totals.get(letter, 0) > total:
                return False
        return True

    def extend(rows):
        if len(rows) == n:
            found.append("".join(str(v) for row in rows for v in row))
            return
        for p in perms:
            if any(p[c] == row[c] for row in rows for c in range(n)):
                continue
            if fits([*rows, p]):
                extend([*rows, p])

    extend([])
    return found
