# expect: MCPD002
"""`a` depends on `partial(b)`, `b` on `a`: hints are not read through a partial, so `b`'s
Resolve parameter is matched by name, fails, and the SDK reports R2, not a cycle."""
from __future__ import annotations

import functools
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("R2")


def a(x: int, v: Annotated[int, Resolve(functools.partial(b))]) -> int:
    return v


def b(w: Annotated[int, Resolve(a)]) -> int:
    return w


@mcp.tool()
def run(x: int, value: Annotated[int, Resolve(a)]) -> int:
    """Run."""
    return value
