"""The engine on small hand-made problems: it sees states and moves, never puzzles."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field

from puzint.search import Limits, bfs, bidirectional, layers
from puzint.search.result import LIMIT, NO_SOLUTION, SOLVED


@dataclass
class Graph:
    """A problem given as an explicit directed graph; move numbers are edge positions."""

    edges: dict[str, list[str]]
    start: str = "s"
    goal_state: str | None = "g"
    invertible: bool = True
    acyclic: bool = False
    expanded: list[str] = field(default_factory=list)

    def expand(self, state: object) -> Sequence[tuple[object, int]]:
        self.expanded.append(str(state))
        return [(t, i) for i, t in enumerate(self.edges.get(str(state), []))]

    def expand_back(self, state: object) -> Sequence[tuple[object, int]]:
        return [(s, i) for s, ts in self.edges.items() for i, t in enumerate(ts) if t == state]

    def is_goal(self, state: object) -> bool:
        return state == self.goal_state


DIAMOND = {"s": ["a", "b", "x"], "a": ["c"], "b": ["c"], "c": ["g"], "x": ["y"], "y": ["z"], "z": ["g"]}


def test_bfs_finds_a_shortest_path() -> None:
    result = bfs.shortest(Graph(DIAMOND), Limits())
    assert result.status == SOLVED and result.length == 3
    assert [state for _, state in result.path][-1] == "g"


def test_bidirectional_agrees() -> None:
    result = bidirectional.shortest(Graph(DIAMOND), Limits())
    assert result.status == SOLVED and result.length == 3
    states = ["s"] + [state for _, state in result.path]
    for before, after in itertools.pairwise(states):
        assert after in DIAMOND[before]


def test_counting_shortest_paths_over_layers() -> None:
    result = layers.explore(Graph(DIAMOND), Limits(), count=True)
    assert result.count == 2 and result.length == 3


def test_parallel_moves_to_the_same_state_count_once() -> None:
    graph = Graph({"s": ["g", "g", "a"], "a": ["g"]})
    assert layers.explore(graph, Limits(), count=True).count == 1


def test_reachability_counts_every_state() -> None:
    result = layers.explore(Graph(DIAMOND), Limits(), exhaustive=True)
    assert result.reachable == 8 and result.length == 3


def test_no_solution_is_a_proof_over_every_reachable_state() -> None:
    graph = Graph({"s": ["a"], "a": ["b", "s"], "b": []})
    for result in (bfs.shortest(graph, Limits()), layers.explore(graph, Limits(), exhaustive=True)):
        assert result.status == NO_SOLUTION and result.reachable == 3
    assert bidirectional.shortest(graph, Limits()).status == NO_SOLUTION


def test_start_is_goal() -> None:
    graph = Graph({}, goal_state="s")
    assert bfs.shortest(graph, Limits()).length == 0
    assert layers.explore(graph, Limits(), count=True).count == 1


def chain(n: int) -> Graph:
    return Graph({str(i): [str(i + 1)] for i in range(n)}, start="0", goal_state=str(n))


def test_state_limit_stops_cleanly_and_reports_what_it_explored() -> None:
    result = bfs.shortest(chain(50_000), Limits(max_states=10_000))
    assert result.status == LIMIT and "state limit" in (result.limit_reason or "")
    assert result.states == 10_000  # checked as the limit nears: stopped at it, not thousands past it


def test_time_limit_stops_cleanly() -> None:
    limits = Limits(timeout=1e-9)
    result = layers.explore(chain(50_000), limits, exhaustive=True)
    assert result.status == LIMIT and "time limit" in (result.limit_reason or "")


def test_interrupt_stops_cleanly() -> None:
    class Interrupting(Graph):
        def expand(self, state: object) -> Sequence[tuple[object, int]]:
            if state == "3":
                raise KeyboardInterrupt
            return super().expand(state)

    graph = Interrupting({str(i): [str(i + 1)] for i in range(9)}, start="0", goal_state="9")
    result = bfs.shortest(graph, Limits())
    assert result.status == LIMIT and result.limit_reason == "interrupted" and result.states == 4


def test_idastar_with_an_estimate_far_above_the_distance_never_proves_there_is_no_solution() -> None:
    from puzint.search.astar import idastar

    # estimates of 2**61 and more: an iteration's next bound is that large, and the search must
    # take it rather than read it as "nothing left beyond the bound"
    huge = 1 << 61
    estimate = {"s": huge, "a": 3 * huge, "b": 2 * huge, "c": huge, "g": 0, "x": 5 * huge, "y": huge, "z": huge}
    result = idastar(Graph(DIAMOND), lambda state: estimate[str(state)], Limits())
    assert result.status == SOLVED and result.length in (3, 4)


def test_idastar_proves_there_is_no_solution_when_no_path_was_cut_off() -> None:
    from puzint.search.astar import idastar

    result = idastar(Graph({"s": ["a"], "a": ["b"], "b": ["s"]}), lambda state: 0, Limits())
    assert result.status == NO_SOLUTION


def test_idastar_follows_a_path_deeper_than_pythons_recursion_limit() -> None:
    import sys

    from puzint.search.astar import idastar

    # a 4,000-move spec the kernel solved was "the path grew too deep" on Python's recursive IDA*
    n = sys.getrecursionlimit() * 5
    result = idastar(chain(n), lambda state: n - int(state), Limits())
    assert result.status == SOLVED and result.length == n
    assert [state for _, state in result.path] == [str(i) for i in range(1, n + 1)]


def test_idastar_deepens_and_backs_up_over_dead_ends() -> None:
    from puzint.search.astar import idastar

    # with estimate 0 each pass goes one move deeper: the dead end x-y-z is walked and left
    result = idastar(Graph(DIAMOND), lambda state: 0, Limits())
    assert result.status == SOLVED and result.length == 3
    assert [state for _, state in result.path] in (["a", "c", "g"], ["b", "c", "g"])
