"""Tools registered in a factory function, as many published servers do."""

from mcp.server.fastmcp import Context, FastMCP
from pydantic import BaseModel


class Confirm(BaseModel):
    ok: bool


def build(name: str = "factory") -> FastMCP:
    server = FastMCP(name, port=9001, sse_path="/events")

    @server.tool()
    async def wipe(table: str, ctx: Context) -> str:
        answer = await ctx.elicit(f"Wipe {table}?", Confirm)
        return f"wiped {table}" if answer.data.ok else "kept"

    return server


mcp = build()


def main() -> None:
    mcp.run(transport="sse")
