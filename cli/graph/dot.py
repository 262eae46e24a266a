"""`graph --format dot`: the picture for Graphviz (`dot -Tsvg graph.dot > graph.svg`).

Same nodes and edges as the Mermaid flowchart: tools `box3d`, resolvers
rounded boxes (double border when shared), arguments ellipses, the Context a
parallelogram, questions hexagons; cycle edges and problem nodes in red.
"""

from __future__ import annotations

from ...lint_rules.api.graph_problems import Problems
from ...resolver_core.model import Graph
from .picture import Node, build_picture

STYLE = {
    "tool": 'shape=box3d, style=filled, fillcolor="#dbeafe", color="#1d4ed8"',
    "resolver": 'shape=box, style="rounded,filled", fillcolor="#f3e8ff", color="#7e22ce"',
    "argument": 'shape=ellipse, style=filled, fillcolor="#dcfce7", color="#15803d"',
    "context": 'shape=parallelogram, style=filled, fillcolor="#f1f5f9", color="#64748b"',
    "question": 'shape=hexagon, style=filled, fillcolor="#fef9c3", color="#a16207"',
}


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _node(node: Node) -> str:
    lines = list(node.lines)
    if node.problems:
        lines.append("✗ " + " ".join(node.problems))
    label = "\\n".join(line.replace("\\", "\\\\").replace('"', '\\"') for line in lines)
    extra = ", peripheries=2" if node.shared else ""
    extra += ', color="#dc2626", penwidth=2' if node.problems else ""
    return f'    {node.id} [label="{label}", {STYLE[node.kind]}{extra}];'


def to_dot(graph: Graph, problems: Problems | None = None) -> str:
    """The Graphviz digraph text (left to right, one cluster per server)."""
    picture = build_picture(graph, problems)
    out = [
        "digraph mcpdeps {",
        "  rankdir=LR;",
        '  node [fontname="Helvetica", fontsize=11];',
        '  edge [fontname="Helvetica", fontsize=10, color="#475569"];',
    ]
    for si, name in enumerate(picture.servers):
        out.append(f"  subgraph cluster_{si} {{")
        out.append(f'    label={_quote(name)}; style=rounded; color="#94a3b8";')
        out.extend(_node(n) for n in picture.nodes.values() if n.server == si)
        out.append("  }")
    for edge in picture.edges:
        attrs = [f"label={_quote(edge.label)}"] if edge.label else []
        if edge.asks:
            attrs.append("style=dashed")
        if edge.cycle:
            attrs.append('color="#dc2626", fontcolor="#dc2626", penwidth=2')
        suffix = f" [{', '.join(attrs)}]" if attrs else ""
        out.append(f"  {edge.source} -> {edge.target}{suffix};")
    out.append("}")
    return "\n".join(out) + "\n"
