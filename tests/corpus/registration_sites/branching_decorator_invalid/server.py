# expect: MCPD002
"""The same branching decorator on a resolver that asks for a parameter no tool argument
provides: the SDK reads it through `__wrapped__` and refuses the tool (R2)."""
from functools import wraps
from inspect import iscoroutinefunction
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Logged")


def traced(fn):
    if iscoroutinefunction(fn):

        @wraps(fn)
        async def inner(*args, **kwargs):
            return await fn(*args, **kwargs)

        return inner

    @wraps(fn)
    def plain(*args, **kwargs):
        return fn(*args, **kwargs)

    return plain


@traced
async def account(user_id: int) -> str:
    return str(user_id)


@mcp.tool()
async def balance(user: str, acct: Annotated[str, Resolve(account)]) -> str:
    """`account` wants `user_id`; the tool has `user`."""
    return acct
