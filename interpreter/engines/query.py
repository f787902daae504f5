"""What a search is asked: the one question every engine answers, worked out once from the
spec's `search` directive and what the caller asks on top of it (`--count`, `--reach`,
`--method`, a listing of every solution, trajectories)."""

from __future__ import annotations

from dataclasses import dataclass

from ..compiler import CompiledPuzzle

METHODS = ("auto", "bfs", "bidirectional", "astar", "idastar")


@dataclass(frozen=True)
class Query:
    """`mode` is the kind of answer: the shortest solution, the cheapest, any solution found
    fast, or every goal state (`search all`); `count` and `reach` ask for every layer (the
    number of shortest or cheapest solutions, the reachable states); `method` picks how one
    shortest solution is searched. `listing` (every shortest solution, from the graph of
    shortest paths) and `trajectories` (those solutions grouped by the pieces' paths) are
    asked after the search, of the same puzzle."""

    mode: str
    count: bool = False
    reach: bool = False
    method: str = "auto"
    listing: bool = False
    trajectories: bool = False
    from_goal: bool = False  # with reach: backwards from the goal, every state that can reach it

    @classmethod
    def of(
        cls,
        compiled: CompiledPuzzle,
        count: bool = False,
        reach: bool = False,
        method: str = "auto",
        mode: str | None = None,
        listing: bool = False,
        trajectories: bool = False,
        from_goal: bool = False,
    ) -> Query:
        """The question asked of a puzzle: `mode` (default: the spec's `search`), with
        `search count` and `search reach` read as the shortest solution, counted or with
        every reachable state; `method` (default: the spec's `search shortest by METHOD`)."""
        mode = mode or compiled.puzzle.search
        if method == "auto":
            method = compiled.puzzle.method
        if mode == "count":
            mode, count = "shortest", True
        elif mode == "reach":
            mode, reach = "shortest", True
        return cls(mode, count, reach, method, listing, trajectories, from_goal)

    @property
    def layered(self) -> bool:
        """Whether every layer is explored (counts, reachable states)."""
        return self.count or self.reach

    def by_astar(self, compiled: CompiledPuzzle) -> bool:
        """The shortest solution searched with A*: asked for, or a heuristic in the spec."""
        if self.layered or self.mode != "shortest":
            return False
        return self.method == "astar" or (self.method == "auto" and compiled.estimate is not None)

    def counts_from_both_ends(self, compiled: CompiledPuzzle) -> bool:
        """The shortest solutions counted from both ends (`search.bidirectional.count`): asked
        for (`--method bidirectional`), or by default where the goal is one state, every move
        can be undone and no symmetry is declared (counted up to one, they need the layers
        from the start); `--method bfs` counts layer by layer from the start."""
        if not self.count or self.reach or self.mode != "shortest" or self.listing or self.trajectories:
            return False
        if compiled.goal_state is None or not compiled.invertible or compiled.symmetry is not None:
            return False
        return self.method in ("auto", "bidirectional")

    @property
    def guided(self) -> bool:
        """Whether a heuristic guides the search: one shortest solution, by A* or IDA* (named,
        or chosen by default), or one cheapest solution (A*)."""
        return (
            self.mode in ("shortest", "cheapest")
            and not (self.layered or self.listing or self.trajectories)
            and self.method in ("auto", "astar", "idastar")
        )

    def may_deepen(self, compiled: CompiledPuzzle) -> bool:
        """Whether A* chosen by default may hand over to IDA* where it runs out of room (no
        method named, by the spec or the caller)."""
        return self.method == "auto" and self.by_astar(compiled)

    def by_bidirectional(self, compiled: CompiledPuzzle) -> bool:
        """The shortest solution searched from both ends: asked for, or where the goal is one
        state and every move can be undone."""
        if self.layered or self.mode != "shortest" or self.by_astar(compiled):
            return False
        return self.method == "bidirectional" or (
            self.method == "auto" and compiled.goal_state is not None and compiled.invertible
        )

    def describe(self, compiled: CompiledPuzzle, counted: bool = False) -> str:
        """The question in words, as `--engine help` says it (`counted`: a walk of every goal
        state that only counts them, --count on a `search all` spec)."""
        logic = compiled.filling is not None
        objective = compiled.puzzle.objective
        best = f" of the {objective.best} {objective.name}" if objective is not None else ""
        if self.trajectories:
            return "every shortest solution, grouped by the pieces' paths (--distinct trajectories)"
        if self.listing:
            return "every shortest solution, listed (--all)"
        if self.mode == "all":
            if logic:
                return f"how many solutions{best} there are" if counted else f"every solution{best}"
            if counted:
                return "how many goal states can be reached (`search all`)"
            return "every goal state that can be reached (`search all`)"
        if self.mode == "any":
            return (
                f"one solution{best}, and whether it is the only one"
                if logic
                else "any solution, found fast (`search any`)"
            )
        kind = "cheapest" if self.mode == "cheapest" else "shortest"
        if self.reach:
            return (
                "every state that can reach the goal (--reach --from-goal)"
                if self.from_goal
                else ("every state that can be reached (--reach)")
            )
        if self.count:
            both = " (--count, from both ends)" if self.method == "bidirectional" else " (--count)"
            return f"how many {kind} solutions there are{both}"
        how = {"idastar": " by IDA*", "astar": " by A*", "bidirectional": " from both ends", "bfs": " breadth first"}
        return f"the {kind} solution{how.get(self.method, '')}"

    @property
    def name(self) -> str:
        """The question in a word (the memory of races keys it with the rest of the question)."""
        if self.trajectories:
            return "trajectories"
        if self.listing:
            return "every solution"
        if self.mode in ("any", "all"):
            return "count all" if self.count and self.mode == "all" else self.mode
        if self.reach:
            return "reach from the goal" if self.from_goal else "reach"
        if self.count:
            return "count cheapest" if self.mode == "cheapest" else "count"
        if self.mode == "cheapest":
            return "cheapest"
        return {"idastar": "shortest by IDA*", "bidirectional": "shortest from both ends"}.get(self.method, "shortest")
