"""A 1.x server: names, constructor settings, errors and Context logging."""

from mcp.server.fastmcp import Context, FastMCP, Image
from mcp.shared.exceptions import McpError
from mcp.types import INVALID_PARAMS, ErrorData

mcp = FastMCP("basics", "Answers about numbers.", host="127.0.0.1", port=8123, json_response=True)


@mcp.tool()
def add(a: int, b: int = 2) -> int:
    """Add two numbers."""
    return a + b


@mcp.tool()
async def check(value: int, ctx: Context) -> str:
    await ctx.log(level="info", message=f"checking {value}")
    if value < 0:
        raise McpError(ErrorData(code=INVALID_PARAMS, message="negative"))
    return f"{value} is fine ({ctx.fastmcp.name})"


@mcp.tool()
def thumbnail(size: int) -> Image:
    return Image(data=b"\x89PNG" + bytes(size), format="png")


if __name__ == "__main__":
    mcp.run(transport="streamable-http")
