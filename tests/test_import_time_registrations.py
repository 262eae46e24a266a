"""Registrations a module-level call of their own module runs while the module is imported.

`mcp = build()` (or `register(mcp)`) written in the module defining `build`, above a resolver
or a model its tools name, registers those tools before the name exists: importing the module
fails (a `NameError` where annotations are evaluated, the SDK's `InvalidSignature` where they
are postponed). `lint` held a function's registrations to no line at all and said "All checks
passed" (`resolver_core/import_calls.py`).

Python and the SDK are the oracle, both ways, in the same test: each case is imported in the
process under the real `mcp` (registration recorded, `oracle/sdk_verdicts.judge_case`), with
and without `from __future__ import annotations`; the SDK's verdict (or the import's
`NameError`) must be what `lint .` reports, and `lint FILE` as pre-commit passes it the same.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import write_files
from mcpdeps.lint_rules import lint
from oracle.sdk_verdicts import judge_case
from published_shapes import the_editor_reports_what_lint_dot_reports

HEAD = "from typing import Annotated\n\nfrom mcp.server.mcpserver import MCPServer, Resolve\n\n\n"

LOGIN = 'def login() -> str:\n    return "ann"\n'

ORDER = (
    "    @mcp.tool()\n"
    "    def order(item: str, who: Annotated[str, Resolve(login)]) -> str:\n"
    "        return who + item\n\n"
)
"""A tool in a function's body whose resolver `login` the module defines."""

BUILD = f'def build() -> MCPServer:\n    mcp = MCPServer("shop")\n\n{ORDER}    return mcp\n\n\n'

CASES: dict[str, tuple[str, str | None]] = {
    # name -> (server.py after HEAD, the code lint reports or None)
    "a factory called above the resolver": (BUILD + "mcp = build()\n\n\n" + LOGIN, "MCPD009"),
    "a helper called above the resolver": (
        'mcp = MCPServer("shop")\n\n\ndef register(mcp: MCPServer) -> None:\n'
        + ORDER
        + "\nregister(mcp)\n\n\n"
        + LOGIN,
        "MCPD009",
    ),
    "the factory's server read in the same statement": (
        BUILD + "app = build().streamable_http_app()\n\n\n" + LOGIN,
        "MCPD009",
    ),
    "a factory calling the module's helper": (
        "def _tools(mcp: MCPServer) -> None:\n"
        + ORDER
        + '\ndef build() -> MCPServer:\n    mcp = MCPServer("shop")\n    _tools(mcp)\n    return mcp\n\n\n'
        "mcp = build()\n\n\n" + LOGIN,
        "MCPD009",
    ),
    "add_tool in the factory": (
        'def build() -> MCPServer:\n    mcp = MCPServer("shop")\n\n'
        "    def order(item: str, who: Annotated[str, Resolve(login)]) -> str:\n"
        "        return who + item\n\n"
        "    mcp.add_tool(order)\n    return mcp\n\n\nmcp = build()\n\n\n" + LOGIN,
        "MCPD009",
    ),
    "a model defined below the call": (
        'def build() -> MCPServer:\n    mcp = MCPServer("shop")\n\n'
        "    @mcp.tool()\n    def order(item: Item) -> str:\n        return item.name\n\n"
        "    return mcp\n\n\nmcp = build()\n\n\nclass Item:\n    name: str = 'x'\n",
        "MCPD009",
    ),
    "a resolver above the call whose own resolver is below it": (
        "def login(token: Annotated[str, Resolve(read_token)]) -> str:\n    return token\n\n\n"
        + BUILD
        + "mcp = build()\n\n\ndef read_token() -> str:\n    return 't'\n",
        "MCPD002",
    ),
    "the registration's result assigned": (
        'def build() -> MCPServer:\n    mcp = MCPServer("shop")\n\n'
        "    def order(item: str, who: Annotated[str, Resolve(login)]) -> str:\n"
        "        return who + item\n\n"
        "    registered = mcp.tool()(order)\n    assert registered\n    return mcp\n\n\n"
        "mcp = build()\n\n\n" + LOGIN,
        "MCPD009",
    ),
    # Silent: nothing is late, or the call may not run there.
    "a method the instance's class overrides": (
        "class Base:\n    def start(self, mcp: MCPServer) -> None:\n        self.add_tools(mcp)\n\n"
        "    def add_tools(self, mcp: MCPServer) -> None:\n"
        + "".join(f"    {line}\n" if line else "\n" for line in ORDER.splitlines())
        + "\nclass ReadOnly(Base):\n    def add_tools(self, mcp: MCPServer) -> None:\n        pass\n\n\n"
        'mcp = MCPServer("shop")\nReadOnly().start(mcp)\n\n\n' + LOGIN,
        None,
    ),
    "the resolver above the call": (LOGIN + "\n\n" + BUILD + "mcp = build()\n", None),
    "the call in the main block": (
        BUILD + LOGIN + '\n\nif __name__ == "__main__":\n    build().run()\n',
        None,
    ),
    "the call under an if": (
        BUILD + 'if __name__.startswith("never"):\n    mcp = build()\n\n\n' + LOGIN,
        None,
    ),
    "the call in an untaken arm": (
        "FLAG = False\n\n\n" + BUILD + 'mcp = build() if FLAG else MCPServer("other")\n\n\n' + LOGIN,
        None,
    ),
    "the registration under an if in the factory": (
        'def build() -> MCPServer:\n    mcp = MCPServer("shop")\n    if __name__.startswith("never"):\n\n'
        + "".join(f"    {line}\n" if line else "\n" for line in ORDER.splitlines())
        + "    return mcp\n\n\nmcp = build()\n\n\n"
        + LOGIN,
        None,
    ),
    "a return before the registration": (
        'def build() -> MCPServer:\n    mcp = MCPServer("shop")\n    if not __name__.startswith("never"):\n'
        "        return mcp\n\n" + ORDER + "    return mcp\n\n\nmcp = build()\n\n\n" + LOGIN,
        None,
    ),
    "a resolver of the factory's own": (
        'def build() -> MCPServer:\n    mcp = MCPServer("shop")\n\n    def login() -> str:\n        return "me"\n\n'
        + ORDER
        + "    return mcp\n\n\nmcp = build()\n",
        None,
    ),
    "a generator factory": (
        'def build():  # noqa: ANN201\n    mcp = MCPServer("shop")\n\n' + ORDER + "    yield mcp\n\n\n"
        "servers = build()\n\n\n" + LOGIN,
        None,
    ),
    "the resolver rebound below the call": (
        LOGIN + "\n\n" + BUILD + "mcp = build()\n\n\n" + LOGIN,
        None,
    ),
}

FUTURE = "from __future__ import annotations\n\n"

POSTPONED = {"a resolver of the factory's own": "MCPD009"}
"""Postponed, the SDK reads hints in the module's globals: a def of the factory is none of them."""


def _sdk(folder: Path) -> set[str]:
    """What importing the case under the real SDK says: a `NameError` at import, the SDK's
    registration codes, or nothing."""
    verdict = judge_case(folder)
    if verdict["import_error"] is not None:
        assert verdict["import_error"].startswith("NameError: "), verdict["import_error"]
        return {"NameError"}
    return {t["code"] for t in verdict["tools"] if t["verdict"] != "ok"}


def _codes(folder: Path, *paths: str) -> set[str]:
    targets = [folder / p for p in paths] if paths else [folder]
    return {d.code for d in lint(targets, cwd=folder).diagnostics if d.code.startswith("MCPD0")}


@pytest.mark.parametrize("postponed", [False, True], ids=["evaluated", "postponed"])
@pytest.mark.parametrize("case", CASES)
def test_lint_reports_what_the_import_does(case: str, postponed: bool, tmp_path: Path) -> None:
    text, code = CASES[case]
    code = POSTPONED.get(case, code) if postponed else code
    write_files(tmp_path, {"server.py": (FUTURE if postponed else "") + HEAD + text})
    expected = {code} if code else set()
    assert _sdk(tmp_path) == ({"NameError"} if code and not postponed else expected)
    assert _codes(tmp_path) == expected
    assert _codes(tmp_path, "server.py") == expected


def test_the_message_names_the_call(tmp_path: Path) -> None:
    text, _ = CASES["a factory called above the resolver"]
    write_files(tmp_path, {"server.py": FUTURE + HEAD + text})
    ((line, message),) = [(d.line, d.message) for d in lint([tmp_path], cwd=tmp_path).diagnostics]
    assert line == 12
    assert message == (
        "tool 'order': the hints of the tool use 'login', which is bound at line 21, after `build()` "
        "at line 18 registers the tool, while the module is imported; the SDK cannot register it"
    )


def test_a_call_from_another_module_runs_after_the_import(tmp_path: Path) -> None:
    """`server.py` importing `tools.build` runs it once `tools.py` is fully bound."""
    write_files(
        tmp_path,
        {
            "tools.py": HEAD + BUILD + LOGIN,
            "server.py": "from tools import build\n\nmcp = build()\n",
        },
    )
    assert _sdk(tmp_path) == set()
    assert _codes(tmp_path) == set()


@pytest.mark.parametrize("postponed", [False, True], ids=["evaluated", "postponed"])
def test_the_editor_says_what_lint_says(postponed: bool, tmp_path: Path) -> None:
    """The editor's model, with the call removed in unsaved text and back (the twin is silent)."""
    text, _ = CASES["a factory called above the resolver"]
    write_files(tmp_path, {"server.py": (FUTURE if postponed else "") + HEAD + text})
    the_editor_reports_what_lint_dot_reports(tmp_path, "server.py", ("mcp = build()", "mcp = None"))
