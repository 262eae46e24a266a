# expect: ok
"""`Context[Any, Any]` in a tool and a resolver."""
from typing import Annotated, Any

from mcp.server import MCPServer
from mcp.server.mcpserver import Context, Resolve

mcp = MCPServer("Ctx")


def lifespan_name(ctx: Context[Any, Any]) -> str:
    return "app"


@mcp.tool()
def info(topic: str, ctx: Context[Any, Any], app: Annotated[str, Resolve(lifespan_name)]) -> str:
    """Info on a topic."""
    return f"{app}: {topic}"
