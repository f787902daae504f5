"""`puzint graph`: the state graph as DOT or GraphML, with the solution's path marked; checked
against the reachable states and moves counted another way, and the solution's length."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from puzint.cli import main
from puzint.runner import load

SPECS = Path(__file__).resolve().parents[2] / "specs"
NS = "{http://graphml.graphdrawing.org/xmlns}"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def counted(spec: str, params: dict[str, str]) -> tuple[int, int, int]:
    """States, distinct moves between states, and the edges a drawing has where a move and
    the move back are one edge, by a plain walk of the compiled puzzle."""
    compiled = load(SPECS / spec, params)
    seen, todo, moves = {compiled.start}, [compiled.start], set()
    while todo:
        state = todo.pop()
        children = {child for child, _ in compiled.expand(state)}
        moves |= {(state, child) for child in children}
        for child in children - seen:
            seen.add(child)
            todo.append(child)
    drawn = {frozenset(pair) if pair[::-1] in moves else pair for pair in moves}
    return len(seen), len(moves), len(drawn)


def length(capsys: pytest.CaptureFixture[str], spec: str, *argv: str) -> int:
    _, out, _ = run(capsys, "run", str(SPECS / spec), *argv, "--format", "json")
    value = json.loads(out)["length"]
    assert isinstance(value, int)
    return value


@pytest.mark.parametrize(
    ("spec", "params"),
    [("frog.puz", {"n": "2"}), ("farmer.puz", {}), ("bridge_torch.puz", {}), ("hanoi.puz", {"discs": "3"})],
)
def test_dot_has_every_state_and_move_and_marks_the_solution(
    capsys: pytest.CaptureFixture[str], spec: str, params: dict[str, str]
) -> None:
    argv = [x for k, v in params.items() for x in ("-p", f"{k}={v}")]
    code, out, err = run(capsys, "graph", str(SPECS / spec), *argv)
    states, _, drawn = counted(spec, params)
    nodes = re.findall(r"^  s(\d+) \[label=", out, re.M)
    edges = re.findall(r"^  s(\d+) -> s(\d+) \[(.*)\];$", out, re.M)
    assert code == 0 and err == "" and out.startswith("digraph ")
    assert len(nodes) == states and len(edges) == drawn
    marked = [(a, b, "dir=both" in attributes) for a, b, attributes in edges if 'color="#c62828"' in attributes]
    assert len(marked) == length(capsys, spec, *argv)
    walked = ["0"]  # the marked edges make one path from the start (a two-way edge walked either way)
    for _ in marked:
        ahead = [b for a, b, _ in marked if a == walked[-1]] + [a for a, b, both in marked if both and b == walked[-1]]
        walked.append(next(state for state in ahead if state not in walked))
    assert re.search(rf"^  s{walked[-1]} \[.*peripheries=2", out, re.M)  # it ends at a goal


def test_graphml_is_the_same_graph(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "graph", str(SPECS / "farmer.puz"), "--format", "graphml")
    graph = ET.fromstring(out).find(f"{NS}graph")
    assert code == 0 and graph is not None
    states, moves, _ = counted("farmer.puz", {})
    nodes, edges = graph.findall(f"{NS}node"), graph.findall(f"{NS}edge")
    assert len(nodes) == states and len(edges) == moves

    def data(element: ET.Element, key: str) -> str:
        found = element.find(f"{NS}data[@key='{key}']")
        assert found is not None and found.text is not None
        return found.text

    on_path = [e for e in edges if data(e, "edge_on_solution") == "true"]
    assert len(on_path) == length(capsys, "farmer.puz") == 7
    goals = [n for n in nodes if data(n, "goal") == "true"]
    assert [data(n, "depth") for n in goals] == ["7"] and data(nodes[0], "start") == "true"
    assert data(nodes[0], "board") == "left: F L G C boat | right:"


def test_a_graph_too_large_is_refused_whole(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "graph", str(SPECS / "knights.puz"), "--max-states", "500")
    assert code == 3 and out == ""
    assert err == (
        "puzint: the state graph was not drawn: more than 500 states (500 states found; --max-states N draws up to N)\n"
    )


def test_a_move_and_its_undoing_are_one_edge_and_large_graphs_are_laid_out_by_sfdp(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "graph", str(SPECS / "farmer.puz"))
    edges = re.findall(r"^  s(\d+) -> s(\d+) \[(.*)\];$", out, re.M)
    assert code == 0 and edges and all("dir=both" in attributes for _, _, attributes in edges)  # every crossing undone
    assert all(int(a) < int(b) for a, b, _ in edges) and "layout=dot;" in out
    code, out, _ = run(capsys, "graph", str(SPECS / "lights_out.puz"), "--max-edges", "2304")
    assert code == 0 and "layout=sfdp; overlap=false;" in out
    code, out, _ = run(capsys, "graph", str(SPECS / "frog.puz"), "--layout", "circo")
    assert code == 0 and "layout=circo; overlap=false;" in out


def test_a_graph_with_more_edges_than_graphviz_lays_out_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "graph", str(SPECS / "lights_out.puz"))
    _, _, drawn = counted("lights_out.puz", {})
    assert code == 3 and out == "" and drawn == 2304  # 512 states, 9 buttons each, each pressed again undoes it
    assert err.startswith("puzint: the state graph was not drawn: 2,304 edges between 512 states, more than 1,000 ")
    code, out, _ = run(capsys, "graph", str(SPECS / "lights_out.puz"), "--max-edges", "2304", "--layout", "sfdp")
    assert code == 0 and len(re.findall(r"^  s\d+ -> s\d+ ", out, re.M)) == 2304
    code, _, err = run(capsys, "graph", str(SPECS / "farmer.puz"), "--format", "graphml", "--layout", "sfdp")
    assert code == 2 and "--layout and --max-edges are for the DOT drawing" in err


def test_a_moves_cells_stand_apart_in_its_label(capsys: pytest.CaptureFixture[str]) -> None:
    # cells are names on a graph (a1, b3): `a1→b3` read as one word where the arrow is not drawn
    code, out, _ = run(capsys, "graph", str(SPECS / "guarini_graph.puz"))
    labels = re.findall(r'^  s\d+ -> s\d+ \[label="([^"]*)"', out, re.M)
    assert code == 0 and labels and labels[0] == "hop: B a1 → b3"
    assert all(re.fullmatch(r"hop: [BW] [abc][123] → [abc][123]", label) for label in labels)
