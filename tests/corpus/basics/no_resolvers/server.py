# expect: ok
"""Plain tools without any Resolve: defaults, optionals, lists, a model argument."""
from pydantic import BaseModel, Field

from mcp.server import MCPServer

mcp = MCPServer("Plain")


class Address(BaseModel):
    street: str
    city: str


@mcp.tool()
def add(a: int, b: int = 2) -> int:
    """Add two numbers."""
    return a + b


@mcp.tool()
def greet(name: str, greeting: str | None = None, tags: list[str] | None = None) -> str:
    """Greet someone."""
    return f"{greeting or 'Hello'} {name}"


@mcp.tool()
def ship(address: Address, speed: int = Field(default=1, ge=1, le=3)) -> str:
    """Ship to an address."""
    return address.city


@mcp.tool()
def untyped(value, count=3) -> str:
    """Unannotated parameters become string/any properties."""
    return str(value) * count
