"""Aliases built from aliased imports."""
import typing as t

from mcp.server.mcpserver import Resolve as R


def check_stock(title: str) -> int:
    return 1


Count = int
StockDep = t.Annotated[Count, R(check_stock)]
