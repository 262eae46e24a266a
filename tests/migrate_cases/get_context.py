"""`mcp.get_context()` (removed in mcp 2) becomes the tool's Context parameter."""

from mcp.server.fastmcp import FastMCP
from pydantic import BaseModel

mcp = FastMCP("ambient")


class Name(BaseModel):
    name: str


@mcp.tool()
async def greet(greeting: str = "Hello") -> str:
    ctx = mcp.get_context()
    answer = await ctx.elicit("What is your name?", Name)
    return f"{greeting}, {answer.data.name}!"


@mcp.tool()
async def progress(steps: int) -> str:
    ctx = mcp.get_context()
    for step in range(steps):
        await ctx.report_progress(step, steps)
    return "done"
