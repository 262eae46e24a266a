# expect: ok
"""A consumer annotated `ElicitationResult[T]` receives accept/decline/cancel."""
from typing import Annotated, Literal

from pydantic import BaseModel

from mcp.server import MCPServer
from mcp.server.mcpserver import AcceptedElicitation, Elicit, ElicitationResult, Resolve

mcp = MCPServer("Bookshop")


class Choice(BaseModel):
    format: Literal["paperback", "hardcover", "ebook"]
    copies: int = 1
    gift: bool = False
    note: str = ""


def ask_format(title: str) -> Elicit[Choice]:
    return Elicit(f"Which format of {title}?", Choice)


@mcp.tool()
async def buy(title: str, choice: Annotated[ElicitationResult[Choice], Resolve(ask_format)]) -> str:
    """Buy a book, asking the format."""
    if isinstance(choice, AcceptedElicitation):
        return choice.data.format
    return "nothing bought"
