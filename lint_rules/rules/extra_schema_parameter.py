"""MCPD109: a second Context parameter, `*args` or `**kwargs` on a tool: extra schema properties."""

from __future__ import annotations

from collections.abc import Iterable

from ...resolver_core.diagnostics import Diagnostic
from ...resolver_core.model import Graph, Parameter, Tool
from ...resolver_core.signatures import Classes, is_context_for_tool
from .._source import classes_of
from ..base import Invalid, Rule

_HEADER = (
    "from mcp.server import MCPServer\nfrom mcp.server.mcpserver import Context\n\nmcp = MCPServer('s')\n\n"
)


class ExtraSchemaParameter(Rule):
    code = "MCPD109"
    name = "extra-schema-parameter"
    severity = "warning"
    summary = "A second Context parameter, `*args` or `**kwargs` on a tool becomes an input-schema property."
    explanation = (
        "The SDK injects the Context into the *first* Context-annotated parameter only. A second "
        "one is published as a required input-schema property: calls without it fail validation, "
        "and whatever the model sends is turned into a detached Context that is not the request's. "
        "`*args` and `**kwargs` are not spread either: each becomes one required property (`args`, "
        "`kwargs`) passed by keyword, so `*args` never receives anything (the call crashes unless a "
        "`**kwargs` swallows it) and `**kwargs` receives `{'kwargs': value}`.\n\n"
        "Fix: keep one Context parameter; replace `*args`/`**kwargs` with named, typed parameters."
    )
    INVALID = [
        Invalid(
            _HEADER + "@mcp.tool()\n"
            "async def report(title: str, ctx: Context, log_ctx: Context) -> str:\n    return title\n",
            at=(7, 44, 7, 60),
        ),
        Invalid(
            _HEADER + "@mcp.tool()\ndef tag(title: str, *tags: str) -> str:\n    return title\n",
            at=(7, 22, 7, 31),
        ),
        Invalid(
            _HEADER + "@mcp.tool()\ndef tag(title: str, **options: str) -> str:\n    return title\n",
            at=(7, 23, 7, 35),
        ),
    ]
    VALID = [
        _HEADER
        + "@mcp.tool()\nasync def report(title: str, ctx: Context, tags: list[str]) -> str:\n    return title\n"
    ]

    def check(self, graph: Graph) -> Iterable[Diagnostic]:
        classes = classes_of(graph)
        for _, tool in graph.tools():
            if tool.hints_error:
                continue
            for p in tool.parameters:
                why = _why(tool, p, classes)
                if why is not None and p.span is not None:
                    yield self.diagnostic(
                        p.span,
                        f"parameter {p.name!r} of tool {tool.name!r}: {why}",
                        tool=tool.name,
                        help="remove the second Context parameter"
                        if p.variadic is None
                        else f"replace `{p.variadic}{p.name}` with named, typed parameters (or one list/dict)",
                    )


def _why(tool: Tool, p: Parameter, classes: Classes | None) -> str | None:
    if p.kind != "tool_argument":
        return None
    if p.variadic == "*":
        catch_all = next((q.name for q in tool.parameters if q.variadic == "**"), None)
        fate = (
            f"it lands in `**{catch_all}`"
            if catch_all
            else "every call crashes (unexpected keyword argument)"
        )
        return (
            f"`*{p.name}` is not spread: the SDK publishes a required input-schema property {p.name!r} and "
            f"passes it by keyword, so it never reaches `*{p.name}`; {fate}"
        )
    if p.variadic == "**":
        return (
            f"`**{p.name}` is not spread: the SDK publishes a required input-schema property {p.name!r} the "
            f"model must send, and the function receives it nested as `{p.name}={{{p.name!r}: ...}}`"
        )
    if classes is not None and tool.context is not None and is_context_for_tool(p.type, classes):
        required = "a required" if p.default is None else "an"
        return (
            f"only the first Context parameter ({tool.context!r}) is injected; this one becomes {required} "
            "input-schema property, and what the model sends is validated into a detached Context, "
            "not the request's"
        )
    return None
