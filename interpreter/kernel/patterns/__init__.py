"""Pattern databases built on the kernel (`heuristics.patterns` chooses and caches them)."""
