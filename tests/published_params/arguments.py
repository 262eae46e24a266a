"""The tool arguments the model sees as published servers write them (Field metadata and
aliases, models, TypedDict, Literal, Enum, keyword-only, variadic), and what is registered
(bound methods, classmethods, staticmethods, partials, decorated functions)."""

from __future__ import annotations

from .base import case

# NJUPT API (find_string "Annotated[str, Field(description="): module-level aliases of
# Annotated Field types, shared by tools; here imported from another module.
case(
    "njupt: Annotated Field aliases from another module",
    """\
from kinds import Username, Week


@mcp.tool()
def timetable(username: Username, week: Week = 0) -> str:
    return username
""",
    kinds_py="""\
from typing import Annotated

from pydantic import Field

Username = Annotated[str, Field(description="student number")]
Week = Annotated[int, Field(description="which week, 0 for all")]
""",
)

# a Lagrange optimiser and a Proxmox server: a pydantic model as the one argument.
case(
    "lagrange/proxmox: a pydantic model argument",
    """\
class Request(BaseModel):
    goal: str
    limit: int = 3


@mcp.tool()
async def optimise(request: Request, detail: Literal["short", "full"] = "short") -> str:
    return request.goal
""",
)

# planets_nu mcp_adapter (imports TypedDict beside Context, Resolve): a TypedDict argument.
case(
    "planets_nu: a TypedDict argument",
    """\
from typing import TypedDict


class Perspective(TypedDict):
    game: int
    player: int


@mcp.tool()
def ensure_turn(perspective: Perspective, turn: int | None = None) -> str:
    return str(perspective["game"])
""",
)

# cgu tools/frame.py: `Annotated[Literal[...], Field(description=...)]` as the action.
case(
    "cgu: Annotated[Literal[...], Field(...)] action",
    """\
@mcp.tool()
def frame(
    action: Annotated[Literal["create", "get"], Field(description="what to do")],
    frame_id: Annotated[str | None, Field(description="which frame")] = None,
) -> str:
    return action
""",
)

# mightymodels_plugin tools: a StrEnum action argument.
case(
    "mightymodels: an Enum argument",
    """\
from enum import Enum


class Action(str, Enum):
    START = "start"
    LIST = "list"


@mcp.tool()
def investigation(action: Action) -> str:
    return action.value
""",
)

# an email drafting tool (find_string "ctx: Context | None = None"): typing.Optional nesting.
case(
    "compose_email: Optional[List[Dict[str, Any]]] = None",
    """\
from typing import Dict, List


@mcp.tool()
async def compose(topic: str, leads: Optional[List[Dict[str, Any]]] = None) -> str:
    return topic
""",
)

# mightymodels_plugin tools: keyword-only arguments after `*`, one without a default.
case(
    "mightymodels: keyword-only arguments after *",
    """\
@mcp.tool()
def review(action: str, *, run_id: str | None = None, limit: int) -> str:
    return action
""",
)

# a generic "call any action" tool: `**kwargs` (and `*args`) on the tool.
case(
    "dispatch tool with *args and **kwargs",
    """\
@mcp.tool()
def dispatch(action: str, *args: Any, **kwargs: Any) -> str:
    return action
""",
)

# a pydantic-minded tool giving its argument a wire alias.
case(
    "Field(alias=...) on a tool argument",
    """\
@mcp.tool()
def fetch(item_id: Annotated[str, Field(alias="itemId")]) -> str:
    return item_id
""",
)

# mightymodels_plugin: a method of a frozen dataclass instance registered as the tool,
# with keyword-only arguments.
case(
    "mightymodels: a bound method of a module-level instance",
    """\
from dataclasses import dataclass


@dataclass(frozen=True)
class ReviewTool:
    prefix: str

    def review(self, action: str, *, run_id: str | None = None) -> str:
        return self.prefix + action


review_tool = ReviewTool("r")
mcp.add_tool(review_tool.review)
""",
)

# husniadil/fastmcp-builder reference/tool_patterns.md: `mcp.tool()(ping)` for a function
# defined in another module.
case(
    "fastmcp-builder: mcp.tool()(fn) of an imported function",
    """\
from tools import ping

mcp.tool()(ping)
""",
    tools_py="""\
def ping(host: str, count: int = 1) -> str:
    return host
""",
)

# a FastMCP dependency test (find_string "add_tool(functools.partial("): a partial of a
# function registered as a tool, its first argument bound.
case(
    "functools.partial with a positional argument bound, name=",
    """\
import functools


def count(shelf: str, genre: str, limit: int = 10) -> str:
    return shelf + genre


mcp.add_tool(functools.partial(count, "fantasy"), name="count_fantasy")
""",
)

# a FHIR server tools module (`_actionable_errors`, functools.wraps over the tool function).
case(
    "fhir: functools.wraps error decorator under the tool decorator",
    """\
import functools


def actionable(func):
    @functools.wraps(func)
    async def wrapper(*args, **kwargs):
        return await func(*args, **kwargs)

    return wrapper


@mcp.tool()
@actionable
async def search(resource: str, count: int = 10, ctx: Context | None = None) -> str:
    return resource
""",
)

# a project decorator that forgets functools.wraps: the SDK sees the wrapper's *args/**kwargs.
case(
    "a wrapper without functools.wraps under the tool decorator",
    """\
def logged(func):
    async def wrapper(*args, **kwargs):
        return await func(*args, **kwargs)

    return wrapper


@mcp.tool(name="search")
@logged
async def search(resource: str) -> str:
    return resource
""",
)

# a class's staticmethod registered through the class (tool collections grouped in classes).
case(
    "a staticmethod registered through its class",
    """\
class Tools:
    @staticmethod
    def echo(text: str, times: int = 1) -> str:
        return text * times


mcp.tool()(Tools.echo)
""",
)

# rdwj/mcp-server-template docs/TOOLS_GUIDE.md: a plain string as Annotated metadata.
case(
    "rdwj template: Annotated[float, 'description string']",
    """\
@mcp.tool()
def area(width: Annotated[float, "width in metres"], height: Annotated[float, "height"]) -> float:
    return width * height
""",
)

# voyage215/fastmcp docs/patterns/decorating-methods.mdx ("don't do this"): the tool decorator
# on a method in the class body; the SDK registers the plain function, `self` included.
case(
    "decorating-methods doc: @mcp.tool() on a method in the class body",
    """\
class Calculator:
    @mcp.tool()
    def add(self, x: int, y: int) -> int:
        return x + y
""",
)

# the same doc's recommended classmethod: registered through the class once it exists.
case(
    "decorating-methods doc: a classmethod registered through its class",
    """\
class Factory:
    @classmethod
    def make(cls, kind: str) -> str:
        return kind


mcp.tool()(Factory.make)
""",
)

# a model named in quotes before it is defined (no postponed annotations): the SDK
# evaluates the hints when the decorator runs, before the class exists.
case(
    "quoted forward reference to a model defined after the tool",
    """\
@mcp.tool()
def early(request: "Request") -> str:
    return request.goal


class Request(BaseModel):
    goal: str
""",
)

# Field defaults of every spelling (positional default, default_factory), dataclass and union
# of models as arguments, NewType, Literal | None.
case(
    "Field(5, ...), default_factory, dataclass, model union, NewType, Literal | None",
    """\
from dataclasses import dataclass
from typing import NewType

UserId = NewType("UserId", str)


@dataclass
class Point:
    x: int
    y: int


class Circle(BaseModel):
    r: float


class Square(BaseModel):
    side: float


@mcp.tool()
def shapes(
    shape: Circle | Square,
    at: Point,
    owner: UserId,
    count: int = Field(5, description="how many"),
    tags: list[str] = Field(default_factory=list),
    mode: Literal["a", "b"] | None = None,
) -> str:
    return owner
""",
)

# typing_extensions.TypedDict, what pydantic asks for on Python < 3.12.
case(
    "typing_extensions.TypedDict argument",
    """\
from typing_extensions import TypedDict


class Perspective(TypedDict):
    game: int


@mcp.tool()
def ensure(perspective: Perspective) -> str:
    return str(perspective["game"])
""",
)

# a tool collection class with an error decorator (functools.wraps) on its methods, the
# bound method registered (the FastMCP tool-decorator search hit `tool_decorator`).
case(
    "a bound method of a method decorated with a wraps decorator",
    """\
import functools


def handle_errors(func):
    @functools.wraps(func)
    async def wrapper(*args, **kwargs):
        return await func(*args, **kwargs)

    return wrapper


class Tools:
    @handle_errors
    async def search(self, query: str, ctx: Context, limit: int = 5) -> str:
        return query


tools = Tools()
mcp.add_tool(tools.search)
""",
)

# a library server's BaseTool classes (code search "class BaseTool ... def __init__(self,
# mcp)"): methods registered on the server handed to `__init__`.
case(
    "methods registered in __init__ on the server it is handed",
    """\
class Kit:
    def __init__(self, server: MCPServer) -> None:
        server.add_tool(self.search)
        server.tool(name="fetch")(self.fetch)

    def search(self, query: str, ctx: Context | None = None) -> str:
        return query

    async def fetch(self, url: str, *, timeout: float = 5.0) -> str:
        return url


Kit(mcp)
""",
)

# crackerjack's git metrics server and multistack's plan tools (find_string "@mcp.tool()\n
# @validate_call"): pydantic's validate_call under the tool decorator, Field defaults.
case(
    "crackerjack/multistack: @validate_call under @mcp.tool()",
    """\
from pydantic import validate_call


@mcp.tool()
@validate_call
def collect(repo_path: str = Field(description="repository"), days: int = Field(default=30, ge=1)) -> str:
    return repo_path
""",
)

# postgres-mcp's analyze_workload_indexes and a TID generator: an async tool under
# validate_call, and `validate_call(validate_return=True)`; here a resolver under it too.
case(
    "postgres-mcp: async tools under validate_call and validate_call(...), a resolver under it",
    """\
import pydantic


@pydantic.validate_call
async def owner_of(table: str) -> str:
    return "o"


@mcp.tool()
@pydantic.validate_call
async def analyze(table: str, owner: Annotated[str, Resolve(owner_of)], size: int = Field(default=10, ge=1)) -> str:
    return owner


@mcp.tool()
@pydantic.validate_call(validate_return=True)
async def gen_ids(quantity: Annotated[int, Field(ge=1, le=100)] = 1) -> list[str]:
    return []
""",
)

# Beside validate_call, not from a published server: `functools.lru_cache` over an async
# resolver makes a sync C wrapper (the SDK does not await it), unlike validate_call's.
case(
    "lru_cache over an async resolver: a sync wrapper",
    """\
import functools


@functools.lru_cache
async def owner_of(table: str) -> str:
    return "o"


@mcp.tool()
async def owner(table: str, who: Annotated[str, Resolve(owner_of)]) -> str:
    return repr(who)
""",
)

# voyage215/fastmcp docs/patterns/decorating-methods.mdx, static methods: the recommended order
# (`@staticmethod` over the tool decorator: the plain function is registered) and the other.
case(
    "decorating-methods doc: staticmethod over and under the tool decorator",
    """\
class Utils:
    @staticmethod
    @mcp.tool()
    def utility(x: int, y: int) -> int:
        return x + y

    @mcp.tool()
    @staticmethod
    def utility2(x: int, y: int) -> int:
        return x + y
""",
)

# the same doc's methods read on the class: a classmethod over a wraps decorator, and a
# plain method (its `self` then an argument the model must send).
case(
    "a classmethod over a wraps decorator and a plain method, read on the class",
    """\
import functools


def traced(func):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        return func(*args, **kwargs)

    return wrapper


class Factory:
    @classmethod
    @traced
    def make(cls, kind: str) -> str:
        return kind

    def plain(self, n: int) -> int:
        return n


mcp.tool()(Factory.make)
mcp.tool()(Factory.plain)
""",
)
