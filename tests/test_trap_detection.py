"""Detection breadth of the trap rules whose verdict depends on types or values, judged by the SDK.

- MCPD103: for each field type, mcpdeps' static verdict must equal what the SDK's own
  elicitation gate (`render_elicitation_schema`) does with the imported model.
- MCPD104: for each way of building a question (clock, randomness, uuid, counters, local
  variables, and the stable look-alikes), mcpdeps must warn exactly when the SDK re-asks
  the question on a 2026-07-28 connection until the client gives up.

Each family is one server, linted once and imported once (one SDK import for the file).
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from mcpdeps.lint_rules import lint
from trap_helpers import call, connect, load_server

FIELD_TYPES: dict[str, bool] = {
    # type expression -> does the SDK accept it in an elicitation model?
    "str": True,
    "int": True,
    "float": True,
    "bool": True,
    "Literal['air', 'sea']": True,
    "Literal['air']": True,
    "Literal[1, 2]": True,
    "Literal['a', 1]": False,
    "Literal['a', None]": False,
    "Optional[int]": True,
    "str | None": True,
    "Optional[Literal['a', 'b']]": True,
    "list[Literal['a', 'b']]": True,
    "set[Literal['a', 'b']]": True,
    "List[Literal['a', 'b']]": True,
    "frozenset[Literal['a', 'b']]": True,
    "tuple[Literal['a', 'b'], ...]": True,
    "list[Literal['a', 'b']] | None": True,
    "list[Literal['a']]": False,
    "list[Literal[1, 2]]": False,
    "list[str]": False,
    "list[int]": False,
    "list": False,
    "set[str]": False,
    "dict": False,
    "dict[str, str]": False,
    "tuple[int, int]": False,
    "datetime.date": True,
    "datetime.datetime": True,
    "datetime.date | None": True,
    "datetime.time": False,
    "datetime.timedelta": False,
    "AnyUrl": True,
    "HttpUrl": True,
    "uuid.UUID": False,
    "decimal.Decimal": False,
    "bytes": False,
    "Any": False,
    "int | str": False,
    "int | float": False,
    "Speed": False,
    "TextSpeed": False,
    "Address": False,
    "Point": False,
    "Box": False,
    "list[Speed]": False,
    "Annotated[int, Field(ge=1, le=5)]": True,
    "Annotated[str, Field(max_length=3)]": True,
    "Annotated[list[Literal['a', 'b']], Field(min_length=1)]": True,
    "SecretStr": False,
    "PositiveInt": True,
    "StrictStr": True,
}

SCHEMA_HEADER = """\
import datetime
from dataclasses import dataclass
from typing_extensions import TypedDict
import decimal
import enum
import uuid
from typing import Annotated, Any, List, Literal, Optional
from pydantic import AnyUrl, BaseModel, Field, HttpUrl, PositiveInt, SecretStr, StrictStr
from mcp.server import MCPServer
from mcp.server.mcpserver import Elicit, Resolve

mcp = MCPServer("schemas")

class Speed(enum.Enum):
    AIR = "air"

class TextSpeed(str, enum.Enum):
    AIR = "air"

class Address(BaseModel):
    city: str

@dataclass
class Point:
    x: int

class Box(TypedDict):
    size: int
"""


@pytest.fixture(scope="module")
def schema_server(tmp_path_factory: pytest.TempPathFactory) -> tuple[ModuleType, set[str]]:
    """One model (`M0`, `M1`...) per field type, each asked by a resolver of its own tool."""
    parts = [SCHEMA_HEADER]
    for i, annotation in enumerate(FIELD_TYPES):
        parts.append(
            f"\nclass M{i}(BaseModel):\n    f: {annotation}\n\n"
            f"def ask{i}(title: str) -> Elicit[M{i}]:\n    return Elicit('?', M{i})\n\n"
            f"@mcp.tool()\ndef t{i}(title: str, a: Annotated[M{i}, Resolve(ask{i})]) -> str:\n    return title\n"
        )
    module, path = load_server(tmp_path_factory.mktemp("schemas"), "".join(parts))
    flagged = {d.tool or "" for d in lint([path]).diagnostics if d.code == "MCPD103"}
    return module, flagged


@pytest.mark.parametrize(("index", "annotation"), list(enumerate(FIELD_TYPES)), ids=list(FIELD_TYPES))
def test_mcpd103_agrees_with_the_sdks_elicitation_gate(
    index: int, annotation: str, schema_server: tuple[ModuleType, set[str]]
) -> None:
    from mcp.server.elicitation import render_elicitation_schema

    module, flagged = schema_server
    try:
        render_elicitation_schema(getattr(module, f"M{index}"))
        accepted = True
    except TypeError:
        accepted = False
    assert accepted is FIELD_TYPES[annotation], "the table above no longer matches the SDK"
    assert (f"t{index}" in flagged) is (not accepted)


QUESTIONS: dict[str, tuple[str, bool | None]] = {
    # name -> (resolver body, re-asked by the SDK?) ; None: unstable, but not within a test's time
    "time_time": ("return Elicit(f'Delete {path}? {time.time()}', Confirm)", True),
    "time_ns_local": ("stamp = time.time_ns()\n    return Elicit(f'Delete {path}? {stamp}', Confirm)", True),
    "from_time_import": ("return Elicit(f'Delete {path}? {perf_counter()}', Confirm)", True),
    "datetime_now": ("return Elicit(f'Delete {path} at {datetime.now()}?', Confirm)", True),
    "datetime_utcnow_module": ("return Elicit(f'Delete {path} at {dt.datetime.utcnow()}?', Confirm)", True),
    "datetime_today": ("return Elicit(f'Delete {path} ({datetime.today()})?', Confirm)", True),
    "date_today": ("return Elicit(f'Delete {path} (today is {date.today()})?', Confirm)", None),
    "random_random": ("return Elicit(f'Delete {path}? #{random.random()}', Confirm)", True),
    "from_random_import": (
        "token = choice(WORDS) + str(random.random())\n    return Elicit(token, Confirm)",
        True,
    ),
    "uuid4": ("return Elicit(f'Delete {path}? ({uuid.uuid4()})', Confirm)", True),
    "uuid1_imported": ("return Elicit(f'Delete {path}? ({uuid1()})', Confirm)", True),
    "secrets": (
        "code = secrets.token_hex(8)\n    return Elicit(f'Type {code} to delete {path}', Confirm)",
        True,
    ),
    "itertools_counter": ("return Elicit(f'Question {next(COUNTER)}: delete {path}?', Confirm)", True),
    "global_counter": (
        "global ASKED\n    ASKED += 1\n    return Elicit(f'Attempt {ASKED}: delete {path}?', Confirm)",
        True,
    ),
    "local_chain": (
        "now = datetime.now()\n    text = f'{now}'\n    message = 'Delete ' + path + ' at ' + text.upper()\n"
        "    return Elicit(message, Confirm)",
        True,
    ),
    "keyword_message": ("return Elicit(message=f'{path} {time.time()}', schema=Confirm)", True),
    "sample_messages": (
        "return Sample([SamplingMessage(role='user', content=TextContent(type='text', "
        "text=f'{path} {random.random()}'))], max_tokens=5)",
        True,
    ),
    "sample_system_prompt": (
        "return Sample([SamplingMessage(role='user', content=TextContent(type='text', text=path))], "
        "max_tokens=5, system_prompt=f'Now: {datetime.now()}')",
        True,
    ),
    # stable look-alikes: no warning, and the SDK asks once
    "from_arguments": ("return Elicit(f'Delete {path}?', Confirm)", False),
    "uuid5_is_deterministic": (
        "return Elicit(f'Delete {uuid.uuid5(uuid.NAMESPACE_URL, path)}?', Confirm)",
        False,
    ),
    "module_level_start_time": ("return Elicit(f'Delete {path}? (server up since {START})', Confirm)", False),
    "local_counter_restarts": (
        "c = itertools.count()\n    return Elicit(f'Q{next(c)}: delete {path}?', Confirm)",
        False,
    ),
    "clock_decides_not_renders": (
        "late = datetime.now().year > 2000\n    return Elicit('Delete it (late)?' if path else 'Delete?', Confirm)",
        False,
    ),
}

QUESTION_HEADER = """\
import datetime as dt
import itertools
import random
import secrets
import time
import uuid
from datetime import date, datetime
from random import choice
from time import perf_counter
from typing import Annotated
from uuid import uuid1
from pydantic import BaseModel
from mcp.server import MCPServer
from mcp.server.mcpserver import Elicit, Resolve, Sample
from mcp.types import CreateMessageResult, SamplingMessage, TextContent

mcp = MCPServer("questions")
COUNTER = itertools.count()
ASKED = 0
START = time.time()
WORDS = ["a", "b", "c"]

class Confirm(BaseModel):
    ok: bool
"""


@pytest.fixture(scope="module")
def question_server(tmp_path_factory: pytest.TempPathFactory) -> tuple[ModuleType, set[str]]:
    parts = [QUESTION_HEADER]
    for name, (body, _) in QUESTIONS.items():
        answer = "CreateMessageResult" if "Sample(" in body else "Confirm"
        returns = "Sample" if "Sample(" in body else "Elicit[Confirm]"
        parts.append(
            f"\ndef ask_{name}(path: str) -> {returns}:\n    {body}\n\n"
            f"@mcp.tool()\ndef q_{name}(path: str, a: Annotated[{answer}, Resolve(ask_{name})]) -> str:\n"
            "    return 'done'\n"
        )
    module, path = load_server(tmp_path_factory.mktemp("questions"), "".join(parts))
    flagged = {d.tool or "" for d in lint([path]).diagnostics if d.code == "MCPD104"}
    return module, flagged


def rounds_until_done(module: ModuleType, tool: str) -> int | None:
    """How many times the client is asked before the call completes (None: it gave up)."""
    from mcp.client._input_required import InputRequiredRoundsExceededError
    from mcp.types import CreateMessageResult, ElicitResult, TextContent

    asked: list[object] = []

    async def elicit(context: Any, params: Any) -> Any:
        asked.append(params.message)
        return ElicitResult(action="accept", content={"ok": True})

    async def sample(context: Any, params: Any) -> Any:
        asked.append(params.messages)
        return CreateMessageResult(role="assistant", content=TextContent(type="text", text="ok"), model="m")

    async def body(client: Any) -> bool:
        result = await client.call_tool(tool, {"path": "/tmp/x"})
        return not result.is_error

    try:
        completed = connect(
            module, body, elicitation_callback=elicit, sampling_callback=sample, input_required_max_rounds=4
        )
    except InputRequiredRoundsExceededError:
        return None
    assert completed
    return len(asked)


@pytest.mark.parametrize("name", list(QUESTIONS))
def test_mcpd104_warns_exactly_when_the_sdk_re_asks(
    name: str, question_server: tuple[ModuleType, set[str]]
) -> None:
    module, flagged = question_server
    re_asked = QUESTIONS[name][1]
    assert (f"q_{name}" in flagged) is (re_asked is not False)
    if re_asked is not None:
        rounds = rounds_until_done(module, f"q_{name}")
        assert (rounds is None) is re_asked, f"asked {rounds} times"


LOOK_ALIKE_HEADER = """\
import asyncio
from typing import Annotated, Optional
from pydantic import BaseModel, Field
from mcp.server import MCPServer
from mcp.server.mcpserver import Context, Elicit, Resolve, Sample
from mcp.types import CreateMessageResult, SamplingMessage, TextContent

mcp = MCPServer("look-alikes")
other = MCPServer("other")

def who(title: str) -> str:
    return "alice"

async def fetch(title: str) -> str:
    return title
"""

LOOK_ALIKES: dict[str, str] = {
    # correct code that resembles a trap: no MCPD1xx diagnostic
    "resolve_with_field_metadata": (
        "@mcp.tool()\ndef t(title: str, user: Annotated[str, Resolve(who), Field(description='x')]) -> str:\n"
        "    return user\n"
    ),
    "annotated_alias_of_annotated": (
        "UserDep = Annotated[str, Resolve(who)]\n\n"
        "@mcp.tool()\ndef t(title: str, user: Annotated[UserDep, Field(description='x')]) -> str:\n"
        "    return user\n"
    ),
    "optional_context": "@mcp.tool()\nasync def t(title: str, ctx: Optional[Context] = None) -> str:\n    return title\n",
    "context_next_to_a_resolved_parameter": (
        "def make(title: str) -> str:\n    return title\n\n"
        "@mcp.tool()\nasync def t(title: str, ctx: Context, c: Annotated[str, Resolve(make)]) -> str:\n"
        "    return c\n"
    ),
    "keyword_only_parameters": (
        "def owner(*, title: str) -> str:\n    return title\n\n"
        "@mcp.tool()\ndef t(*, title: str, o: Annotated[str, Resolve(owner)]) -> str:\n    return o\n"
    ),
    "field_without_alias": "@mcp.tool()\ndef t(title: str = Field(description='The title')) -> str:\n    return title\n",
    "sync_resolver_running_the_coroutine": (
        "def blocking(title: str) -> str:\n    return asyncio.run(fetch(title))\n\n"
        "@mcp.tool()\ndef t(title: str, v: Annotated[str, Resolve(blocking)]) -> str:\n    return v\n"
    ),
    "async_wrapper_awaits": (
        "async def wrapped(title: str) -> str:\n    return await fetch(title)\n\n"
        "@mcp.tool()\ndef t(title: str, v: Annotated[str, Resolve(wrapped)]) -> str:\n    return v\n"
    ),
    "async_resolver_directly": "@mcp.tool()\ndef t(title: str, v: Annotated[str, Resolve(fetch)]) -> str:\n    return v\n",
    "same_name_on_two_servers": (
        "@mcp.tool()\ndef t(title: str) -> str:\n    return title\n\n"
        "@other.tool(name='t')\ndef t_other(title: str) -> str:\n    return title\n"
    ),
    "default_on_a_plain_argument": "@mcp.tool()\ndef t(title: str, limit: int = 10) -> str:\n    return title\n",
    "include_context_none": (
        "def ask(title: str) -> Sample:\n"
        "    msg = SamplingMessage(role='user', content=TextContent(type='text', text=title))\n"
        "    return Sample([msg], max_tokens=5, include_context='none')\n\n"
        "@mcp.tool()\ndef t(title: str, s: Annotated[CreateMessageResult, Resolve(ask)]) -> str:\n    return title\n"
    ),
    "elicit_method_on_something_else": (
        "class Form:\n    async def elicit(self, text: str) -> str:\n        return text\n\n"
        "@mcp.tool()\nasync def t(title: str, ctx: Context) -> str:\n    form = Form()\n"
        "    return await form.elicit(title)\n"
    ),
    "resolve_in_a_tool_not_a_prompt": (
        "@mcp.prompt()\ndef p(code: str) -> str:\n    return code\n\n"
        "@mcp.tool()\ndef t(title: str, user: Annotated[str, Resolve(who)]) -> str:\n    return user\n"
    ),
}


@pytest.mark.parametrize("name", list(LOOK_ALIKES))
def test_look_alikes_of_traps_are_silent(name: str, tmp_path: Path) -> None:
    path = tmp_path / "server.py"
    path.write_text(LOOK_ALIKE_HEADER + "\n" + LOOK_ALIKES[name], encoding="utf-8")
    assert [(d.code, d.message) for d in lint([path]).diagnostics] == []


def test_look_alikes_really_work_with_the_sdk(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Each look-alike registers and its tool `t` answers a call, so silence is the right verdict."""
    from mcp.types import CreateMessageResult, TextContent

    async def sample(context: Any, params: Any) -> Any:
        return CreateMessageResult(role="assistant", content=TextContent(type="text", text="ok"), model="m")

    for name, snippet in LOOK_ALIKES.items():
        module, _ = load_server(tmp_path_factory.mktemp(name), LOOK_ALIKE_HEADER + "\n" + snippet)
        is_error, text = call(module, "t", {"title": "x"}, sampling_callback=sample)
        assert not is_error, f"{name}: {text}"
