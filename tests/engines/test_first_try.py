"""Python's first try before the kernel: a fraction of a second where the kernel is compiled;
where it is not, for as long as its compile in the background takes, and no longer."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from puzint.engines import first_try, race
from puzint.engines.background import BackgroundCompile
from puzint.engines.first_try import FirstTry, Next
from puzint.kernel import installed
from puzint.kernel.where import cache_name
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


def wait_out(trying: FirstTry, seconds: float) -> str | None:
    """Poll the try's limits for `seconds` as a search would; the reason it ended, if it did."""
    end = time.monotonic() + seconds
    with trying.watched():
        try:
            while time.monotonic() < end:
                trying.limits.check(0)
                time.sleep(0.01)
        except LimitReached as exc:
            return exc.reason
    return None


def test_a_try_where_the_next_engine_is_ready_lasts_its_seconds() -> None:
    trying = FirstTry(Limits(), 0.05, lambda: Next("compiled"))
    assert wait_out(trying, 2.0) == "not finished in 0.05 s"
    assert trying.stopped_by_itself(True)


def test_a_try_that_no_engine_could_take_over_goes_on() -> None:
    trying = FirstTry(Limits(), 0.05, lambda: Next(None))
    assert wait_out(trying, 0.5) is None


def test_a_try_goes_on_while_the_kernel_compiles_and_ends_when_it_is_compiled() -> None:
    compiling = Compiling()
    trying = FirstTry(Limits(), 0.05, lambda: Next("compiled", compile=lambda: compiling))  # type: ignore[arg-type,return-value]
    started = time.monotonic()  # before the timer starts: it fires 0.5 s after its own start
    threading.Timer(0.5, setattr, (compiling, "done", True)).start()
    reason = wait_out(trying, 5.0)
    assert time.monotonic() - started >= 0.5  # not before the compile ended
    assert trying.compiling is compiling
    assert reason is not None and reason.endswith("s, while the kernel was compiled in the background")
    assert trying.stopped_by_itself(True)


def test_a_slow_choice_holds_the_search_up_once_and_briefly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(first_try, "CHOOSING", 0.1)

    def slowly() -> Next:
        time.sleep(1.0)
        return Next("compiled")

    trying = FirstTry(Limits(), 0.05, slowly)
    polls = 0
    started = time.monotonic()
    with trying.watched(), pytest.raises(LimitReached) as stopped:
        while True:
            trying.limits.check(0)
            polls += 1
            time.sleep(0.01)
    assert stopped.value.reason == "not finished in 0.05 s"
    assert time.monotonic() - started >= 1.0
    assert polls > 30  # the search went on after waiting 0.1 s: not held up at every poll


def test_a_short_try_chooses_nothing_and_starts_no_compile() -> None:
    asked: list[str] = []
    trying = FirstTry(Limits(), 0.2, lambda: asked.append("chosen") or Next(None))  # type: ignore[func-returns-value]
    with trying.watched():
        pass
    time.sleep(0.4)
    assert asked == []


def test_a_compile_that_cannot_start_leaves_a_few_seconds_more() -> None:
    def refused() -> BackgroundCompile:
        raise OSError("no processes left")

    trying = FirstTry(Limits(), 0.05, lambda: Next("compiled", compile=refused))
    assert wait_out(trying, 5.0) == f"not finished in {first_try.SECONDS_NO_CACHE:g} s"


def test_the_run_s_own_limits_hold_in_the_try() -> None:
    run = Limits(max_states=10)
    trying = FirstTry(run, 60.0, lambda: Next("compiled"))
    with pytest.raises(LimitReached), trying.watched():
        trying.limits.check(100)
    assert not trying.stopped_by_itself(True)
    assert run.tripped == "state limit of 10 reached"  # the run's stop: no other engine runs


@pytest.mark.slow
@pytest.mark.skipif(not installed(), reason="numba is not installed")
def test_a_cold_kernel_is_compiled_in_the_background_while_python_searches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The whole way, in an empty cache: about a minute and a half (on one core: where there
    are two, the kernel is compiled in the race's copy, tests/engines/test_race.py)."""
    monkeypatch.setattr(race, "possible", lambda: False)
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
