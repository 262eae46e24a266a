"""Dependencies."""
from typing import Annotated, TypeVar

from mcp.server.mcpserver import Resolve

T = TypeVar("T")


def stock(title: str) -> int:
    return 3


Dep = Annotated[T, Resolve(stock)]
