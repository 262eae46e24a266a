"""Resolved parameters (2.3) as published servers write them: aliases from deps modules,
questions (`Elicit`, `Sample`, `ListRoots`), keyword-only and defaulted ones, method and
partial resolvers, and postponed annotations in tool modules and `register(server)` helpers."""

from __future__ import annotations

from .base import POSTPONED, case

# source_context_mcp deps.py / aseprite_mcp deps.py: `Dep = Annotated[T, Resolve(fn)]` in a
# deps module, the fn reading `Context[State]`; tools import the alias.
case(
    "source_context/aseprite: Resolve alias imported from a deps module",
    """\
from deps import ClientDep


@mcp.tool()
async def lookup(query: str, client: ClientDep) -> str:
    return query
""",
    deps_py="""\
from typing import Annotated

from mcp.server.mcpserver import Context, Resolve


class State:
    client = "c"


def get_client(ctx: Context[State]) -> str:
    return ctx.request_context.lifespan_context.client


ClientDep = Annotated[str, Resolve(get_client)]
""",
)

# clockify (find_string "-> Elicit["): resolved keyword-only parameters after `*`, the
# question resolver depending on another resolver.
case(
    "clockify: keyword-only resolved parameter, an Elicit resolver depending on a resolver",
    """\
class Approval(BaseModel):
    ok: bool


async def prepare(user_id: str, body: str) -> str:
    return user_id + body


def ask(prepared: Annotated[str, Resolve(prepare)]) -> Elicit[Approval]:
    return Elicit("Apply " + prepared + "?", Approval)


@mcp.tool(name="update")
async def update(
    user_id: str,
    body: str,
    workspace: str | None = None,
    *,
    prepared: Annotated[str, Resolve(prepare)],
    approval: Annotated[Approval, Resolve(ask)],
) -> str:
    return prepared
""",
)

# cgu tools/frame.py: a question resolver returning `Elicit[Form] | NotAsked`, reading the
# Context through an alias and tool arguments by name (some `X | None`), consumed as
# `Annotated[ElicitationResult[Form], Resolve(r)]`.
case(
    "cgu: Elicit[Form] | NotAsked resolver, Ctx alias, ElicitationResult consumer",
    """\
Ctx = Context


class Form(BaseModel):
    granted: bool


class NotAsked:
    pass


async def consent(ctx: Ctx, action: str, frame_id: str | None) -> Elicit[Form] | NotAsked:
    return NotAsked()


@mcp.tool()
async def frame(
    action: str,
    ctx: Ctx,
    decision: Annotated[ElicitationResult[Form], Resolve(consent)],
    frame_id: str | None = None,
) -> str:
    return action
""",
)

# a room booking server (find_string "-> Elicit["): `Elicit[Choice] | None`, read by name.
case(
    "room booking: Elicit[Choice] | None resolver reading arguments by name",
    """\
class Choice(BaseModel):
    room: str


def choose(room: str, start: str) -> Elicit[Choice] | None:
    return None


@mcp.tool()
def book(room: str, start: str, choice: Annotated[Choice | None, Resolve(choose)]) -> str:
    return room
""",
)

# a Sample resolver (the 2.3 question asking the client's model), async, by-name argument.
case(
    "a Sample resolver asking the client's model",
    """\
async def summary(text: str) -> Sample:
    return Sample([text], max_tokens=100)


@mcp.tool()
async def summarise(text: str, short: Annotated[str, Resolve(summary)]) -> str:
    return short
""",
)

# mightymodels_plugin tools: a bound method of a dataclass instance registered as the tool,
# its resolved parameter keyword-only without a default, through a module alias.
case(
    "mightymodels: method tool with a keyword-only resolved alias",
    """\
from dataclasses import dataclass


class Service:
    pass


def service_of(ctx: Context) -> Service:
    return Service()


Served = Annotated[Service, Resolve(service_of)]


@dataclass(frozen=True)
class Tool:
    name: str

    def investigation(self, action: str, *, item: str | None = None, service: Served) -> str:
        return action


tool = Tool("i")
mcp.add_tool(tool.investigation)
""",
)

# resolved parameters given a default "to satisfy the type checker" (never used by the SDK).
case(
    "a resolved parameter with a default",
    """\
def current_user(ctx: Context) -> str:
    return "u"


@mcp.tool()
def whoami(prefix: str, user: Annotated[str, Resolve(current_user)] = "nobody") -> str:
    return prefix + user
""",
)

# a resolver parameter named after the tool's Context parameter: not an argument.
case(
    "a resolver reading the tool's Context parameter name",
    """\
def load(ctx: str) -> str:
    return ctx


@mcp.tool()
def t(x: int, ctx: Context, d: Annotated[str, Resolve(load)]) -> str:
    return d
""",
)

# the optional resolved parameter the SDK refuses: `Annotated[T, Resolve(f)] | None`.
case(
    "Optional resolved parameter: Annotated[T, Resolve(f)] | None = None",
    """\
def load(x: int) -> str:
    return str(x)


@mcp.tool()
def t(x: int, d: Annotated[str, Resolve(load)] | None = None) -> str:
    return d or ""
""",
)

# under postponed annotations, a resolver alias defined *after* the tool in the module.
case(
    "postponed annotations: the Resolve alias defined after the tool",
    """\
@mcp.tool()
def late(x: int, d: Dep) -> str:
    return d


def load(x: int) -> str:
    return str(x)


Dep = Annotated[str, Resolve(load)]
""",
    head=POSTPONED,
)

# clockify / aseprite: the resolver a bound method of a module-level service instance.
case(
    "a resolver that is a bound async method of a service instance",
    """\
class Catalog:
    async def load(self, ctx: Context, title: str) -> str:
        return title


catalog = Catalog()


@mcp.tool()
async def stock(title: str, found: Annotated[str, Resolve(catalog.load)]) -> str:
    return found
""",
)

# Field metadata beside the Resolve marker, and an argument alias layered under a Resolve alias.
case(
    "Resolve beside Field metadata, and a Resolve alias over a Field alias",
    """\
UserId = Annotated[str, Field(description="the user")]


def load_user(user_id: UserId) -> str:
    return user_id


User = Annotated[UserId, Resolve(load_user)]


@mcp.tool()
def profile(
    user_id: UserId,
    user: User,
    again: Annotated[str, Field(description="same"), Resolve(load_user)],
) -> str:
    return user + again
""",
)

# source_context style aliases reached as a module attribute (`deps.ClientDep`).
case(
    "a Resolve alias reached as a module attribute (deps.ClientDep)",
    """\
import deps


@mcp.tool()
async def lookup(query: str, client: deps.ClientDep) -> str:
    return query
""",
    deps_py="""\
from typing import Annotated

from mcp.server.mcpserver import Context, Resolve


def get_client(ctx: Context) -> str:
    return "c"


ClientDep = Annotated[str, Resolve(get_client)]
""",
)

# a Resolve alias made optional at the use site: `Optional[ClientDep] = None`.
case(
    "Optional[ResolveAlias] = None at the use site",
    """\
def get_client(ctx: Context) -> str:
    return "c"


ClientDep = Annotated[str, Resolve(get_client)]


@mcp.tool()
async def lookup(query: str, client: Optional[ClientDep] = None) -> str:
    return query
""",
)

# a roots resolver (ListRoots) and a resolver bound positionally with functools.partial.
case(
    "ListRoots resolver and a positionally bound functools.partial resolver",
    """\
import functools

from mcp.server.mcpserver import ListRoots


def roots() -> ListRoots:
    return ListRoots()


def load(table: str, key: str) -> str:
    return table + key


@mcp.tool()
def scan(
    key: str,
    where: Annotated[list, Resolve(roots)],
    row: Annotated[str, Resolve(functools.partial(load, "users"))],
) -> str:
    return row
""",
)

# the same partial bound by keyword: `table` stays a (keyword-only) parameter to classify.
case(
    "a keyword-bound functools.partial resolver",
    """\
import functools


def load(table: str, key: str) -> str:
    return table + key


@mcp.tool()
def scan(key: str, row: Annotated[str, Resolve(functools.partial(load, table="users"))]) -> str:
    return row
""",
)

# the video tool module's pattern (types imported under TYPE_CHECKING, postponed annotations)
# in a resolver: its return hint cannot be evaluated, so the SDK sees no hint of it at all.
case(
    "probe_video: a resolver returning a TYPE_CHECKING-only type",
    """\
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from runtime import Runtime


def runtime_of(ctx: Context) -> Runtime:
    return ctx.request_context.lifespan_context


@mcp.tool()
def probe(path: str, runtime: Annotated[Any, Resolve(runtime_of)]) -> str:
    return path
""",
    head=POSTPONED,
    runtime_py="class Runtime:\n    pass\n",
)

# the same module's tool returning a TYPE_CHECKING-only result type.
case(
    "probe_video: a tool returning a TYPE_CHECKING-only type",
    """\
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from runtime import Runtime


@mcp.tool()
def probe(path: str) -> Runtime:
    return path
""",
    head=POSTPONED,
    runtime_py="class Runtime:\n    pass\n",
)

# cgu tools/frame.py shape: `register(server)` defining its tools, postponed annotations,
# a model class local to the helper used as an argument type.
case(
    "cgu register(server): a local model as an argument type under postponed annotations",
    """\
def register(server: MCPServer) -> None:
    class Draft(BaseModel):
        why: str

    @server.tool()
    def commit(draft: Draft, ctx: Context) -> str:
        return draft.why


register(mcp)
""",
    head=POSTPONED,
)

# the same helper with module-level types only (what cgu actually does): accepted.
case(
    "cgu register(server): module-level types under postponed annotations",
    """\
class Draft(BaseModel):
    why: str


def consent(ctx: Context, action: str) -> Elicit[Draft] | None:
    return None


def register(server: MCPServer) -> None:
    @server.tool()
    def commit(action: str, draft: Draft, ctx: Context, asked: Annotated[Any, Resolve(consent)]) -> str:
        return draft.why


register(mcp)
""",
    head=POSTPONED,
)

# servers reaching the SDK through its modules: `typing.Annotated`, `mcpserver.Resolve`,
# `mcpserver.Context` as attributes.
case(
    "typing.Annotated and mcpserver.Resolve spelled as module attributes",
    """\
import typing

from mcp.server import mcpserver


def load(x: int) -> str:
    return str(x)


@mcp.tool()
def t(x: int, d: typing.Annotated[str, mcpserver.Resolve(load)], ctx: mcpserver.Context) -> str:
    return d
""",
)

# a service's classmethod as the resolver (`Resolve(Service.current)`), and a resolver
# imported under another name (`from deps import get_client as client_of`).
case(
    "a classmethod resolver and a resolver imported under another name",
    """\
from deps import get_client as client_of


class Service:
    @classmethod
    def current(cls, ctx: Context) -> "Service":
        return cls()


@mcp.tool()
def t(x: int, s: Annotated[Service, Resolve(Service.current)], c: Annotated[str, Resolve(client_of)]) -> str:
    return ""
""",
    deps_py="from mcp.server.mcpserver import Context\n\n\ndef get_client(ctx: Context, x: int) -> str:\n    return str(x)\n",
)
