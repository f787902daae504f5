"""A puzzle's state graph as Graphviz DOT or GraphML: each state a node labelled with its board
(as in the JSON output), each move an edge labelled with what moved; the start, the goal
states and the solution's path marked, so that the picture shows where the solution runs.

In the DOT drawing, two states joined by a move each way (a move and the move that undoes it)
are one edge with an arrowhead at each end, labelled with the move away from the start: half
the edges for Graphviz to lay out, and a picture that reads as the puzzle does. The GraphML
keeps every move as its own edge: it is data, for programs."""

from __future__ import annotations

import itertools

from ..compiler import CompiledPuzzle
from ..escapes import visible
from ..search.graph import StateGraph
from .data import board_text
from .moves import describe
from .svg import CAPTION_GLYPHS
from .xml_text import escape, quoteattr

Path = list[tuple[int, bytes]]


def _labels(compiled: CompiledPuzzle, graph: StateGraph) -> tuple[list[str], list[str]]:
    """Each state as the JSON writes it; each move in the words of the text output, where
    cells are apart from the arrow (`P left → mid`): in a picture's captions, where room is
    short, `left→mid` reads as one word wherever a font draws no arrow."""
    nodes = [visible(board_text(compiled, state)) for state in graph.states]
    edges = []
    for a, b, move in graph.edges:
        label = compiled.label(move, graph.states[a], graph.states[b])
        edges.append(visible(f"{label.rule}: {describe(label, compiled, short=False, drawn=CAPTION_GLYPHS).plain}"))
    return nodes, edges


def _on_path(compiled: CompiledPuzzle, graph: StateGraph, path: Path | None) -> tuple[set[int], set[tuple[int, int]]]:
    if path is None:
        return set(), set()
    index = {state: i for i, state in enumerate(graph.states)}
    states = [index[compiled.start], *(index[state] for _, state in path if state in index)]
    return set(states), set(itertools.pairwise(states))


def drawn_edges(graph: StateGraph) -> list[tuple[int, int, int, bool]]:
    """The DOT drawing's edges: (from, to, the edge's index in `graph.edges`, both ways), a
    move undone by a move drawn once, from the state nearer the start (the lower number:
    states are numbered breadth first)."""
    pairs = {(a, b) for a, b, _ in graph.edges}
    out = []
    for i, (a, b, _) in enumerate(graph.edges):
        both = a != b and (b, a) in pairs
        if both and a > b:
            continue
        out.append((a, b, i, both))
    return out


LAYOUTS = ("dot", "sfdp", "neato", "fdp", "circo", "twopi")
LAYERED_UP_TO = 300  # edges: past this, `dot`'s layers take long and read badly, and sfdp is chosen


def to_dot(
    compiled: CompiledPuzzle, graph: StateGraph, path: Path | None, title: str, layout: str | None = None
) -> str:
    """The graph in DOT; `layout` is the Graphviz engine written into it (`dot -Tsvg` then
    uses it): by default `dot`'s layers for a small graph, `sfdp` for a large one."""
    nodes, edges = _labels(compiled, graph)
    on_nodes, on_edges = _on_path(compiled, graph, path)
    drawn = drawn_edges(graph)
    engine = layout or ("dot" if len(drawn) <= LAYERED_UP_TO else "sfdp")
    spread = " overlap=false;" if engine != "dot" else ""
    lines = [
        f"digraph {_dot(title)} {{",
        f"  label={_dot(title)}; labelloc=t; rankdir=LR; layout={engine};{spread}",
        '  node [shape=box, style="rounded,filled", fillcolor=white, fontname="DejaVu Sans Mono"];',
        '  edge [fontname="DejaVu Sans", fontsize=10, color="#9e9e9e"];',
    ]
    for i, (state, text) in enumerate(zip(graph.states, nodes, strict=True)):
        attributes = [f"label={_dot(text)}"]
        if i == 0:
            attributes.append('fillcolor="#c8e6c9"')
        if compiled.is_goal(state):
            attributes.append('peripheries=2, fillcolor="#ffe082"')
        if i in on_nodes:
            attributes.append('color="#c62828", penwidth=2')
        lines.append(f"  s{i} [{', '.join(attributes)}];")
    for a, b, index, both in drawn:
        marked = (a, b) in on_edges or (both and (b, a) in on_edges)
        style = ", dir=both" if both else ""
        style += ', color="#c62828", penwidth=2.5, fontcolor="#c62828"' if marked else ""
        lines.append(f"  s{a} -> s{b} [label={_dot(edges[index])}{style}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _dot(text: str) -> str:
    """A DOT string: line breaks as DOT writes them, other control characters written out."""
    lines = (visible(line).replace("\\", "\\\\").replace('"', '\\"') for line in text.split("\n"))
    return '"' + "\\n".join(lines) + '"'


def to_graphml(compiled: CompiledPuzzle, graph: StateGraph, path: Path | None, title: str) -> str:
    nodes, edges = _labels(compiled, graph)
    on_nodes, on_edges = _on_path(compiled, graph, path)
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<graphml xmlns="http://graphml.graphdrawing.org/xmlns">',
        '  <key id="board" for="node" attr.name="board" attr.type="string"/>',
        '  <key id="depth" for="node" attr.name="depth" attr.type="int"/>',
        '  <key id="start" for="node" attr.name="start" attr.type="boolean"/>',
        '  <key id="goal" for="node" attr.name="goal" attr.type="boolean"/>',
        '  <key id="node_on_solution" for="node" attr.name="on_solution" attr.type="boolean"/>',
        '  <key id="move" for="edge" attr.name="move" attr.type="string"/>',
        '  <key id="edge_on_solution" for="edge" attr.name="on_solution" attr.type="boolean"/>',
        f'  <graph id={quoteattr(visible(title))} edgedefault="directed">',
    ]
    for i, (state, text) in enumerate(zip(graph.states, nodes, strict=True)):
        out.append(
            f'    <node id="s{i}"><data key="board">{escape(text)}</data><data key="depth">{graph.depth[i]}</data>'
            f'<data key="start">{_bool(i == 0)}</data><data key="goal">{_bool(compiled.is_goal(state))}</data>'
            f'<data key="node_on_solution">{_bool(i in on_nodes)}</data></node>'
        )
    for number, ((a, b, _), text) in enumerate(zip(graph.edges, edges, strict=True)):
        out.append(
            f'    <edge id="e{number}" source="s{a}" target="s{b}"><data key="move">{escape(text)}</data>'
            f'<data key="edge_on_solution">{_bool((a, b) in on_edges)}</data></edge>'
        )
    out += ["  </graph>", "</graphml>"]
    return "\n".join(out) + "\n"


def _bool(value: bool) -> str:
    return "true" if value else "false"
