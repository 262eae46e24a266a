"""Questions a codemod must not move: each stays where it is and is reported."""

from mcp.server.fastmcp import Context, FastMCP
from pydantic import BaseModel

mcp = FastMCP("left-alone")
DELETED: list[str] = []


class Confirm(BaseModel):
    ok: bool


@mcp.tool()
async def after_effect(path: str, ctx: Context) -> str:
    DELETED.append(path)
    answer = await ctx.elicit(f"Really delete {path}?", Confirm)
    return "yes" if answer.data.ok else "no"


@mcp.tool()
async def each(paths: list[str], ctx: Context) -> int:
    kept = 0
    for path in paths:
        answer = await ctx.elicit(f"Keep {path}?", Confirm)
        kept += answer.data.ok
    return kept


async def confirm(ctx: Context, what: str) -> bool:
    answer = await ctx.elicit(f"Confirm {what}?", Confirm)
    return answer.action == "accept" and answer.data.ok


@mcp.tool()
async def through_helper(what: str, ctx: Context) -> str:
    return "done" if await confirm(ctx, what) else "skipped"


@mcp.tool()
async def maybe(path: str, force: bool, ctx: Context) -> str:
    if not force:
        answer = await ctx.elicit(f"Delete {path}?", Confirm)
        if answer.action != "accept":
            return "kept"
    return "deleted"


@mcp.tool()
async def guarded(text: str, ctx: Context) -> str:
    from mcp.types import SamplingMessage, TextContent

    try:
        result = await ctx.session.create_message(
            messages=[SamplingMessage(role="user", content=TextContent(type="text", text=text))], max_tokens=10
        )
    except Exception:
        return text
    return result.content.text
