"""The start-up banner: what is served, where, and what each tool will run and ask.

Computed from the live server (the SDK's own `Tool.resolver_plans`, through
`resolver_core.live.build_live_graph` when present), so it shows what this
process will really do, not what the source looked like. Printed on stderr:
on stdio, stdout is the protocol channel.
"""

from __future__ import annotations

import types
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from resolver_core.model import Graph, Parameter, Question, Resolver, Server, Tool

if TYPE_CHECKING:
    from resolver_core.loading import LoadedServer

QUESTION_LABELS = {
    "elicit": "asks the user",
    "sample": "asks the client's LLM",
    "list_roots": "asks for roots",
}


@dataclass(frozen=True, slots=True)
class BannerFacts:
    """How the server is exposed (the graph says what it contains)."""

    transport: str
    """`stdio` or `http`."""
    url: str | None
    workers: int = 1
    reload: bool = False
    inspector_url: str | None = None
    notes: tuple[str, ...] = ()


def live_graph(loaded: LoadedServer) -> Graph:
    """The graph of the imported server: the lead's live builder, else the SDK's plans read here."""
    try:
        from resolver_core.live import build_live_graph
    except ImportError:
        return _graph_from_plans(loaded)
    return build_live_graph(loaded.server)


def _graph_from_plans(loaded: LoadedServer) -> Graph:
    """A minimal live graph from `Tool.resolved_params` / `Tool.resolver_plans` (fallback)."""
    graph = Graph()
    server = Server(
        id=f"{loaded.module}:{loaded.attribute}",
        name=loaded.server.name,
        variable=loaded.attribute,
        module=loaded.module,
        path=str(loaded.path),
        span=None,
    )
    for sdk_tool in loaded.server._tool_manager.list_tools():
        ids = {key: plan.wire_key for key, plan in sdk_tool.resolver_plans.items()}
        for plan in sdk_tool.resolver_plans.values():
            graph.resolvers.setdefault(plan.wire_key, _resolver(plan, ids))
        params = [
            Parameter(name, "tool_argument", None) for name in sdk_tool.parameters.get("properties", {})
        ]
        if sdk_tool.context_kwarg:
            params.append(Parameter(sdk_tool.context_kwarg, "context", None))
        for name, (marker, _) in sdk_tool.resolved_params.items():
            rid = _plan_id(sdk_tool.resolver_plans, marker.fn)
            params.append(Parameter(name, "resolved", None, resolver=rid))
        server.tools.append(
            Tool(
                name=sdk_tool.name,
                function=getattr(sdk_tool.fn, "__name__", sdk_tool.name),
                module=getattr(sdk_tool.fn, "__module__", loaded.module),
                span=None,
                registration=None,
                parameters=params,
                is_async=sdk_tool.is_async,
            )
        )
    graph.servers.append(server)
    return graph


def _plan_id(plans: dict[Any, Any], fn: Any) -> str | None:
    from mcp.server.mcpserver.resolve import _resolver_key

    plan = plans.get(_resolver_key(fn))
    return plan.wire_key if plan is not None else None


def _resolver(plan: Any, ids: dict[Any, str]) -> Resolver:
    from mcp.server.mcpserver.resolve import _resolver_key

    fn = plan.fn
    module, _, qualname = plan.wire_key.partition(":")
    params = []
    for name, p in plan.params.items():
        kind = {"context": "context", "resolve": "resolved", "by_name": "tool_argument"}[p.kind]
        rid = ids.get(_resolver_key(p.resolve.fn)) if p.resolve is not None else None
        params.append(Parameter(name, kind, None, resolver=rid))
    return Resolver(
        id=plan.wire_key,
        name=getattr(fn, "__name__", qualname),
        qualname=qualname.split("#")[0],
        module=module,
        kind="function",
        span=None,
        is_async=plan.is_async,
        parameters=params,
        questions=[Question(kind, None) for kind in _questions(fn)],
    )


def _questions(fn: Any) -> list[str]:
    """Question kinds named by the resolver's return annotation (`Elicit[...]`, `Sample`, `ListRoots`)."""
    from mcp.server.mcpserver.resolve import Elicit, ListRoots, Sample, _type_hints

    annotation = _type_hints(fn).get("return")
    is_union = typing.get_origin(annotation) in (typing.Union, types.UnionType)
    kinds = []
    for arm in typing.get_args(annotation) if is_union else (annotation,):
        origin = typing.get_origin(arm) or arm
        if origin is Elicit:
            kinds.append("elicit")
        elif origin is Sample:
            kinds.append("sample")
        elif origin is ListRoots:
            kinds.append("list_roots")
    return kinds


def render_banner(graph: Graph, loaded: LoadedServer, facts: BannerFacts, console: Console) -> None:
    """Print the banner panel on `console` (stderr)."""
    server = next((s for s in graph.servers if s.variable == loaded.attribute), None)
    server = server or (graph.servers[0] if graph.servers else None)
    head = Table.grid(padding=(0, 2))
    head.add_column(style="bold")
    head.add_column(overflow="fold")
    head.add_row("server", Text(loaded.server.name, style="bold cyan"))
    head.add_row("from", f"{_shown(loaded.path)}:{loaded.attribute}  (module {loaded.module})")
    if facts.transport == "stdio":
        launcher = "the Inspector starts it on connect" if facts.inspector_url else "the client launches it"
        head.add_row("transport", f"stdio ({launcher})")
    else:
        head.add_row("transport", f"streamable HTTP  [bold]{facts.url}[/bold]")
    if facts.transport == "http":
        mode = f"{facts.workers} workers, stateless" if facts.workers > 1 else "1 process"
        head.add_row("workers", f"{mode}; DNS-rebinding protection on")
    if facts.reload:
        head.add_row("reload", "on: restarts when a watched file changes")
    if facts.inspector_url:
        head.add_row("inspector", facts.inspector_url)
    tools = Table(box=None, padding=(0, 2), show_edge=False)
    tools.add_column("tool", style="bold green", no_wrap=True)
    tools.add_column("arguments")
    tools.add_column("runs resolvers")
    tools.add_column("may ask")
    for tool in server.tools if server else []:
        resolvers = graph.reachable(tool)
        tools.add_row(
            tool.name,
            ", ".join(tool.arguments) or "-",
            ", ".join(r.name for r in resolvers) or "-",
            _asks(resolvers),
        )
    parts: list[Any] = [head, Text(""), tools if server and server.tools else Text("no tools", style="dim")]
    parts.extend(Text(note, style="yellow") for note in facts.notes)
    console.print(Panel(Group(*parts), title="mcpdeps serve", title_align="left", border_style="cyan"))


def _shown(path: Path) -> str:
    """The server's file relative to the current folder when inside it (as the user typed it)."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _asks(resolvers: list[Resolver]) -> Text:
    text = Text()
    for r in resolvers:
        if r.asks is not None:
            if text:
                text.append(", ")
            text.append(f"{r.name}: {QUESTION_LABELS[r.asks]}", style="magenta")
    return text or Text("-", style="dim")
