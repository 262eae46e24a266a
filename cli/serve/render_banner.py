"""The start-up banner: what is served, where, and what each tool will run and ask.

Computed from the live server (the SDK's own `Tool.resolver_plans`, through
`resolver_core.live.build_live_graph`, in this process or in the runner's), so it shows
what the server will really do, not what the source looked like. Printed on stderr:
on stdio, stdout is the protocol channel. The facts come from the runner (`run.py`,
through `output.ServeOutput.banner`); this module only lays them out.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ...resolver_core.model import Graph, Resolver, Tool
from ..printable import printable
from .output import BannerFacts
from .served import Served, shown_path

QUESTION_LABELS = {
    "elicit": "the user",
    "sample": "the client's LLM",
    "list_roots": "for roots",
}


def render_banner(graph: Graph, served: Served, facts: BannerFacts, console: Console) -> None:
    """Print the banner panel on `console` (stderr)."""
    server = next((s for s in graph.servers if s.variable == served.attribute), None)
    server = server or (graph.servers[0] if graph.servers else None)
    head = Table.grid(padding=(0, 2))
    head.add_column(style="bold")
    head.add_column(overflow="fold")
    head.add_row("server", Text(served.name, style="bold cyan"))
    head.add_row(
        "from", Text(printable(f"{shown_path(served.path)}:{served.attribute}  (module {served.module})"))
    )
    if facts.interpreter:
        head.add_row("python", Text(facts.interpreter))
    if facts.transport == "stdio":
        launcher = "the Inspector starts it on connect" if facts.inspector_url else "the client launches it"
        head.add_row("transport", f"stdio ({launcher})")
    else:
        head.add_row("transport", Text.assemble("streamable HTTP  ", (facts.url or "", "bold")))
    if facts.transport == "http":
        mode = f"{facts.workers} workers, stateless" if facts.workers > 1 else "1 process"
        head.add_row("workers", f"{mode}; DNS-rebinding protection on")
        if facts.sessions:
            head.add_row("sessions", facts.sessions)
    if facts.reload:
        head.add_row("reload", "on: restarts when a watched file changes")
    if facts.inspector_url:
        head.add_row("inspector", Text(facts.inspector_url))
    head.add_row("stop", _how_to_stop(facts))
    rows = [_tool_row(graph, tool) for tool in (server.tools if server else [])]
    tools = _tools_table(rows) if _table_width(rows) <= console.width - 4 else _tools_stacked(rows)
    parts: list[Any] = [head, Text(""), tools if rows else Text("no tools", style="dim")]
    parts.extend(Text(note, style="yellow") for note in facts.notes)
    console.print(
        Panel(Group(*parts), title="mcpdeps serve", title_align="left", border_style="cyan", expand=False)
    )


_HEADERS = ("tool", "arguments", "runs resolvers", "asks")


def _tool_row(graph: Graph, tool: Tool) -> tuple[Text, Text, Text, Text]:
    resolvers = graph.reachable(tool)
    return (
        Text(tool.name, style="bold green"),
        Text(", ".join(tool.arguments) or "-"),
        Text(", ".join(r.name for r in resolvers) or "-"),
        _asks(resolvers),
    )


def _table_width(rows: list[tuple[Text, Text, Text, Text]]) -> int:
    """Columns as wide as their longest cell, two spaces apart: what the table needs uncut."""
    widths = [max([len(h), *(len(r[i]) for r in rows)]) for i, h in enumerate(_HEADERS)]
    return sum(widths) + 2 * len(widths)


def _tools_table(rows: list[tuple[Text, Text, Text, Text]]) -> Table:
    tools = Table(box=None, padding=(0, 2), show_edge=False)
    tools.add_column(_HEADERS[0], no_wrap=True)
    for header in _HEADERS[1:]:
        tools.add_column(header)
    for row in rows:
        tools.add_row(*row)
    return tools


def _tools_stacked(rows: list[tuple[Text, Text, Text, Text]]) -> Group:
    """For narrow terminals: one block per tool, every name whole (wrapped, never cut with `…`)."""
    blocks: list[Any] = []
    for name, arguments, resolvers, asks in rows:
        blocks.append(Text.assemble(name, "(", arguments, ")"))
        for label, value in (("runs", resolvers), ("asks", asks)):
            if value.plain != "-":
                line = Table.grid(padding=(0, 1))
                line.add_column(width=6, style="dim")
                line.add_column(overflow="fold")
                line.add_row(f"  {label}", value)
                blocks.append(line)
    return Group(*blocks)


def _how_to_stop(facts: BannerFacts) -> str:
    """Ctrl+C stops every transport (the stdio one too, see `cli/serve/stdio.py`)."""
    if facts.transport == "stdio" and not facts.inspector_url:
        return "Ctrl+C (or Ctrl+D: end of input)"
    return "Ctrl+C"


def _asks(resolvers: list[Resolver]) -> Text:
    text = Text()
    for r in resolvers:
        if r.asks is not None:
            if text:
                text.append(", ")
            # `asks the user (confirm_backorder)`: the row's label is not repeated ("asks ...: asks")
            text.append(f"{QUESTION_LABELS[r.asks]} ({r.name})", style="magenta")
    return text or Text("-", style="dim")
