"""Baselines for the logic-puzzle benchmarks: the programs a person would write for each
puzzle, and CP-SAT models written directly. Nothing here imports puzint.

- Sudoku: backtracking on bitmasks of the digits each row, column and box holds, the cell
  with the fewest candidates first (the "30-line program" the issue measures against).
- Queens: the classic bitmask counter (columns and both diagonals as masks, one row at a
  time, the free squares of a row taken lowest bit first).
- Latin squares: cell by cell in reading order, with a mask per row and per column.
- SEND + MORE = MONEY: digits assigned letter by letter (no two alike), the sum checked when
  the eight are assigned, S and M not 0.
- CP-SAT: the same puzzles as a modeller would write them for OR-tools (integer variables,
  AddAllDifferent, a linear equation), every solution enumerated on one worker; each returns
  the seconds spent building the model and solving it apart.
"""

from __future__ import annotations

import time
from typing import Any

LETTERS = "SENDMORY"


def sudoku_solutions(grid: str, most: int = 2) -> list[str]:
    """Up to `most` solutions of a 9 x 9 Sudoku (81 characters, 0 or . for empty)."""
    cells = [0 if ch in "0." else int(ch) for ch in grid]
    rows, cols, boxes = [0] * 9, [0] * 9, [0] * 9
    for i, v in enumerate(cells):
        if v:
            bit = 1 << v
            rows[i // 9] |= bit
            cols[i % 9] |= bit
            boxes[i // 27 * 3 + i % 9 // 3] |= bit
    empty = [i for i, v in enumerate(cells) if not v]
    found: list[str] = []
    full = 0b1111111110

    def solve() -> None:
        best, best_free, best_count = -1, 0, 10
        for i in empty:
            if cells[i]:
                continue
            free = full & ~(rows[i // 9] | cols[i % 9] | boxes[i // 27 * 3 + i % 9 // 3])
            count = bin(free).count("1")
            if count < best_count:
                best, best_free, best_count = i, free, count
                if count <= 1:
                    break
        if best < 0:
            found.append("".join(map(str, cells)))
            return
        r, c, b = best // 9, best % 9, best // 27 * 3 + best % 9 // 3
        while best_free and len(found) < most:
            bit = best_free & -best_free
            best_free ^= bit
            cells[best] = bit.bit_length() - 1
            rows[r] |= bit
            cols[c] |= bit
            boxes[b] |= bit
            solve()
            rows[r] ^= bit
            cols[c] ^= bit
            boxes[b] ^= bit
        cells[best] = 0

    solve()
    return found


def queens_count(n: int) -> int:
    """The number of ways to place n queens on an n x n board, none attacking another."""
    full = (1 << n) - 1

    def place(cols: int, left: int, right: int) -> int:
        if cols == full:
            return 1
        total = 0
        free = full & ~(cols | left | right)
        while free:
            bit = free & -free
            free ^= bit
            total += place(cols | bit, (left | bit) << 1 & full, (right | bit) >> 1)
        return total

    return place(0, 0, 0)


def latin_count(n: int) -> int:
    """The number of n x n Latin squares on n symbols."""
    rows, cols = [0] * n, [0] * n
    full = (1 << n) - 1

    def fill(i: int) -> int:
        if i == n * n:
            return 1
        r, c = divmod(i, n)
        total = 0
        free = full & ~(rows[r] | cols[c])
        while free:
            bit = free & -free
            free ^= bit
            rows[r] |= bit
            cols[c] |= bit
            total += fill(i + 1)
            rows[r] ^= bit
            cols[c] ^= bit
        return total

    return fill(0)


def send_more_money() -> list[dict[str, int]]:
    """Every solution of SEND + MORE = MONEY, each letter a different digit, S and M not 0."""
    found: list[dict[str, int]] = []
    digits: dict[str, int] = {}
    used = [False] * 10

    def number(word: str) -> int:
        value = 0
        for letter in word:
            value = value * 10 + digits[letter]
        return value

    def assign(k: int) -> None:
        if k == len(LETTERS):
            if digits["S"] and digits["M"] and number("SEND") + number("MORE") == number("MONEY"):
                found.append(dict(digits))
            return
        for d in range(10):
            if not used[d]:
                used[d] = True
                digits[LETTERS[k]] = d
                assign(k + 1)
                used[d] = False

    assign(0)
    return found


# ---------------------------------------------------------------------------- CP-SAT, directly


def _enumerate(model: Any, variables: list[Any], most: int | None = None) -> tuple[list[list[int]], float]:
    """Every solution's values (at most `most`), and the seconds the solver took."""
    from ortools.sat.python import cp_model

    class Collect(cp_model.CpSolverSolutionCallback):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.found: list[list[int]] = []

        def on_solution_callback(self) -> None:
            self.found.append([self.value(v) for v in variables])
            if most is not None and len(self.found) >= most:
                self.stop_search()

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    collect = Collect()
    started = time.perf_counter()
    solver.solve(model, collect)
    return collect.found, time.perf_counter() - started


def _counter(model: Any) -> tuple[int, float]:
    """The number of solutions (none kept), and the seconds the solver took."""
    from ortools.sat.python import cp_model

    class Count(cp_model.CpSolverSolutionCallback):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.count = 0

        def on_solution_callback(self) -> None:
            self.count += 1

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    count = Count()
    started = time.perf_counter()
    solver.solve(model, count)
    return count.count, time.perf_counter() - started


def cpsat_sudoku(grid: str) -> tuple[list[str], float, float]:
    """Up to two solutions (the second would disprove uniqueness), build and solve seconds."""
    from ortools.sat.python import cp_model

    started = time.perf_counter()
    model = cp_model.CpModel()
    x = [model.new_int_var(1, 9, f"x{i}") for i in range(81)]
    for i, ch in enumerate(grid):
        if ch not in "0.":
            model.add(x[i] == int(ch))
    for k in range(9):
        model.add_all_different(x[9 * k : 9 * k + 9])
        model.add_all_different(x[k::9])
        top, left = k // 3 * 3, k % 3 * 3
        model.add_all_different([x[9 * (top + r) + left + c] for r in range(3) for c in range(3)])
    built = time.perf_counter() - started
    found, solved = _enumerate(model, x, most=2)
    return ["".join(map(str, values)) for values in found], built, solved


def cpsat_queens_count(n: int) -> tuple[int, float, float]:
    """The number of n-queens solutions: a column per row, all different three ways."""
    from ortools.sat.python import cp_model

    started = time.perf_counter()
    model = cp_model.CpModel()
    q = [model.new_int_var(0, n - 1, f"q{i}") for i in range(n)]
    model.add_all_different(q)
    model.add_all_different([q[i] + i for i in range(n)])
    model.add_all_different([q[i] - i for i in range(n)])
    built = time.perf_counter() - started
    count, solved = _counter(model)
    return count, built, solved


def cpsat_latin_count(n: int) -> tuple[int, float, float]:
    """The number of n x n Latin squares."""
    from ortools.sat.python import cp_model

    started = time.perf_counter()
    model = cp_model.CpModel()
    x = [[model.new_int_var(1, n, f"x{r}_{c}") for c in range(n)] for r in range(n)]
    for k in range(n):
        model.add_all_different(x[k])
        model.add_all_different([x[r][k] for r in range(n)])
    built = time.perf_counter() - started
    count, solved = _counter(model)
    return count, built, solved


def cpsat_send_more_money() -> tuple[list[dict[str, int]], float, float]:
    """Every solution of SEND + MORE = MONEY."""
    from ortools.sat.python import cp_model

    started = time.perf_counter()
    model = cp_model.CpModel()
    v = {letter: model.new_int_var(0, 9, letter) for letter in LETTERS}
    model.add_all_different(list(v.values()))
    model.add(v["S"] != 0)
    model.add(v["M"] != 0)

    def number(word: str) -> Any:
        return sum(10 ** (len(word) - 1 - i) * v[letter] for i, letter in enumerate(word))

    model.add(number("SEND") + number("MORE") == number("MONEY"))
    built = time.perf_counter() - started
    found, solved = _enumerate(model, list(v.values()))
    return [dict(zip(LETTERS, values, strict=True)) for values in found], built, solved


if __name__ == "__main__":
    SUDOKU = "800000000003600000070090200050007000000045700000100030001000068008500010090000400"
    checks = [
        ("sudoku", lambda: sudoku_solutions(SUDOKU), lambda r: len(r) == 1 and r[0].startswith("812753649")),
        ("queens 8, 10, 12", lambda: [queens_count(n) for n in (8, 10, 12)], lambda r: r == [92, 724, 14200]),
        ("latin 4, 5", lambda: [latin_count(4), latin_count(5)], lambda r: r == [576, 161280]),
        ("send more money", send_more_money, lambda r: r == [dict(S=9, E=5, N=6, D=7, M=1, O=0, R=8, Y=2)]),
        ("cp-sat sudoku", lambda: cpsat_sudoku(SUDOKU), lambda r: len(r[0]) == 1 and r[0][0].startswith("812753649")),
        ("cp-sat queens 10", lambda: cpsat_queens_count(10), lambda r: r[0] == 724),
        ("cp-sat latin 4", lambda: cpsat_latin_count(4), lambda r: r[0] == 576),
        ("cp-sat send more money", cpsat_send_more_money, lambda r: len(r[0]) == 1 and r[0][0]["Y"] == 2),
    ]
    for name, run, right in checks:
        started = time.perf_counter()
        result = run()
        assert right(result), (name, result)
        print(f"{name}: {time.perf_counter() - started:.3f} s")
