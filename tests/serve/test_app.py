"""The playground's server through the ASGI test client: what it refuses (Host, Origin, a site
that is not its own, bodies too large, files not named), and what it answers (the diagnostics
at the language server's places, frog played to its goal, undo, redo, restart, hints, solves).

Expected answers come from the puzzles: frog with n frogs a side takes n*(n+2) moves (the
plain solver of tests/plain/ agrees: 15 for n=3), Sokoban's default level takes 11 pushes and
walks (tests/plain/sokoban.py)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from puzint.catalogue import catalogue_dir
from puzint.lsp.analysis import analyse
from puzint.serve.app import Settings, make_app
from puzint.serve.guard import allowed_hosts
from puzint.serve.named import Named
from starlette.testclient import TestClient

PORT = 8123
ORIGIN = {"Origin": f"http://127.0.0.1:{PORT}"}
SPECS = catalogue_dir()
assert SPECS is not None
FROG = (SPECS / "frog.puz").read_text(encoding="utf-8")
MISTAKE = FROG.replace("along right\nmove slide", "along rightt\nmove slide")


def client_for(named: Named | None = None) -> Iterator[TestClient]:
    app = make_app(Settings(named=named or Named(), jobs=1), allowed_hosts("127.0.0.1", PORT))
    with TestClient(app, base_url=f"http://127.0.0.1:{PORT}") as client:
        yield client


@pytest.fixture
def client() -> Iterator[TestClient]:
    yield from client_for()


def post(client: TestClient, path: str, body: object = None) -> dict:
    response = client.post(path, content=json.dumps(body or {}), headers=ORIGIN)
    assert response.status_code == 200, response.text
    return response.json()


def test_a_request_for_another_host_is_refused(client: TestClient) -> None:
    response = client.get("/", headers={"Host": "attacker.example:8123"})
    assert response.status_code == 403
    assert "its own address" in response.text
    assert client.get("/", headers={"Host": f"localhost:{PORT}"}).status_code == 200
    assert client.get("/", headers={"Host": "127.0.0.1:9999"}).status_code == 403


def test_a_change_without_the_servers_own_origin_is_refused(client: TestClient) -> None:
    body = json.dumps({"text": FROG})
    assert client.post("/api/check", content=body).status_code == 403
    refused = client.post("/api/check", content=body, headers={"Origin": "http://attacker.example"})
    assert refused.status_code == 403
    assert "own pages (Origin)" in refused.text
    assert client.post("/api/check", content=body, headers={"Origin": "null"}).status_code == 403


def test_a_request_another_site_made_is_refused_even_to_read(client: TestClient) -> None:
    assert client.get("/gallery/frog.svg", headers={"Sec-Fetch-Site": "cross-site"}).status_code == 403
    assert client.get("/api/files", headers={"Sec-Fetch-Site": "same-origin"}).status_code == 200


def test_a_body_past_the_cap_is_refused(client: TestClient) -> None:
    big = json.dumps({"text": "#" * (300 * 1024)})
    response = client.post("/api/check", content=big, headers=ORIGIN)
    assert response.status_code == 413
    assert "256 KiB" in response.text

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it comes
        for _ in range(40):
            yield b"#" * 10_000

    assert client.post("/api/check", content=chunks(), headers=ORIGIN).status_code == 413


def test_the_page_sends_its_policy(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert '<script src="/static/app.js"' in page.text
    assert client.get("/static/app.js").status_code == 200


def test_the_diagnostics_are_the_language_servers() -> None:
    """The places the page marks are those of lsp/analysis.py, in UTF-16 units from 0."""
    for client in client_for():
        answer = post(client, "/api/check", {"text": MISTAKE, "origin": "frog"})
    expected = analyse(MISTAKE, "<edited>.puz").problems
    assert len(answer["problems"]) == len(expected) == 1
    problem, pos = answer["problems"][0], expected[0].pos
    assert (problem["line"], problem["character"]) == (pos.line - 1, pos.column - 1)
    assert problem["end_character"] - problem["character"] == pos.width == len("rightt")
    assert "no direction 'rightt'" in problem["message"]
    assert MISTAKE.split("\n")[problem["line"]][problem["character"] : problem["end_character"]] == "rightt"


def test_a_spec_that_compiles_has_no_problem_and_its_parameters(client: TestClient) -> None:
    answer = post(client, "/api/check", {"text": FROG})
    assert answer["problems"] == []
    assert answer["params"] == {"n": "3"}


def play_to_goal(client: TestClient, game: str, moves: list[dict]) -> dict:
    """Frog played by its hints (each the engine's next move of a shortest solution)."""
    view: dict = {}
    for _ in range(30):
        hint = post(client, f"/api/game/{game}/hint")
        if "why" in hint:
            break
        view = post(client, f"/api/game/{game}/play", {"index": hint["index"]})
        if view["solved"]:
            return view
    raise AssertionError(f"frog not solved: {view}")


def test_frog_is_played_to_its_goal_with_undo_redo_and_restart(client: TestClient) -> None:
    opened = post(client, "/api/game", {"text": FROG, "origin": "frog", "params": {"n": "2"}})
    game = opened["game"]
    assert opened["params"] == {"n": "2"}
    assert [m["words"] for m in opened["moves"]] == ["slide ● 2 → 3", "slide ○ 4 → 3"]
    assert re.findall(r'data-cell="([^"]+)"', opened["svg"]) == ["1", "2", "3", "4", "5"]
    solved = play_to_goal(client, game, opened["moves"])
    assert solved["played"] == 2 * (2 + 2)
    assert solved["moves"] == []
    undone = post(client, f"/api/game/{game}/undo")
    assert (undone["played"], undone["solved"], undone["undone"]) == (7, False, 1)
    redone = post(client, f"/api/game/{game}/redo")
    assert (redone["played"], redone["solved"]) == (8, True)
    restarted = post(client, f"/api/game/{game}/restart")
    assert (restarted["played"], restarted["undone"]) == (0, 8)
    assert [m["words"] for m in restarted["moves"]] == [m["words"] for m in opened["moves"]]
    assert post(client, f"/api/game/{game}/hint")["words"] in {m["words"] for m in opened["moves"]}


def test_a_move_that_is_not_listed_is_refused(client: TestClient) -> None:
    game = post(client, "/api/game", {"text": FROG})["game"]
    assert "no move 9" in post(client, f"/api/game/{game}/play", {"index": 9})["refused"]
    assert "no move" in post(client, f"/api/game/{game}/play", {"index": "0"})["refused"]
    assert client.post("/api/game/nope/play", content="{}", headers=ORIGIN).status_code == 404


def test_a_spec_with_a_mistake_says_it_with_its_caret(client: TestClient) -> None:
    answer = post(client, "/api/game", {"text": MISTAKE})
    assert "no direction 'rightt'" in answer["error"]
    assert "^^^^^^" in answer["error"]


def solve(client: TestClient, text: str, params: dict | None = None) -> tuple[list[dict], dict]:
    game = post(client, "/api/game", {"text": text, "params": params or {}})["game"]
    response = client.post(f"/api/game/{game}/solve", headers=ORIGIN)
    lines = [json.loads(line) for line in response.text.splitlines()]
    return [line["progress"] for line in lines if "progress" in line], lines[-1]["answer"]


def test_solve_answers_frog_and_sokoban_with_their_steps(client: TestClient) -> None:
    _, frog = solve(client, FROG)
    assert (frog["status"], frog["said"]) == ("solved", "15 moves")
    assert len(frog["steps"]) == 16
    assert frog["page"].startswith("<!DOCTYPE html>")
    _, sokoban = solve(client, (SPECS / "sokoban.puz").read_text(encoding="utf-8"))
    assert sokoban["status"] == "solved"
    assert len(sokoban["steps"]) == int(sokoban["said"].split()[0]) + 1


def test_a_solve_stops_at_the_state_limit() -> None:
    app = make_app(Settings(jobs=1, max_states=50), allowed_hosts("127.0.0.1", PORT))
    with TestClient(app, base_url=f"http://127.0.0.1:{PORT}") as client:
        _, answer = solve(client, FROG, {"n": "6"})
    assert answer["status"] == "limit"
    assert "state limit of 50 reached" in answer["said"]


def test_only_named_files_are_read_and_written(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "a.puz").write_text(FROG, encoding="utf-8")
    (tmp_path / "secret.puz").write_text("secret", encoding="utf-8")
    for client in client_for(Named.of([str(folder)])):
        assert client.get("/api/files").json()["named"] == [str(folder / "a.puz")]
        assert client.get("/api/spec", params={"name": str(folder / "a.puz")}).json()["text"] == FROG
        assert client.get("/api/spec", params={"name": str(tmp_path / "secret.puz")}).status_code == 403
        assert client.get("/api/spec", params={"name": str(folder / ".." / "secret.puz")}).status_code == 403
        assert client.get("/api/spec", params={"name": "/etc/passwd"}).status_code == 403
        saved = client.post(
            "/api/save", content=json.dumps({"name": str(folder / "b.puz"), "text": "x"}), headers=ORIGIN
        )
        assert saved.status_code == 200
        assert (folder / "b.puz").read_text(encoding="utf-8") == "x"
        for name in (str(tmp_path / "c.puz"), str(folder / ".." / "c.puz"), str(folder / "c.txt")):
            body = json.dumps({"name": name, "text": "x"})
            assert client.post("/api/save", content=body, headers=ORIGIN).status_code == 403
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["a.puz", "b.puz", "mine", "secret.puz"]


def test_a_level_file_is_read_only_beside_a_spec_named_or_shipped(tmp_path: Path) -> None:
    named = Named.of([str(tmp_path)])
    spec = str(tmp_path / "s.puz")
    assert named.level_folder(spec, 'level 1 from "levels.xsb"') == spec
    assert named.level_folder(spec, 'level 1 from "../levels.xsb"') == "<edited>.puz"
    assert named.level_folder("", 'level 1 from "levels.xsb"') == "<edited>.puz"
    assert named.level_folder("/etc/x.puz", "") == "<edited>.puz"
    assert named.level_folder("microban", 'level n from "microban.xsb"') == str(SPECS / "microban.puz")


KILLER = """puzzle "Killer Shidoku"
board grid 2 x 2
pieces 1..2 "digits"
regions from "cages.txt"
fill cells with 1..2
rule:
    every l in rows, columns, regions: all different(l)
"""


def test_a_spec_named_alone_reads_the_files_it_names_beside_it_and_no_other(tmp_path: Path) -> None:
    spec = tmp_path / "killer.puz"
    spec.write_text(KILLER, encoding="utf-8")
    (tmp_path / "cages.txt").write_text("a b\nb a\n", encoding="utf-8")
    (tmp_path / "other.txt").write_text("a b\nb a\n", encoding="utf-8")
    named = Named.of([str(spec)])
    assert named.level_folder(str(spec), KILLER) == str(spec)
    edited = KILLER.replace("cages.txt", "other.txt")
    assert named.level_folder(str(spec), edited) == "<edited>.puz"  # an edit names no more files
    for client in client_for(named):
        opened = post(client, "/api/game", {"text": KILLER, "origin": str(spec)})
        assert "error" not in opened, opened
        assert "no file of its own" in post(client, "/api/game", {"text": edited, "origin": str(spec)})["error"]


SHIDOKU = """puzzle "Shidoku"
board grid 4 x 4
pieces 1..4 "digits"
boxes 2 x 2
start:
    1 2 3 4
    3 4 1 2
    2 1 4 3
    4 3 _ _
fill cells with 1..4
rule: every l in rows, columns, boxes: all different(l)
"""


def test_a_solve_says_its_count_in_the_right_number_and_why_there_is_none(client: TestClient) -> None:
    # the two open cells of the last row: 2 1 (column 3 holds 3 1 4, column 4 holds 4 2 3)
    _, one = solve(client, SHIDOKU)
    assert one["said"] == "1 solution listed"
    # 4 3 _ 4 repeats a 4 in the last row and in the last column (4 2 3 4): the rows' rule comes first,
    # its open cell left out (no value there mends it)
    _, none = solve(client, SHIDOKU.replace("4 3 _ _", "4 3 _ 4"))
    assert none["said"] == "no solution: the givens break `all different(l)` (line 11) on r4c1, r4c4"


def test_hover_and_completion_are_the_language_servers(client: TestClient) -> None:
    post(client, "/api/check", {"text": FROG, "page": "p1"})
    lines = FROG.split("\n")
    line = next(k for k, written in enumerate(lines) if written.startswith("move slide: B"))
    on_b = post(client, "/api/hover", {"text": FROG, "line": line, "character": 12, "page": "p1"})["hover"]
    assert 'piece B black "black frog" drawn "●"' in on_b
    on_move = post(client, "/api/hover", {"text": FROG, "line": line, "character": 1, "page": "p1"})["hover"]
    assert on_move.startswith("**move**")
    typed = FROG + "move back: B _ -> _ B along "  # typed since the check: the page's names serve
    last = typed.split("\n")
    items = post(
        client, "/api/complete", {"text": typed, "line": len(last) - 1, "character": len(last[-1]), "page": "p1"}
    )
    assert {"left", "right"} <= {item["label"] for item in items["items"]}
    assert client.post("/api/complete", content=json.dumps({"text": FROG}), headers=ORIGIN).status_code == 400


def test_the_catalogue_and_the_gallery_are_pages(client: TestClient) -> None:
    catalogue = client.get("/catalogue")
    assert catalogue.status_code == 200
    assert '<a href="/?open=frog">frog</a></td><td>Frog jump</td>' in catalogue.text
    gallery = client.get("/gallery")
    assert '<img src="/gallery/frog.svg" alt="a solution of frog" loading="lazy">' in gallery.text
    picture = client.get("/gallery/frog.svg")
    assert picture.headers["content-type"] == "image/svg+xml"
    assert picture.text.count('data-cell="1"') == 16  # frog's 15 moves: a board for each state
    missing = client.get("/gallery/nope.svg")
    assert (missing.status_code, missing.text) == (404, "nope is not a shipped spec\n")
