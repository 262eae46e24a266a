"""The Context parameter as published servers write it: positions, defaults, unions, aliases,
subclasses, spellings of its import, postponed and quoted annotations."""

from __future__ import annotations

from .base import POSTPONED, case

# pilarcode/mcp_lab adv_topics/logging/server.py: the Context parameter last, no default.
case(
    "mcp_lab: ctx: Context last",
    """\
@mcp.tool()
async def add(a: int, b: int, ctx: Context) -> int:
    return a + b
""",
)

# a Home Assistant server's portmanteau tool (find_string "ctx: Context | None = None"):
# the Context parameter first, with a default, before arguments with defaults.
case(
    "home-assistant portmanteau: ctx: Context | None = None first",
    """\
@mcp.tool()
async def ha(ctx: Context | None = None, operation: str = "get_states", entity: str | None = None) -> str:
    return operation
""",
)

# a KiCad generator and a Bazarr server (find_string hits): `ctx: Context | None = None` last.
case(
    "kicad/bazarr: ctx: Context | None = None last, arguments with Field defaults",
    """\
@mcp.tool()
async def generate(
    output_dir: str,
    action: str = Field(description="what to run"),
    params_json: str = Field(default="{}", description="JSON parameters"),
    ctx: Context | None = None,
) -> str:
    return output_dir
""",
)

# 1.x-style servers spelling the optional Context with typing.Optional.
case(
    "typing.Optional[Context] = None",
    """\
@mcp.tool()
def look(query: str, ctx: Optional[Context] = None) -> str:
    return query
""",
)

# source_context_mcp core deps and mightymodels_plugin tools: `Context[AppState]`, a lifespan generic.
case(
    "source_context_mcp/mightymodels: ctx: Context[AppState] generic",
    """\
class AppState:
    pass


@mcp.tool()
def state(name: str, ctx: Context[AppState]) -> str:
    return name
""",
)

# cgu interfaces/mcp/tools/_common.py: `Ctx`, an alias of a parameterised Context, imported
# from a shared module by every tool module.
case(
    "cgu: Ctx alias of Context[Deps] from another module",
    """\
from common import Ctx


@mcp.tool()
def frame(action: str, ctx: Ctx, session_id: str = "") -> str:
    return action
""",
    common_py="""\
from mcp.server.mcpserver import Context


class Deps:
    pass


Ctx = Context[Deps]
""",
)

# servers that import the SDK's Context under another name beside another framework's.
case(
    "Context imported under another name (import Context as McpContext)",
    """\
from mcp.server.mcpserver import Context as McpContext


@mcp.tool()
def named(path: str, context: McpContext) -> str:
    return path
""",
)

# a FastMCP data tool (find_string "Annotated[Context, "): the Context itself under
# Annotated with a Field description.
case(
    "select_columns: ctx: Annotated[Context, Field(description=...)]",
    """\
@mcp.tool()
async def select_columns(
    ctx: Annotated[Context, Field(description="session access")],
    columns: Annotated[list[str], Field(description="columns to keep")],
) -> list[str]:
    return columns
""",
)

# weather_mcp / spotify_mcp (mcp 2.x): postponed annotations, Context and Annotated Field args.
case(
    "weather_mcp: from __future__ import annotations with Context and Field",
    """\
Days = Annotated[int, Field(ge=1, le=7)]


@mcp.tool(name="forecast")
def forecast(city: Annotated[str, Field(description="city")], days: Days = 3, ctx: Context | None = None) -> str:
    return city
""",
    head=POSTPONED,
)

# string annotations written by hand for the Context (find_string 'ctx: "Context"').
case(
    'ctx: "Context" quoted annotation',
    """\
@mcp.tool()
def quoted(item: "str", ctx: "Context") -> str:
    return item
""",
)

# a video tool module (find_string "if TYPE_CHECKING: from mcp.server.mcpserver import"): a
# type imported only for the checker, under postponed annotations. The SDK cannot evaluate it.
case(
    "probe_video: Context imported only under TYPE_CHECKING (postponed annotations)",
    """\
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mcp.server.mcpserver import Context as Ctx


@mcp.tool()
def probe(path: str, ctx: Ctx) -> str:
    return path
""",
    head=POSTPONED,
)

# a FastMCP pipeline facade (find_string "_ctx: Context | None = None"): an underscored Context.
case(
    "ToolContext facade: _ctx: Context | None = None",
    """\
@mcp.tool()
async def pipeline(source: str, _ctx: Context | None = None) -> str:
    return source
""",
)

# the select_columns shape made optional: `Annotated[Context, Field(...)] | None = None`.
case(
    "Annotated[Context, Field(...)] | None = None",
    """\
@mcp.tool()
async def columns(names: list[str], ctx: Annotated[Context, Field(description="session")] | None = None) -> int:
    return len(names)
""",
)

# a FastMCP dependency test (find_string "add_tool(functools.partial("): a callable object
# registered as a tool, its `__call__` taking the Context.
case(
    "a callable object registered as a tool, __call__ taking ctx: Context",
    """\
class Counter:
    def __call__(self, shelf: str, ctx: Context) -> int:
        return len(shelf)


mcp.add_tool(Counter(), name="count")
""",
)

# servers importing the SDK's package under a short name: `mcpserver.Context`.
case(
    "module attribute annotation: ms.Context",
    """\
import mcp.server.mcpserver as ms


@mcp.tool()
def attr(path: str, ctx: ms.Context) -> str:
    return path
""",
)

# 1.x habit kept in 2.x code: `ctx: Context = None`.
case(
    "ctx: Context = None",
    """\
@mcp.tool()
def habit(path: str, ctx: Context = None) -> str:
    return path
""",
)

# a project's own Context subclass (helpers on top of the SDK's), defined in another module.
case(
    "a Context subclass from another module",
    """\
from appctx import AppContext


@mcp.tool()
def sub(path: str, ctx: AppContext) -> str:
    return path
""",
    appctx_py="""\
from mcp.server.mcpserver import Context


class AppContext(Context):
    def user(self) -> str:
        return "u"
""",
)

# two Context parameters on one tool (one typed for helpers, one for the body).
case(
    "two Context parameters on one tool",
    """\
@mcp.tool()
def twice(path: str, ctx: Context, other: Context) -> str:
    return path
""",
)

# a keyword-only Context after `*`, and a positional-only argument.
case(
    "keyword-only Context after *, positional-only argument",
    """\
@mcp.tool()
def marks(path: str, /, depth: int = 1, *, ctx: Context) -> str:
    return path
""",
)

# servers importing Context from its defining module, and resolvers spelling the generic
# in full (`Context[Any, Any] | None`).
case(
    "Context from mcp.server.mcpserver.context, a resolver's Context[Any, Any] | None",
    """\
from mcp.server.mcpserver.context import Context as RequestContext


def load(ctx: Context[Any, Any] | None, x: int) -> str:
    return str(x)


@mcp.tool()
def t(x: int, ctx: RequestContext, d: Annotated[str, Resolve(load)]) -> str:
    return d
""",
)

# mightymodels_plugin (`Slug`, `LifespanState`): a TypeAlias of a parameterised Context and a
# constrained string alias.
case(
    "mightymodels: Ctx: TypeAlias = Context[State], a StringConstraints alias",
    """\
from typing import TypeAlias

from pydantic import StringConstraints


class State:
    pass


Ctx: TypeAlias = Context[State]
Slug = Annotated[str, StringConstraints(pattern=r"^[a-z-]+$")]


@mcp.tool()
def snapshot(slug: Slug, ctx: Ctx, limit: int = 10) -> str:
    return slug
""",
)
