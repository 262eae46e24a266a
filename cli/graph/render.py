"""The rich tree of `mcpdeps graph`: one tree per tool, read top to bottom like a call.

Each tree answers, in order: what does the model see (the published arguments),
what does it never see (Context and resolved parameters, each expanded into its
resolver and that resolver's own parameters and question), in which order does
the SDK run the resolvers, and what is wrong (lint codes at the node they are
about; a cycle in red on its path). A resolver met a second time in one call is
not expanded again: the SDK runs it once and hands the same value to every
consumer, and the tree says so.
"""

from __future__ import annotations

import io
import os
import sys
from dataclasses import field
from pathlib import PurePath

from rich.console import Console
from rich.tree import Tree

from ...lint_rules.api.graph_problems import Problems
from ...resolver_core.diagnostics import Diagnostic
from ...resolver_core.graph_json import published_tools
from ...resolver_core.model import Graph, Parameter, Question, Resolver, Server, Span, Tool
from ...resolver_core.plan import ResolverPlan
from ...resolver_core.records import slotted
from ..render.markup import markup as escape  # terminal-safe, then markup-safe
from .walk import ASKS, KIND_NOTE, consumer_names, cycle_names, display_name, inner_type

SEVERITY_STYLE = {"error": "bold red", "warning": "yellow", "info": "blue"}


@slotted
class _ToolView:
    """Everything needed while drawing one tool's tree."""

    graph: Graph
    server: Server
    tool: Tool
    plan: ResolverPlan
    problems: Problems | None
    depth: int | None
    expanded: set[str] = field(default_factory=set)
    shown: set[int] = field(default_factory=set)

    def where(self, span: Span | None) -> str:
        """`file:line`, the file shortened to its name when it is the server's file."""
        if span is None:
            return "?"
        path = PurePath(span.path).name if span.path == self.server.path else span.path
        return f"{escape(path)}:{span.line}"

    def flag(self, node: Tree, span: Span | None, *, precise: bool = False) -> None:
        """Show the lint findings of this place: codes on the node's first line, messages first below it."""
        if self.problems is None:
            return
        found = self.problems.at(span, self.tool.name, self.shown, precise=precise)
        if not found:
            return
        codes = "".join(f" [{SEVERITY_STYLE[d.severity]}]✗ {d.code}[/]" for d in found)
        first, newline, rest = str(node.label).partition("\n")
        node.label = f"{first}{codes}{newline}{rest}"
        node.children[:0] = [Tree(_diagnostic(d)) for d in found]


def _diagnostic(d: Diagnostic) -> str:
    style = SEVERITY_STYLE[d.severity]
    return f"[{style}]{d.code} {d.name}[/] [{style}]{escape(d.message)}[/]"


def _short(text: str, limit: int = 70) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _typed(p: Parameter) -> str:
    text = f"[bold]{escape(p.alias or p.name)}[/]"
    if p.alias:
        text += f" [dim](parameter {escape(p.name)})[/]"
    if p.annotation:
        shown = inner_type(p.annotation) if p.kind == "resolved" else p.annotation
        text += f": {escape(shown)}"
    if p.default is not None:
        text += f" = {escape(p.default)}"
    return text


# ---------------------------------------------------------------- one tool


def tool_tree(view: _ToolView) -> Tree:
    """The whole tree of one tool."""
    tool = view.tool
    kind = "async" if tool.is_async else "sync"
    root = Tree(
        f"[bold cyan]{escape(tool.name)}[/]{_via(tool.decorators)}  [dim]tool · {kind} · {view.where(tool.span)}[/]"
    )
    if tool not in published_tools(view.server):
        root.add("[yellow]never published: the SDK keeps the first tool of this name and drops this one[/]")

    sees = root.add("[green]the model sees[/]")
    arguments = [p for p in tool.parameters if p.kind == "tool_argument"]
    for p in arguments:
        node = sees.add(_typed(p) + ("" if p.default is not None else "  [dim]required[/]"))
        view.flag(node, p.span, precise=True)
    if not arguments:
        sees.add("[dim]no arguments[/]")

    hidden = [p for p in tool.parameters if p.kind != "tool_argument"]
    if hidden:
        never = root.add("[magenta]the model never sees[/]")  # the point of the picture: not dim
        for p in hidden:
            _parameter(view, never, p, [], 1)

    if view.plan.cycles:
        _cycles(view, root)
    elif view.plan.order:
        _run_order(view, root)
    view.flag(root, tool.span)
    view.flag(root, tool.registration)
    for d in view.problems.left_for(tool.name, view.shown) if view.problems else ():
        root.add(_diagnostic(d))
    return root


def _parameter(view: _ToolView, parent: Tree, p: Parameter, stack: list[str], level: int) -> None:
    """One parameter of the tool (level 1) or of a resolver, expanded into its resolver."""
    if p.kind == "context":
        node = parent.add(f"[dim]{_typed(p)}  ← the request's Context[/]")
    elif p.kind == "tool_argument":
        names = {q.name for q in view.tool.parameters if q.kind == "tool_argument"}
        known = p.name in names or p.name in view.tool.arguments  # by name or by pydantic alias
        source = "the tool argument" if known else "[red]no tool argument of that name[/]"
        node = parent.add(f"{_typed(p)}  ← {source}")
    elif p.kind == "unclassified" or not p.resolver:
        node = parent.add(f"[red]{_typed(p)}  ← cannot be filled: no Context, Resolve or tool argument[/]")
    else:
        node = _resolved(view, parent, p, stack, level)
    view.flag(node, p.span, precise=True)


def _resolved(view: _ToolView, parent: Tree, p: Parameter, stack: list[str], level: int) -> Tree:
    rid = p.resolver or ""
    resolver = view.graph.resolvers.get(rid)
    if resolver is None:
        return parent.add(f"{_typed(p)}  ← [red]{escape(rid)} (unknown)[/]")
    color = "bold red" if rid in view.plan.in_cycle else "bold magenta"
    typed = f"[dim]{_typed(p)}[/]" if level == 1 else _typed(p)  # the tool's own: never seen by the model
    label = f"{typed}  ← [{color}]{escape(display_name(resolver))}[/]{_via(resolver.decorators)}"
    if rid in stack:
        loop = [*stack[stack.index(rid) :], rid]
        path = " -> ".join(display_name(view.graph.resolvers[r]) for r in loop)
        return parent.add(f"{label}  [bold red]⟲ cycle: {escape(path)}[/]")
    step = view.plan.step(rid)
    if rid in view.expanded:
        again = (
            f"  [green]step {step}[/] [dim]already run: the same value, not a second call[/]"
            if step
            else "  [dim](expanded above)[/]"
        )
        return parent.add(f"{label}{again}{_gets(p, resolver)}")
    view.expanded.add(rid)
    kind = "async" if resolver.is_async else "sync, in a worker thread"
    if resolver.problem:
        kind = "not a usable callable" if resolver.kind != "opaque" else "not visible before run time"
        if resolver.problem_kind == "installed":  # a definite function whose source is not read
            kind = "installed code, not read"
    note = f"{KIND_NOTE[resolver.kind]} · " if resolver.kind in KIND_NOTE else ""
    label += f"  [green]step {step}[/]" if step else ""
    label += f"\n[dim]{note}{kind} · {view.where(resolver.span)}[/]"
    if view.plan.shared(rid) and not view.plan.cycles:
        consumers = ", ".join(consumer_names(view.graph, view.tool, view.plan, rid))
        label += f"\n[magenta]shared: runs once per call for {escape(consumers)}[/]"
    others = [n for n in _used_by(view.graph, rid) if n != view.tool.name]
    if others:
        label += f"\n[dim]also used by {escape(', '.join(others))}[/]"
    node = parent.add(label + _gets(p, resolver))
    if resolver.problem and view.problems is None:  # with lint findings, its rule says it at the node
        node.add(f"[red]{escape(resolver.problem)}[/]")
    if view.depth is not None and level >= view.depth:
        if resolver.parameters or resolver.questions:
            node.add("[dim]… deeper levels hidden (--depth)[/]")
    else:
        for child in resolver.parameters:
            _parameter(view, node, child, [*stack, rid], level + 1)
        for q in resolver.questions:
            _question(view, node, q)
    view.flag(node, resolver.span)
    return node


def _via(decorators: tuple[str, ...]) -> str:
    """`  via @retry(times=3) @traced`: the decorators Python applied before the SDK saw it."""
    return f"  [dim]via {escape(' '.join(decorators))}[/]" if decorators else ""


def _gets(p: Parameter, resolver: Resolver) -> str:
    """What the consumer receives when the resolver asks the user."""
    if resolver.asks != "elicit":
        return ""
    if p.wants_union:
        return "\n[dim]gets the full ElicitationResult: accepted, declined or cancelled[/]"
    return "\n[dim]gets the unwrapped answer: a declined or cancelled question aborts the call[/]"


def _question(view: _ToolView, parent: Tree, q: Question) -> None:
    label = f"[yellow]? {ASKS[q.kind]}[/]"
    if q.kind == "sample" and (q.prompt or q.max_tokens):
        node = parent.add(label)
        _sample(node, q)
        view.flag(node, q.span)
        return
    if q.message:
        label += f"  {escape(_short(q.message))}"
    node = parent.add(label)
    if q.model:
        model = node.add(f"[dim]answer model[/] [bold]{escape(q.model)}[/]")
        for name, annotation in q.fields:
            model.add(f"{escape(name)}: {escape(annotation)}")
    view.flag(node, q.span)


def _sample(node: Tree, q: Question) -> None:
    """The prompt, line by line, and the token limit: what the client's LLM is asked."""
    if q.system_prompt:
        node.add(f"[dim]system:[/] {escape(q.system_prompt)}")
    for role, text in q.prompt:
        node.add(f"[dim]{escape(role)}:[/] {escape(text)}")
    if q.max_tokens:
        node.add(f"[dim]max_tokens:[/] {escape(q.max_tokens)}")


def _run_order(view: _ToolView, root: Tree) -> None:
    order = root.add("[green]run order[/] [dim](dependencies first, each resolver once)[/]")
    for i, rid in enumerate(view.plan.order, 1):
        r = view.graph.resolvers[rid]
        asks = f"  [yellow]{ASKS[r.asks].split(' (')[0]}[/]" if r.asks else ""
        name = escape(display_name(r))
        order.add(f"{i}. [red]{name}[/]{asks}" if rid in view.plan.in_cycle else f"{i}. {name}{asks}")
    order.add(f"{len(view.plan.order) + 1}. [bold cyan]{escape(view.tool.name)}[/] [dim](the tool itself)[/]")


def _cycles(view: _ToolView, root: Tree) -> None:
    """Instead of a run order (none exists): each cycle, drawn as the loop it is."""
    for cycle in map(cycle_names, view.plan.cycles):
        loop = root.add("[bold red]⟲ resolver cycle: no run order exists, the SDK refuses this tool[/]")
        for i, name in enumerate(cycle):
            arrow = "  " if i == 0 else "→ "
            loop.add(
                f"[red]{arrow}{escape(name)}[/]"
                + ("  [dim](back to the start)[/]" if i == len(cycle) - 1 else "")
            )


def _used_by(graph: Graph, rid: str) -> list[str]:
    return [
        t.name
        for s in graph.servers
        for t in published_tools(s)
        if any(r.id == rid for r in graph.reachable(t))
    ]


# ---------------------------------------------------------------- the whole graph


HEADERS = {
    "static": "static graph: read from the source, nothing imported (--live imports it with the SDK)",
    "live": "live graph: the server imported with the SDK, read from its registered tools",
}


def render(
    console: Console, graph: Graph, *, depth: int | None, problems: Problems | None, source: str | None = None
) -> None:
    """Print every server's tools; problems that belong to no tool come last."""
    if source is not None:
        console.print(f"[dim]{HEADERS[source]}[/]")
    if not graph.servers:
        console.print("[yellow]No MCPServer found.[/] Point mcpdeps graph at the file that creates one.")
    for server in graph.servers:
        name = f"{escape(server.name)} " if server.name else ""
        line = f":{server.span.line}" if server.span else ""
        console.print(
            f"[bold]{name}[/][dim]server {escape(server.variable)} · {escape(server.path)}{line}[/]"
        )
        if not server.tools:
            console.print("  [dim]no tools[/]")
        for tool in server.tools:
            view = _ToolView(graph, server, tool, graph.plan(tool), problems, depth)
            console.print(tool_tree(view))
            console.print()
    for d in problems.left_for(None, set()) if problems else ():
        console.print(_diagnostic(d) + f" [dim]{escape(d.path)}:{d.line}[/]")


def print_graph(
    graph: Graph,
    *,
    depth: int | None = None,
    capture: bool = False,
    problems: Problems | None = None,
    source: str | None = None,
) -> str | None:
    """Print to the terminal, or return plain text (no colours) when `capture` is set.

    `source` ("static" or "live") puts a first line saying where the graph comes from.
    """
    if not capture and sys.stdout.isatty():
        render(Console(highlight=False), graph, depth=depth, problems=problems, source=source)
        return None
    buffer = io.StringIO()
    width = 120 if capture else _pipe_width()
    console = Console(file=buffer, highlight=False, color_system=None, width=width, force_terminal=False)
    render(console, graph, depth=depth, problems=problems, source=source)
    # rich pads a wrapped line with spaces to its width: a file or a pipe gets none of them
    text = "".join(line.rstrip() + "\n" for line in buffer.getvalue().splitlines())
    if capture:
        return text
    sys.stdout.write(text)
    return None


def _pipe_width() -> int:
    """A pipe reads what `-o` writes (120 columns, not a terminal's default 80), unless `COLUMNS`
    asks for a width."""
    columns = os.environ.get("COLUMNS", "")
    return int(columns) if columns.isdigit() and int(columns) > 0 else 120
