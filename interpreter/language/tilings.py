"""Elaboration of tilings: `tile TARGETS with PIECES [turned] [and flipped]`, with pieces
declared by a `shape:` picture.

A tiling covers the cells the start leaves empty (or the cells named) with the pieces'
shapes, each piece placed once, as drawn or also turned and flipped. It becomes one move
of the model (`TileForm`) that places a piece over the first open cell, counted in the
filling's progress counter; its goal is "every piece placed". Refused at its place: a
board without rows and columns (a graph; a ring, whose ends meet), a piece without a
shape, pieces whose squares do not add up to the cells to cover, a piece given by the
start, a tiling beside a fill, rules, moves or a goal, a shape and no tiling.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import suggest
from ..model.board import Board, Vector
from ..model.puzzle import EMPTY, Counter, Move, TileForm, TilePiece
from . import syntax as s
from .pieces import PieceSet
from .predicates import Names
from .rules import source_text

if TYPE_CHECKING:
    from .context import Elaboration


def tile_move(
    el: Elaboration,
    names: Names,
    board: Board | None,
    found: PieceSet,
    start_cells: list[int],
    progress: Counter | None,
) -> Move | None:
    """The tiling as one move of the model (None: the spec has no tile, or it was refused)."""
    stmt = el.single(s.Tile, "tile")
    if not isinstance(stmt, s.Tile):
        for code in found.squares:
            el.errors.error(
                found.positions[code],
                f"'{found.types[code - 1].symbol}' has a shape, which only a tiling lays, and this spec has no `tile`",
                "tile cells with PIECES, or a piece without `shape:`",
            )
        return None
    if progress is None or el.of(s.Fill):  # both: refused by the fill
        return None
    for rule in el.of(s.Rule):
        el.errors.error(
            rule.pos,
            "a tiling keeps no rules yet: its pieces cover the cells exactly, each once",
            "tile ... with ..., without rules",
        )
    if board is None:
        el.errors.missing("board", stmt.pos, "a tiling covers the cells of a board", "board grid R x C")
        return None
    if not board.has_frame or board.wraps:
        el.errors.error(
            stmt.pos,
            f"a tiling lays shapes on rows and columns, and this is {board.describe()}",
            "board grid R x C, or a board picture",
        )
        return None
    cells = _cells(el, stmt, board, start_cells)
    pieces = _pieces(el, stmt, found)
    if cells is None or pieces is None:
        return None
    given = sorted({found.types[code - 1].symbol for code in start_cells if code in {p.code for p in pieces}})
    if given:
        el.errors.error(
            stmt.pos, f"the start already places {', '.join(given)}: a tiling places each of its pieces once"
        )
        return None
    area = sum(len(found.squares[p.code]) for p in pieces)
    if area != len(cells):
        el.errors.error(
            stmt.pos,
            f"the pieces cover {area} squares and there are {len(cells)} cells to cover{el.with_params()}",
            "pieces whose squares add up to the cells",
        )
        return None
    index = names.counter(progress.name)
    assert index is not None
    form = TileForm(tuple(cells), tuple(pieces), index)
    return Move("tile", stmt.pos, form, (), None, None, (), 2, source_text(el, stmt.pos))


def _cells(el: Elaboration, stmt: s.Tile, board: Board, start_cells: list[int]) -> list[int] | None:
    chosen: set[int] = set()
    ok = True
    for target in stmt.targets:
        if target.name == "cells":
            chosen.update(c for c in range(board.size) if start_cells[c] == EMPTY)
            continue
        cell = board.by_name(target.name)
        if cell is None:
            near = suggest(target.name, [c.name for c in board.cells])
            el.errors.error(
                target.pos,
                f"'{target.name}' is no cell of {board.describe()}{near}",
                f"cells ({board.names_range()}) or `cells`",
            )
            ok = False
        elif start_cells[cell] != EMPTY:
            el.errors.error(target.pos, f"the start already fills {target.name}", "a cell the start leaves empty")
            ok = False
        else:
            chosen.add(cell)
    if not ok:
        return None
    if not chosen:
        el.errors.error(stmt.pos, "this tiling leaves nothing to cover: the start fills every cell it names")
        return None
    return sorted(chosen)


def _pieces(el: Elaboration, stmt: s.Tile, found: PieceSet) -> list[TilePiece] | None:
    codes: list[int] = []
    for item in stmt.items:
        if item.high is not None or not isinstance(item.low, s.Name):
            el.errors.error(
                item.pos, "a tiling places pieces with shapes, named by symbol or kind", "tile cells with F, L"
            )
            return None
        word = item.low.name
        matching = [p.code for p in found.types if word in (p.symbol, p.kind)]
        if not matching:
            known = sorted({p.symbol for p in found.types} | {p.kind for p in found.types})
            el.errors.error(item.pos, f"no piece is '{word}'{suggest(word, known)}", "piece symbols or kinds")
            return None
        shapeless = [found.types[c - 1].symbol for c in matching if c not in found.squares]
        if shapeless:
            el.errors.error(
                item.pos,
                f"{', '.join(shapeless)} {'has' if len(shapeless) == 1 else 'have'} no shape: a piece that tiles "
                "is declared with `shape:` and a picture of its squares",
                "piece SYMBOL shape:",
            )
            return None
        codes.extend(c for c in matching if c not in codes)
    return [
        TilePiece(code, ways(found.squares[code], stmt.turned, stmt.flipped), found.positions[code]) for code in codes
    ]


def ways(squares: tuple[Vector, ...], turned: bool, flipped: bool) -> tuple[tuple[Vector, ...], ...]:
    """The ways a shape may lie: as drawn; turned by quarter turns; flipped (a mirror image);
    each different way once, as steps from its first square in reading order."""
    images = [squares]
    if turned:
        for _ in range(3):
            images.append(tuple((c, -r) for r, c in images[-1]))
    if flipped:
        images += [tuple((r, -c) for r, c in image) for image in images]
    found: list[tuple[Vector, ...]] = []
    for image in images:
        ordered = sorted(image)
        first = ordered[0]
        normal = tuple((r - first[0], c - first[1]) for r, c in ordered)
        if normal not in found:
            found.append(normal)
    return tuple(found)
