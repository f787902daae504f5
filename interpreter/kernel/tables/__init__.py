"""The word tables: a plain puzzle (rewrites, steps, slides and toggles on cells; no rules,
no places or counters) whose state fits one 64-bit word, as integer tables (`tables`) run by
fixed numba code (`core`: successors, the hash table or bitmap of the states found, one
breadth-first layer at a time). Apart from the machine because they are the fast way for
the puzzles they take, compiled in seconds; a puzzle of one word they cannot run is given a
machine program behind the same `Tables` (`tables.build`), so that the searches of one word
run either."""
