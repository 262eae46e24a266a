"""A 1.x server whose tools ask the user first: each question moves into a resolver."""

import logging

from mcp.server.fastmcp import Context, FastMCP
from pydantic import BaseModel

logger = logging.getLogger(__name__)

mcp = FastMCP("questions")


class Confirm(BaseModel):
    ok: bool


@mcp.tool()
async def delete(path: str, force: bool = False, ctx: Context = None) -> str:
    """Delete a file, after asking (declining is an answer too)."""
    logger.info("asked to delete %s", path)
    answer = await ctx.elicit(f"Delete {path}?", Confirm)
    if answer.action == "accept" and answer.data.ok:
        return f"deleted {path}"
    if answer.action == "decline":
        return "declined"
    return "cancelled"


@mcp.tool()
async def rename(old: str, new: str, ctx: Context) -> str:
    prompt = f"Rename {old} to {new}?"
    reply = await ctx.elicit(message=prompt, schema=Confirm)
    return new if reply.data.ok else old


@mcp.tool()
async def order(title: str, ctx: Context) -> str:
    class Shipping(BaseModel):
        express: bool
        copies: int = 1

    shipping = await ctx.elicit(f"How should we ship {title}?", Shipping)
    await ctx.info(f"shipping {title}")
    return f"{shipping.data.copies} x {title}, express={shipping.data.express}"


@mcp.tool()
async def summarize(text: str, ctx: Context) -> str:
    from mcp.types import SamplingMessage, TextContent

    result = await ctx.session.create_message(
        messages=[SamplingMessage(role="user", content=TextContent(type="text", text=f"Summarize: {text}"))],
        max_tokens=50,
    )
    return result.content.text if result.content.type == "text" else ""


@mcp.tool()
async def where(ctx: Context) -> list[str]:
    found = await ctx.session.list_roots()
    return [str(root.uri) for root in found.roots]


@mcp.tool()
async def chained(name: str, ctx: Context) -> str:
    """The second question depends on the first answer: it takes it from the first resolver."""
    first = await ctx.elicit(f"Hello {name}, continue?", Confirm)
    second = await ctx.elicit(f"Sure ({first.action})?", Confirm)
    return second.action
