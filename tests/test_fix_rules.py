"""Each safe fix, through the real `mcpdeps lint --fix`: exact bytes out, then lint-clean and
accepted by the real SDK (imported in a fresh interpreter, tools listed through `mcp.Client`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import run_mcpdeps
from new_helpers import sdk_probe

IMPORTS = "Annotated, Optional, Union"

HEAD = """\
from typing import {imports}

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve, Sample
from mcp.types import CreateMessageResult, SamplingMessage, TextContent
from pydantic import Field

mcp   =   MCPServer("shop")  # odd spacing and comments elsewhere stay as they are


def current_user() -> str:
    return "ada"


def summarize(text: str) -> Sample:
    message = SamplingMessage(role="user", content=TextContent(type="text", text=text))
    return Sample(
        [message],
        max_tokens=100,{include}
    )

"""


@dataclass(frozen=True)
class Case:
    id: str
    code: str
    tool: str
    after: str
    before: str = ""
    include: str = ""
    arguments: dict[str, str] | None = None
    """Call the fixed tool with these arguments and expect `expected` back (proves the resolver runs)."""
    expected: str = ""
    imports_after: str = IMPORTS
    """What `from typing import` keeps: the name the fix made unused goes (one unused before stays)."""

    def source(self, which: str) -> str:
        before = which == "before"
        head = HEAD.format(
            imports=IMPORTS if before else self.imports_after,
            include=self.include if before else "",
        )
        return head + getattr(self, which)


GREET = (
    '@mcp.tool()\ndef greet(greeting: str, {param}) -> str:\n    return f"{{greeting}}, {{user}}"  # kept\n'
)
FIXED_GREET = GREET.format(param="user: Annotated[str, Resolve(current_user)]")
CALL = {"arguments": {"greeting": "hi"}, "expected": "hi, ada"}

CASES = [
    Case(
        "MCPD003-pipe-none",
        "MCPD003",
        "greet",
        before=GREET.format(param="user: Annotated[str, Resolve(current_user)] | None = None"),
        after=FIXED_GREET,
        **CALL,  # type: ignore[arg-type]
    ),
    Case(
        "MCPD003-optional",
        "MCPD003",
        "greet",
        before=GREET.format(param="user: Optional[Annotated[str, Resolve(current_user)]] = None"),
        after=FIXED_GREET,
        imports_after="Annotated, Union",
    ),
    Case(
        "MCPD003-union",
        "MCPD003",
        "greet",
        before=GREET.format(param="user: Union[None, Annotated[str, Resolve(current_user)]]"),
        after=FIXED_GREET,
        imports_after="Annotated, Optional",
    ),
    Case(
        "MCPD101-hidden-resolve",
        "MCPD101",
        "greet",
        before=GREET.format(
            param='user: Annotated[Annotated[str, Resolve(current_user)] | None, Field(description="who")] = None'
        ),
        after=GREET.format(param='user: Annotated[str, Resolve(current_user), Field(description="who")]'),
        **CALL,  # type: ignore[arg-type]
    ),
    Case(
        "MCPD111-ignored-default",
        "MCPD111",
        "greet",
        before=GREET.format(param='user: Annotated[str, Resolve(current_user)] = "nobody"'),
        after=FIXED_GREET,
        **CALL,  # type: ignore[arg-type]
    ),
    Case(
        "MCPD105-include-context",
        "MCPD105",
        "digest",
        include='\n        include_context="thisServer",',
        before=(
            "@mcp.tool()\n"
            "def digest(text: str, summary: Annotated[CreateMessageResult, Resolve(summarize)]) -> str:\n"
            "    return text\n"
        ),
        after=(
            "@mcp.tool()\n"
            "def digest(text: str, summary: Annotated[CreateMessageResult, Resolve(summarize)]) -> str:\n"
            "    return text\n"
        ),
    ),
    Case(
        "MCPD006-rename",
        "MCPD006",
        "greet",
        before=(
            "@mcp.tool()\n"
            "def greet(_greeting: str, user: Annotated[str, Resolve(current_user)]) -> str:\n"
            "    def shout() -> str:\n"
            "        return _greeting.upper()\n"
            "    def own(_greeting: str) -> str:  # its own parameter: not renamed\n"
            "        return _greeting\n"
            '    return f"{_greeting}, {user}" if own("x") else shout()\n'
        ),
        after=(
            "@mcp.tool()\n"
            "def greet(greeting: str, user: Annotated[str, Resolve(current_user)]) -> str:\n"
            "    def shout() -> str:\n"
            "        return greeting.upper()\n"
            "    def own(_greeting: str) -> str:  # its own parameter: not renamed\n"
            "        return _greeting\n"
            '    return f"{greeting}, {user}" if own("x") else shout()\n'
        ),
        **CALL,  # type: ignore[arg-type]
    ),
    Case(
        "MCPD002-typo-of-a-tool-argument",
        "MCPD002",
        "greet",
        before=(
            "def greeting_of(greting: str) -> str:\n    return greting.title()\n\n\n"
            "@mcp.tool()\n"
            "def greet(greeting: str, shown: Annotated[str, Resolve(greeting_of)]) -> str:\n"
            "    return shown\n"
        ),
        after=(
            "def greeting_of(greeting: str) -> str:\n    return greeting.title()\n\n\n"
            "@mcp.tool()\n"
            "def greet(greeting: str, shown: Annotated[str, Resolve(greeting_of)]) -> str:\n"
            "    return shown\n"
        ),
        arguments={"greeting": "hi"},
        expected="Hi",
    ),
    Case(
        "MCPD002-typo-passed-on-as-a-keyword",
        "MCPD002",
        "greet",
        before=(
            "def shout(*, greeting: str) -> str:\n    return greeting.upper()\n\n\n"
            "def greeting_of(greting: str) -> str:\n"
            "    return shout(greeting=greting)  # passed on by keyword\n\n\n"
            "@mcp.tool()\n"
            "def greet(greeting: str, shown: Annotated[str, Resolve(greeting_of)]) -> str:\n"
            "    return shown\n"
        ),
        after=(
            "def shout(*, greeting: str) -> str:\n    return greeting.upper()\n\n\n"
            "def greeting_of(greeting: str) -> str:\n"
            "    return shout(greeting=greeting)  # passed on by keyword\n\n\n"
            "@mcp.tool()\n"
            "def greet(greeting: str, shown: Annotated[str, Resolve(greeting_of)]) -> str:\n"
            "    return shown\n"
        ),
        arguments={"greeting": "hi"},
        expected="HI",
    ),
    Case(
        "MCPD008-bare-decorator",
        "MCPD008",
        "greet",
        before="@mcp.tool\n" + FIXED_GREET.removeprefix("@mcp.tool()\n"),
        after=FIXED_GREET,
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_fix_rewrites_exactly_then_lints_clean_and_registers(case: Case, tmp_path: Path) -> None:
    server = tmp_path / "server.py"
    server.write_text(case.source("before"), encoding="utf-8")
    fixed = run_mcpdeps("lint", "--fix", "--select", case.code, cwd=tmp_path)  # only this rule's fixer runs
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert "Fixed 1 problem in 1 file." in fixed.stderr
    assert server.read_text(encoding="utf-8") == case.source("after")
    after = run_mcpdeps("lint", "--format", "json", cwd=tmp_path)
    assert json.loads(after.stdout)["diagnostics"] == []  # lints clean: no rule at all reports anything

    probe = sdk_probe(server, tool=case.tool if case.arguments else None, arguments=case.arguments)
    assert case.tool in probe["tools"]
    if case.arguments is not None:
        assert list(probe["tools"][case.tool]["properties"]) == list(case.arguments)
        assert probe["call"] == {"is_error": False, "text": [case.expected]}


REFUSED = [
    pytest.param(
        '@mcp.tool()\ndef greet(greeting: str = "hi", user: Annotated[str, Resolve(current_user)] = "x") -> str:\n'
        "    return greeting\n",
        "MCPD111",
        id="default-after-default-would-be-a-syntax-error",
    ),
    pytest.param(
        "@mcp.tool()\ndef greet(_greeting: str, greeting: str) -> str:\n    return _greeting + greeting\n",
        "MCPD006",
        id="new-name-already-taken",
    ),
    pytest.param(
        "@mcp.tool()\ndef greet(greeting: str, user: list[Annotated[str, Resolve(current_user)]]) -> str:\n"
        "    return greeting\n",
        "MCPD003",
        id="resolve-inside-a-list-changes-meaning",
    ),
    pytest.param(
        "def greeting_of(greting: str) -> str:\n    return greting\n\n\n"
        'HELLO = greeting_of(greting="hello")  # called by the old name: a rename would break it\n\n\n'
        "@mcp.tool()\ndef greet(greeting: str, shown: Annotated[str, Resolve(greeting_of)]) -> str:\n"
        "    return shown\n",
        "MCPD002",
        id="resolver-called-with-the-old-keyword",
    ),
    pytest.param(
        "def greeting_of(salutation: str) -> str:\n    return salutation\n\n\n"
        "@mcp.tool()\ndef greet(greeting: str, shown: Annotated[str, Resolve(greeting_of)]) -> str:\n"
        "    return shown\n",
        "MCPD002",
        id="no-tool-argument-close-to-the-name",
    ),
]


@pytest.mark.parametrize(("tool", "code"), REFUSED)
def test_unsafe_shapes_are_reported_but_never_rewritten(tool: str, code: str, tmp_path: Path) -> None:
    server = tmp_path / "server.py"
    server.write_text(HEAD.format(imports=IMPORTS, include="") + tool, encoding="utf-8")
    proc = run_mcpdeps("lint", "--fix", "--format", "json", cwd=tmp_path)
    diagnostics = json.loads(proc.stdout)["diagnostics"]
    assert code in {d["code"] for d in diagnostics}
    assert all(d["fix"] is None for d in diagnostics if d["code"] == code)
    assert server.read_text(encoding="utf-8") == HEAD.format(imports=IMPORTS, include="") + tool


def test_optional_fixed_in_two_places_leaves_no_unused_import(tmp_path: Path) -> None:
    """Each fix keeps the import the other still uses; the plan drops it once both are made."""
    server = tmp_path / "server.py"
    wrapped = "user: Optional[Annotated[str, Resolve(current_user)]] = None"
    bye = GREET.format(param=wrapped).replace("greet", "bye")
    server.write_text(HEAD.format(imports=IMPORTS, include="") + GREET.format(param=wrapped) + "\n\n" + bye)
    fixed = run_mcpdeps("lint", "--fix", cwd=tmp_path)
    assert "Fixed 2 problems in 1 file." in fixed.stderr, fixed.stdout + fixed.stderr
    text = server.read_text(encoding="utf-8")
    assert text.startswith("from typing import Annotated, Union\n")  # Union was unused before: not ours
    assert "Optional" not in text
    assert sorted(sdk_probe(server)["tools"]) == ["bye", "greet"]
