from typing import Annotated

from mcp.server.mcpserver import Resolve

from ..stock import check_stock


def delivery(n: Annotated[int, Resolve(check_stock)]) -> str:
    return "soon" if n else "later"
