"""What the rules read of a resolver's definition is read once per build and shared by the views
of every given file running it (`lint_rules._source.found_in`, `Graph._found`).

A file's record may depend only on its closure (`lint_rules/per_file.py`): the shared reading
must never carry one file's tool, or the place one view locates a finding at, into another
file's record. So each file's record, taken from one build of every file, is compared with
the record of a build of that file alone, for a resolver module that every rule reading
definitions finds something in, run by the tools of two files.
"""

from __future__ import annotations

from pathlib import Path

from mcpdeps.lint_rules.per_file import FileRecord, records
from mcpdeps.lint_rules.registry import select_rules
from mcpdeps.resolver_core.builder import build_graph

DEPS = """\
import time
from typing import Annotated

from pydantic import BaseModel
from mcp.server.mcpserver import Context, Elicit, ListRoots, Resolve, Sample
from mcp.types import SamplingMessage, TextContent


class Confirm(BaseModel):
    ok: bool


class Nested(BaseModel):
    inner: Confirm


def ask(path: str) -> Elicit[Confirm]:
    return Elicit(f"Delete {path}? (asked at {time.time():.0f})", Confirm)


async def fetch_price(title: str) -> float:
    return 9.5


def price_of(title: str) -> float:
    return fetch_price(title)


async def sure(ctx: Context) -> bool:
    await ctx.elicit("Sure?", Confirm)
    return True


def both(title: str) -> Elicit[Confirm] | ListRoots:
    return Elicit("Ship it?", Confirm)


def shipping(title: str) -> Elicit[Nested]:
    return Elicit("How should we ship it?", Nested)


def summarize(title: str) -> Sample:
    message = SamplingMessage(role="user", content=TextContent(type="text", text=title))
    return Sample([message], max_tokens=100, include_context="thisServer")


def who(title: str, /) -> str:
    return title


def lang(title: str, code: Annotated[str, Resolve(ask)] = "en") -> str:
    return title


def hidden(title: Annotated[str, Resolve(ask)] | None = None) -> str:
    return ""
"""

TOOLS = """\
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve
from mcp.types import CreateMessageResult

from deps import Confirm, ask, both, hidden, lang, price_of, shipping, summarize, sure, who

mcp = MCPServer("{name}")


@mcp.tool()
def {name}_tool(
    path: str,
    title: str,
    a: Annotated[Confirm, Resolve(ask)],
    b: Annotated[float, Resolve(price_of)],
    c: Annotated[bool, Resolve(sure)],
    d: Annotated[Confirm, Resolve(both)],
    e: Annotated[Confirm, Resolve(shipping)],
    f: Annotated[str, Resolve(who)],
    g: Annotated[str, Resolve(lang)],
    h: Annotated[str, Resolve(hidden)],
    i: Annotated[CreateMessageResult, Resolve(summarize)],
) -> str:
    return path
"""

READ_FROM_DEFINITIONS = {
    "MCPD004",
    "MCPD101",
    "MCPD103",
    "MCPD104",
    "MCPD105",
    "MCPD106",
    "MCPD108",
    "MCPD111",
    "MCPD112",
}
"""The rules whose reading of a resolver (or module) the views share."""


def _records(tmp_path: Path, names: list[str]) -> dict[str, FileRecord]:
    paths = [str(tmp_path / f"{name}.py") for name in names]
    graph = build_graph(paths, cwd=tmp_path, hashing=False)
    return records(graph, paths, select_rules(None, (), ()))


def test_a_files_record_is_the_same_built_with_other_files_as_alone(tmp_path: Path) -> None:
    """Two files' tools run the same resolvers, each with a finding of a rule that reads the
    definition once per build: each file's record from one build of both is the record of its
    own build, naming its own tool (the shared reading lends the second file nothing of the first)."""
    (tmp_path / "deps.py").write_text(DEPS)
    for name in ("alpha", "beta"):
        (tmp_path / f"{name}.py").write_text(TOOLS.format(name=name))
    together = _records(tmp_path, ["alpha", "beta"])
    for name in ("alpha", "beta"):
        origin = str(tmp_path / f"{name}.py")
        alone = _records(tmp_path, [name])[origin]
        assert together[origin] == alone
        assert {d["code"] for d, _ in alone.diagnostics} >= READ_FROM_DEFINITIONS
        assert {d["tool"] for d, _ in alone.diagnostics} - {None} == {f"{name}_tool"}
