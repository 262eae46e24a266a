# expect: ok
"""One resolver consumed by three tools on one server."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Accounts")

PLANS = {"ada": "pro"}


def plan_of(user: str) -> str:
    return PLANS.get(user, "free")


@mcp.tool()
def show_plan(user: str, plan: Annotated[str, Resolve(plan_of)]) -> str:
    """Show a user's plan."""
    return plan


@mcp.tool()
def can_export(user: str, fmt: str, plan: Annotated[str, Resolve(plan_of)]) -> bool:
    """Whether the user may export in this format."""
    return plan == "pro" or fmt == "csv"


@mcp.tool()
async def quota(user: str, plan: Annotated[str, Resolve(plan_of)], period: str = "month") -> int:
    """The user's quota for a period."""
    return 100 if plan == "pro" else 10
