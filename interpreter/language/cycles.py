"""Elaboration of permutation moves: `cycle (a b c d) (e f g h)` and `cycle U * k`.

A move of cycles moves what its cells hold around each cycle, all at once: a face turn of a
cube (three 4-cycles of stickers), a rotation of Top-Spin's turntable, a ring of Hungarian
rings. `cycle U * k` is move U's permutation made k times (k = -1: U undone, k = 2: U twice),
so that a turn's inverse and square are never written out by hand. A move's cycles are one
permutation: they take distinct cells."""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import Diagnostic, Pos, SpecError, suggest
from ..model.board import Board
from ..model.puzzle import Cycle
from . import syntax as s
from .expressions import Value, evaluate, type_name


def fail(pos: Pos, message: str, expected: str | None = None) -> SpecError:
    return SpecError([Diagnostic(pos, message, expected)])


def permutation_move(
    stmt: s.Move, board: Board, moves: Sequence[s.Move], blocks: Sequence[str], env: dict[str, Value]
) -> Cycle:
    """The move's cycles, as one permutation (checked: cells on the board, distinct, and
    something moved); `moves`: every move of the spec (`cycle U * k` names one), `blocks`:
    the symbols of the pieces that cover several cells, `env`: the parameters (a cell may be
    named by one)."""
    for action in stmt.actions:
        if not isinstance(action, (s.Cycle, s.Let)):
            first = next(a for a in stmt.actions if isinstance(a, s.Cycle))
            raise fail(
                first.pos,
                "a cycle moves what its cells hold all at once: it goes in a move of its own "
                "(with `let`, `if` and `cost`), not with other actions",
                "move NAME: cycle (a b c) ...",
            )
    if stmt.form is not None:
        first = next(a for a in stmt.actions if isinstance(a, s.Cycle))
        raise fail(
            first.pos, "a cycle goes in a move of its own, not after a pattern or a slide", "move NAME: cycle ..."
        )
    if blocks:
        first = next(a for a in stmt.actions if isinstance(a, s.Cycle))
        raise fail(
            first.pos,
            f"a cycle moves the contents of single cells, and this board has blocks ({', '.join(blocks)})",
            "step or slide to move a block",
        )
    mapping = _mapping(moves, stmt, board, env, frozenset())
    cycles = _cycles(mapping)
    if not cycles:
        raise fail(stmt.pos, f"move {stmt.name} moves nothing: its cycles leave every cell where it is")
    return Cycle(cycles)


def _mapping(
    moves: Sequence[s.Move], stmt: s.Move, board: Board, env: dict[str, Value], seen: frozenset[str]
) -> dict[int, int]:
    """Where what each cell holds goes (cells that stay are left out): the move's cycles, or
    the run of a `reverse A .. B` or `rotate A .. B` of fixed ends."""
    mapping: dict[int, int] = {}
    for action in stmt.actions:
        if isinstance(action, s.Run):
            return _run_mapping(board, action, env)
        if not isinstance(action, s.Cycle):
            continue
        if action.of is not None:
            part = _power(moves, action, board, env, seen | {stmt.name})
        else:
            part = _written(board, action, env)
        for cell in part:
            if cell in mapping:
                raise fail(
                    action.pos,
                    f"cell {board.name(cell)} is in two cycles of move {stmt.name}: "
                    "a move's cycles take distinct cells",
                    "disjoint cycles",
                )
        mapping.update(part)
    return mapping


def cell_named(board: Board, name: s.Name) -> int:
    """The cell a cycle, a run or an anchor names (an error at the name where none is)."""
    cell = board.by_name(name.name)
    if cell is None:
        known = [board.name(c) for c in range(board.size)]
        raise fail(name.pos, f"unknown cell '{name.name}'{suggest(name.name, known)}", f"a cell: {board.names_range()}")
    return cell


def end_cell(board: Board, end: s.Expr, env: dict[str, Value]) -> int:
    """The cell a run's end or a cycle's member names: a cell's name; else a parameter's
    name, or an expression in brackets, whose value is a cell's name (`rotate 1 .. n` on a
    ring of n cells, `reverse 1 .. (k)`)."""
    if isinstance(end, s.Name):
        if board.by_name(end.name) is not None or end.name not in env:
            return cell_named(board, end)
        value = env[end.name]
    else:
        value = evaluate(end, env)
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise fail(end.pos, f"a cell is named by a number or a word, not by {type_name(value)}", "a cell's name")
    cell = board.by_name(str(value))
    if cell is None:
        raise fail(end.pos, f"no cell is named {value}", f"a cell: {board.names_range()}")
    return cell


def _written(board: Board, action: s.Cycle, env: dict[str, Value]) -> dict[int, int]:
    mapping: dict[int, int] = {}
    taken: set[int] = set()
    for cycle in action.cycles:
        cells = []
        for name in cycle:
            cell = end_cell(board, name, env)
            if cell in taken:
                raise fail(name.pos, f"cell {name.name} is in this move's cycles twice", "each cell once")
            taken.add(cell)
            cells.append(cell)
        if len(cells) < 2:
            raise fail(
                cycle[0].pos,
                "a cycle moves a cell's content to the next cell: it needs 2 cells or more",
                "(a b) or more",
            )
        for i, cell in enumerate(cells):
            mapping[cell] = cells[(i + 1) % len(cells)]
    return mapping


def _run_mapping(board: Board, run: s.Run, env: dict[str, Value]) -> dict[int, int]:
    cells = run_cells(board, end_cell(board, run.first, env), end_cell(board, run.last, env))
    if cells is None:
        raise fail(run.pos, "its ends make no run of cells on a row or column", "two cells of one row or column")
    mapping: dict[int, int] = {}
    for cycle in run_cycle(run.kind, cells).cycles:
        for i, cell in enumerate(cycle):
            mapping[cell] = cycle[(i + 1) % len(cycle)]
    return mapping


def _is_permutation(move: s.Move) -> bool:
    """A move of cycles, or a run of fixed ends (one permutation, not one for each cell a
    variable end takes)."""
    return any(
        isinstance(a, s.Cycle)
        or (isinstance(a, s.Run) and not isinstance(a.first, s.Var) and not isinstance(a.last, s.Var))
        for a in move.actions
    )


def _power(
    moves: Sequence[s.Move], action: s.Cycle, board: Board, env: dict[str, Value], seen: frozenset[str]
) -> dict[int, int]:
    """`cycle U * k`: move U's permutation made k times."""
    assert action.of is not None
    name = action.of.name
    of_cycles = [m for m in moves if _is_permutation(m)]
    named = [m for m in of_cycles if m.name == name]
    if not named:
        known = sorted({m.name for m in of_cycles} - seen)
        other = any(m.name == name for m in moves)
        runs = [a for m in moves if m.name == name for a in m.actions if isinstance(a, s.Run)]
        said = (
            f"the move '{name}' has a variable end: it is a move for each cell the end takes, "
            "not one permutation (`cycle NAME * k` takes one)"
            if runs
            else f"the move '{name}' is not made of cycles (`cycle NAME * k` is a power of a move written with "
            "`cycle`, or with `reverse` or `rotate` of fixed ends)"
            if other
            else f"no move named '{name}' is made of cycles{suggest(name, known)}"
        )
        raise fail(action.of.pos, said, "one of: " + (", ".join(known) or "none (move NAME: cycle (a b c))"))
    if name in seen:
        raise fail(
            action.of.pos,
            f"cycle {name} * {action.power} leads back to this move: each is the other's power",
            "one of them written as cycles: cycle (a b c) ...",
        )
    if action.power == 0:
        raise fail(action.pos, f"cycle {name} * 0 moves nothing", "a power such as 2 or -1")
    base = _mapping(moves, named[0], board, env, seen)
    result: dict[int, int] = {}
    for cycle in _cycles(base):
        for i, cell in enumerate(cycle):
            result[cell] = cycle[(i + action.power) % len(cycle)]
    return {a: b for a, b in result.items() if a != b}


def _cycles(mapping: dict[int, int]) -> tuple[tuple[int, ...], ...]:
    """A permutation as disjoint cycles, each from its lowest cell, in the order of those."""
    found: list[tuple[int, ...]] = []
    done: set[int] = set()
    for start in sorted(mapping):
        if start in done or mapping[start] == start:
            continue
        cycle = [start]
        at = mapping[start]
        while at != start:
            cycle.append(at)
            at = mapping[at]
        done.update(cycle)
        found.append(tuple(cycle))
    return tuple(found)


def run_cells(board: Board, first: int, last: int) -> list[int] | None:
    """The cells from `first` to `last` along a row or a column (a ring: clockwise), or None
    where they are not on one line of cells."""
    a, b = board.cells[first], board.cells[last]
    if first == last or a.row is None or b.row is None or a.col is None or b.col is None:
        return None
    if a.row == b.row:
        step = (0, 1) if b.col > a.col or board.wraps else (0, -1)
    elif a.col == b.col:
        step = (1, 0) if b.row > a.row else (-1, 0)
    else:
        return None
    cells = [first]
    while cells[-1] != last:
        at = board.step(cells[-1], step)
        if at is None or at in cells:  # a square with no cell breaks the line
            return None
        cells.append(at)
    return cells


def run_cycle(kind: str, cells: list[int]) -> Cycle:
    """`reverse`: the run in the opposite order (pairs swapped from both ends); `rotate`:
    each cell's content one on, the last's to the first."""
    if kind == "rotate":
        return Cycle((tuple(cells),))
    return Cycle(tuple((cells[i], cells[-1 - i]) for i in range(len(cells) // 2)))
