"""What a registration call's arguments say: the tool name it passes, and whether it passes the
function itself.

The SDK's registration calls take the name in one place each (`mcp.tool("x")` or
`mcp.tool(name="x")`, `mcp.add_tool(fn, "x")`, `Tool.from_function(fn, "x")`, a server's own
`MCPServer("x")`), and `mcp.tool(fn)` registers `fn` where `mcp.tool("x")` hands out a
decorator; the scanners of registrations, constructors and servers read them the same way.
"""

from __future__ import annotations

import ast


def name_argument(call: ast.Call, position: int = 0) -> ast.expr | None:
    """The name a call passes at `position` or as `name=` (`tool("x")`, `add_tool(fn, "x")`)."""
    if len(call.args) > position:
        return call.args[position]
    return next((k.value for k in call.keywords if k.arg == "name"), None)


def passes_function(node: ast.expr) -> bool:
    """Whether a registrar's first argument is the function (`mcp.tool(reserve)`), not a name
    (`mcp.tool("name")`, the normal factory call) nor arguments handed on (`mcp.tool(*args)` in a
    factory of decorators)."""
    return not (
        isinstance(node, ast.Starred)
        or (isinstance(node, ast.Constant) and (node.value is None or isinstance(node.value, str)))
    )


def is_none(node: ast.expr | None) -> bool:
    """`None` written out (`name=None`: the function's own name)."""
    return isinstance(node, ast.Constant) and node.value is None
