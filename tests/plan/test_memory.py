"""What a race leaves for the next run of the same question (plan/memory.py): the engine that
won it by a clear margin is asked alone, with no race, where it can answer at once."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest
from puzint.compiler import CompiledPuzzle
from puzint.engines import Query, registry
from puzint.kernel import installed
from puzint.plan import memory as memory_module
from puzint.plan import race, table
from puzint.runner import load, search
from puzint.search import Limits
from puzint.solutions import enumerate_solutions

from tests.conftest import DEAR_MOVES, SPECS, compiled_from

pytestmark = [
    pytest.mark.skipif(not installed(), reason="numba is not installed"),
    pytest.mark.skipif(not race.possible(), reason="a race needs a fork and two cores"),
]


@pytest.fixture
def memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Remembering turned on (the suite turns it off), in a file of this test's own."""
    path = tmp_path / "answered.json"
    monkeypatch.setattr(memory_module, "_path", lambda make: path)
    return path


def never_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    """A copy that never answers, forked at Python's first poll (a search that ends before
    `table.DELAY`, as knights on 4 rows does, would otherwise fork none)."""
    monkeypatch.setattr(race, "_other_side", lambda *args: time.sleep(60))
    monkeypatch.setattr(table, "DELAY", 0.0)


def margin(monkeypatch: pytest.MonkeyPatch, clear: bool) -> None:
    """Every race won by a clear margin, or none (`clear_margin` has tests of its own)."""
    monkeypatch.setattr(race.Race, "clear_margin", lambda *args: clear)


def test_the_engine_that_won_by_a_clear_margin_is_asked_alone_next_time(
    memory: Path, pids: list[int], slow_python: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    margin(monkeypatch, True)
    compiled = load(SPECS / "knights.puz", {"rows": "5"})
    first = search(compiled, reach=True)
    assert (first.engine, first.tried_first, first.chosen) == ("compiled", "python", None)
    again = search(load(SPECS / "knights.puz", {"rows": "5"}), reach=True)
    assert (again.engine, again.tried_first, again.chosen) == ("compiled", None, memory_module.REMEMBERED)
    assert again.reachable == first.reachable == 100_100 and again.layers == first.layers
    assert len(pids) == 1  # the second run made no copy


def test_a_close_race_is_run_again(
    memory: Path, pids: list[int], slow_python: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    margin(monkeypatch, False)
    compiled = load(SPECS / "knights.puz", {"rows": "5"})
    first = search(compiled, reach=True)
    assert (first.engine, first.chosen) == ("compiled", None)
    again = search(load(SPECS / "knights.puz", {"rows": "5"}), reach=True)
    assert (again.engine, again.tried_first, again.chosen) == ("compiled", "python", None)
    assert len(pids) == 2 and (not memory.exists() or json.loads(memory.read_text()) == {})


def test_python_answering_first_by_a_clear_margin_is_asked_alone_next_time(
    memory: Path, pids: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    never_answers(monkeypatch)
    monkeypatch.setattr(race.Race, "ran_beside", lambda self: True)  # as if the copy had loaded its engine
    margin(monkeypatch, True)
    compiled = load(SPECS / "knights.puz", {"rows": "4"})
    first = search(compiled, reach=True)
    assert (first.engine, first.chosen, len(pids)) == ("python", None, 1)
    again = search(compiled, reach=True)
    assert (again.engine, again.chosen, again.reachable, len(pids)) == ("python", memory_module.REMEMBERED, 18_480, 1)


def test_each_question_is_remembered_apart(memory: Path, pids: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    never_answers(monkeypatch)
    monkeypatch.setattr(race.Race, "ran_beside", lambda self: True)
    margin(monkeypatch, True)
    search(load(SPECS / "knights.puz", {"rows": "4"}), reach=True)
    other_rows = search(load(SPECS / "knights.puz", {"rows": "5"}), reach=True)
    other_question = search(load(SPECS / "knights.puz", {"rows": "4"}), count=True)
    assert other_rows.chosen is None and other_question.chosen is None
    assert len(pids) == 3
    assert len(json.loads(memory.read_text())) == 3


def test_every_goal_state_walked_by_the_engine_that_answered_first(
    memory: Path, slow_python: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    margin(monkeypatch, True)
    first = enumerate_solutions(load(SPECS / "number_circle.puz", {"n": "10"}), Limits())
    assert (first.engine, first.tried_first, first.chosen) == ("compiled", "python", None)
    again = enumerate_solutions(load(SPECS / "number_circle.puz", {"n": "10"}), Limits())
    assert (again.engine, again.tried_first, again.chosen) == ("compiled", None, memory_module.REMEMBERED)
    assert again.count == first.count == 288


def test_a_copy_that_fails_leaves_nothing_remembered(memory: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    compiled = load(SPECS / "knights.puz", {"rows": "5"})
    memory_module.remember(compiled, Query.of(compiled, reach=True), "compiled")
    monkeypatch.setattr(registry.COMPILED, "compiled_already", lambda *args: False)  # a kernel to compile: a race
    monkeypatch.setattr(race, "_other_side", lambda *args: os._exit(3))
    monkeypatch.setattr(race.Race, "ran_beside", lambda self: True)
    result = search(compiled, reach=True)
    assert (result.engine, result.chosen) == ("python", None)
    assert json.loads(memory.read_text()) == {}


def test_a_hand_over_forgets_the_engine(memory: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry.COMPILED, "compiled_already", lambda *args: True)
    compiled = compiled_from(DEAR_MOVES)
    memory_module.remember(compiled, Query.of(compiled), "compiled")
    result = search(compiled)
    assert (result.engine, result.tried_first, result.cost) == ("python", "compiled", 12 * 999999999999999999)
    assert json.loads(memory.read_text()) == {}


def test_a_kernel_not_compiled_yet_is_raced_not_asked_alone(
    memory: Path, pids: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    compiled = load(SPECS / "knights.puz", {"rows": "4"})
    memory_module.remember(compiled, Query.of(compiled, reach=True), "compiled")
    monkeypatch.setattr(registry.COMPILED, "compiled_already", lambda *args: False)
    never_answers(monkeypatch)
    result = search(compiled, reach=True)
    assert (result.engine, result.chosen, len(pids)) == ("python", None, 1)


def timed(
    race_: race.Race,
    python: tuple[float, float | None, float | None],
    copies: list[tuple[float, float | None, float | None]],
) -> None:
    """A race's recorded times: Python's start, its first poll (None: it never polled) and when
    it gave way; each copy's fork, the first poll of its search, its answer (None: not yet)."""
    race_.started, race_.python_began, race_.gave_way_at = python
    for copy, (forked, began, answered) in zip(race_.copies, copies, strict=True):
        copy.forked_at, copy.began, copy.answered_at = forked, began, answered


def a_race(*beside: str) -> race.Race:
    return race.Race(Limits(), beside, lambda name: lambda: None, lambda engine: None, lambda e, limits: None)


def test_a_margin_is_clear_where_every_other_engine_had_searched_twice_the_winner_s_search() -> None:
    # CP-SAT (forked at 0.01, searching from 0.30) answers at 0.32: a search of 0.02 s; the
    # kernel had searched from 0.25 (0.07 s) and Python from 0.05 to 0.28 (0.23 s)
    racing = a_race("compiled", "cpsat")
    timed(racing, (0.0, 0.05, 0.28), [(0.01, 0.25, None), (0.01, 0.30, 0.32)])
    assert racing.clear_margin(racing.copies[1], table.MARGIN)
    # the kernel (searching from 0.25) answers at 1.65 (1.4 s); CP-SAT had searched 1.35 s: not twice
    timed(racing, (0.0, 0.05, 0.28), [(0.01, 0.25, 1.65), (0.01, 0.30, None)])
    assert not racing.clear_margin(racing.copies[0], table.MARGIN)


def test_an_engine_s_loading_is_not_set_against_another_s_search() -> None:
    # recorded under load: Python was still loading (numpy, the fill model; it never polled)
    # when it gave way at 0.50, after the kernel had loaded; the kernel's search took 2 ms. The
    # kernel is not clearly faster: Python had not searched at all
    racing = a_race("compiled")
    timed(racing, (0.0, None, 0.50), [(0.01, 0.49, 0.492)])
    assert not racing.clear_margin(racing.copies[0], table.MARGIN)
    # had Python searched from 0.10 to 0.50 (0.4 s) without answering, the kernel's 2 ms is clear
    timed(racing, (0.0, 0.10, 0.50), [(0.01, 0.49, 0.492)])
    assert racing.clear_margin(racing.copies[0], table.MARGIN)
    # a copy still loading when the winner answered had searched none of it
    racing = a_race("compiled", "cpsat")
    timed(racing, (0.0, 0.10, 0.50), [(0.01, 0.49, 0.492), (0.01, None, None)])
    assert not racing.clear_margin(racing.copies[0], table.MARGIN)


def test_python_s_margin_is_clear_only_where_the_others_had_searched_twice_its_search() -> None:
    racing = a_race("compiled")
    timed(racing, (0.0, None, None), [(0.01, None, None)])
    assert not racing.clear_margin(None, table.MARGIN, 0.5)  # the copy had not begun its search
    timed(racing, (0.0, 0.40, None), [(0.01, 0.20, None)])
    assert racing.clear_margin(None, table.MARGIN, 0.5)  # Python searched 0.1 s, the copy 0.3 s
    timed(racing, (0.0, None, None), [(0.01, 0.20, None)])
    assert not racing.clear_margin(None, table.MARGIN, 0.5)  # Python never polled: its whole 0.5 s counts
    racing.copies[0].outcome = race.Outcome("none", "compiled")
    timed(racing, (0.0, 0.40, None), [(0.01, 0.20, None)])
    assert not racing.clear_margin(None, table.MARGIN, 0.5)  # no rival at all: nothing learnt


def test_won_clearly_sets_each_rival_s_search_against_margin_times_the_winner_s() -> None:
    assert race.won_clearly(0.1, [0.2, 0.3], 2.0)
    assert not race.won_clearly(0.1, [0.2, 0.19], 2.0)
    assert not race.won_clearly(0.002, [0.0], 2.0)  # a rival that had not begun its search
    assert not race.won_clearly(0.1, [], 2.0)


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "[1, 2]",
        '{"KEY": "compiled"}',
        '{"KEY": ["rm -rf /", 0]}',
        '{"KEY": ["workers", 0]}',
        '{"KEY": ["compiled", -1]}',
        '{"KEY": ["compiled", true]}',
        '{"KEY": ["compiled", 0, 1]}',
    ],
)
def test_the_file_is_read_without_trusting_it(memory: Path, text: str) -> None:
    compiled = load(SPECS / "knights.puz", {"rows": "4"})
    query = Query.of(compiled, reach=True)
    key = memory_module._key(compiled, query)
    assert key is not None
    memory.write_text(text.replace("KEY", key))
    assert memory_module.recall(compiled, query) is None
    assert search(compiled, reach=True).chosen is None


def test_what_is_not_sound_is_left_out_when_the_file_is_written(memory: Path) -> None:
    compiled = load(SPECS / "knights.puz", {"rows": "4"})
    memory.write_text(json.dumps({"a": ["workers", 0], "b": "compiled", "c": ["cpsat", 3]}))
    memory_module.remember(compiled, Query.of(compiled), "python")
    key = memory_module._key(compiled, Query.of(compiled))
    assert json.loads(memory.read_text()) == {"c": ["cpsat", 3], key: ["python", 0]}


def test_a_remembered_engine_is_raced_again_after_a_few_runs(memory: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One race whose two sides were close, or that ran on a busy machine, is not kept for
    good: after `AGAIN` runs that asked it alone, the question is raced again."""
    monkeypatch.setattr(memory_module, "AGAIN", 2)
    compiled = load(SPECS / "knights.puz", {"rows": "4"})
    query = Query.of(compiled)
    memory_module.remember(compiled, query, "python")
    assert [memory_module.recall(compiled, query) for _ in range(3)] == ["python", "python", None]
    assert json.loads(memory.read_text()) == {}


def test_the_oldest_questions_are_forgotten_first(memory: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(memory_module, "KEPT", 2)
    asked = [load(SPECS / "knights.puz", {"rows": str(rows)}) for rows in (3, 4, 5)]
    for compiled in asked:
        memory_module.remember(compiled, Query.of(compiled), "python")
    kept = [memory_module.recall(c, Query.of(c)) for c in asked]
    assert kept == [None, "python", "python"]


def test_nothing_is_remembered_when_turned_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PUZINT_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("PUZINT_REMEMBER", "0")
    compiled = load(SPECS / "knights.puz", {"rows": "4"})
    memory_module.remember(compiled, Query.of(compiled), "python")
    assert list(tmp_path.iterdir()) == []
    monkeypatch.setenv("PUZINT_REMEMBER", "1")
    memory_module.remember(compiled, Query.of(compiled), "python")
    assert memory_module.recall(compiled, Query.of(compiled)) == "python"
    assert [p.name for p in tmp_path.iterdir()] == ["answered.json"]


def test_a_puzzle_without_a_spec_s_text_is_not_remembered(memory: Path) -> None:
    compiled: Any = load(SPECS / "knights.puz", {"rows": "4"})
    compiled.puzzle = compiled.puzzle._replace(source="")
    assert memory_module._key(compiled, Query.of(compiled)) is None


def test_a_link_or_a_huge_file_is_not_read(memory: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    compiled = load(SPECS / "knights.puz", {"rows": "4"})
    query = Query.of(compiled)
    key = memory_module._key(compiled, query)
    real = memory.with_name("elsewhere.json")
    real.write_text(json.dumps({key: ["python", 0]}))
    memory.symlink_to(real)
    assert memory_module.recall(compiled, query) is None
    memory.unlink()
    os.mkfifo(memory)  # reading it would wait for a writer for ever
    assert memory_module.recall(compiled, query) is None
    memory.unlink()
    monkeypatch.setattr(memory_module, "MOST_BYTES", 10)
    memory.write_text(json.dumps({key: ["python", 0]}))
    assert memory_module.recall(compiled, query) is None
    monkeypatch.setattr(memory_module, "MOST_BYTES", 1 << 20)
    assert memory_module.recall(compiled, query) == "python"


def test_the_engines_remembered_are_those_a_race_names() -> None:
    assert set(memory_module.ENGINES) == {"python", *registry.RACING} == {"python", "compiled", "cpsat"}


# ---- the file and its folder (files.py): nothing read from, or written through, what another user could have put there


@pytest.fixture(autouse=True)
def every_warning_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    from puzint import files

    monkeypatch.setattr(files, "_warned", set())


OTHER_USER = os.getuid() + 4242 if hasattr(os, "getuid") else 0
NOT_REMEMBERED = "puzint: warning: the engine that answered first is not remembered"


def remembered_in(base: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[CompiledPuzzle, Query]:
    """Remembering turned on, with `base` as the cache's folder; a question to remember."""
    monkeypatch.setenv("PUZINT_CACHE_DIR", str(base))
    monkeypatch.setenv("PUZINT_REMEMBER", "1")
    compiled = load(SPECS / "knights.puz", {"rows": "4"})
    return compiled, Query.of(compiled)


def test_a_file_nested_too_deep_to_parse_is_an_empty_table(memory: Path) -> None:
    compiled = load(SPECS / "knights.puz", {"rows": "4"})
    query = Query.of(compiled)
    memory.write_text("[" * 100_000)  # json's parser recurses once a bracket: RecursionError
    assert memory_module.recall(compiled, query) is None
    memory_module.remember(compiled, query, "python")
    assert json.loads(memory.read_text()) == {memory_module._key(compiled, query): ["python", 0]}


def test_a_linked_base_is_not_used_and_said_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real = tmp_path / "real"
    real.mkdir(mode=0o700)
    (real / "answered.json").write_text("the user's own\n")
    (tmp_path / "base").symlink_to(real)
    compiled, query = remembered_in(tmp_path / "base", monkeypatch)
    memory_module.remember(compiled, query, "python")
    assert memory_module.recall(compiled, query) is None
    assert (real / "answered.json").read_text() == "the user's own\n" and sorted(os.listdir(real)) == ["answered.json"]
    assert capsys.readouterr().err == f"{NOT_REMEMBERED} ({tmp_path / 'base'} is a symbolic link)\n"


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="owners and modes are POSIX's")
def test_a_base_others_can_write_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    base = tmp_path / "base"
    base.mkdir()
    compiled, query = remembered_in(base, monkeypatch)
    (base / "answered.json").write_text(json.dumps({memory_module._key(compiled, query): ["cpsat", 0]}))  # planted
    base.chmod(0o777)
    assert memory_module.recall(compiled, query) is None
    memory_module.remember(compiled, query, "python")
    assert json.loads((base / "answered.json").read_text()) == {memory_module._key(compiled, query): ["cpsat", 0]}
    assert capsys.readouterr().err == (
        f"{NOT_REMEMBERED} ({base} can be written by other users (drwxrwxrwx; chmod go-w makes it private))\n"
    )


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="owners and modes are POSIX's")
def test_another_users_base_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    base = tmp_path / "base"
    base.mkdir(mode=0o700)
    compiled, query = remembered_in(base, monkeypatch)
    if os.getuid() == 0:  # CI: root gives the folder away (root's own would be trusted, as /tmp's owner is)
        os.chown(base, OTHER_USER, -1)
    else:  # elsewhere: the user becomes another one, to whom the folder (and its parents) are foreign
        monkeypatch.setattr(os, "getuid", lambda: OTHER_USER)
    memory_module.remember(compiled, query, "python")
    assert not (base / "answered.json").exists()
    err = capsys.readouterr().err
    assert err.startswith(f"{NOT_REMEMBERED} (") and "belongs to another user (uid " in err and err.count("\n") == 1


def test_a_link_at_the_file_s_name_is_neither_read_nor_written_through(
    memory: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    compiled = load(SPECS / "knights.puz", {"rows": "4"})
    query = Query.of(compiled)
    victim = memory.with_name("victim")
    victim.write_text(json.dumps({memory_module._key(compiled, query): ["cpsat", 0]}))
    memory.symlink_to(victim)
    assert memory_module.recall(compiled, query) is None
    memory_module.remember(compiled, query, "python")
    assert memory.is_symlink() and json.loads(victim.read_text()) == {memory_module._key(compiled, query): ["cpsat", 0]}
    assert capsys.readouterr().err == f"{NOT_REMEMBERED} ({memory} is a symbolic link)\n"


def test_a_directory_at_the_file_s_name_is_left_alone(memory: Path, capsys: pytest.CaptureFixture[str]) -> None:
    compiled = load(SPECS / "knights.puz", {"rows": "4"})
    memory.mkdir()
    memory_module.remember(compiled, Query.of(compiled), "python")
    assert memory.is_dir() and list(memory.iterdir()) == []
    assert capsys.readouterr().err == f"{NOT_REMEMBERED} ({memory} is not a regular file)\n"


def test_a_file_that_cannot_be_written_is_said_once(
    memory: Path, capsys: pytest.CaptureFixture[str], read_only_file_system: None
) -> None:
    compiled = load(SPECS / "knights.puz", {"rows": "4"})
    memory_module.remember(compiled, Query.of(compiled), "python")
    memory_module.remember(compiled, Query.of(compiled, reach=True), "python")
    assert not memory.exists()
    assert capsys.readouterr().err == f"{NOT_REMEMBERED} (cannot write {memory}: Read-only file system)\n"


def test_the_heuristic_that_guides_a_question_is_part_of_its_name() -> None:
    # `--heuristic derived` and `--heuristic none` search the same text differently: an engine
    # remembered for one is not asked alone for the other
    compiled = load(SPECS / "eight_puzzle.puz")
    bare = CompiledPuzzle(compiled.puzzle._replace(heuristic=None, heuristic_slots=0))
    query = Query.of(compiled)
    assert memory_module._key(compiled, query) != memory_module._key(bare, query)
    assert memory_module._key(compiled, query) == memory_module._key(load(SPECS / "eight_puzzle.puz"), query)
