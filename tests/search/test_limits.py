"""A stop (SIGTERM, a time limit, Ctrl-C) that comes while C code has called back into Python
(LLVM into numba, while the kernel compiles) is not raised there, where ctypes would print
the exception as a traceback and swallow it, leaving the compiler half done: it is raised as
soon as the callback has returned."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest
from puzint.search.limits import TICK, UNINTERRUPTIBLE, LimitReached, Limits

pytestmark = pytest.mark.skipif(
    not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread(),
    reason="the limits watch from signals on POSIX, in the main thread",
)


def called_back_into(signum: int, finished: list[bool]) -> None:
    """Stands for llvmlite's hook: the signal comes while it runs; it must run to its end."""
    os.kill(os.getpid(), signum)
    for _ in range(1000):  # the handler runs between these bytecodes
        pass
    finished.append(True)


@pytest.fixture(autouse=True)
def uninterruptible() -> object:
    UNINTERRUPTIBLE.add(called_back_into.__code__)
    yield
    UNINTERRUPTIBLE.discard(called_back_into.__code__)


def wait_for_a_tick() -> None:
    for _ in range(1000):
        time.sleep(0.01)


@pytest.mark.parametrize(
    ("signum", "raised"), [(signal.SIGTERM, LimitReached), (signal.SIGINT, KeyboardInterrupt)], ids=["term", "int"]
)
def test_a_stop_inside_a_callback_waits_for_it_to_return(signum: int, raised: type[BaseException]) -> None:
    finished: list[bool] = []
    limits = Limits()
    with pytest.raises(raised), limits.armed():
        called_back_into(signum, finished)
        assert finished == [True]
        wait_for_a_tick()
    assert finished == [True]
    assert limits.pending is None
    assert limits.tripped == ("stopped by SIGTERM" if signum == signal.SIGTERM else None)


def test_a_poll_raises_a_stop_that_waited() -> None:
    finished: list[bool] = []
    limits = Limits()
    with pytest.raises(LimitReached, match="stopped by SIGTERM"), limits.armed():
        signal.setitimer(signal.ITIMER_REAL, 0)  # no tick: the search's next poll raises it
        called_back_into(signal.SIGTERM, finished)
        limits.check(0)
    assert finished == [True]


def test_a_stop_inside_a_garbage_collector_callback_waits_for_it_to_return() -> None:
    """Python prints and swallows what a gc callback raises: the stop is kept for later."""
    import gc

    finished: list[bool] = []

    def collecting(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and not finished:
            os.kill(os.getpid(), signal.SIGTERM)
            for _ in range(1000):
                pass
            finished.append(True)

    limits = Limits()
    gc.callbacks.append(collecting)
    try:
        with pytest.raises(LimitReached, match="stopped by SIGTERM"), limits.armed():
            signal.setitimer(signal.ITIMER_REAL, 0)  # no tick (it could land in another such callback)
            gc.collect()
            assert finished == [True]  # the callback ran to its end
            limits.check(0)  # the search's next poll raises the stop
    finally:
        gc.callbacks.remove(collecting)
    assert limits.pending is None


@pytest.mark.parametrize("where", ["finaliser", "weak set"])
def test_a_stop_inside_a_finaliser_or_a_weak_reference_callback_waits(where: str) -> None:
    """Python prints and swallows what `__del__` or a weak reference's callback raises (a
    SIGTERM landed in WeakSet's `_remove` once): the stop is kept for the next poll."""
    import weakref

    finished: list[bool] = []

    class Dying:
        def __del__(self) -> None:
            if where == "finaliser":
                os.kill(os.getpid(), signal.SIGTERM)
                for _ in range(1000):
                    pass
                finished.append(True)

    class Watched(weakref.WeakSet):  # type: ignore[type-arg]
        def __init__(self) -> None:
            super().__init__()
            remove = self._remove  # type: ignore[attr-defined]

            def _remove(item: object) -> None:
                os.kill(os.getpid(), signal.SIGTERM)
                for _ in range(1000):
                    pass
                remove(item)
                finished.append(True)

            _remove.__code__ = _remove.__code__.replace(co_filename=weakref.__file__)
            self._remove = _remove

    limits = Limits()
    with pytest.raises(LimitReached, match="stopped by SIGTERM"), limits.armed():
        signal.setitimer(signal.ITIMER_REAL, 0)
        dying = Dying()
        watched = Watched()
        if where == "weak set":
            watched.add(dying)
        del dying
        assert finished == [True]
        limits.check(0)
    assert limits.pending is None


def test_a_stop_elsewhere_is_raised_at_once() -> None:
    limits = Limits()
    with pytest.raises(LimitReached, match="stopped by SIGTERM"), limits.armed():
        os.kill(os.getpid(), signal.SIGTERM)
        for _ in range(1000):
            pass
        pytest.fail("the stop did not come")


def test_the_kernel_marks_llvms_callbacks() -> None:
    from puzint.kernel import installed

    if not installed():
        pytest.skip("numba is not installed")
    from llvmlite.binding.executionengine import ExecutionEngine
    from puzint.kernel.compiling import jit  # noqa: F401 - importing it marks them

    assert ExecutionEngine._raw_object_cache_notify.__code__ in UNINTERRUPTIBLE
    assert ExecutionEngine._raw_object_cache_getbuffer.__code__ in UNINTERRUPTIBLE


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="POSIX timers")
def test_the_first_tick_comes_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    # the race forks its copy at a tick set for the moment it is due (engines/race.py)
    armed: list[tuple[float, float]] = []
    setitimer = signal.setitimer

    def recorded(which: int, first: float, every: float = 0.0) -> tuple[float, float]:
        armed.append((first, every))
        return setitimer(which, first, every)

    monkeypatch.setattr(signal, "setitimer", recorded)
    with Limits().armed(first_tick=0.01):
        pass
    with Limits().armed():
        pass
    assert armed == [(0.01, TICK), (0.0, 0.0), (TICK, TICK), (0.0, 0.0)]


def test_a_limit_met_while_numba_compiles_says_where_the_time_went(monkeypatch: pytest.MonkeyPatch) -> None:
    """No kernel is compiled here: a stand-in for numba's compiler module, and a frame whose
    code claims its file, as the stack holds while numba compiles."""
    import sys
    import types

    from puzint.search.limits import said_where

    compiler = types.ModuleType("numba.core.compiler")
    compiler.__file__ = "/site-packages/numba/core/compiler.py"
    namespace: dict[str, object] = {}
    exec(compile("def compile_extra(inner):\n    return inner()\n", compiler.__file__, "exec"), namespace)
    compile_extra = namespace["compile_extra"]
    reason = "time limit of 10 s reached"
    monkeypatch.delitem(sys.modules, "numba.core.compiler", raising=False)
    assert said_where(reason, sys._getframe()) == reason  # numba not even imported
    monkeypatch.setitem(sys.modules, "numba.core.compiler", compiler)
    assert said_where(reason, sys._getframe()) == reason  # searching, not compiling
    inside = compile_extra(lambda: sys._getframe())  # type: ignore[operator]
    assert said_where(reason, inside) == (
        "time limit of 10 s reached while numba compiled the kernel "
        "(once: a second run loads it compiled, and searches at once)"
    )
