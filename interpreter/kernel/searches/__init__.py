"""The kernel's searches of a state space, each a Python driver (the limits, the arrays
grown between two calls, the answer) around its own numba loop, on the word tables or the
machine: breadth first (`breadth_first` on states of one word, `wide` on wider ones, and a
worker's share of one spread over several, `partition`), from both ends (`bidirectional`),
A* (`astar` on one word, `best_first` on wider states), uniform cost (`best_first`), IDA*
(`idastar`), `search any` (`any_solution`) and `search all` (`depth`); `by_width` chooses
between the one-word and the wider implementation. Apart from the executors (`tables`,
`machine`) and the stores because a search is the same whichever runs the puzzle, and
several share a store: each module here is one search, as in `search/` for Python."""
