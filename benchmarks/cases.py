"""The benchmarked instances, shared by the pytest-benchmark suite and the report script."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from benchmarks import handwritten as hw

ROOT = Path(__file__).resolve().parent.parent
SPECS = ROOT / "specs"


@dataclass(frozen=True)
class Case:
    name: str
    spec: Path
    param: str  # the spec parameter that sets the size
    size: int
    shortest: Callable[[int], tuple[int | None, int]]  # hand-written shortest-path BFS
    reachable: Callable[[int], tuple[int | None, int]]  # hand-written full reachability
    start_goal: Callable[[int], tuple[str, str]]  # hand-written start and goal strings
    successors: hw.Successors  # hand-written moves
    length: int  # known length of a shortest solution
    reachable_states: int  # known number of states reachable from the start
    spec_defaults: bool = False  # the size is the spec's default: load the spec with no overrides

    @property
    def overrides(self) -> dict[str, str]:
        return {} if self.spec_defaults else {self.param: str(self.size)}

    @property
    def instance(self) -> str:
        return f"{self.param}={self.size}"


CASES: dict[str, Case] = {
    # shortest solution n*n + 2n moves
    "frog": Case(
        name="frog",
        spec=SPECS / "frog.puz",
        param="n",
        size=8,
        shortest=hw.frog_shortest,
        reachable=hw.frog_reachable,
        start_goal=hw.frog_start_goal,
        successors=hw.frog_successors,
        length=80,
        reachable_states=5093,
    ),
    # n moves (n >= 3); (2n+1) * C(2n, n) reachable states
    "oshidori": Case(
        name="oshidori",
        spec=SPECS / "oshidori.puz",
        param="n",
        size=6,
        shortest=hw.oshidori_shortest,
        reachable=hw.oshidori_reachable,
        start_goal=hw.oshidori_start_goal,
        successors=hw.oshidori_successors,
        length=6,
        reachable_states=12012,
    ),
    # 2k moves; (2k+1) * C(2k, k) reachable states
    "white_black": Case(
        name="white_black",
        spec=SPECS / "white_black.puz",
        param="k",
        size=5,
        shortest=hw.white_black_shortest,
        reachable=hw.white_black_reachable,
        start_goal=hw.white_black_start_goal,
        successors=hw.white_black_successors,
        length=10,
        reachable_states=2772,
    ),
    # 4 x 3 board, three knights a side (the spec's defaults); every arrangement is reachable
    "knights": Case(
        name="knights",
        spec=SPECS / "knights.puz",
        param="rows",
        size=4,
        shortest=hw.knights_shortest,
        reachable=hw.knights_reachable,
        start_goal=hw.knights_start_goal,
        successors=hw.knights_successors,
        length=16,
        reachable_states=18480,
        spec_defaults=True,
    ),
}
