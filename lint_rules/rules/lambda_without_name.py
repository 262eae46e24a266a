"""MCPD010: a lambda registered as a tool without `name=`."""

from __future__ import annotations

from collections.abc import Iterable

from ...resolver_core.diagnostics import Diagnostic
from ...resolver_core.model import Graph
from ..base import Invalid, Rule


class LambdaWithoutName(Rule):
    code = "MCPD010"
    name = "lambda-tool-without-name"
    summary = "A lambda is registered as a tool without a `name=`."
    explanation = (
        "A tool's name defaults to the function's `__name__`; a lambda's is `<lambda>`, and the SDK "
        "raises `ValueError: You must provide a name for lambda functions`. Pass `name=`."
    )
    INVALID = [
        Invalid(
            "from mcp.server import MCPServer\n\nmcp = MCPServer('s')\nmcp.add_tool(lambda x: x)\n",
            at=(4, 1, 4, 26),
        )
    ]
    VALID = [
        "from mcp.server import MCPServer\n\nmcp = MCPServer('s')\nmcp.add_tool(lambda x: x, name='echo')\n"
    ]

    def check(self, graph: Graph) -> Iterable[Diagnostic]:
        for _, tool in graph.tools():
            if tool.is_lambda and not tool.named and tool.registration is not None:
                yield self.diagnostic(
                    tool.registration,
                    "a lambda is registered as a tool without a name; the SDK raises ValueError",
                    tool=None,
                    help='pass `name="..."` to add_tool(...)',
                )
