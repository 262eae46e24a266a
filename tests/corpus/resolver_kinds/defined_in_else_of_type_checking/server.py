# expect: ok
"""`if TYPE_CHECKING:` declares a stub, `else:` defines the resolver that runs."""
from typing import TYPE_CHECKING

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Stub")

if TYPE_CHECKING:

    def check(isbn: str) -> int: ...

else:

    def check(title: str) -> int:
        return 1


@mcp.tool()
def reserve(title: str, n: Annotated[int, Resolve(check)]) -> str:
    """Reserve a book."""
    return f"{title} {n}"
