"""Elaboration of move statements into the model's moves: a form that chooses (a rewrite, a
slide, a carry, or none), actions that change, a guard and a cost.

Variables are declared first, from every place in the statement that introduces one (a
pattern's `?x`, the piece a `take` takes, a place or cell in an action's location, a counter
in `set`/`add`, a toggle's anchor), so that a `let` or a guard may use a variable that a
later action introduces; expressions are typed afterwards.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import Pos, SpecError, source_lines, suggest
from ..model import expr as m
from ..model.board import Board, Direction
from ..model.puzzle import (
    CARRIER,
    CURSOR,
    EMPTY,
    NUMBER,
    Advance,
    AnyCell,
    Bind,
    Carry,
    CellLoc,
    CursorLoc,
    Cycle,
    Let,
    Lit,
    Loc,
    Move,
    PieceType,
    PlaceLoc,
    Put,
    Rewrite,
    SetCounter,
    Slide,
    Take,
    Toggle,
    Variable,
    VarLoc,
    Window,
)
from . import syntax as s
from .cycles import end_cell, permutation_move, run_cells, run_cycle
from .expressions import Value
from .layouts import expand
from .predicates import (
    Names,
    Scope,
    as_cell,
    as_number,
    condition,
    fail,
    kind_codes,
    meaning,
    number,
    typed_expr,
)

if TYPE_CHECKING:
    from .context import Elaboration


@dataclass
class MoveContext:
    el: Elaboration
    names: Names
    board: Board | None
    types: list[PieceType]


def moves(ctx: MoveContext) -> list[Move]:
    found: list[Move] = []
    statements = ctx.el.of(s.Move)
    if not statements:
        ctx.el.errors.absent("the spec has no moves", "move NAME: ...")
    for stmt in statements:  # a move's name is only a label: words of the language are fine
        try:
            if any(isinstance(a, s.Run) for a in stmt.actions):
                found.extend(_run_moves(ctx, stmt))
                continue
            move = _move(ctx, stmt)
        except SpecError as exc:
            ctx.el.errors.diagnostics.extend(exc.diagnostics)
            continue
        if move is not None:
            found.append(move)
    return found


def _move(ctx: MoveContext, stmt: s.Move) -> Move | None:
    scope = Scope(ctx.names, f"move {stmt.name}", load=isinstance(stmt.form, s.Carry))
    variables: list[Variable] = []

    def introduce(var: s.Var, type_: str) -> m.Local:
        key = "?" + var.name
        if key in scope.locals:
            local = scope.locals[key]
            if local.type != type_:
                raise fail(var.pos, f"?{var.name} is {type_} here and {local.type} earlier in the move")
            return local
        local = scope.declare(key, type_, var.pos)
        variables.append(Variable(var.name, local.slot, type_, var.pos))
        return local

    form = _form(ctx, stmt, introduce)
    if stmt.repeated is not None and not isinstance(stmt.form, s.SlideForm):
        raise fail(
            stmt.repeated,
            f"repeated makes a piece's whole path by move {stmt.name} one move, and this move moves no one piece",
            f"move {stmt.name}: step ?p along D repeated",
        )
    if stmt.anchors and not isinstance(stmt.form, s.Rewrite):
        raise fail(
            stmt.anchors[0][0].pos,
            f"`from` says where move {stmt.name}'s pattern starts, and this move has no pattern",
            "move NAME: PATTERN -> PATTERN along D from CELL",
        )
    _introduce_from_actions(ctx, stmt, introduce)
    _enough_to_choose(ctx, stmt, variables)
    _each_counter_changed_once(stmt)
    actions = [_action(ctx, stmt, a, scope) for a in stmt.actions if not isinstance(a, s.Cycle)]
    if any(isinstance(a, s.Cycle) for a in stmt.actions):
        blocks = [p.symbol for p in ctx.types if p.shape is not None]
        actions.append(permutation_move(stmt, _board(ctx, stmt.pos), ctx.el.of(s.Move), blocks, ctx.el.env))
    if len(stmt.guards) > 1:
        raise fail(stmt.guards[1].pos, "a move takes one condition (join them with and)", "one if")
    if len(stmt.costs) > 1:
        raise fail(stmt.costs[1].pos, "a move takes one cost", "one cost")
    guard = condition(stmt.guards[0], scope) if stmt.guards else None
    if isinstance(guard, m.Const):
        if guard.value is False:
            raise fail(stmt.guards[0].pos, f"move {stmt.name} can never be made: its condition is always false")
        guard = None
    cost = _cost(stmt.costs[0], scope) if stmt.costs else None
    line = source_lines(ctx.el.spec.source)[stmt.pos.line - 1] if stmt.pos.line >= 1 else ""
    return Move(stmt.name, stmt.pos, form, tuple(actions), guard, cost, tuple(variables), scope.size, line.strip())


def _run_moves(ctx: MoveContext, stmt: s.Move) -> list[Move]:
    """`reverse A .. B` / `rotate A .. B`: a move for every run its ends make (an end that is
    a variable takes every cell, and is bound in the move's condition and cost)."""
    run = next(a for a in stmt.actions if isinstance(a, s.Run))
    if stmt.form is not None or len(stmt.actions) > 1 or stmt.anchors:
        raise fail(
            run.pos,
            f"{run.kind} moves what its cells hold all at once: it goes in a move of its own",
            f"move NAME: {run.kind} A .. B",
        )
    board = _board(ctx, run.pos)
    blocks = [p.symbol for p in ctx.types if p.shape is not None]
    if blocks:
        raise fail(run.pos, f"{run.kind} moves single cells, and this board has blocks ({', '.join(blocks)})")
    if isinstance(run.first, s.Var) and isinstance(run.last, s.Var) and run.first.name == run.last.name:
        raise fail(run.last.pos, f"a run from ?{run.first.name} to itself moves nothing", "two ends: 1 .. ?k")
    choices = []
    for end in (run.first, run.last):
        if isinstance(end, s.Var):
            choices.append(list(range(board.size)))
            continue
        choices.append([end_cell(board, end, ctx.el.env)])
    line = source_lines(ctx.el.spec.source)[stmt.pos.line - 1].strip() if stmt.pos.line >= 1 else ""
    found = []
    for first in choices[0]:
        for last in choices[1]:
            cells = run_cells(board, first, last)
            if cells is None:
                continue
            scope = Scope(ctx.names, f"move {stmt.name}")
            lets: list[Let] = []
            for end, cell in ((run.first, first), (run.last, last)):
                if isinstance(end, s.Var):
                    local = scope.declare("?" + end.name, m.CELL, end.pos)
                    lets.append(Let(local.slot, m.CellConst(end.pos, cell)))
            guard = condition(stmt.guards[0], scope) if stmt.guards else None
            if isinstance(guard, m.Const):
                if guard.value is False:
                    continue
                guard = None
            cost = _cost(stmt.costs[0], scope) if stmt.costs else None
            actions: tuple[Let | Cycle, ...] = (*lets, run_cycle(run.kind, cells))
            ends = [board.name(cell) for end, cell in ((run.first, first), (run.last, last)) if isinstance(end, s.Var)]
            named = " .. ".join(ends)  # the run's variable ends: `flip 4` names the flip of the top four
            found.append(Move(stmt.name, stmt.pos, None, actions, guard, cost, (), scope.size, line, named))
    if not found:
        raise fail(
            run.pos,
            f"move {stmt.name} can never be made: its ends make no run of cells on a row or column",
            "two cells of one row or column",
        )
    return found


def _cost(written: s.Expr | s.CostParts, scope: Scope) -> m.Expr:
    """A move's cost: a number, or (`cost E1, E2, ...`) parts compared in order, which the
    evaluator makes a `LexCost`."""
    if isinstance(written, s.CostParts):
        return m.Call(written.pos, "parts", tuple(number(part, scope) for part in written.parts), m.NUM)
    return number(written, scope)


# ---- forms


def _directions(ctx: MoveContext, stmt: s.Move, along: tuple[s.Name, ...] | None) -> tuple[Direction, ...]:
    board = _board(ctx, stmt.pos)
    if along is None:
        return board.default
    found: list[Direction] = []
    for word in (*along, *stmt.more_directions):
        known = board.directions.get(word.name)
        if known is None:
            raise fail(
                word.pos,
                f"{board.describe()} has no direction '{word.name}'{suggest(word.name, board.directions)}",
                "one of: " + ", ".join(sorted(board.directions)),
            )
        found.extend(d for d in known if all(d is not f for f in found))
    return tuple(found)


def _board(ctx: MoveContext, pos: Pos) -> Board:
    if ctx.board is None:
        message = "this move works on cells, and this puzzle has no board"
        raise fail(pos, message, "board ... (or a carry or take move)", missing="board")
    return ctx.board


def _form(ctx: MoveContext, stmt: s.Move, introduce) -> Rewrite | Slide | Carry | None:  # type: ignore[no-untyped-def]
    form = stmt.form
    if stmt.more_directions and not isinstance(form, (s.Rewrite, s.SlideForm)):
        raise fail(stmt.more_directions[0].pos, f"'{stmt.more_directions[0].name}' is not an action", "an action")
    if isinstance(form, s.Rewrite) and form.along is None and stmt.more_directions:
        raise fail(stmt.more_directions[0].pos, f"'{stmt.more_directions[0].name}' is not an action", "an action")
    if stmt.until is not None and not (isinstance(form, s.SlideForm) and form.mode == "slide"):
        raise fail(stmt.until, "'until blocked' goes with slide", "slide PIECE along DIRECTIONS until blocked")
    if isinstance(form, s.Rewrite):
        return _rewrite(ctx, stmt, form, introduce)
    if isinstance(form, s.SlideForm):
        _board(ctx, form.pos)
        directions = _directions(ctx, stmt, form.along)
        for d in directions:
            if not d.straight and form.mode != "step":
                raise fail(form.along[0].pos, f"a slide needs directions that go straight on; '{d.name}' branches")
        if isinstance(form.subject, s.Var):
            introduce(form.subject, m.PIECE)
            codes = frozenset(p.code for p in ctx.types)
            variable = form.subject.name
        else:
            codes = kind_codes(form.subject, Scope(ctx.names, "a move"))
            variable = None
        mode = form.mode if stmt.until is None else "until_piece" if stmt.until_pieces else "until"
        if stmt.repeated is not None and (mode != form.mode or stmt.actions):
            raise fail(
                stmt.repeated,
                "repeated walks a piece's path step by step: it goes with a plain step or slide",
                f"move {stmt.name}: step ?p along D repeated",
            )
        return Slide(codes, variable, directions, mode, stmt.repeated is not None)
    if isinstance(form, s.Carry):
        return _carry(ctx, form)
    return None


def _rewrite(ctx: MoveContext, stmt: s.Move, rule: s.Rewrite, introduce) -> Rewrite:  # type: ignore[no-untyped-def]
    board = _board(ctx, rule.pos)
    by_symbol = {p.symbol: p for p in ctx.types}
    el = ctx.el
    before = len(el.errors.diagnostics)
    lhs = [_window(ctx, w, by_symbol) for w in rule.lhs]
    rhs = [_window(ctx, w, by_symbol) for w in rule.rhs]
    if len(el.errors.diagnostics) > before:
        raise SpecError([])  # a pattern with unknown pieces: its size is no further mistake
    if len(lhs) != len(rhs):
        raise fail(
            rule.rhs[0].pos,
            f"move {stmt.name}: the left side has {len(lhs)} part(s) separated by '...', the right side {len(rhs)}",
            f"{len(lhs)} part(s) on the right",
        )
    for i, (left, right) in enumerate(zip(lhs, rhs, strict=True)):
        if len(left) != len(right):
            raise fail(
                rule.rhs[i].pos,
                f"move {stmt.name}: this part has {len(right)} cells but the matching part on the left has {len(left)}",
                f"{len(left)} cells",
            )
    bound: list[str] = []
    for window, syntax in zip(lhs, rule.lhs, strict=True):
        for c in window:
            if isinstance(c, Bind) and c.name not in bound:
                bound.append(c.name)
                introduce(s.Var(syntax.pos, c.name), m.PIECE)
    for syntax, window in zip(rule.rhs, rhs, strict=True):
        for c in window:
            if isinstance(c, Bind) and c.name not in bound:
                raise fail(
                    syntax.pos,
                    f"move {stmt.name}: ?{c.name} is used on the right but not matched on the left",
                    "variables that appear on the left side",
                )
    for window, syntax in zip(lhs + rhs, rule.lhs + rule.rhs, strict=True):
        for c in window:
            if isinstance(c, Lit) and c.code != EMPTY and ctx.types[c.code - 1].shape is not None:
                piece = ctx.types[c.code - 1]
                raise fail(
                    syntax.pos,
                    f"{piece.symbol} is a block: it moves with step or slide",
                    f"step {piece.symbol} along ...",
                )
    if rule.shape is not None:
        shape = board.shapes.get(rule.shape.name)
        if shape is None:
            known = ", ".join(sorted(board.shapes)) or "none declared (shape NAME = (0, 0), ...)"
            unknown = f"unknown shape '{rule.shape.name}'{suggest(rule.shape.name, board.shapes)}"
            raise fail(rule.shape.pos, unknown, f"one of: {known}")
        if rule.shape.name in board.neighbourhoods:
            raise fail(
                rule.shape.pos,
                f"{rule.shape.name} is a neighbourhood, cut at the board's edges; "
                "a rewrite needs every cell of its window",
                f"shape {rule.shape.name} = ...",
            )
        if len(lhs) != 1 or len(lhs[0]) != len(shape):
            raise fail(
                rule.lhs[0].pos,
                f"move {stmt.name}: a pattern in shape {rule.shape.name} is one window of {len(shape)} cells",
                f"{len(shape)} cells, no '...'",
            )
        return Rewrite(tuple(lhs), tuple(rhs), (), shape, _anchors(stmt, board, ctx.el.env))
    directions = _directions(ctx, stmt, rule.along)
    longest = max(len(w) for w in lhs)
    if longest > 1 and not any(_fits(board, d, longest) for d in directions):
        raise fail(
            rule.lhs[0].pos,
            f"move {stmt.name} can never be made: it needs {longest} cells in a row and the board is "
            f"{board.describe()}{el.with_params()}",
            "a pattern that fits on the board",
        )
    return Rewrite(tuple(lhs), tuple(rhs), directions, None, _anchors(stmt, board, ctx.el.env))


def _anchors(stmt: s.Move, board: Board, env: dict[str, Value]) -> frozenset[int] | None:
    """`from CELL, ...`: the cells where the pattern's first cell may lie (None: anywhere); a
    cell may be named by a parameter, as a run's end is."""
    if not stmt.anchors:
        return None
    if len(stmt.anchors) > 1:
        raise fail(stmt.anchors[1][0].pos, f"move {stmt.name} says `from` twice", "one from CELL, CELL, ...")
    return frozenset(end_cell(board, name, env) for name in stmt.anchors[0])


def _fits(board: Board, direction: Direction, length: int) -> bool:
    for start in range(board.size):
        frontier = [[start]]
        for _ in range(length - 1):
            frontier = [[*path, n] for path in frontier for n in direction.steps[path[-1]] if n not in path]
            if not frontier:
                break
        if frontier and len(frontier[0]) == length:
            return True
    return False


def _window(ctx: MoveContext, layout: s.Layout, by_symbol: dict[str, PieceType]) -> Window:
    items = expand(ctx.el, layout.items, by_symbol, "rule")
    if any(item is None for item in items):
        raise fail(layout.pos, ". marks a square with no cell, in pictures only", "_ for an empty cell")
    return tuple(item for item in items if item is not None)


def _carry(ctx: MoveContext, form: s.Carry) -> Carry:
    el, names = ctx.el, ctx.names
    carrier = names.counter(form.carrier.name)
    if carrier is None or names.counters[carrier].role != CARRIER:
        known = [c.name for c in names.counters if c.role == CARRIER]
        expected = f"the carrier {known[0]}" if known else "a carrier: carrier NAME at PLACE"
        raise fail(
            form.carrier.pos, f"unknown carrier '{form.carrier.name}'{suggest(form.carrier.name, known)}", expected
        )
    low = el.eval_int(form.load.low, "the smallest load", 0)
    high = el.eval_int(form.load.high, "the largest load", 1)
    scope = Scope(names, "a carry move")
    with_ = tuple(kind_codes(k, scope) for k in form.with_)
    only = frozenset().union(*(kind_codes(k, scope) for k in form.only)) if form.only else None
    if low is None or high is None:
        raise SpecError([])
    if low > high:
        raise fail(form.load.pos, f"the load {low}..{high} is empty{el.with_params()}", "LOW <= HIGH")
    return Carry(low, high, carrier, with_, only)


# ---- actions


def _introduce_from_actions(ctx: MoveContext, stmt: s.Move, introduce) -> None:  # type: ignore[no-untyped-def]
    """A location variable ranges over the places when the puzzle has places and no board,
    or the action says `on`; otherwise over the cells."""
    has_places = bool(ctx.names.places)
    for i, action in enumerate(stmt.actions):
        if isinstance(action, s.Take):
            if isinstance(action.source, s.Var):
                introduce(action.source, m.PLACE if has_places else m.CELL)
            introduce(action.var, m.PIECE)
        elif isinstance(action, s.Put) and isinstance(action.target, s.Var):
            over_places = has_places and (ctx.board is None or action.on)
            introduce(action.target, m.PLACE if over_places else m.CELL)
        elif isinstance(action, s.SetCounter) and isinstance(action.counter, s.Var):
            introduce(action.counter, m.COUNTER)
        elif isinstance(action, s.Toggle):
            introduce(action.anchor or s.Var(action.pos, f"_anchor{i}"), m.CELL)


def _each_counter_changed_once(stmt: s.Move) -> None:
    """A move's changes are made at once, each reading the state before the move: two changes
    of one counter (`add 1 to X, add 2 to X`) would keep only one, so they are refused."""
    first: dict[str, Pos] = {}
    for action in stmt.actions:
        if not isinstance(action, (s.SetCounter, s.Advance)) or not isinstance(action.counter, s.Name):
            continue
        name = action.counter.name
        if name in first:
            raise fail(
                action.counter.pos,
                f"{name} is changed twice by move {stmt.name} (first at column {first[name].column}): a move's"
                " changes are made at once, each reading the state before the move, so one would be lost",
                f"one change of {name} (add 1 to {name}, add 2 to {name}: add 3 to {name})",
            )
        first[name] = action.counter.pos


def _enough_to_choose(ctx: MoveContext, stmt: s.Move, variables: list[Variable]) -> None:
    """Distinct variables take distinct counters (places): a move with more of them than the
    puzzle has could never choose, and would never be made."""
    names = ctx.names
    available = {
        m.COUNTER: ("number counters", sum(c.role == NUMBER for c in names.counters), "counter NAME = 0 in 0..9"),
        m.PLACE: ("places", len(names.places), "places A, B"),
    }
    for type_, (what, count, example) in available.items():
        chosen = [v for v in variables if v.type == type_]
        if len(chosen) > count:
            listed = ", ".join(f"?{v.name}" for v in chosen)
            ranges = f"{listed} ranges over the {what}" if len(chosen) == 1 else f"{listed} take distinct {what}"
            has = f"this puzzle has {count}" if count else "this puzzle has none"
            raise fail(
                chosen[count].pos,
                f"move {stmt.name} can never be made: {ranges}, and {has}",
                example if not count else f"at most {count} variable(s) of {what}",
            )


def _location(ctx: MoveContext, word: s.Name | s.Var | s.Num, scope: Scope) -> Loc:
    names = ctx.names
    if isinstance(word, s.Var):
        local = scope.locals["?" + word.name]
        if local.type not in (m.PLACE, m.CELL):
            raise fail(word.pos, f"?{word.name} is {local.type}, not a place or a cell", "a place or a cell")
        return VarLoc(word.name, local.slot, "place" if local.type == m.PLACE else "cell")
    if isinstance(word, s.Num):
        board = _board(ctx, word.pos)
        cell = board.at(1, word.value) if board.one_row else None
        if cell is None:
            raise fail(
                word.pos, f"cell {word.value} is off the board (cells {board.names_range()})", board.names_range()
            )
        return CellLoc(cell)
    place = names.place(word.name)
    if place is not None:
        return PlaceLoc(place)
    counter = names.counter(word.name)
    if counter is not None and names.counters[counter].role == CURSOR:
        return CursorLoc(counter)
    if ctx.board is not None and ctx.board.by_name(word.name) is not None:
        return CellLoc(ctx.board.by_name(word.name))  # type: ignore[arg-type]
    known = [p.name for p in names.places] + [c.name for c in names.counters if c.role == CURSOR]
    what = meaning(word.name, names)
    problem = (
        f"'{word.name}' is {what}, not a place or a cell"
        if what is not None
        else f"unknown place or cell '{word.name}'{suggest(word.name, known)}"
    )
    cells = [f"a cell ({ctx.board.names_range()})"] if ctx.board is not None else []
    raise fail(word.pos, problem, "one of: " + (", ".join(known + cells) or "a place, a cell or the cursor"))


def _action(ctx: MoveContext, stmt: s.Move, action: s.Action, scope: Scope):  # type: ignore[no-untyped-def]
    names = ctx.names
    if isinstance(action, s.Take):
        source = _location(ctx, action.source, scope)
        if _is_cell(source):
            _no_blocks_taken(ctx, action)
        local = scope.locals["?" + action.var.name]
        return Take(local.slot, action.var.name, source)
    if isinstance(action, s.Put):
        target = _location(ctx, action.target, scope)
        if isinstance(action.what, s.Var):
            taken = scope.locals.get("?" + action.what.name)
            if taken is None or taken.type != m.PIECE:
                raise fail(
                    action.what.pos,
                    f"?{action.what.name} is not a piece this move has taken",
                    "a piece taken with take ?x from ...",
                )
            return Put(target, taken.slot, None)
        by_symbol = {p.symbol: p for p in ctx.types}
        if action.what.text not in by_symbol:
            known = ", ".join(sorted(by_symbol))
            unknown = f"unknown piece '{action.what.text}'{suggest(action.what.text, by_symbol)}"
            raise fail(action.what.pos, unknown, f"a piece ({known}) or a variable")
        piece = by_symbol[action.what.text]
        if piece.shape is not None:
            raise fail(action.what.pos, f"{piece.symbol} is a block: it cannot be put in one cell")
        return Put(target, None, piece.code)
    if isinstance(action, s.Advance):
        counter = names.counter(action.counter.name)
        if counter is None or names.counters[counter].role != CURSOR:
            raise fail(
                action.counter.pos, f"only the cursor advances, not '{action.counter.name}'", "advance cursor by ..."
            )
        board = _board(ctx, action.pos)
        if isinstance(action.amount, s.Var):
            amount = as_number(
                typed_expr(s.VarRef(action.amount.pos, action.amount.name), scope), action.amount.pos, scope.names
            )
        else:
            amount = number(action.amount, scope)
        direction = None
        if action.along is not None:
            found = board.directions.get(action.along.name)
            if found is None or len(found) != 1 or not found[0].straight:
                known = ", ".join(sorted(k for k, v in board.directions.items() if len(v) == 1 and v[0].straight))
                raise fail(
                    action.along.pos, f"the cursor needs one direction, not '{action.along.name}'", f"one of: {known}"
                )
            direction = found[0]
        return Advance(counter, amount, direction)
    if isinstance(action, s.SetCounter) and isinstance(action.counter, s.Name):
        index = names.counter(action.counter.name)
        if index is not None and names.counters[index].role == CURSOR:
            if action.add:
                raise fail(
                    action.pos, "the cursor holds a cell: advance it, or set it to a cell", "advance cursor by N"
                )
            cell = as_cell(typed_expr(action.value, scope), action.value.pos)
            return SetCounter(index, None, cell, action.pos)
    if isinstance(action, s.SetCounter):
        value = number(action.value, scope)
        if isinstance(action.counter, s.Var):
            local = scope.locals["?" + action.counter.name]
            current: m.Expr = m.CounterRead(
                action.counter.pos, m.Local(action.counter.pos, local.name, local.slot, local.type)
            )
            target_counter, slot = None, local.slot
        else:
            index = names.counter(action.counter.name)
            if index is None or names.counters[index].role != NUMBER:
                raise _not_a_counter(action.counter, scope)
            current = m.CounterValue(action.counter.pos, index, m.NUM)
            target_counter, slot = index, None
        if action.add:
            value = m.Binary(action.pos, "+", current, value, m.NUM)
        return SetCounter(target_counter, slot, value, action.pos)
    if isinstance(action, s.Let):
        value = typed_expr(action.value, scope)
        name = action.name.name
        already = "a value of this move" if name in scope.locals else meaning(name, names)
        if already is not None:
            raise fail(action.name.pos, f"'{name}' is already {already}: a let cannot hide it", "another name")
        ctx.el.check_name(action.name.pos, action.name.name, "a value")
        local = scope.declare(action.name.name, value.type, action.name.pos)
        return Let(local.slot, value)
    assert isinstance(action, s.Toggle)
    board = _board(ctx, action.pos)
    shape = board.shapes.get(action.shape.name)
    if shape is None:
        known = ", ".join(sorted(board.shapes)) or "none declared (shape NAME = (0, 0), orthogonal)"
        unknown = f"unknown shape '{action.shape.name}'{suggest(action.shape.name, board.shapes)}"
        raise fail(action.shape.pos, unknown, f"one of: {known}")
    by_symbol = {p.symbol: p for p in ctx.types}
    items = expand(ctx.el, (action.first,) + ((action.second,) if action.second else ()), by_symbol, "start")
    codes = [c.code for c in items if isinstance(c, Lit)]
    for code, written in zip(codes, (action.first, action.second), strict=False):
        if code != EMPTY and ctx.types[code - 1].shape is not None:
            symbol = ctx.types[code - 1].symbol
            where = written.pos if written is not None else action.pos
            raise fail(where, f"{symbol} is a block: it moves with step or slide", f"step {symbol} along ...")
    if len(codes) == 1:
        codes.append(EMPTY)
    if len(codes) != 2 or codes[0] == codes[1]:
        raise fail(
            action.pos, "toggle flips cells between two different contents", "toggle A in SHAPE or toggle A B in SHAPE"
        )
    anchor = action.anchor.name if action.anchor is not None else f"_anchor{stmt.actions.index(action)}"
    cut = action.shape.name in board.neighbourhoods
    return Toggle(codes[0], codes[1], shape, scope.locals["?" + anchor].slot, cut)


def _not_a_counter(word: s.Name, scope: Scope) -> SpecError:
    """`set NAME = ...` on a name that is no counter: what the name is, or the nearest counter."""
    names, name = scope.names, word.name
    known = [c.name for c in names.counters if c.role in (NUMBER, CURSOR)]
    expected = "one of: " + (", ".join(known) or "none declared (counter NAME = 0 in 0..9)")
    what = "a value of this move" if name in scope.locals else meaning(name, names)
    if what == "the carrier":
        return fail(word.pos, f"'{name}' is the carrier: carry moves move it, set and add change counters", expected)
    if what is not None:
        return fail(word.pos, f"'{name}' is {what}, not a counter: set and add change counters", expected)
    return fail(word.pos, f"unknown counter '{name}'{suggest(name, known)}", expected)


def _is_cell(loc: Loc) -> bool:
    return isinstance(loc, (CellLoc, CursorLoc)) or (isinstance(loc, VarLoc) and loc.over == "cell")


def _no_blocks_taken(ctx: MoveContext, action: s.Take) -> None:
    """A take empties one cell; a block covers several, and would be left in halves."""
    blocks = [p.symbol for p in ctx.types if p.shape is not None]
    if blocks:
        raise fail(
            action.pos,
            f"take empties one cell, and this board has blocks ({', '.join(blocks)}) that cover several",
            "step or slide to move a block; take from a place",
        )


def uses_any_cell(window: Window) -> bool:
    return any(isinstance(c, AnyCell) for c in window)
