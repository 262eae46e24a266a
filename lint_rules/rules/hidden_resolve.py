"""MCPD101: a `Resolve` the SDK cannot see, so the parameter is filled by the model instead."""

from __future__ import annotations

from collections.abc import Iterable

from ...resolver_core.diagnostics import Diagnostic
from ...resolver_core.model import Graph, Parameter, Resolver
from ...resolver_core.typeexpr import TResolve, contains_resolve, nested_resolve
from .._source import found_in
from ..base import Invalid, Rule, RuleFix
from ._walk import tool_argument_names, tools_with_resolvers

_HEADER = (
    "from typing import Annotated\n"
    "from pydantic import Field\n"
    "from mcp.server import MCPServer\n"
    "from mcp.server.mcpserver import Resolve\n\n"
    "mcp = MCPServer('s')\n\n"
    "def current_user(title: str) -> str:\n    return 'alice'\n\n"
)


def hidden(p: Parameter) -> bool:
    """A tool parameter's marker below the top level that the SDK neither honours nor refuses.

    Markers in a top-level union or generic are refused at registration (MCPD003); only the
    ones under an outer `Annotated` or inside a type alias slip through.
    """
    return p.kind == "tool_argument" and not contains_resolve(p.type) and nested_resolve(p.type) is not None


def _target(marker: TResolve) -> str:
    return marker.module.segment(marker.target) if marker.target is not None else "?"


class HiddenResolve(Rule):
    code = "MCPD101"
    name = "hidden-resolve"
    FIX = RuleFix(
        "move `Resolve(...)` into the top-level `Annotated[...]` so the SDK sees it",
        fixer="mcpdeps.lint_rules.fixes.hidden_resolve",
        splice="mcpdeps.lint_rules.fixes.spans:hidden_resolve",
        tidies_imports=True,
        only_when="is hidden under",
        case="a marker under an outer `Annotated`, a union or an alias (not one written as the default value)",
        safety_note="The marker the SDK could not see becomes one it sees, with the other metadata "
        "kept beside it: the value the annotation meant is then resolved.",
    )
    known_problems = (
        "Only a marker one `Annotated` (or one `| None`) deep is lifted; deeper nesting, and a "
        "default that cannot go, are left to you."
    )
    severity = "error"
    summary = (
        "A `Resolve(...)` hidden under an outer `Annotated` or a type alias, or written as the "
        "default value: the model fills the parameter."
    )
    explanation = (
        "The SDK honours `Resolve` only as metadata of the parameter's top-level `Annotated`. Written "
        "as `Annotated[Annotated[T, Resolve(f)] | None, Field(...)]` (or through a `TypeAliasType` "
        "alias), the outer layer hides the marker: registration succeeds, `f` never runs, and the "
        "parameter becomes an ordinary input-schema property that the model (or anyone calling the "
        "tool) fills with any value it likes - typically a security hole when `f` was meant to "
        "supply the current user or a permission. Inside a resolver the same hidden marker makes the "
        "parameter a by-name copy of the tool argument. So does a marker written as the default "
        "value, FastAPI's way (`user: str = Resolve(current_user)`, `db = Depends(get_db)`): the "
        "SDK reads markers in the annotation only.\n\n"
        "Fix: lift the marker to the top level and drop the `| None` and the default: "
        "`user: Annotated[str, Resolve(current_user), Field(description=...)]`."
    )
    INVALID = [
        Invalid(
            _HEADER + "@mcp.tool()\n"
            "def t(title: str, user: Annotated[Annotated[str, Resolve(current_user)] | None, "
            "Field(description='who')] = None) -> str:\n    return title\n",
            at=(12, 19, 12, 106),
            fixed=(
                "from typing import Annotated\n"
                "from pydantic import Field\n"
                "from mcp.server import MCPServer\n"
                "from mcp.server.mcpserver import Resolve\n"
                "\n"
                "mcp = MCPServer('s')\n"
                "\n"
                "def current_user(title: str) -> str:\n"
                "    return 'alice'\n"
                "\n"
                "@mcp.tool()\n"
                "def t(title: str, user: Annotated[str, Resolve(current_user), Field(description='who')]) -> str:\n"
                "    return title\n"
            ),
        ),
        Invalid(
            _HEADER
            + "def owner(title: Annotated[Annotated[str, Resolve(current_user)] | None, Field()]) -> str:\n"
            "    return title\n\n"
            "@mcp.tool()\n"
            "def t(title: str, o: Annotated[str, Resolve(owner)]) -> str:\n    return o\n",
            at=(11, 11, 11, 82),
            fixed=(
                "from typing import Annotated\n"
                "from pydantic import Field\n"
                "from mcp.server import MCPServer\n"
                "from mcp.server.mcpserver import Resolve\n"
                "\n"
                "mcp = MCPServer('s')\n"
                "\n"
                "def current_user(title: str) -> str:\n"
                "    return 'alice'\n"
                "\n"
                "def owner(title: Annotated[str, Resolve(current_user), Field()]) -> str:\n"
                "    return title\n"
                "\n"
                "@mcp.tool()\n"
                "def t(title: str, o: Annotated[str, Resolve(owner)]) -> str:\n"
                "    return o\n"
            ),
        ),
    ]
    INVALID.append(
        Invalid(
            _HEADER + "@mcp.tool()\n"
            "def t(title: str, user: str = Resolve(current_user)) -> str:\n    return title\n",
            at=(12, 19, 12, 28),
        )
    )
    VALID = [
        _HEADER + "@mcp.tool()\n"
        "def t(title: str, user: Annotated[str, Resolve(current_user), Field(description='who')]) -> str:\n"
        "    return title\n"
    ]

    def check(self, graph: Graph) -> Iterable[Diagnostic]:
        for _, tool in graph.tools():
            if tool.hints_error:
                continue
            for p in tool.parameters:
                marker = nested_resolve(p.type) if hidden(p) else None
                if marker is not None and p.span is not None:
                    target = _target(marker)
                    yield self.diagnostic(
                        p.span,
                        f"Resolve({target}) on parameter {p.name!r} of tool {tool.name!r} is hidden under an "
                        f"outer Annotated or alias, so the SDK ignores it: {p.name!r} becomes an input-schema "
                        f"property the model fills, and {target} never runs",
                        tool=tool.name,
                        help="lift the marker to the top level: `Annotated[T, Resolve(...), Field(...)]`, "
                        "without `| None` and without a default",
                    )
                elif p.kind == "tool_argument" and p.default_marker is not None and p.span is not None:
                    target = _target(p.default_marker)
                    yield self.diagnostic(
                        p.span,
                        f"Resolve({target}) is the default value of parameter {p.name!r} of tool "
                        f"{tool.name!r}, where the SDK does not look for it: {p.name!r} becomes an "
                        f"input-schema property the model fills, and {target} never runs",
                        tool=tool.name,
                        help=f"annotate it `{p.name}: Annotated[T, Resolve({target})]`, without a default",
                    )
        for _, tool, resolvers in tools_with_resolvers(graph):
            arguments = tool_argument_names(tool)
            for resolver in resolvers:
                for p, marker in found_in(graph, self.code, resolver, _hidden_markers):
                    if p.name in arguments and p.span is not None:
                        yield self.diagnostic(
                            p.span,
                            f"Resolve({_target(marker)}) on parameter {p.name!r} of resolver "
                            f"{resolver.name!r} is hidden under a union or an outer Annotated, so the SDK "
                            f"ignores it and passes the argument {p.name!r} of tool {tool.name!r} instead",
                            tool=tool.name,
                            help="annotate the parameter directly as `Annotated[T, Resolve(...)]`",
                        )


def _hidden_markers(resolver: Resolver) -> list[tuple[Parameter, TResolve]]:
    """A resolver's parameters filled by a tool argument of their name whose `Resolve(...)`
    is hidden, with the marker (which tool's argument fills each is the view's to say)."""
    return [
        (p, marker)
        for p in resolver.parameters
        if p.kind == "tool_argument" and (marker := nested_resolve(p.type)) is not None
    ]
