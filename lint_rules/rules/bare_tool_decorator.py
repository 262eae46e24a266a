"""MCPD008: `@server.tool` without parentheses."""

from __future__ import annotations

from collections.abc import Iterable

from ...resolver_core.diagnostics import Diagnostic, Edit, Fix
from ...resolver_core.lines import split_lines
from ...resolver_core.model import Graph, Span
from ..base import Invalid, Rule, RuleFix

_FIX = RuleFix("call the decorator: add `()`")


class BareToolDecorator(Rule):
    code = "MCPD008"
    name = "bare-tool-decorator"
    FIX = _FIX
    summary = "`@server.tool` is used without parentheses."
    explanation = (
        "`MCPServer.tool` is a decorator factory: `@mcp.tool` passes the function as the tool's name "
        "and the SDK raises `TypeError: The @tool decorator was used incorrectly`. Write `@mcp.tool()`."
    )
    INVALID = [
        Invalid(
            "from mcp.server import MCPServer\n\nmcp = MCPServer('s')\n\n@mcp.tool\ndef t(x: str) -> str:\n    return x\n",
            at=(5, 2, 5, 10),
            fixed=(
                "from mcp.server import MCPServer\n"
                "\n"
                "mcp = MCPServer('s')\n"
                "\n"
                "@mcp.tool()\n"
                "def t(x: str) -> str:\n"
                "    return x\n"
            ),
        )
    ]
    VALID = [
        "from mcp.server import MCPServer\n\nmcp = MCPServer('s')\n\n@mcp.tool()\ndef t(x: str) -> str:\n    return x\n"
    ]

    def check(self, graph: Graph) -> Iterable[Diagnostic]:
        for server, tool in graph.tools():
            span = tool.registration
            if tool.form == "uncalled_decorator" and span is not None:
                edit = Edit(
                    path=span.path,
                    line=span.end_line,
                    column=span.end_column,
                    end_line=span.end_line,
                    end_column=span.end_column,
                    content="()",
                )
                yield self.diagnostic(
                    span,
                    f"tool {tool.name!r} is registered with a bare decorator; the SDK raises TypeError",
                    tool=tool.name,
                    fix=Fix(message=_FIX.message, edits=[edit]),
                    help=f"write the decorator with parentheses: `@{_written(graph, span) or server.variable + '.tool'}()`",
                )


def _written(graph: Graph, span: Span) -> str | None:
    """The decorator as written on one line (`get_mcp().tool`: a server written as a call has
    no variable the help could name)."""
    source = graph.sources.get(span.path)
    if source is None or source.text is None or span.line != span.end_line:
        return None
    lines = split_lines(source.text)
    return lines[span.line - 1][span.column - 1 : span.end_column - 1] if span.line <= len(lines) else None
