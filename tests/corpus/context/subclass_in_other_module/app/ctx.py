from mcp.server.mcpserver import Context


class ShopContext(Context):
    """Helpers for the shop."""
