"""The kernel's answers to logic puzzles, which have no moves: the fill search (`fill`: every
filling that keeps the rules, by propagation and the most constrained thing first) on a
filling's model of linear constraints, `all different`s and tables (`fill_model`, with the
conditions of its rules as clauses, `fill_clauses`), and the exact cover of a tiling
(`cover`). Apart from the rest because they share nothing with the searches of a state
space but the compiling: no machine, no word tables, no stores."""
