"""A first compilation of the kernel takes a while: the run is told before it starts, and only
when the kernel's cache does not hold the code that the search needs."""

from __future__ import annotations

from pathlib import Path

import pytest
from puzint.kernel import announce, installed
from puzint.runner import load
from puzint.search import Limits

from tests.conftest import SPECS

pytestmark = pytest.mark.skipif(not installed(), reason="numba is not installed")


def told(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spec: str, machine: bool, cached: list[str]) -> list[str]:
    from puzint.kernel.where import cache_name

    base = tmp_path / f"cache{len(list(tmp_path.iterdir()))}"  # a cache of its own for each call
    cache = base / cache_name()
    cache.mkdir(parents=True)
    for name in cached:
        (cache / f"{name}-12.py311.nbi").write_bytes(b"")
    monkeypatch.setenv("PUZINT_CACHE_DIR", str(base))
    monkeypatch.setenv("PUZINT_PREBUILT", "0")  # the code compiled at install set aside
    notices: list[str] = []
    limits = Limits()
    limits.notice = notices.append
    announce(load(SPECS / f"{spec}.puz"), limits, machine=machine)
    return notices


def test_an_empty_cache_is_announced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    notices = told(tmp_path, monkeypatch, "jealous_husbands", True, [])
    assert notices == ["compiling the search kernel: about half a minute, once; later runs load it at once"]


def test_word_tables_take_a_few_seconds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    notices = told(tmp_path, monkeypatch, "frog", False, ["entry._entry"])
    assert notices == ["compiling the search kernel: a few seconds, once; later runs load it at once"]


def test_nothing_is_said_when_the_code_is_cached(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert told(tmp_path, monkeypatch, "jealous_husbands", True, ["entry._entry"]) == []
    assert told(tmp_path, monkeypatch, "frog", False, ["core.run_layer"]) == []
    assert told(tmp_path, monkeypatch, "frog", True, ["core.run_layer"]) != []  # a walk needs the machine


def test_caches_of_other_versions_are_forgotten_after_a_month(tmp_path: Path) -> None:
    import os
    import time

    from puzint.kernel.compiling.cache import forget_unused

    old, recent, mine = (tmp_path / f"kernel-{c * 16}" for c in "abc")
    foreign = tmp_path / "kernel-something-else"  # not the kernel's naming: never touched
    for d in (old, recent, mine, foreign):
        d.mkdir()
        (d / "code.nbi").write_bytes(b"")
    long_ago = time.time() - 40 * 86400
    for d in (old, mine, foreign):
        os.utime(d, (long_ago, long_ago))
    forget_unused(tmp_path, keep=mine)
    assert sorted(d.name for d in tmp_path.iterdir()) == sorted(d.name for d in (recent, mine, foreign))
