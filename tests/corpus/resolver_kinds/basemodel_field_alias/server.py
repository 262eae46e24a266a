# expect: ok
"""A pydantic model resolver with a field alias: its __init__ takes the *alias* (`user`),
which is the tool argument matched by name."""
from typing import Annotated

from pydantic import BaseModel, Field

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Users")


class Who(BaseModel):
    user_name: str = Field(alias="user")


@mcp.tool()
def whoami(user: str, who: Annotated[Who, Resolve(Who)]) -> str:
    """Say who the user is."""
    return who.user_name
