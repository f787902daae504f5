"""The layout of the machine's program (`kernel.machine.program` builds it,
`kernel.machine.assembly` lays it out as one integer array, `kernel.machine` and
`kernel.machine.moves` read it): the header's fields and the sections, where each part of
the workspace starts, and the records of move families, effects and rewrite instances. Only
numbers: every kernel module may import it, and it imports nothing of theirs.
"""

from __future__ import annotations

NONE = -1

HEADER = (
    "size",  # integers in an unpacked state
    "words",  # words in a packed state
    "cells",
    "pieces",  # kinds of piece (codes 1..pieces)
    "places",
    "counters",
    "rows",  # the board's frame (0 on a graph)
    "cols",
    "heuristic",  # where the heuristic starts (-1: none)
    "families",
    "levels",  # most variables a move's actions introduce
    "most_values",  # most values such a variable can take in one state
    "memo_places",  # 1: the rules on places are answered once per contents (see program._memo)
    "memo_loads",
    "symmetries",  # elements of the symmetry group, the identity left out
    "entry",  # the address of the machine's entry point (kernel.machine.entry), in this process
    "ws_state",  # where the parts of the workspace start
    "ws_child",
    "ws_base",
    "ws_env",
    "ws_stack",
    "ws_bags",
    "ws_err",
    "ws_values",
    "ws_index",
    "ws_count",
    "ws_kinds",
    "ws_parent",
    "ws_input",  # the words of the state an op of kernel.machine.entry works on
    "ws_rows",  # how many successors the rows given to moves.expand hold
    "ws_costs",  # where moves.expand writes each successor's cost (an address; 0: nowhere)
    "ws_orders",  # where it writes each one's order key (CompiledPuzzle.order_of; 0: nowhere)
    "ws_start",  # the cell the move being made starts from (a plain rewrite: its whole key)
    "ws_image",  # a state's image under a symmetry, unpacked, then packed (ws_trial)
    "ws_trial",
    "ws_log",
    "ws_logged",
    "ws_paths",  # `repeated`: a stamp, then each cell's stamp when reached, then the walk's stack
    "ws_memo",  # the answers remembered: 0 not yet, 1 hold, 2 fail (places, then loads)
    "ws_picked",  # a rewrite form's placements that may apply, by their anchors (moves._picked)
    "ws_size",
)
SECTIONS = (
    "field_word",
    "field_shift",
    "field_mask",
    "place_offset",
    "place_length",
    "place_stack",
    "counter_offset",
    "counter_width",
    "counter_low",
    "counter_high",
    "number_counters",
    "base",
    "rows",
    "cols",
    "frame",
    "state_rules",
    "place_rules",
    "load_rules",
    "goal_cells",
    "goal_places",
    "goal_wanted",
    "goal_conditions",
    "pairs",
    "occupied",
    "instances",
    "instance_key",
    "binds",
    "key_codes",
    "group_start",
    "group_items",
    "unkeyed",
    "families",
    "slide_codes",
    "slide_block",  # for each code that slides: where its block's table starts in blocks, or -1
    "blocks",
    "directions_used",
    "with_sets",
    "route_start",
    "route_targets",
    "vars",
    "lets",
    "effects",
    "jumps",
    "amounts",
    "areas",
    "area_start",
    "area_fits",
    "cycle_pairs",
    "memo_shift",
    "sym_source",
    "sym_translate",
    "sym_codes",
    "set_member",
    "set_start",
    "set_codes",
    "values",
    "code",
    "attributes",
    "next",
    "ray_start",
    "ray_cells",
    "anchor_codes",  # a rewrite form's anchors: the values its placements are looked up under
    "anchor_start",  # for each anchor value and cell, where its placements start in anchor_items
    "anchor_items",
)
(
    SIZE,
    WORDS,
    CELLS,
    PIECES,
    PLACES,
    COUNTERS,
    ROWS,
    COLS,
    HEURISTIC,
    NFAMILIES,
    LEVELS,
    MOST_VALUES,
    MEMO_PLACES,
    MEMO_LOADS,
    SYMMETRIES,
    ENTRY,
    WS_STATE,
    WS_CHILD,
    WS_BASE,
    WS_ENV,
    WS_STACK,
    WS_BAGS,
    WS_ERR,
    WS_VALUES,
    WS_INDEX,
    WS_COUNT,
    WS_KINDS,
    WS_PARENT,
    WS_INPUT,
    WS_ROWS,
    WS_COSTS,
    WS_ORDERS,
    WS_START,
    WS_IMAGE,
    WS_TRIAL,
    WS_LOG,
    WS_LOGGED,
    WS_PATHS,
    WS_MEMO,
    WS_PICKED,
    WS_SIZE,
) = range(len(HEADER))
(
    FIELD_WORD,
    FIELD_SHIFT,
    FIELD_MASK,
    PLACE_OFFSET,
    PLACE_LENGTH,
    PLACE_STACK,
    COUNTER_OFFSET,
    COUNTER_WIDTH,
    COUNTER_LOW,
    COUNTER_HIGH,
    NUMBER_COUNTERS,
    BASE,
    ROW_OF,
    COL_OF,
    FRAME,
    STATE_RULES,
    PLACE_RULES,
    LOAD_RULES,
    GOAL_CELLS,
    GOAL_PLACES,
    GOAL_WANTED,
    GOAL_CONDITIONS,
    PAIRS,
    OCCUPIED,
    INSTANCES,
    INSTANCE_KEY,
    BINDS,
    KEY_CODES,
    GROUP_START,
    GROUP_ITEMS,
    UNKEYED,
    FAMILIES,
    SLIDE_CODES,
    SLIDE_BLOCK,
    BLOCKS,
    DIRECTIONS_USED,
    WITH_SETS,
    ROUTE_START,
    ROUTE_TARGETS,
    VARS,
    LETS,
    EFFECTS,
    JUMPS,
    AMOUNTS,
    AREAS,
    AREA_START,
    AREA_FITS,
    CYCLE_PAIRS,
    MEMO_SHIFT,
    SYM_SOURCE,
    SYM_TRANSLATE,
    SYM_CODES,
    SET_MEMBER,
    SET_START,
    SET_CODES,
    VALUES,
    CODE,
    ATTRIBUTES,
    NEXT_CELL,
    RAY_START,
    RAY_CELLS,
    ANCHOR_CODES,
    ANCHOR_START,
    ANCHOR_ITEMS,
) = range(len(HEADER), len(HEADER) + len(SECTIONS))
ERR_VALUES = 3  # kept with an error: how many values its message shows, and the values
CODE_SPACE = 256  # codes a code set's membership row covers

WORD = 63  # bits of a word a packed state uses (the top bit kept free: all ones marks a free slot)

# family kinds and forms
SLIDE, CARRY, GENERAL = 0, 1, 2
FORM_NONE, FORM_REWRITE, FORM_SLIDE, FORM_CARRY = 0, 1, 2, 3
SLIDE_MODES = ("step", "slide", "until", "until_piece")
REPEATED = 4  # added to a slide's mode: the piece's whole path is one move (moves._paths)
# a variable the actions introduce: what it ranges over
VAR_PLACE, VAR_CELL, VAR_COUNTER, VAR_TAKE = 0, 1, 2, 3
# locations
LOC_PLACE, LOC_CELL, LOC_CURSOR, LOC_VAR_PLACE, LOC_VAR_CELL = 0, 1, 2, 3, 4
# effects
EFFECT_TAKE, EFFECT_PUT, EFFECT_ADVANCE, EFFECT_SET, EFFECT_TOGGLE, EFFECT_CYCLE = 0, 1, 2, 3, 4, 5
EFFECT = 8  # integers an effect
JUMP_CELLS = 256  # boards up to this size have a table of where an advance lands
CODES = 256  # piece codes a code table covers
MEMO_BITS = 16  # contents of a place that fit a key of this many bits have their rules' answers remembered

# a family's record: these offsets, FAMILY integers in all
(
    F_KIND,
    F_FORM,
    F_CODES_FROM,  # slide: the codes that move, in the order Python tries them
    F_CODES_TO,
    F_MODE,
    F_DIRS_FROM,  # slide: its directions
    F_DIRS_TO,
    F_VAR,  # slide: the slot of the moving piece's variable (-1: none)
    F_CARRIER,  # carry: the carrier counter
    F_LOW,
    F_HIGH,
    F_ONLY,  # carry: the code set every piece aboard is in (-1: any)
    F_WITH_FROM,  # carry: code sets the load must meet
    F_WITH_TO,
    F_INST_FROM,  # rewrite form: its instances
    F_INST_TO,
    F_VARS_FROM,  # the variables the actions introduce
    F_VARS_TO,
    F_LETS_FROM,
    F_LETS_TO,
    F_GUARD,  # where the guard starts (-1: none)
    F_EFFECTS_FROM,
    F_EFFECTS_TO,
    F_SAME_ALLOWED,  # 1: a move that changes nothing is still a move (as Python's bag-take loop)
    F_AMOUNTS,  # "take ?t from a bag, put ?t at the cursor, advance it by ?t (or N)": each piece's
    #             amount, in `amounts` (-1: not that shape), run as one loop (see moves._placing)
    F_COST,  # where the move's cost starts (-1: each move costs 1)
    F_START,  # the cell a move starts from (search any's order): START_SET, NO_START, or a variable's slot
    F_STATEMENT,  # the move's place among the spec's moves
    F_COST_ERROR,  # the error site of a cost below 0
    F_ANCHORS,  # rewrite form: where its table in anchor_start begins (-1: every placement is tried)
    F_ANCHOR_CODES_FROM,  # its anchor values, in anchor_codes
    F_ANCHOR_CODES_TO,
    F_LOOSE_FROM,  # its placements that check no cell (always tried), in anchor_items
    F_LOOSE_TO,
) = range(34)
FAMILY = 34
START_SET, NO_START = -1, -2  # the form says where a move starts (ws_start); it starts from no cell
ORDER_START, ORDER_STATEMENT = 42, 21  # a move's order key: start << 42 | statement << 21 | instance

# a rewrite instance's record: ranges of `pairs` (checks, same, writes, copies) and of
# `occupied`, then the range of its variables' bindings in `binds` (form instances)
INSTANCE = 12
