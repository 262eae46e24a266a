# expect: MCPD006
"""A bound method registered as a tool, with a parameter starting with `_`."""
from mcp.server import MCPServer

mcp = MCPServer("Methods")


class Shop:
    def reserve(self, title: str, _trace: str = "") -> str:
        """Reserve a book."""
        return title


shop = Shop()
mcp.add_tool(shop.reserve)
