# expect: MCPD001
"""A cycle through two bound methods of one module-level instance."""
from __future__ import annotations

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Cycles")


class Accounts:
    def owner(self, account: str, balance: Annotated[int, Resolve(accounts.balance)]) -> str:
        return account

    def balance(self, owner: Annotated[str, Resolve(accounts.owner)]) -> int:
        return 0


accounts = Accounts()


@mcp.tool()
def audit(account: str, who: Annotated[str, Resolve(accounts.owner)]) -> str:
    """Audit an account."""
    return who
