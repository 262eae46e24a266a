"""MCPD107: a tool argument with `Field(alias=...)`."""

from __future__ import annotations

from collections.abc import Iterable

from ...resolver_core.diagnostics import Diagnostic
from ...resolver_core.model import Graph
from ..base import Invalid, Rule

_HEADER = "from typing import Annotated\nfrom pydantic import Field\nfrom mcp.server import MCPServer\n\nmcp = MCPServer('s')\n\n"


class AliasedToolArgument(Rule):
    code = "MCPD107"
    name = "aliased-tool-argument"
    severity = "warning"
    summary = "A tool argument with `Field(alias=...)`: the schema uses the alias and every call crashes."
    explanation = (
        "The SDK publishes an aliased argument under its alias (`Title`), validates the call's "
        "arguments by that alias, and then calls the function with the alias as the keyword "
        "(`fn(Title=...)`), which the function does not accept: every call fails with "
        "`got an unexpected keyword argument`. Not reported where the call's keyword is the "
        "parameter's name after all: an alias equal to it (`Field(alias='title')`), two `Field`s "
        "in `Annotated` whose last names it (pydantic merges them in order), or an argument named "
        "like a method of pydantic's `BaseModel` (`json`, `schema`), which the SDK renames and "
        "aliases to its own name after the annotation's metadata (a default `= Field(alias=...)` "
        "still wins there, and is reported).\n\n"
        "Fix: drop `alias=` and name the parameter the way the schema should show it; keep "
        "`description=` and constraints in `Field(...)`."
    )
    INVALID = [
        Invalid(
            _HEADER + "@mcp.tool()\n"
            "def find(title: Annotated[str, Field(alias='Title')]) -> str:\n    return title\n",
            at=(8, 10, 8, 53),
        ),
        Invalid(
            _HEADER
            + "@mcp.tool()\ndef find(title: str = Field(alias='bookTitle')) -> str:\n    return title\n",
            at=(8, 10, 8, 20),
        ),
    ]
    VALID = [
        _HEADER + "@mcp.tool()\n"
        "def find(title: Annotated[str, Field(description='The title')]) -> str:\n    return title\n"
    ]

    def check(self, graph: Graph) -> Iterable[Diagnostic]:
        for _, tool in graph.tools():
            for p in tool.parameters:
                if p.kind == "tool_argument" and p.alias and p.span is not None:
                    yield self.diagnostic(
                        p.span,
                        f"argument {p.name!r} of tool {tool.name!r} has alias {p.alias!r}: the SDK validates "
                        f"it as {p.alias!r} and then calls the function with `{p.alias}=`, so every call "
                        "crashes with an unexpected keyword argument",
                        tool=tool.name,
                        help=f"drop `alias=` (rename the parameter itself if the schema should say {p.alias!r})",
                    )
