# expect: ok
"""A pydantic model class as resolver: its keyword-only __init__ takes tool arguments."""
from typing import Annotated

from pydantic import BaseModel

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Users")


class Who(BaseModel):
    user: str
    team: str


@mcp.tool()
def whoami(user: str, team: str, who: Annotated[Who, Resolve(Who)]) -> str:
    """Say who the user is."""
    return f"{who.user}@{who.team}"
