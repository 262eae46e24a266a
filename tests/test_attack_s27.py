"""Cases an attack of s27 found, each checked against the SDK in the process, both ways.

- `Resolve(current_user())`: FastAPI's `Depends(get_db())` slip, the resolver called where
  it should be passed. What an `async def` call gives is a coroutine, a generator function's a
  generator, `def get_settings(): return {...}`'s a dict: none is callable, and the SDK refuses
  the tool (T10, MCPD007). lint said only that the value was computed at run time (MCPD113).
  A factory returning one of its own defs stays a resolver (`closures.py`).
- `from mcp.server.context import Context` (the low-level server's request context, an
  editor's auto-import away from `mcp.server.mcpserver`'s) on a resolver's parameter: the SDK
  hands it nothing and refuses the resolver (MCPD002); lint took any SDK class named
  `Context` for the one the SDK fills (`signatures._HOMES`).
- `user: str = Resolve(current_user)`, FastAPI's `= Depends(get_db)` way: the SDK reads
  markers in annotations only, so it registers `user` as an argument the model fills and never
  runs the resolver. lint was silent; MCPD101 (the hidden marker) reports it now.
- Two factories each making a server bound to `mcp` and registering `echo` (a server's tests
  do this in every test function): one server to lint, which reported the second `echo` as a
  duplicate (MCPD110). Each function's local server is its own (`Server.scope`).
- `main()` registering the tools, called by the `if __name__ == "__main__":` block and by a
  test: the block runs only where its file is the program, as each test is a program of its
  own, so `main()` does not run twice (`arms.ArmStack.blocks`). Module-level code registering
  the same name before `main()` runs is still reported.

Each case is imported under the real `mcp` with registration recorded
(`oracle/sdk_verdicts.judge_case`); `lint .` and `lint server.py` must report its codes.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import write_files
from mcpdeps.lint_rules import lint
from oracle.sdk_verdicts import judge_case
from published_shapes import the_editor_reports_what_lint_dot_reports

HEAD = "from typing import Annotated\n\nfrom mcp.server.mcpserver import MCPServer, Resolve\n\n"

TOOL = (
    '\n\nmcp = MCPServer("svc")\n\n\n@mcp.tool()\n'
    "async def whoami(path: str, user: Annotated[str, Resolve({target})]) -> str:\n"
    "    return str(user) + path\n"
)


def called(resolver: str, target: str = "current_user()") -> str:
    return HEAD + "\n" + resolver + TOOL.format(target=target)


def with_context(imports: str, resolver_parameter: str = "ctx: Context") -> str:
    return (
        HEAD
        + imports
        + f"\n\n\nasync def tenant({resolver_parameter}) -> str:\n    return 'acme'\n"
        + TOOL.format(target="tenant")
    )


CASES: dict[str, tuple[str, str | None]] = {
    "an async resolver called": (called("async def current_user() -> str:\n    return 'ann'"), "MCPD007"),
    "an async generator called": (
        called("async def current_user():  # noqa: ANN201\n    yield 'ann'"),
        "MCPD007",
    ),
    "a generator dependency called": (
        called("def get_db():  # noqa: ANN201\n    yield 'db'", "get_db()"),
        "MCPD007",
    ),
    "a getter of a dict called": (
        called("def get_settings() -> dict:\n    return {'base': 'x'}", "get_settings()"),
        "MCPD007",
    ),
    "a function returning nothing called": (
        called("def setup() -> None:\n    print('ready')", "setup()"),
        "MCPD007",
    ),
    "an async factory of a resolver called": (
        called(
            "async def make():  # noqa: ANN201\n    def current_user() -> str:\n        return 'ann'\n\n"
            "    return current_user",
            "make()",
        ),
        "MCPD007",
    ),
    "a function the module may replace through globals()": (
        called(
            "def current_user() -> dict:\n    return {}\n\n\n"
            "globals()['current_user'] = lambda: (lambda: 'ann')"
        ),
        None,
    ),
    "a factory returning its own def: a resolver": (
        called(
            "def make():  # noqa: ANN201\n    def current_user() -> str:\n        return 'ann'\n\n"
            "    return current_user",
            "make()",
        ),
        None,
    ),
    "a factory returning what another call gives: not judged": (
        called(
            "def pick():  # noqa: ANN201\n    return lambda: 'ann'\n\n\ndef make():  # noqa: ANN201\n    return pick()",
            "make()",
        ),
        None,
    ),
    "the low-level server's Context on a resolver": (
        with_context("from mcp.server.context import Context"),
        "MCPD002",
    ),
    "a project subclass of the low-level Context": (
        with_context("from mcp.server.context import Context\n\n\nclass Ctx(Context):\n    pass", "ctx: Ctx"),
        "MCPD002",
    ),
    "the Context of mcpserver's context module": (
        with_context("from mcp.server.mcpserver.context import Context"),
        None,
    ),
    "the Context mcpserver exports": (with_context("from mcp.server.mcpserver import Context"), None),
}


@pytest.mark.parametrize("case", CASES)
def test_lint_reports_what_the_sdk_refuses(case: str, tmp_path: Path) -> None:
    text, code = CASES[case]
    write_files(tmp_path, {"server.py": text})
    verdict = judge_case(tmp_path)
    assert verdict["import_error"] is None
    expected = {code} if code else set()
    assert {t["code"] for t in verdict["tools"] if t["verdict"] != "ok"} == expected
    for target in (tmp_path, tmp_path / "server.py"):
        found = {d.code for d in lint([target], cwd=tmp_path).diagnostics if d.code.startswith("MCPD0")}
        assert found == expected


def test_the_message_says_what_the_call_gives(tmp_path: Path) -> None:
    write_files(tmp_path, {"server.py": CASES["an async resolver called"][0]})
    (message,) = [d.message for d in lint([tmp_path], cwd=tmp_path).diagnostics]
    assert message == (
        "invalid resolver: `current_user()` is not a callable object: calling the async function "
        "'current_user' gives a coroutine; pass the function itself"
    )


FACTORY = """\
def build_{n}() -> MCPServer:
    mcp = MCPServer("{n}")

    @mcp.tool()
    def echo(x: str) -> str:
        return x

    return mcp
"""
"""A factory making its own server bound to `mcp`, with a tool `echo`."""

FACTORIES = (
    "# start: a = build_a()\n# start: b = build_b()\nfrom mcp.server.mcpserver import MCPServer\n\n\n"
    + FACTORY.format(n="a")
    + "\n\n"
    + FACTORY.format(n="b")
)

MAIN = """\
# start: main()
from mcp.server.mcpserver import MCPServer

from tools import register_echo

mcp = MCPServer("s")
{above}

def main() -> MCPServer:
    register_echo(mcp)
    return mcp


if __name__ == "__main__":
    main().run()
"""

TOOLS = 'def register_echo(mcp):\n    @mcp.tool(name="echo")\n    async def echo(text: str) -> str:\n        return text\n'

TESTS = """\
from unittest.mock import patch

from server import main


def test_main_runs():
    with patch("server.mcp"):
        main()


def test_main_again():
    with patch("server.mcp"):
        main()
"""


def _duplicates(folder: Path) -> list[str]:
    verdict = judge_case(folder)
    assert verdict["import_error"] is None
    return [t["tool"] for t in verdict["tools"] if t["duplicate"]]


def _lint_codes(folder: Path) -> list[str]:
    return [d.code for d in lint([folder], cwd=folder).diagnostics]


def test_two_factories_make_two_servers(tmp_path: Path) -> None:
    write_files(tmp_path, {"server.py": FACTORIES})
    assert _duplicates(tmp_path) == []
    result = lint([tmp_path], cwd=tmp_path)
    assert result.diagnostics == []
    assert (result.servers, result.tools) == (2, 2)


@pytest.mark.parametrize("above", ["", "register_echo(mcp)\n"], ids=["main alone", "registered above too"])
def test_the_main_block_and_a_test_are_two_programs(above: str, tmp_path: Path) -> None:
    write_files(
        tmp_path,
        {"server.py": MAIN.format(above=above), "tools.py": TOOLS, "tests/test_main.py": TESTS},
    )
    expected = ["echo"] if above else []
    assert _duplicates(tmp_path) == expected
    assert _lint_codes(tmp_path) == ["MCPD110" for _ in expected]


DEFAULTS = {
    "Resolve as the default value": "user: str = Resolve(current_user)",
    "a project Depends returning Resolve, as the default": "user: str = Depends(current_user)",
}


@pytest.mark.parametrize("case", DEFAULTS)
def test_a_marker_written_as_the_default_is_reported(case: str, tmp_path: Path) -> None:
    text = (
        HEAD
        + "\ndef current_user() -> str:\n    return 'ann'\n\n\n"
        + "def Depends(fn):  # noqa: ANN001, ANN201, N802\n    return Resolve(fn)\n"
        + '\n\nmcp = MCPServer("svc")\n\n\n@mcp.tool()\n'
        + f"async def whoami(path: str, {DEFAULTS[case]}) -> str:\n    return user + path\n"
    )
    write_files(tmp_path, {"server.py": text})
    verdict = judge_case(tmp_path)
    (tool,) = verdict["tools"]
    assert (tool["verdict"], tool["arguments"]) == ("ok", ["path", "user"])  # the model fills `user`
    for target in (tmp_path, tmp_path / "server.py"):
        found = [(d.code, d.fix) for d in lint([target], cwd=tmp_path).diagnostics]
        assert found == [("MCPD101", None)]


IRREVERSIBLE = """\
from mcp.server.mcpserver import Context, MCPServer
from mcp.types import {request}, InputRequiredResult

mcp = MCPServer("billing")
ASK = {ask}


@mcp.tool()
async def refund(amount: int, ctx: Context) -> str | InputRequiredResult:
    if ctx.input_responses is None:
        return InputRequiredResult(input_requests={{"ok": ASK}})
    return f"refunded {{amount}}"
"""

ASKS = {
    "the person, with an ElicitRequest": (
        "ElicitRequest, ElicitRequestFormParams",
        "ElicitRequest(params=ElicitRequestFormParams(message='Refund?', requested_schema={}))",
        [],
    ),
    "the model only, with a CreateMessageRequest": (
        "CreateMessageRequest, CreateMessageRequestParams",
        "CreateMessageRequest(params=CreateMessageRequestParams(messages=[], max_tokens=1))",
        ["MCPD207"],
    ),
}


@pytest.mark.parametrize("case", ASKS)
def test_an_irreversible_tool_asking_through_input_required(case: str, tmp_path: Path) -> None:
    request, ask, codes = ASKS[case]
    write_files(tmp_path, {"server.py": IRREVERSIBLE.format(request=request, ask=ask)})
    assert judge_case(tmp_path)["tools"][0]["verdict"] == "ok"
    assert [d.code for d in lint([tmp_path], cwd=tmp_path).diagnostics] == codes


@pytest.mark.parametrize(
    "case",
    ["an async resolver called", "a getter of a dict called", "the low-level server's Context on a resolver"],
)
def test_the_editor_says_what_lint_says(case: str, tmp_path: Path) -> None:
    write_files(tmp_path, {"server.py": CASES[case][0]})
    the_editor_reports_what_lint_dot_reports(tmp_path)
