"""Every run-time trap rule (MCPD101-MCPD112) is proven against the real SDK.

Each test writes one small server, checks that `mcpdeps lint` reports the rule's code on
that exact file, then imports it and drives it through the SDK's real in-process
`Client` to show the consequence the warning describes: the hidden parameter is in the
input schema, the resolver never runs, the call crashes, the question is re-asked until
the client gives up... No mocks: the server is the SDK's `MCPServer`, the client its
`Client`, and server-side crashes are read from the SDK's own error log.

Everything runs in this one process (the SDK import is paid once); `lint` itself never
imports `mcp` or the server.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from mcpdeps.lint_rules import lint
from mcpdeps.lint_rules.registry import find_rule
from trap_helpers import call, connect, load_server

SERVER_LOGGER = "mcp.server.mcpserver.server"


def lint_codes(path: Path) -> list[str]:
    return [d.code for d in lint([path]).diagnostics]


def schema(module: ModuleType, tool: str) -> dict[str, Any]:
    async def body(client: Any) -> dict[str, Any]:
        listed = await client.list_tools()
        return next(t.input_schema for t in listed.tools if t.name == tool)

    return connect(module, body)


def crash_causes(caplog: pytest.LogCaptureFixture) -> list[str]:
    """What really broke inside the server: the cause of each 'unexpected exception' it logged."""
    out = []
    for record in caplog.records:
        if record.name == SERVER_LOGGER and record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            out.append(f"{type(error.__cause__ or error).__name__}: {error.__cause__ or error}")
    return out


HEADER = """\
from typing import Annotated
from pydantic import BaseModel, Field
from mcp.server import MCPServer
from mcp.server.mcpserver import Context, Elicit, Resolve, Sample

mcp = MCPServer("traps")
CALLS: list[str] = []
"""


def test_mcpd101_hidden_resolve_lets_the_model_fill_the_parameter(tmp_path: Path) -> None:
    module, path = load_server(
        tmp_path,
        HEADER
        + """
def current_user(title: str) -> str:
    CALLS.append("current_user")
    return "alice"

@mcp.tool()
def buy(title: str, user: Annotated[Annotated[str, Resolve(current_user)] | None, Field(description="buyer")] = None) -> str:
    return f"{title} bought by {user}"
""",
    )
    assert "MCPD101" in lint_codes(path)
    assert find_rule("MCPD101").severity == "error"
    properties = schema(module, "buy")["properties"]
    assert set(properties) == {"title", "user"}
    assert call(module, "buy", {"title": "Dune", "user": "mallory"}) == (False, "Dune bought by mallory")
    assert call(module, "buy", {"title": "Dune"}) == (False, "Dune bought by None")
    assert module.CALLS == []


def test_mcpd101_in_a_resolver_the_hidden_marker_becomes_the_tool_argument(tmp_path: Path) -> None:
    module, path = load_server(
        tmp_path,
        HEADER
        + """
def canonical_title(title: str) -> str:
    CALLS.append("canonical_title")
    return title.title()

def shelf_of(title: Annotated[str, Resolve(canonical_title)] | None) -> str:
    return f"shelf of {title}"

@mcp.tool()
def locate(title: str, shelf: Annotated[str, Resolve(shelf_of)]) -> str:
    return shelf
""",
    )
    assert lint_codes(path) == ["MCPD101"]
    assert call(module, "locate", {"title": "dune"}) == (False, "shelf of dune")
    assert module.CALLS == []


def test_mcpd101_a_type_alias_hides_the_marker_too(tmp_path: Path) -> None:
    module, path = load_server(
        tmp_path,
        HEADER
        + """
from typing_extensions import TypeAliasType

def current_user(title: str) -> str:
    CALLS.append("current_user")
    return "alice"

UserDep = TypeAliasType("UserDep", Annotated[str, Resolve(current_user)])

@mcp.tool()
def buy(title: str, user: UserDep) -> str:
    return f"{title} bought by {user}"
""",
    )
    assert lint_codes(path) == ["MCPD101"]
    assert list(schema(module, "buy")["properties"]) == ["title", "user"]
    assert call(module, "buy", {"title": "Dune", "user": "mallory"}) == (False, "Dune bought by mallory")
    assert module.CALLS == []


def test_mcpd102_resolve_on_a_prompt_never_runs(tmp_path: Path) -> None:
    module, path = load_server(
        tmp_path,
        HEADER
        + """
def house_style() -> str:
    CALLS.append("house_style")
    return "concise"

@mcp.prompt()
def review(code: str, style: Annotated[str, Resolve(house_style)] = "any") -> str:
    return f"Review ({style}): {code}"
""",
    )
    assert "MCPD102" in lint_codes(path)

    async def body(client: Any) -> tuple[list[str], str, str]:
        listed = await client.list_prompts()
        arguments = [a.name for a in listed.prompts[0].arguments]
        default = await client.get_prompt("review", {"code": "x = 1"})
        sent = await client.get_prompt("review", {"code": "x = 1", "style": "sloppy"})
        return arguments, default.messages[0].content.text, sent.messages[0].content.text

    assert connect(module, body) == (["code", "style"], "Review (any): x = 1", "Review (sloppy): x = 1")
    assert module.CALLS == []


def test_mcpd103_invalid_elicitation_model_fails_when_first_asked(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    module, path = load_server(
        tmp_path,
        HEADER
        + """
import enum

class Speed(enum.Enum):
    AIR = "air"
    SEA = "sea"

class Shipping(BaseModel):
    speed: Speed

def ask(title: str) -> Elicit[Shipping]:
    return Elicit(f"How should we ship {title}?", Shipping)

@mcp.tool()
def order(title: str, shipping: Annotated[Shipping, Resolve(ask)]) -> str:
    return title
""",
    )
    assert "MCPD103" in lint_codes(path)
    asked: list[str] = []

    async def elicit(context: Any, params: Any) -> Any:
        asked.append(params.message)
        raise AssertionError("the question never reaches the client")

    for mode in ("auto", "legacy"):
        assert call(module, "order", {"title": "Dune"}, mode=mode, elicitation_callback=elicit) == (
            True,
            "Error executing tool order",
        )
    assert asked == []
    causes = crash_causes(caplog)
    assert len(causes) == 2
    assert all("Elicitation schema field 'speed'" in c and "PrimitiveSchemaDefinition" in c for c in causes)


UNSTABLE = (
    HEADER
    + """
import time

class Confirm(BaseModel):
    ok: bool

def ask(path: str) -> Elicit[Confirm]:
    {body}

@mcp.tool()
def delete(path: str, confirm: Annotated[Confirm, Resolve(ask)]) -> str:
    return f"deleted {{path}}" if confirm.ok else "kept"
"""
)


def test_mcpd104_unstable_question_is_asked_until_the_client_gives_up(tmp_path: Path) -> None:
    from mcp.client._input_required import InputRequiredRoundsExceededError
    from mcp.types import ElicitResult

    module, path = load_server(
        tmp_path / "unstable",
        UNSTABLE.format(
            body="stamp = time.time_ns()\n    return Elicit(f'Delete {path}? (#{stamp})', Confirm)"
        ),
    )
    stable, stable_path = load_server(
        tmp_path / "stable",
        UNSTABLE.format(body="return Elicit(f'Delete {path}?', Confirm)"),
    )
    assert "MCPD104" in lint_codes(path)
    assert "MCPD104" not in lint_codes(stable_path)
    asked: list[str] = []

    async def elicit(context: Any, params: Any) -> Any:
        asked.append(params.message)
        return ElicitResult(action="accept", content={"ok": True})

    with pytest.raises(InputRequiredRoundsExceededError, match="more than 10 rounds"):
        call(module, "delete", {"path": "/tmp/x"}, elicitation_callback=elicit)
    assert len(asked) == 10 and len(set(asked)) == 10, asked
    asked.clear()
    assert call(stable, "delete", {"path": "/tmp/x"}, elicitation_callback=elicit) == (
        False,
        "deleted /tmp/x",
    )
    assert asked == ["Delete /tmp/x?"]
    asked.clear()  # 2025-11-25 asks mid-call, once: the trap is specific to the new protocol
    assert call(module, "delete", {"path": "/tmp/x"}, mode="legacy", elicitation_callback=elicit) == (
        False,
        "deleted /tmp/x",
    )
    assert len(asked) == 1


def test_mcpd105_include_context_is_forwarded_without_the_capability(tmp_path: Path) -> None:
    from mcp.server.mcpserver import Sample
    from mcp.types import CreateMessageResult, TextContent

    module, path = load_server(
        tmp_path,
        HEADER
        + """
from mcp.types import CreateMessageResult, SamplingMessage, TextContent

def summarize(text: str) -> Sample:
    message = SamplingMessage(role="user", content=TextContent(type="text", text=text))
    return Sample([message], max_tokens=100, include_context="thisServer")

@mcp.tool()
def digest(text: str, summary: Annotated[CreateMessageResult, Resolve(summarize)]) -> str:
    return summary.content.text
""",
    )
    assert "MCPD105" in lint_codes(path)
    assert "deprecated" in (Sample.__doc__ or "")  # the SDK documents it, and does nothing else about it
    seen: list[str | None] = []

    async def sample(context: Any, params: Any) -> Any:
        seen.append(params.include_context)
        return CreateMessageResult(
            role="assistant", content=TextContent(type="text", text="short"), model="m"
        )

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for mode in ("auto", "legacy"):
            assert call(module, "digest", {"text": "a long text"}, mode=mode, sampling_callback=sample) == (
                False,
                "short",
            )
    # Forwarded verbatim on both protocols, although this client never declared `sampling.context`.
    assert seen == ["thisServer", "thisServer"]
    assert not [w for w in caught if "include" in str(w.message).lower()]


def test_mcpd106_positional_only_parameters_crash_every_call(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    module, path = load_server(
        tmp_path,
        HEADER
        + """
@mcp.tool()
def shout(text: str, /) -> str:
    return text.upper()

def owner(title: str, /) -> str:
    return "alice"

@mcp.tool()
def who(title: str, o: Annotated[str, Resolve(owner)]) -> str:
    return o
""",
    )
    assert lint_codes(path).count("MCPD106") == 2
    assert call(module, "shout", {"text": "hi"}) == (True, "Error executing tool shout")
    assert call(module, "who", {"title": "Dune"}) == (True, "Error executing tool who")
    causes = crash_causes(caplog)
    assert len(causes) == 2
    assert all("positional-only arguments passed as keyword arguments" in c for c in causes), causes


def test_mcpd107_aliased_argument_crashes_every_call(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    module, path = load_server(
        tmp_path,
        HEADER
        + """
@mcp.tool()
def find(title: Annotated[str, Field(alias="Title")]) -> str:
    return title
""",
    )
    assert "MCPD107" in lint_codes(path)
    assert list(schema(module, "find")["properties"]) == ["Title"]
    assert call(module, "find", {"Title": "Dune"}) == (True, "Error executing tool find")
    assert crash_causes(caplog) == ["TypeError: find() got an unexpected keyword argument 'Title'"]


def test_mcpd108_sync_wrapper_and_generator_inject_the_wrong_object(tmp_path: Path) -> None:
    module, path = load_server(
        tmp_path,
        HEADER
        + """
async def fetch_price(title: str) -> float:
    return 9.5

def price_of(title: str) -> float:
    return fetch_price(title)

def stock_of(title: str):
    yield 3

async def rating_of(title: str):
    yield 4.5

class Catalog:
    async def fetch(self, title: str) -> int:
        return 1999

    def year_of(self, title: str) -> int:
        return self.fetch(title)

catalog = Catalog()

@mcp.tool()
def quote(title: str, price: Annotated[float, Resolve(price_of)]) -> str:
    kind = type(price).__name__
    price.close()  # the tool must clean up the coroutine the SDK handed it
    return kind

@mcp.tool()
def stock(title: str, copies: Annotated[int, Resolve(stock_of)]) -> str:
    return type(copies).__name__

@mcp.tool()
def rate(title: str, stars: Annotated[float, Resolve(rating_of)]) -> str:
    return type(stars).__name__

@mcp.tool()
def year(title: str, published: Annotated[int, Resolve(catalog.year_of)]) -> str:
    kind = type(published).__name__
    published.close()
    return kind
""",
    )
    assert lint_codes(path).count("MCPD108") == 4
    assert call(module, "quote", {"title": "Dune"}) == (False, "coroutine")
    assert call(module, "stock", {"title": "Dune"}) == (False, "generator")
    assert call(module, "rate", {"title": "Dune"}) == (False, "async_generator")
    assert call(module, "year", {"title": "Dune"}) == (False, "coroutine")


def test_mcpd109_extra_context_and_varargs_become_schema_properties(tmp_path: Path) -> None:
    module, path = load_server(
        tmp_path,
        HEADER
        + """
@mcp.tool()
async def report(title: str, ctx: Context, log_ctx: Context) -> str:
    return str(log_ctx is ctx)

@mcp.tool()
def tag(title: str, *tags: str, **options: str) -> str:
    return f"{title} {tags} {options}"
""",
    )
    assert lint_codes(path).count("MCPD109") == 3
    report = schema(module, "report")
    assert list(report["properties"]) == ["title", "log_ctx"] and report["required"] == ["title", "log_ctx"]
    assert call(module, "report", {"title": "Dune"})[0] is True  # "log_ctx: Field required"
    # What the model sends is validated into a detached Context, not the request's.
    assert call(module, "report", {"title": "Dune", "log_ctx": {}}) == (False, "False")
    tag = schema(module, "tag")
    assert list(tag["properties"]) == ["title", "tags", "options"]
    assert tag["required"] == ["title", "tags", "options"]
    assert call(module, "tag", {"title": "Dune"})[0] is True  # "tags/options: Field required"
    assert call(module, "tag", {"title": "Dune", "tags": "a", "options": "b"}) == (
        False,
        "Dune () {'tags': 'a', 'options': 'b'}",
    )


def test_mcpd110_the_duplicate_tool_disappears(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    module, path = load_server(
        tmp_path,
        HEADER
        + """
@mcp.tool()
def search(q: str) -> str:
    return "old search"

@mcp.tool(name="search")
def search_v2(q: str, limit: int = 10) -> str:
    return "new search"
""",
    )
    assert "MCPD110" in lint_codes(path)

    async def body(client: Any) -> list[tuple[str, list[str]]]:
        listed = await client.list_tools()
        return [(t.name, list(t.input_schema["properties"])) for t in listed.tools]

    assert connect(module, body) == [("search", ["q"])]
    assert call(module, "search", {"q": "dune", "limit": 3}) == (False, "old search")
    assert any("Tool already exists: search" in r.getMessage() for r in caplog.records)


def test_mcpd111_the_default_of_a_resolved_parameter_is_never_used(tmp_path: Path) -> None:
    module, path = load_server(
        tmp_path,
        HEADER
        + """
def locale(title: str) -> str:
    CALLS.append("locale")
    return "fr"

@mcp.tool()
def greet(title: str, lang: Annotated[str, Resolve(locale)] = "en") -> str:
    return lang
""",
    )
    diagnostics = [d for d in lint([path]).diagnostics if d.code == "MCPD111"]
    assert [d.severity for d in diagnostics] == ["info"]
    assert list(schema(module, "greet")["properties"]) == ["title"]
    assert call(module, "greet", {"title": "Dune"}) == (False, "fr")
    assert call(module, "greet", {"title": "Dune", "lang": "en"}) == (False, "fr")
    assert module.CALLS == ["locale", "locale"]


def test_mcpd112_ctx_elicit_fails_on_2026_07_28_but_a_resolver_works(tmp_path: Path) -> None:
    from mcp.types import ElicitResult

    module, path = load_server(
        tmp_path,
        HEADER
        + """
class Confirm(BaseModel):
    ok: bool

@mcp.tool()
async def delete(path: str, ctx: Context) -> str:
    answer = await ctx.elicit(f"Delete {path}?", Confirm)
    return "deleted" if answer.action == "accept" and answer.data.ok else "kept"

def ask(path: str) -> Elicit[Confirm]:
    return Elicit(f"Delete {path}?", Confirm)

@mcp.tool()
async def remove(path: str, confirm: Annotated[Confirm, Resolve(ask)]) -> str:
    return "deleted" if confirm.ok else "kept"

async def confirm_by_hand(path: str, ctx: Context) -> bool:
    answer = await ctx.elicit(f"Delete {path}?", Confirm)
    return answer.action == "accept" and answer.data.ok

@mcp.tool()
async def erase(path: str, ok: Annotated[bool, Resolve(confirm_by_hand)]) -> str:
    return "deleted" if ok else "kept"
""",
    )
    assert lint_codes(path) == ["MCPD112", "MCPD112"]

    async def elicit(context: Any, params: Any) -> Any:
        return ElicitResult(action="accept", content={"ok": True})

    async def protocol(client: Any) -> str:
        return client.protocol_version

    assert connect(module, protocol) == "2026-07-28"
    with pytest.raises(Exception, match="no back-channel") as failure:
        call(module, "delete", {"path": "/x"}, elicitation_callback=elicit)
    assert type(failure.value).__name__ == "NoBackChannelError"
    assert call(module, "delete", {"path": "/x"}, mode="legacy", elicitation_callback=elicit) == (
        False,
        "deleted",
    )
    with pytest.raises(Exception, match="no back-channel"):  # inside a resolver: the same trap
        call(module, "erase", {"path": "/x"}, elicitation_callback=elicit)
    assert call(module, "erase", {"path": "/x"}, mode="legacy", elicitation_callback=elicit) == (
        False,
        "deleted",
    )
    for mode in ("auto", "legacy"):
        assert call(module, "remove", {"path": "/x"}, mode=mode, elicitation_callback=elicit) == (
            False,
            "deleted",
        )
