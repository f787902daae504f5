"""What each word of the language means, for hover: one paragraph a word, taken from
docs/language.md, with the form it is written in. A word with several uses (`in`, `at`, `is`)
says each. tests/lsp/test_words.py checks that every word of the grammar has its paragraph, so
that a word added to the grammar without one fails there rather than hovering blank.
"""

from __future__ import annotations

WORDS: dict[str, str] = {
    # ---- title and parameters
    "puzzle": '`puzzle "TITLE"`: the puzzle\'s title, shown above every run (and as `puzzle` in the JSON).',
    "about": '`about "ONE LINE"`: what the puzzle asks, shown under the title.',
    "param": '`param NAME = EXPR [one of A, B, ...] ["what it means"]`: a parameter (a number, text, '
    "`true`/`false` or a list), which `-p NAME=VALUE` overrides; its default may use earlier parameters.",
    "one": "`param NAME = EXPR one of A, B, ...`: the only values the parameter may take; any other is "
    "refused with the choices listed.",
    "of": "`one of A, B, ...` after a parameter's default: the only values it may take.",
    "require": '`require CONDITION ["message"]`: what the parameters must satisfy; a run that breaks it '
    "stops with the message, the line and the parameter values.",
    "if": "`if CONDITION:` and an indented block: statements that are part of the puzzle only where the "
    "parameters make the condition true. In a move, `if CONDITION` is the move's condition: it is made only "
    "where the condition holds. In an aggregate, `count(v in C if COND)` counts only where COND holds.",
    "else": "`else:` (or `else if COND:`) after an `if` block: the statements used when the condition is false.",
    "true": "The truth value true (a parameter `-p island=true`, a condition).",
    "false": "The truth value false.",
    # ---- boards
    "board": "`board line N`, `board ring N`, `board grid ROWS x COLS [where COND]`, `board graph a, b, ...`, "
    "`board places A, B`, or `board:` and a picture (`_` a cell, `.` a square with no cell): the cells of "
    "the puzzle.",
    "line": "`board line N`: cells 1..N, left to right, with the directions `right`, `left` and `any`.",
    "ring": "`board ring N`: cells 1..N clockwise, cell N next to cell 1, with the directions `clockwise`, "
    "`anticlockwise` and `any`.",
    "grid": "`board grid ROWS x COLS`: cells r1c1 .. rROWScCOLS, row 1 at the top, with the directions `up`, "
    "`down`, `left`, `right`, the diagonals, and the sets `orthogonal`, `diagonal`, `king`, `knight`.",
    "x": "`ROWS x COLS`: the size of a grid (`board grid 3 x 4`), of a block (`block 2 x 1`) or of the "
    "boxes (`boxes 3 x 3`). Not reserved: a counter or parameter may be called x.",
    "where": "`board grid ROWS x COLS where COND`: only the squares where COND holds are cells (it may use "
    "`row` and `col`).",
    "graph": "`board graph a, b, c`: cells named by the spec, joined by `link` lines; their direction is "
    "`link`, and those the spec declares.",
    "link": "`link a - b, b - c, c -> d`: the links of a graph board (`-` joins both ways, `->` one way).",
    "direction": "`direction NAME = STEP, ...`: a direction of the board's cells: steps `(rows down, columns "
    "right)`, `leap(a, b)`, other directions, or on a graph named links (`a -> b`).",
    "shape": "`shape NAME = (0, 0), (0, 1), ...`: steps from an anchor cell, used by rewrites (`in SHAPE`) and "
    "toggles where all its cells are on the board. After a piece, `shape:` and a picture makes the piece a "
    "polyomino for a `tile`.",
    "neighbourhood": "`neighbourhood NAME = (0, 0), orthogonal`: a shape cut at the board's edges (at a corner, "
    "a light and its neighbours is three lights); toggles take it.",
    "neighborhood": "`neighborhood NAME = ...`: the same as `neighbourhood`, a shape cut at the board's edges.",
    # ---- places and counters
    "places": "`places A, B`: bags, holding any number of pieces in no order. In a safety rule, "
    "`safe in places:` checks each place with `here` standing for it; in a predicate, `places` is the "
    "collection of places.",
    "place": "`place NAME`: one bag, holding any number of pieces in no order.",
    "stacks": "`stacks A, B, C`: places where order matters: pieces are put on and taken from the top.",
    "stack": "`stack NAME`: one place where pieces are put on and taken from the top.",
    "route": "`route A <-> B` (both ways) or `route A -> B` (one way): where a carrier may travel (default: "
    "between any two places).",
    "carrier": "`carrier NAME at PLACE`: a counter holding a place, moved by `carry` moves.",
    "counter": '`counter NAME = START in LOW..HIGH ["what it means"]`: a number of the state; a move that would '
    "take it out of its range cannot be made.",
    "cursor": "`cursor at CELL`: a counter holding a cell (or off the board), moved by `advance` and `set "
    "cursor = ?c`.",
    # ---- pieces
    "piece": '`piece SYMBOL [KIND] ["description"] [per GROUP] [drawn "glyph"] [with ATTR = EXPR, ...] '
    "[block [R x C]]`: the symbol stands for the piece in layouts and patterns; its kind (default: the "
    "symbol) names it in predicates.",
    "pieces": '`pieces EXPR ["description"]`: one piece per character of a text (`pieces letters(n)`), or '
    "numbered pieces (`pieces 1..n`), each with `value` = its number.",
    "group": "`group NAME = EXPR`: the members of a group (a range or a list); `piece H husband per couple` "
    "makes one distinct piece per member.",
    "per": "`piece H husband per GROUP`: one distinct piece per member of the group (`H1`, `H2`, ...), each with "
    "the group's attribute set to its member.",
    "drawn": '`drawn "GLYPH"` after a piece: how it is drawn (default: its symbol).',
    "with": "`with ATTR = EXPR, ...` after a piece: its attributes, read as `p.ATTR`. In `carry ... with KIND`: "
    "the load includes a piece of that kind. In `fill` and `tile`: what the cells are filled or covered with.",
    "block": "`block [R x C]` after a piece: it covers several cells and always moves as one (`block 2 x 1`: "
    "2 rows, 1 column; a bare `block` takes its shape from the start).",
    # ---- start and goal
    "start": "`start LAYOUT`, `start:` and a picture, `start = EXPR`, `start at PLACE: LAYOUT | everyone`: where "
    "the pieces are at the start (without one the cells start empty).",
    "goal": "`goal LAYOUT` (a pattern: `?` matches anything), `goal:` and a picture, `goal at PLACE: LAYOUT | "
    "everyone`, `goal when CONDITION`: the goal is everything the goal statements say, together.",
    "when": "`goal when CONDITION`: the goal holds in the states where the condition does.",
    "everyone": "`start at PLACE: everyone`, `goal at PLACE: everyone`: every piece of the puzzle.",
    "level": '`level:` and rows pasted as they are, read through the `legend:`; or `level N from "FILE"`: '
    "level N of a collection file beside the spec.",
    "legend": '`legend:` and lines `"CHAR" = START [GOAL]`: what each character of a `level:` row stands for, '
    "at the start and in the goal.",
    # ---- moves
    "move": "`move NAME: FORM [, ACTION ...] [if CONDITION] [cost EXPR]`: a move (a rewrite `LEFT -> RIGHT`, a "
    "`slide`, a `step`, a `toggle`, a `cycle`, a `reverse`, a `rotate`, a `carry`, or actions); the name is "
    "what the solution shows.",
    "along": "`along DIRECTIONS`: the directions a move is made in (a rewrite's window, a `slide`, a `step`, "
    "an `advance`); without it, the board's default directions.",
    "in": "`in SHAPE` after a rewrite or a toggle: the window laid over the shape's cells. `carry MIN..MAX in "
    "CARRIER`: the carrier that crosses. `safe in places:` / `safe in loads:`: what a safety rule checks. "
    "`v in COLLECTION` in a quantifier, `x in 1..n` a test, `counter C = 0 in 0..9` its range.",
    "slide": "`slide PIECE along DIRECTIONS [until blocked]`: the piece moves any number of cells through "
    "empty ones; with `until blocked`, as far as it can.",
    "step": "`step PIECE along DIRECTIONS [repeated]`: the piece moves to the empty cell one step away.",
    "until": "`slide PIECE along D until blocked`: the piece slides as far as it can, stopping only at the edge "
    "or in front of another piece.",
    "blocked": "`until blocked` after a slide: it goes as far as it can; `until blocked by pieces`: only a "
    "piece stops it, and a slide the edge would end is no move.",
    "repeated": "`repeated` after a step or a slide: a macro move: every arrangement one piece reaches by the "
    "same move, any number of times, is one move (Klotski's count).",
    "toggle": "`toggle A [B] in SHAPE [at ?c]`: every cell of the shape at an anchor flips between `A` and `B` "
    "(default: between `A` and empty).",
    "cycle": "`cycle (CELL CELL ...) ...`: what each cell of a cycle holds moves on to the next, the last one's "
    "to the first; `cycle OTHER * K` is move OTHER's cycles made K times (`* -1` undoes it).",
    "reverse": "`reverse A .. B`: the cells from A to B, in the opposite order (`reverse 1 .. ?k`: flip the "
    "top k pancakes, for every k).",
    "rotate": "`rotate A .. B`: what each cell from A to B holds moves one cell on towards B, B's to A "
    "(an end may be a parameter, `rotate 1 .. n`, or an expression in brackets).",
    "take": "`take ?t from LOC`: a piece at LOC (a place, a stack's top, a cell) is removed, one move per kind "
    "of piece there.",
    "from": "`take ?t from LOC`: where the piece is taken. `... from CELL, ...` after a rewrite's directions: "
    'its first window is laid only at these cells. `level N from "FILE"`: the file a level is read from.',
    "put": "`put X at LOC` (`on` for stacks): places X (a variable, or a symbol: a new piece) on an empty "
    "cell or in a place with room.",
    "on": "`put X on STACK`: the same as `put X at`, read better for stacks.",
    "at": "`at PLACE` / `at CELL`: where (`carrier boat at left`, `cursor at 1`, `start at left: F`, `put Q at "
    "?c`, `X is at P`, `count(at P)`); `toggle ... at ?c` names the anchor cell.",
    "advance": "`advance CURSOR by N [along DIR]`: moves the cursor N cells along DIR (default: the order cells "
    "are listed in).",
    "by": "`advance CURSOR by N`: how far the cursor moves. `search shortest by METHOD`: how the shortest "
    "solution is searched (`bfs`, `bidirectional`, `astar`, `idastar`).",
    "set": "`set COUNTER = EXPR`: sets a counter (the cursor: to a cell); the value must be in its range.",
    "add": "`add EXPR to COUNTER`: adds to a counter; the value must stay in its range.",
    "to": "`add EXPR to COUNTER`: the counter added to.",
    "let": "`let NAME = EXPR`: names a value for the rest of the move (a new name: one that already means "
    "something is refused).",
    "carry": "`carry MIN..MAX in CARRIER [with KIND] [only KIND]`: a load of MIN to MAX pieces crosses with the "
    "carrier, from its place along a route; `load` is the pieces aboard.",
    "only": "`carry ... only KIND`: every piece aboard is of that kind.",
    "cost": "`cost EXPR[, EXPR ...]` after a move: what it costs (several parts: compared in order), for "
    "`search cheapest`.",
    # ---- safety rules and predicates
    "safe": "`safe: CONDITION`, `safe in places:`, `safe in loads:`, `safe everywhere:` (or a block, one rule a "
    "line): a state that breaks a safety rule is never entered; the start must keep every rule.",
    "everywhere": "`safe everywhere: CONDITION`: checked in each place and in each load while it crosses.",
    "loads": "`safe in loads: CONDITION`: checked on each carrier load while it crosses, with `here` the load.",
    "here": "In `safe in places:` or `safe in loads:`, the place or load being checked (`X is here`, "
    "`count(here)`, `every wolf w here`).",
    "is": "`X is empty`, `X is KIND`, `X is here`, `X is at P` (and `is not ...`): tests of a cell, a piece, a "
    "place; `some KIND is here`.",
    "empty": "`X is empty`: nothing is there (a cell, a place, the hand, the cursor's cell). `fill ... or "
    "empty`: a cell may also stay empty.",
    "not": "`not CONDITION`: true where the condition is false; `X is not KIND`, `X is not empty`.",
    "and": "`A and B`: both hold. `turned and flipped` after a `tile`: all eight ways of laying a piece.",
    "or": "`A or B`: either holds. `fill ... or empty`: a cell may also stay empty.",
    "every": "`every KIND v: BODY`, `every v in COLLECTION: BODY`: the body holds for each; the body runs to the "
    "end of the expression.",
    "some": "`some KIND v: BODY`, `some KIND is here`: it holds for at least one.",
    "no": "`no KIND v: BODY`, `no KIND is at P`: it holds for none.",
    "count": "`count(KIND [here / at P])`, `count(here)`, `count(v in COLLECTION [if COND])`: how many. As a "
    "search, `search count` counts the shortest solutions.",
    "for": "`sum(EXPR for v in COLLECTION [if COND])`, `min(...)`, `max(...)`: an aggregate over a collection.",
    "all": "`all different(X)`: the pieces on the cells of X (or the numbers given) are pairwise different. As a "
    "search, `search all` lists every solution.",
    "different": "`all different(X)` in a rule: pairwise different pieces on the cells of X (open cells left "
    "out), or pairwise different numbers.",
    # ---- fillings and tilings
    "fill": "`fill TARGETS with DOMAIN [or empty]`: a logic puzzle: the cells the start leaves open (or those "
    "named, or counters declared here) are filled from the domain, so that every `rule` holds.",
    "rule": "`rule: CONDITION` (or a block, one rule a line): a condition every solution of a filling keeps.",
    "boxes": "`boxes R x C`: cuts the grid into boxes of R rows and C columns; `boxes` is then a collection of "
    "lines, as `rows` is.",
    "regions": "`regions:` and a picture with a letter on each cell: the cells of one letter are a region; "
    "`regions` is a collection of lines and `region(a)` the cells of letter a.",
    "tile": "`tile TARGETS with PIECES [turned] [and flipped]`: a tiling: the cells are covered with the pieces' "
    "shapes, each piece laid once.",
    "turned": "`tile ... turned`: each piece may also be laid turned by quarter turns.",
    "flipped": "`tile ... flipped`: each piece may also be laid mirrored.",
    # ---- directives
    "search": "`search shortest | cheapest | count | reach | all | any` (default: shortest), and `search "
    "shortest by bfs | bidirectional | astar | idastar`: the question the spec asks.",
    "symmetry": "`symmetry mirror, flip, rotate, reversal, swap X Y, complement, P + Q`: symmetries of the "
    "puzzle: counts are also given up to them (puzint checks each).",
    "heuristic": "`heuristic EXPR`: an estimate of the moves (or cost) still needed that never overestimates; "
    "it makes `shortest` and `cheapest` A* (or IDA*).",
    "show": "`show board | ladder | circle | banks`: the drawing used instead of the default.",
    "maximize": '`maximize EXPR ["NAME"]`: of a filling\'s solutions, those where the number EXPR is largest '
    "(every one of them, and the best value).",
    "minimize": '`minimize EXPR ["NAME"]`: of a filling\'s solutions, those where the number EXPR is smallest '
    "(every one of them, and the best value).",
}
