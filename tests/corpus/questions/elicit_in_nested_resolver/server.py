# expect: ok
"""A question asked deep in the graph, below a plain resolver."""
from typing import Annotated

from pydantic import BaseModel

from mcp.server import MCPServer
from mcp.server.mcpserver import Elicit, Resolve

mcp = MCPServer("Ask")


class Approval(BaseModel):
    approve: bool
    reason: str = ""


def approval(amount: float) -> Approval | Elicit[Approval]:
    if amount < 100:
        return Approval(approve=True)
    return Elicit(f"Approve a payment of {amount:.2f}?", Approval)


def payment_plan(ok: Annotated[Approval, Resolve(approval)], amount: float) -> str:
    return "now" if ok.approve else "never"


@mcp.tool()
def pay(amount: float, plan: Annotated[str, Resolve(payment_plan)]) -> str:
    """Pay an amount."""
    return plan
