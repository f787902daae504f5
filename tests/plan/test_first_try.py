"""Python's first try before the kernel (one core: no race): a fraction of a second where the
kernel is compiled; where it is not, for as long as its compile in the background takes, and
no longer. The try's clock and timer are the test's own: nothing here waits on time passing."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from puzint.kernel import installed
from puzint.kernel.where import cache_name
from puzint.plan import first_try, race
from puzint.plan.background import BackgroundCompile
from puzint.plan.first_try import FirstTry, Next
from puzint.runner import load, search
from puzint.search import Limits
from puzint.search.limits import LimitReached

from tests.conftest import SPECS


class Compiling:
    """A stand-in for the background compile: it ends when the test says so."""

    def __init__(self) -> None:
        self.done = False

    def running(self) -> bool:
        return not self.done


class Clock:
    """The time as the test sets it."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Timer:
    """A timer that fires when the test says so (`fire`), or never."""

    def __init__(self, seconds: float, then: Callable[[], None]):
        self.seconds, self.then = seconds, then
        self.started = self.cancelled = False

    def start(self) -> None:
        self.started = True

    def cancel(self) -> None:
        self.cancelled = True

    def fire(self) -> None:
        self.then()


def a_try(seconds: float, choose: Callable[[], Next], run: Limits | None = None) -> tuple[FirstTry, Clock, list[Timer]]:
    clock, timers = Clock(), []

    def timer(seconds: float, then: Callable[[], None]) -> Timer:
        timers.append(Timer(seconds, then))
        return timers[-1]

    return FirstTry(run or Limits(), seconds, choose, clock, timer), clock, timers


def poll(trying: FirstTry) -> str | None:
    """One poll of the try's limits, as a search makes; the reason it ended, if it did."""
    try:
        trying.limits.check(0)
    except LimitReached as exc:
        return exc.reason
    return None


def test_a_try_where_the_next_engine_is_ready_lasts_its_seconds() -> None:
    trying, clock, (timer,) = a_try(0.05, lambda: Next("compiled"))
    with trying.watched():
        assert timer.started and timer.seconds == 0.05
        clock.now = 0.04
        assert poll(trying) is None
        timer.fire()
        clock.now = 0.06
        assert poll(trying) == "not finished in 0.05 s"
    assert trying.stopped_by_itself(True) and timer.cancelled


def test_a_try_that_no_engine_could_take_over_goes_on() -> None:
    trying, clock, (timer,) = a_try(0.05, lambda: Next(None))
    with trying.watched():
        timer.fire()
        clock.now = 100.0
        assert poll(trying) is None


def test_a_try_goes_on_while_the_kernel_compiles_and_ends_when_it_is_compiled() -> None:
    compiling = Compiling()
    trying, clock, (timer,) = a_try(0.05, lambda: Next("compiled", compile=lambda: compiling))  # type: ignore[arg-type,return-value]
    with trying.watched():
        timer.fire()
        clock.now = 0.5
        assert poll(trying) is None and trying.compiling is compiling
        compiling.done = True
        clock.now = 0.75
        assert poll(trying) == "not finished in 0.8 s, while the kernel was compiled in the background"
    assert trying.stopped_by_itself(True)


def test_a_slow_choice_holds_the_search_up_once_and_briefly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(first_try, "CHOOSING", 0.0)  # how long the one wait lasts is not what is tested
    waits: list[float | None] = []
    trying, clock, (timer,) = a_try(0.05, lambda: Next("compiled"))
    wait = trying._chosen.wait

    def counted(timeout: float | None = None) -> bool:
        waits.append(timeout)
        return wait(timeout)

    monkeypatch.setattr(trying._chosen, "wait", counted)
    with trying.watched():
        clock.now = 0.06  # the try's time is up, and the choice is still being made: the search goes on
        assert [poll(trying) for _ in range(50)] == [None] * 50
        assert waits == [0.0]  # it waited once, not at every poll
        timer.fire()  # the choice is made
        assert poll(trying) == "not finished in 0.05 s"


def test_a_short_try_chooses_nothing_and_starts_no_compile() -> None:
    asked: list[str] = []
    trying, clock, (timer,) = a_try(0.2, lambda: asked.append("chosen") or Next(None))  # type: ignore[func-returns-value]
    with trying.watched():
        clock.now = 0.1  # the search ended here
    assert timer.cancelled and asked == []


def test_a_compile_that_cannot_start_leaves_a_few_seconds_more() -> None:
    def refused() -> BackgroundCompile:
        raise OSError("no processes left")

    trying, clock, (timer,) = a_try(0.05, lambda: Next("compiled", compile=refused))
    with trying.watched():
        timer.fire()
        clock.now = first_try.SECONDS_NO_CACHE - 0.01
        assert poll(trying) is None
        clock.now = first_try.SECONDS_NO_CACHE + 0.01
        assert poll(trying) == f"not finished in {first_try.SECONDS_NO_CACHE:g} s"


def test_the_run_s_own_limits_hold_in_the_try() -> None:
    run = Limits(max_states=10)
    trying, _, _ = a_try(60.0, lambda: Next("compiled"), run)
    with pytest.raises(LimitReached), trying.watched():
        trying.limits.check(100)
    assert not trying.stopped_by_itself(True)
    assert run.tripped == "state limit of 10 reached"  # the run's stop: no other engine runs


def test_a_caller_s_own_end_holds_in_the_try() -> None:
    """play stops a hint's search through `until`: the try keeps it (it once replaced it)."""
    run = Limits(until=lambda: "the player moved on")
    trying, _, _ = a_try(60.0, lambda: Next("compiled"), run)
    with trying.watched():
        assert poll(trying) == "the player moved on"


@pytest.mark.slow
@pytest.mark.skipif(not installed(), reason="numba is not installed")
def test_a_cold_kernel_is_compiled_in_the_background_while_python_searches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The whole way, in an empty cache: about a minute and a half (on one core: where there
    are two, the kernel is compiled in the race's copy, tests/plan/test_race.py)."""
    monkeypatch.setattr(race, "possible", lambda share=None: False)
    monkeypatch.setenv("PUZINT_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("PUZINT_PREBUILT", "0")
    compiled = load(SPECS / "knights.puz", {"rows": "9"})  # 5,920,200 states: minutes in Python
    result = search(compiled, reach=True, limits=Limits())
    assert (result.engine, result.tried_first) == ("compiled", "python")
    assert result.tried_first_stopped is not None
    assert result.tried_first_stopped.endswith("while the kernel was compiled in the background")
    assert list((tmp_path / cache_name()).glob("*.nbi"))
    again = search(compiled, reach=True, limits=Limits(), engine="compiled")  # from the cache now
    assert result.reachable == again.reachable is not None and again.reachable > 0
