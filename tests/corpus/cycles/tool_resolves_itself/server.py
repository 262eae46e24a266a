# expect: MCPD001
"""The same tool registered with add_tool after its definition: now the name exists, the SDK
analyses the tool function as a resolver too, and meets it again below itself."""
from __future__ import annotations

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Cycles")


def total(x: int, previous: Annotated[int, Resolve(total)]) -> int:
    """Add up."""
    return x + previous


mcp.add_tool(total)
