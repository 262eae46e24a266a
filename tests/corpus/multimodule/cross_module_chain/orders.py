from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

from billing import plan_of
from users import current_user


def register(server: MCPServer) -> None:
    def place(
        token: str,
        item: str,
        user: Annotated[str, Resolve(current_user)],
        plan: Annotated[str, Resolve(plan_of)],
    ) -> str:
        return f"{user} ({plan}) ordered {item}"

    server.add_tool(place, name="place_order")
