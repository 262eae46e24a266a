"""MCPD007: `Resolve(x)` where `x` is not a callable the SDK can inspect, or does not exist."""

from __future__ import annotations

from collections.abc import Iterable

from ...resolver_core.diagnostics import Diagnostic
from ...resolver_core.model import Graph
from ..base import Invalid, Rule
from ._walk import resolver_problems


class InvalidResolver(Rule):
    code = "MCPD007"
    name = "invalid-resolver"
    summary = "`Resolve(x)` where `x` is not callable, has no signature, or is not defined."
    explanation = (
        "The SDK calls `inspect.signature` on the resolver at registration: a value that is not "
        "callable (`Resolve(42)`) or a builtin without a signature (`Resolve(max)`) raises there, and "
        "an undefined name fails the import itself. Nor is what calling the resolver gives one "
        "(`Resolve(current_user())` where `Resolve(current_user)` was meant, FastAPI's "
        "`Depends(get_db())` slip): a coroutine of an `async def`, a generator of a generator "
        "function, the dict or `None` a function returns. Pass a function, method or callable object."
    )
    INVALID = [
        Invalid(
            "from typing import Annotated\n"
            "from mcp.server import MCPServer\n"
            "from mcp.server.mcpserver import Resolve\n\n"
            "mcp = MCPServer('s')\n\n"
            "@mcp.tool()\n"
            "def t(title: str, n: Annotated[int, Resolve(42)]) -> str:\n    return title\n",
            at=(8, 19, 8, 49),
        ),
        Invalid(
            "from typing import Annotated\n"
            "from mcp.server import MCPServer\n"
            "from mcp.server.mcpserver import Resolve\n\n"
            "mcp = MCPServer('s')\n\n"
            "async def current_user() -> str:\n    return 'ann'\n\n"
            "@mcp.tool()\n"
            "async def t(title: str, user: Annotated[str, Resolve(current_user())]) -> str:\n    return title\n",
            at=(11, 25, 11, 70),
        ),
    ]
    VALID = [
        "from typing import Annotated\n"
        "from mcp.server import MCPServer\n"
        "from mcp.server.mcpserver import Resolve\n\n"
        "mcp = MCPServer('s')\n\n"
        "def n(title: str) -> int:\n    return len(title)\n\n"
        "@mcp.tool()\n"
        "def t(title: str, k: Annotated[int, Resolve(n)]) -> str:\n    return title\n"
    ]

    def check(self, graph: Graph) -> Iterable[Diagnostic]:
        for tool, resolver, span in resolver_problems(graph, "invalid"):
            yield self.diagnostic(
                span,
                f"invalid resolver: {resolver.problem}",
                tool=tool.name,
                help=_help(resolver.problem or ""),
            )


def _help(problem: str) -> str:
    if "was not found" in problem:
        return "correct the module's name in the import"
    if "is not defined" in problem:
        return "define or import the resolver before the tool that uses it"
    return "pass a function, a bound method or a callable object to Resolve(...)"
