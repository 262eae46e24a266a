"""MCPD009: a tool annotation that cannot be evaluated when the server is imported."""

from __future__ import annotations

from collections.abc import Iterable

from ...resolver_core.diagnostics import Diagnostic
from ...resolver_core.model import Graph
from ..base import Invalid, Rule


class UnevaluableAnnotation(Rule):
    code = "MCPD009"
    name = "unevaluable-annotation"
    summary = "A tool's type annotation cannot be evaluated (undefined name, TYPE_CHECKING-only import)."
    explanation = (
        "The SDK evaluates every annotation of a tool at registration (`inspect.signature(..., "
        "eval_str=True)`). A name that only exists under `if TYPE_CHECKING:`, a typo, or a local name "
        "under `from __future__ import annotations` makes it fail with `Unable to evaluate type "
        "annotations`. Import the name at run time. Without `from __future__ import annotations`, "
        "Python up to 3.13 evaluates the annotations of a module-level function where it is "
        "defined, even before the SDK: one naming what the module binds further down (a resolver "
        "written below the tool) stops the import with a `NameError`. Define it above the tool. "
        "A factory or helper the module itself calls (`mcp = build()`, `register(mcp)`) "
        "registers its tools at that line, while the module is imported: what the module binds "
        "below the call does not exist yet there, however the annotations are evaluated. Call it "
        "after the definitions, or from the entry point."
    )
    known_problems = (
        "Python 3.14 evaluates annotations lazily: a module-level tool registered after the names "
        "its annotations read imports there, and is reported all the same (it fails on every "
        "earlier Python the SDK supports)."
    )
    INVALID = [
        Invalid(
            "from __future__ import annotations\n"
            "from typing import TYPE_CHECKING\n"
            "from mcp.server import MCPServer\n"
            "if TYPE_CHECKING:\n    from decimal import Decimal\n\n"
            "mcp = MCPServer('s')\n\n"
            "@mcp.tool()\n"
            "def t(amount: Decimal) -> str:\n    return str(amount)\n",
            at=(10, 1, 10, 1),
        ),
        Invalid(
            "from typing import Annotated\n"
            "from mcp.server import MCPServer\n"
            "from mcp.server.mcpserver import Resolve\n\n"
            "mcp = MCPServer('s')\n\n"
            "def order(book: str, who: Annotated[str, Resolve(login)]) -> str:\n    return book + who\n\n"
            "def login() -> str:\n    return 'me'\n\n"
            "mcp.add_tool(order)\n",
            at=(7, 1, 7, 1),
        ),
    ]
    VALID = [
        "from __future__ import annotations\n"
        "from decimal import Decimal\n"
        "from mcp.server import MCPServer\n\n"
        "mcp = MCPServer('s')\n\n"
        "@mcp.tool()\n"
        "def t(amount: Decimal) -> str:\n    return str(amount)\n"
    ]

    def check(self, graph: Graph) -> Iterable[Diagnostic]:
        for _, tool in graph.tools():
            if tool.hints_error and tool.span is not None:
                yield self.diagnostic(
                    tool.span,
                    f"tool {tool.name!r}: {tool.hints_error}; the SDK cannot register it",
                    tool=tool.name,
                    help="import every name used in the tool's annotations at run time (not only under TYPE_CHECKING)",
                )
