"""Resolvers and the aliases that name them."""
from typing import Annotated

from mcp.server.mcpserver import Resolve


def check_stock(title: str) -> int:
    return 1


def current_user(user: str) -> str:
    return user


StockDep = Annotated[int, Resolve(check_stock)]
UserDep = Annotated[str, Resolve(current_user)]
