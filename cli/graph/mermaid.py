"""`graph --format mermaid`: a Mermaid flowchart of the picture (renders on GitHub as is).

Shapes say what a node is: tools are subroutines `[[ ]]`, resolvers rounded
boxes, arguments stadiums, the Context a parallelogram, questions hexagons.
A shared resolver gets a thick border; cycle edges and problem nodes are red.
One class per node: Mermaid does not merge the styles of several classes.
"""

from __future__ import annotations

from ...lint_rules.api.graph_problems import Problems
from ...resolver_core.model import Graph
from .picture import Node, Picture, build_picture

SHAPES = {
    "tool": ('[["', '"]]'),
    "resolver": ('("', '")'),
    "argument": ('(["', '"])'),
    "context": ('[/"', '"/]'),
    "question": ('{{"', '"}}'),
}
CLASSES = (
    "classDef tool fill:#dbeafe,stroke:#1d4ed8,color:#0f172a",
    "classDef resolver fill:#f3e8ff,stroke:#7e22ce,color:#0f172a",
    "classDef argument fill:#dcfce7,stroke:#15803d,color:#0f172a",
    "classDef context fill:#f1f5f9,stroke:#64748b,color:#334155",
    "classDef question fill:#fef9c3,stroke:#a16207,color:#0f172a",
    "classDef shared fill:#f3e8ff,stroke:#7e22ce,stroke-width:4px,color:#0f172a",
)
PROBLEM = "stroke:#dc2626,stroke-width:3px"


def _text(value: str) -> str:
    """Mermaid label text: quotes, angle brackets and `#` as entity codes."""
    return value.replace("#", "#35;").replace('"', "#quot;").replace("<", "#lt;").replace(">", "#gt;")


def _label(node: Node) -> str:
    lines = [_text(line) for line in node.lines]
    lines[0] = f"<b>{lines[0]}</b>"
    if node.problems:
        lines.append("✗ " + " ".join(node.problems))
    return "<br/>".join(lines)


def to_mermaid(graph: Graph, problems: Problems | None = None) -> str:
    """The flowchart text (left to right, one subgraph per server)."""
    picture: Picture = build_picture(graph, problems)
    out = ["flowchart LR"]
    for si, name in enumerate(picture.servers):
        out.append(f'  subgraph s{si}["{_text(name)}"]')
        for node in (n for n in picture.nodes.values() if n.server == si):
            opening, closing = SHAPES[node.kind]
            out.append(f"    {node.id}{opening}{_label(node)}{closing}")
        out.append("  end")
    red: list[int] = []
    for i, edge in enumerate(picture.edges):
        arrow = "-.->" if edge.asks else "-->"
        label = f"|{_text(edge.label)}|" if edge.label else ""
        out.append(f"  {edge.source} {arrow}{label} {edge.target}")
        if edge.cycle:
            red.append(i)
    out.extend(f"  {line}" for line in CLASSES)
    for node in picture.nodes.values():
        out.append(f"  class {node.id} {'shared' if node.shared else node.kind}")
        if node.problems:
            out.append(f"  style {node.id} {PROBLEM}")
    if red:
        out.append(f"  linkStyle {','.join(map(str, red))} stroke:#dc2626,stroke-width:3px,color:#dc2626")
    return "\n".join(out) + "\n"
