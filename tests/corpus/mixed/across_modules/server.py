# expect: MCPD002, MCPD004, MCPD005, MCPD008
"""Errors spread over a package: a question conflict, an unknown name, R5, and a bare decorator."""
from typing import Annotated

from app.deps import ask_twice, by_warehouse, check_stock

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve
from mcp.types import InputRequiredResult

mcp = MCPServer("Mixed")


@mcp.tool()
def ok_tool(title: str, n: Annotated[int, Resolve(check_stock)]) -> str:
    """Valid."""
    return title


@mcp.tool()
def asks(title: str, v: Annotated[str, Resolve(ask_twice)]) -> str:
    """R4."""
    return v


@mcp.tool()
def warehouse(title: str, v: Annotated[int, Resolve(by_warehouse)]) -> str:
    """R2."""
    return title


@mcp.tool()
def manual(title: str, n: Annotated[int, Resolve(check_stock)]) -> InputRequiredResult | str:
    """R5."""
    return title


@mcp.tool
def bare(title: str) -> str:
    """T9."""
    return title
