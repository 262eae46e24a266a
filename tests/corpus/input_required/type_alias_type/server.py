# expect: MCPD005
"""`TypeAliasType` (what PEP 695 `type Answer = ...` builds): the SDK follows `__value__`."""
from typing_extensions import TypeAliasType

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve
from mcp.types import InputRequiredResult

mcp = MCPServer("R5")


def check(title: str) -> int:
    return 1

Answer = TypeAliasType("Answer", InputRequiredResult | str)


@mcp.tool()
def reserve(title: str, n: Annotated[int, Resolve(check)]) -> Answer:
    """Reserve."""
    return title
