"""`puzint graph`: the state graph as DOT or GraphML, with the solution's path marked; checked
against the reachable states and moves counted another way, and the solution's length."""

from __future__ import annotations

import itertools
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


def counted(spec: str, params: dict[str, str]) -> tuple[int, int]:
    """States and distinct moves between states, by a plain walk of the compiled puzzle."""
    compiled = load(SPECS / spec, params)
    seen, todo, edges = {compiled.start}, [compiled.start], 0
    while todo:
        children = {child for child, _ in compiled.expand(todo.pop())}
        edges += len(children)
        for child in children - seen:
            seen.add(child)
            todo.append(child)
    return len(seen), edges


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
    states, moves = counted(spec, params)
    nodes = re.findall(r"^  s(\d+) \[label=", out, re.M)
    edges = re.findall(r"^  s(\d+) -> s(\d+) \[(.*)\];$", out, re.M)
    assert code == 0 and err == "" and out.startswith("digraph ")
    assert len(nodes) == states and len(edges) == moves
    marked = [(a, b) for a, b, attributes in edges if 'color="#c62828"' in attributes]
    assert len(marked) == length(capsys, spec, *argv)
    assert marked[0][0] == "0" and all(x[1] == y[0] for x, y in itertools.pairwise(marked))  # one path from the start
    assert re.search(rf"^  s{marked[-1][1]} \[.*peripheries=2", out, re.M)  # it ends at a goal


def test_graphml_is_the_same_graph(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "graph", str(SPECS / "farmer.puz"), "--format", "graphml")
    graph = ET.fromstring(out).find(f"{NS}graph")
    assert code == 0 and graph is not None
    states, moves = counted("farmer.puz", {})
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


def test_a_moves_cells_stand_apart_in_its_label(capsys: pytest.CaptureFixture[str]) -> None:
    # cells are names on a graph (a1, b3): `a1→b3` read as one word where the arrow is not drawn
    code, out, _ = run(capsys, "graph", str(SPECS / "guarini_graph.puz"))
    labels = re.findall(r'^  s\d+ -> s\d+ \[label="([^"]*)"', out, re.M)
    assert code == 0 and labels and labels[0] == "hop: B a1 → b3"
    assert all(re.fullmatch(r"hop: [BW] [abc][123] → [abc][123]", label) for label in labels)
