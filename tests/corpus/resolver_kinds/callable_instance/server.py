# expect: ok
"""A callable instance as resolver: its hints come from type(obj).__call__, Context included."""
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Context, Resolve

mcp = MCPServer("Limits")


class RateLimiter:
    def __init__(self, per_minute: int) -> None:
        self.per_minute = per_minute

    def __call__(self, user: str, ctx: Context) -> int:
        return self.per_minute


class AsyncBudget:
    async def __call__(self, user: str) -> float:
        return 10.0


limiter = RateLimiter(60)
budget = AsyncBudget()


@mcp.tool()
async def fetch(
    user: str,
    url: str,
    allowance: Annotated[int, Resolve(limiter)],
    money: Annotated[float, Resolve(budget)],
) -> str:
    """Fetch a URL on behalf of a user."""
    return f"{url} {allowance} {money}"
