"""The elaboration passes, in order, and the checks that need the whole puzzle: topology ->
pieces -> layouts (start, goal) -> predicates' names -> moves -> rules and directives ->
consistency -> the one `Puzzle`."""

from __future__ import annotations

from collections import Counter as Tally
from typing import TYPE_CHECKING

from ..errors import Pos, SpecError
from ..model import expr as m
from ..model.puzzle import (
    ANY,
    EMPTY,
    AnyCell,
    Bind,
    Cycle,
    FillForm,
    Goal,
    Lit,
    Move,
    PieceType,
    Place,
    Puzzle,
    Rewrite,
    State,
    TileForm,
)
from . import fills, layouts, pieces, rules, tilings, topology
from . import syntax as s
from .layouts import PlaceContents
from .moves import MoveContext, moves
from .predicates import Names, Scope, condition
from .presence import Pools, never_made, unmet_needs

if TYPE_CHECKING:
    from .context import Elaboration


def assemble(el: Elaboration) -> Puzzle:
    found = pieces.pieces(el)  # first: a board's picture reads a piece's whole symbol (12) as one square
    board, picture = topology.board(el, {p.symbol for p in found.types})
    if board is None and (el.of(s.Board) or el.of(s.BoardPicture)):
        el.errors.refuse("board")
    board = fills.with_regions(el, fills.with_boxes(el, topology.directions_and_shapes(el, board)))
    places, routes = topology.places(el)
    counters = topology.counters(el, board, places)
    counters += fills.counters(el, board, counters)
    progress = fills.progress_counter(el, board, counters)
    if progress is not None:
        counters.append(progress)
    declared = el.of(s.Board) or el.of(s.BoardPicture)
    holders = el.of(s.PlacesDecl) or el.of(s.CounterDecl) or el.of(s.Cursor) or el.of(s.Carrier) or places or progress
    if board is None and not declared and not holders:
        el.errors.absent("the spec has no board", BOARD_EXPECTED)
    el.errors.raise_if_any()

    start_layout = layouts.cell_layout(el, "start", board, found, picture)
    goal_layout = layouts.cell_layout(el, "goal", board, found, None)
    types, parts = layouts.block_parts(el, board, found, start_layout)
    start_cells = layouts.split_blocks(el, board, types, parts, start_layout, "start")
    if start_cells is None:
        start_cells = [EMPTY] * (board.size if board is not None else 0)
    goal_cells = layouts.split_blocks(el, board, types, parts, goal_layout, "goal")
    contents = layouts.start_places(el, places, types, found, start_cells, found.multiplicity)
    place_goals = layouts.goal_places(el, places, types, found, contents)

    instances = Tally(c for c in start_cells if 0 < c <= len(types))
    for i in range(len(contents.totals)):
        instances[i + 1] += sum(bag[i] for bag in contents.bags) + sum(stack.count(i + 1) for stack in contents.stacks)
    names = Names(
        el.env,
        board,
        tuple(types),
        found.frozen_kinds(),
        _unique(types, found.frozen_kinds(), instances),
        tuple(places),
        tuple(counters),
        dict(found.attributes),
    )
    conditions = []
    goal_scope = Scope(names, "the goal")
    for stmt in el.of(s.GoalWhen):
        try:
            conditions.append(condition(stmt.condition, goal_scope))
        except SpecError as exc:
            el.errors.diagnostics.extend(exc.diagnostics)
    goal_positions = [x.pos for x in el.of(s.GoalWhen)]
    goal_positions += [x.pos for x in el.of(s.PlaceLayout) if x.which == "goal"]
    goal_positions += [
        x.pos for x in el.statements if isinstance(x, (s.LayoutDecl, s.ComputedLayout)) and x.which == "goal"
    ]
    tile = tilings.tile_move(el, names, board, found, start_cells, progress)  # None beside a fill: refused there
    fill = fills.fill_move(el, names, board, types, start_cells, progress) or tile
    if fill is not None:
        assert isinstance(fill.form, (FillForm, TileForm)) and progress is not None
        things = len(fill.form.vars) if isinstance(fill.form, FillForm) else len(fill.form.pieces)
        everything = m.Binary(
            fill.pos,
            "==",
            m.CounterValue(fill.pos, fill.form.progress, m.NUM),
            m.Const(fill.pos, things, m.NUM),
            m.BOOL,
        )
        conditions.append(everything)  # the rules are checked as soon as what they read is decided
        goal_positions.append(fill.pos)
    filled = bool(el.of(s.Fill) or el.of(s.Tile))  # a spec of fillings, even where its fill was refused
    if not goal_positions and not filled:
        el.errors.absent("the spec has no goal", "goal LAYOUT, goal at PLACE: ... or goal when CONDITION")
    goal = Goal(
        tuple(goal_cells) if goal_cells is not None else None,
        tuple(place_goals),
        tuple(conditions),
        min(goal_positions) if goal_positions else Pos(0, 0),
    )

    move_list = [fill] if fill is not None else [] if filled else moves(MoveContext(el, names, board, types))
    safety = rules.safety(el, names, move_list)
    filling_rules = fills.rules(el, names, filled) if not el.of(s.Tile) else []  # a tiling refuses them
    objective = fills.objective(el, names, bool(el.of(s.Fill)))
    symmetries = rules.symmetries(el, board, types, parts, places)
    search, search_pos = rules.search_mode(el, filling=fill is not None)
    heuristic, heuristic_slots = rules.heuristic(el, names)
    method, method_pos = rules.search_method(el, search)
    show = rules.show_style(el, board, places)
    title = el.single(s.PuzzleTitle, "the puzzle's title")
    about = el.single(s.About, "about")
    _check_costs(el, move_list, search, heuristic)
    el.errors.raise_if_any()  # the checks below compare parts that must all be right
    pools = _check_pieces_used(el, types, move_list, start_cells, contents)
    said = len(el.errors.diagnostics)
    layouts.everyone_is_in_the_start(el, types, contents)  # the goal's mistakes, each said once
    if len(el.errors.diagnostics) == said and not _check_goal_pieces(el, types, goal, places, pools, start_cells):
        _check_goal_counts(el, types, move_list, start_cells, goal, places, counters)
    el.errors.raise_if_any()

    start = State(
        tuple(start_cells),
        tuple(c.start for c in counters),
        tuple(
            tuple(stack) if place.stack else tuple(bag)
            for place, bag, stack in zip(places, contents.bags, contents.stacks, strict=True)
        ),
    )
    return Puzzle(
        title=title.title if isinstance(title, s.PuzzleTitle) else el.spec.filename,
        about=about.text if isinstance(about, s.About) else "",
        params=el.params,
        board=board,
        pieces=tuple(types),
        parts=tuple(parts),
        places=tuple(places),
        routes=routes,
        counters=tuple(counters),
        start=start,
        goal=goal,
        moves=tuple(move_list),
        safety=tuple(safety),
        rules=tuple(filling_rules),
        objective=objective,
        symmetries=tuple(symmetries),
        heuristic=heuristic,
        heuristic_slots=heuristic_slots,
        search=search,
        search_pos=search_pos,
        method=method,
        method_pos=method_pos,
        show=show,
        goal_slots=goal_scope.size,
        source=el.spec.source,
        filename=el.spec.filename,
        given=tuple(el.overrides.items()),
        in_use=tuple(name for name in el.params if name in el.params_read()),
    )


BOARD_EXPECTED = (
    "a board: board line N, board grid ROWS x COLS, board ring N, board: PICTURE, board graph a, b, ... "
    "(or places A, B, or counter NAME = 0 in 0..9)"
)


def _unique(types: list[PieceType], kinds: dict[str, frozenset[int]], instances: Tally[int]) -> dict[str, int]:
    """Names that stand for one piece: a piece's symbol, or a kind that only one piece has."""
    out = {p.symbol: p.code for p in types if instances[p.code] == 1 and p.symbol.isidentifier()}
    for word, codes in kinds.items():
        if len(codes) == 1:
            (code,) = codes
            if instances[code] == 1:
                out.setdefault(word, code)
    return out


def _check_costs(el: Elaboration, moves: list[Move], search: str, heuristic: m.Expr | None) -> None:
    for move in moves:
        if move.cost is not None and search != "cheapest":
            el.errors.error(
                move.cost.pos,
                f"costs are used by `search cheapest`, and this spec searches for {_asks(search)}",
                "search cheapest (or no cost)",
            )
    parted = [move for move in moves if _parts(move.cost)]
    if not parted:
        return
    first = parted[0]
    size = _parts(first.cost)
    for move in moves:
        if move.cost is None:
            el.errors.error(
                move.pos,
                f"move {move.name} has no cost, and move {first.name}'s has {size} parts: "
                "with costs compared part by part, every move gives its own",
                f"cost {', '.join(['1'] * size)}",
            )
        elif _parts(move.cost) != size:
            assert move.cost is not None
            el.errors.error(
                move.cost.pos,
                f"move {move.name}'s cost has {_parts(move.cost) or 1} part(s), and move {first.name}'s {size}",
                f"{size} parts",
            )
    if heuristic is not None:
        el.errors.error(
            heuristic.pos,
            "a heuristic estimates one number, and this spec's costs have several parts",
            "no heuristic, or costs of one part",
        )


def _parts(cost: m.Expr | None) -> int:
    """How many parts a cost compared part by part has (0: a plain number, or none)."""
    return len(cost.args) if isinstance(cost, m.Call) and cost.name == "parts" else 0


def _asks(search: str) -> str:
    return {
        "shortest": "the fewest moves",
        "count": "the number of shortest solutions",
        "reach": "every reachable state",
        "all": "every solution",
        "any": "any one solution",
    }.get(search, search)


def _check_pieces_used(
    el: Elaboration, types: list[PieceType], moves: list[Move], start_cells: list[int], contents: PlaceContents
) -> Pools:
    """A move that needs a piece that is never on the board can never be made (see presence).
    Returns where each piece can ever be."""
    on_cells = {code for code in start_cells if 0 < code <= len(types)}
    in_places = {i + 1 for bag in contents.bags for i, n in enumerate(bag) if n}
    in_places |= {code for stack in contents.stacks for code in stack}
    pools = Pools(on_cells, in_places)
    for index, unmet in unmet_needs(moves, pools).items():
        move = moves[index]
        el.errors.error(move.pos, never_made(move, unmet, types), "a move about pieces of the puzzle")
    return pools


def _check_goal_pieces(
    el: Elaboration, types: list[PieceType], goal: Goal, places: list[Place], pools: Pools, start_cells: list[int]
) -> bool:
    """A goal that wants a piece on the cells, or in a place, where it never is (not at the
    start, and no move that can be made brings it there) can never be reached. Returns
    whether it said so."""
    before = len(el.errors.diagnostics)
    on_cells = {code for code in goal.cells or () if 0 < code <= len(types)} - pools.cells
    if on_cells:
        layout = next(x for x in el.statements if isinstance(x, (s.LayoutDecl, s.ComputedLayout)) and x.which == "goal")
        symbols = [types[code - 1].symbol for code in sorted(on_cells)]
        _never_there(el, layout.pos, symbols, "on the board", _more_at_start(types, start_cells, goal.cells or ()))
    for wanted in goal.places:
        codes = set(wanted.sequence or ()) | {i + 1 for i, n in enumerate(wanted.at_least or ()) if n}
        absent = sorted(codes - pools.places)
        if absent:
            name = places[wanted.place].name
            layout = next(x for x in el.of(s.PlaceLayout) if x.which == "goal" and x.place == name)
            _never_there(el, layout.pos, [types[code - 1].symbol for code in absent], f"at {name}")
    return len(el.errors.diagnostics) > before


def _never_there(el: Elaboration, pos: Pos, symbols: list[str], where: str, why: str = "") -> None:
    one = len(symbols) == 1
    el.errors.error(
        pos,
        f"the goal can never be reached: it wants {', '.join(symbols)} {where}, where "
        f"{'it is' if one else 'they are'} never: not at the start, and no move brings {'it' if one else 'them'} there"
        f"{why}",
        "a goal of pieces that can be there",
    )


def _more_at_start(types: list[PieceType], start_cells: list[int], goal_cells: tuple[int, ...]) -> str:
    """` (the start has 1 twice, the goal once)`: pieces the start holds more of than the goal
    wants, the likely slip where a start misses what the goal wants."""
    start = Tally(code for code in start_cells if 0 < code <= len(types))
    wanted = Tally(code for code in goal_cells if 0 < code <= len(types))
    more = [code for code in sorted(start) if start[code] > wanted[code] and wanted[code] > 0]
    if not more:
        return ""
    said = "; ".join(
        f"{types[code - 1].symbol} {_times(start[code])}, the goal {_times(wanted[code])}" for code in more
    )
    return f" (the start has {said})"


def _times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


def _conserves(move: Move) -> bool:
    """Does the move keep the multiset of pieces on the cells? (Variables carry their piece;
    a cycle moves what each cell holds on to the next.)"""
    if any(not isinstance(action, Cycle) for action in move.actions):
        return False
    if not isinstance(move.form, Rewrite):
        return True  # slides and carries move pieces, never add or remove them

    def tally(windows: tuple[tuple[object, ...], ...]) -> Tally[object]:
        return Tally(c if not isinstance(c, Lit) else c.code for w in windows for c in w if c != Lit(EMPTY))

    left, right = tally(move.form.lhs), tally(move.form.rhs)
    return (
        left.pop(AnyCell(), 0) == right.pop(AnyCell(), 0)
        and left == right
        and not any(isinstance(k, Bind) and left[k] != right[k] for k in left)
    )


def _check_goal_counts(el, types, moves, start_cells, goal: Goal, places, counters) -> None:  # type: ignore[no-untyped-def]
    """A goal that has more of a piece than the start, when no move adds or removes pieces, can
    never be reached (with a one-state goal: a different number)."""
    if goal.cells is None or places or not all(_conserves(mv) for mv in moves):
        return
    have = Tally(c for c in start_cells if c != EMPTY)
    want = Tally(c for c in goal.cells if c not in (EMPTY, ANY))
    concrete = ANY not in goal.cells
    for code in sorted(set(have) | set(want)):
        if code > len(types):
            continue  # parts of blocks are counted with their anchor
        w, h = want.get(code, 0), have.get(code, 0)
        if w > h or (concrete and w != h):
            symbol = types[code - 1].symbol
            el.errors.error(
                goal.pos,
                f"the goal can never be reached: it has {w} {symbol} but the start has {h}, "
                "and no move adds or removes pieces",
                f"a goal with {h} {symbol}",
            )
