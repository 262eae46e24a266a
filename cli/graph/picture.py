"""The graph as a picture: typed nodes and edges, shared by the Mermaid and Graphviz writers.

Data flows left to right: tool arguments and the Context feed resolvers,
resolvers feed other resolvers and finally the tool. A resolver is one node
however many tools and resolvers consume it (that is what "runs once per call"
looks like), questions hang off the resolver that asks them, and the edges
that close a cycle are marked so the writers draw them in red.
"""

from __future__ import annotations

from dataclasses import field, replace
from pathlib import PurePath
from typing import Literal

from ...lint_rules.api.graph_problems import Problems
from ...resolver_core.model import Graph, Resolver, Server, Span, Tool
from ...resolver_core.records import record, slotted
from ..printable import printable
from .walk import display_name

NodeKind = Literal["tool", "resolver", "argument", "context", "question"]
ASK_LABEL = {"elicit": "asks the user", "sample": "asks the client's LLM", "list_roots": "asks for roots"}


@slotted
class Node:
    """A box of the picture: a server, tool, resolver or question, with the lines it shows."""

    id: str
    kind: NodeKind
    lines: list[str]
    server: int
    shared: bool = False
    problems: list[str] = field(default_factory=list)


@record
class Edge:
    """An arrow of the picture, from the node that needs to the node that gives."""

    source: str
    target: str
    label: str = ""
    asks: bool = False
    cycle: bool = False


@slotted
class Picture:
    """Nodes in insertion order (stable output) and deduplicated edges."""

    servers: list[str] = field(default_factory=list)
    nodes: dict[str, Node] = field(default_factory=dict)
    edges: list[Edge] = field(default_factory=list)

    def node(self, key: str, kind: NodeKind, lines: list[str], server: int) -> str:
        """A node once per key. Labels hold names from the user's source (a tool named
        `"t\\x1b]0;..."`): control characters are written as escapes, never passed to a
        terminal or a renderer raw."""
        if key not in self.nodes:
            self.nodes[key] = Node(f"n{len(self.nodes)}", kind, [printable(line) for line in lines], server)
        return self.nodes[key].id

    def edge(self, edge: Edge) -> None:
        edge = replace(edge, label=printable(edge.label))
        if edge not in self.edges:
            self.edges.append(edge)


class _Builder:
    def __init__(self, graph: Graph, problems: Problems | None) -> None:
        self.graph = graph
        self.problems = problems
        self.picture = Picture()
        self.consumers: dict[str, set[str]] = {}
        self.cycle_nodes: set[str] = set()

    def codes(self, span: Span | None, tool: str | None) -> list[str]:
        if self.problems is None or span is None:
            return []
        found = self.problems.by_place.get((span.path, span.line), [])
        return sorted({d.code for d in found if tool is None or d.tool in (None, tool)})

    def where(self, server: Server, span: Span | None) -> str:
        if span is None:
            return ""
        path = PurePath(span.path).name if span.path == server.path else span.path
        return f"{path}:{span.line}"

    def tool(self, si: int, server: Server, tool: Tool) -> None:
        key = f"tool:{si}:{tool.name}:{id(tool)}"
        lines = [tool.name, f"tool · {self.where(server, tool.span)}", *_via(tool.decorators)]
        tid = self.picture.node(key, "tool", lines, si)
        self.picture.nodes[key].problems = self.codes(tool.span, tool.name) + self.codes(
            tool.registration, tool.name
        )
        for p in tool.parameters:
            if p.kind == "tool_argument":
                typed = f"{p.alias or p.name}: {p.annotation}" if p.annotation else p.alias or p.name
                aid = self.argument(si, tool, p.alias or p.name, typed)
                self.picture.edge(Edge(aid, tid))
            elif p.kind == "context":
                self.picture.edge(Edge(self.context(si), tid, p.name))
            elif p.resolver:
                rid = self.resolver(si, server, tool, p.resolver, [])
                self.consumers.setdefault(p.resolver, set()).add(f"{tool.name}.{p.name}")
                self.picture.edge(Edge(rid, tid, p.name))

    def argument(self, si: int, tool: Tool, name: str, typed: str) -> str:
        """One node per argument name and type in a server: `title: str` feeds every tool that has it."""
        return self.picture.node(f"arg:{si}:{typed}", "argument", [typed], si)

    def context(self, si: int) -> str:
        return self.picture.node(f"ctx:{si}", "context", ["Context", "injected by the SDK"], si)

    def resolver(self, si: int, server: Server, tool: Tool, rid: str, stack: list[str]) -> str:
        resolver = self.graph.resolvers[rid]
        key = f"resolver:{rid}"
        first = key not in self.picture.nodes
        kind = "async" if resolver.is_async else "sync"
        lines = [
            display_name(resolver),
            f"{kind} · {self.where(server, resolver.span)}",
            *_via(resolver.decorators),
        ]
        nid = self.picture.node(key, "resolver", lines, si)
        node = self.picture.nodes[key]
        node.problems = sorted({*node.problems, *self.codes(resolver.span, tool.name)})
        for p in resolver.parameters:
            argument = next(
                (q for q in tool.parameters if q.kind == "tool_argument" and p.name in (q.name, q.alias)),
                None,
            )
            if p.kind == "tool_argument" and argument is not None:
                shown = argument.alias or argument.name
                label = f"{shown}: {argument.annotation}" if argument.annotation else shown
                self.picture.edge(Edge(self.argument(si, tool, shown, label), nid))
            elif p.kind == "context":
                self.picture.edge(Edge(self.context(si), nid, p.name))
            elif p.kind == "resolved" and p.resolver and p.resolver in self.graph.resolvers:
                self.consumers.setdefault(p.resolver, set()).add(f"{display_name(resolver)}.{p.name}")
                if p.resolver in stack or p.resolver == rid:
                    loop = [*stack, rid][[*stack, rid].index(p.resolver) :]
                    self.cycle_nodes.update(self.picture.nodes[f"resolver:{r}"].id for r in loop[1:])
                    dep = self.picture.node(f"resolver:{p.resolver}", "resolver", [p.resolver], si)
                    self.cycle_nodes.add(dep)
                    self.picture.edge(Edge(dep, nid, p.name, cycle=True))
                    continue
                dep = self.resolver(si, server, tool, p.resolver, [*stack, rid])
                self.picture.edge(Edge(dep, nid, p.name))
            else:
                node.problems = sorted({*node.problems, *self.codes(p.span, tool.name)}) or ["unfilled"]
        if first:
            self.questions(si, resolver, nid)
        return nid

    def questions(self, si: int, resolver: Resolver, nid: str) -> None:
        for i, q in enumerate(resolver.questions):
            lines = [ASK_LABEL[q.kind]]
            if q.model:
                lines.append(f"answer: {q.model}")
            qid = self.picture.node(f"question:{resolver.id}:{i}", "question", lines, si)
            self.picture.edge(Edge(nid, qid, "asks", asks=True))


def build_picture(graph: Graph, problems: Problems | None = None) -> Picture:
    """Every server's tools as one picture; cycle edges and problem nodes are marked."""
    builder = _Builder(graph, problems)
    for si, server in enumerate(graph.servers):
        name = f"{server.name} ({server.variable})" if server.name else server.variable
        builder.picture.servers.append(printable(name))
        for tool in server.tools:
            builder.tool(si, server, tool)
    cycle = builder.cycle_nodes
    builder.picture.edges = [
        replace(e, cycle=True) if e.source in cycle and e.target in cycle else e
        for e in builder.picture.edges
    ]
    for rid, consumers in builder.consumers.items():
        key = f"resolver:{rid}"
        if len(consumers) > 1 and key in builder.picture.nodes:
            node = builder.picture.nodes[key]
            node.shared = True
            node.lines.append(f"shared: runs once per call ({len(consumers)} consumers)")
    return builder.picture


def _via(decorators: tuple[str, ...]) -> list[str]:
    """The decorator chain as one more label line (`via @retry(times=3)`), when there is one."""
    return [f"via {' '.join(decorators)}"] if decorators else []
