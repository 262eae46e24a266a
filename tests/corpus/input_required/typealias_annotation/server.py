# expect: MCPD005
"""`Answer: TypeAlias = InputRequiredResult | str`, imported from another module."""
from typing import Annotated

from answers import Answer

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("R5")


def check(title: str) -> int:
    return 1


@mcp.tool()
def reserve(title: str, n: Annotated[int, Resolve(check)]) -> Answer:
    """Reserve."""
    return title
