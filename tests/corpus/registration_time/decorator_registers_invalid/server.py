# expect: MCPD006
"""`@tool` registers while the module is imported: the SDK checks the decorated function then."""
from mcp.server import MCPServer

mcp = MCPServer("Plugins")


def tool(fn):
    mcp.add_tool(fn)
    return fn


@tool
def alpha(title: str) -> str:
    """Fine."""
    return title


@tool
def gamma(_secret: int) -> int:
    """Fails T2 at import."""
    return 1
