"""`mcpdeps lsp` on a project with tools registered in a `register(server)` function.

Such a file's verdicts depend on its callers anywhere in the project: an edit reaches them as
in `lint` (`WorkspaceModel`, `lint_rules.invalidation`). The open document is checked at
once; when the checks end, everything must again be what `mcpdeps lint --format json` says.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lsp_helpers import Docs, at_version, lint_json, session_on_root, settle
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="function")

DEPS = """from __future__ import annotations


def check_quota(user: str) -> int:
    return 20


def quota_of(account: str) -> int:
    return 5
"""

ALIASES = """from typing import Annotated

from mcp.server.mcpserver import Resolve

import deps

QuotaDep = Annotated[int, Resolve(deps.check_quota)]
"""

TOOLS = """from mcp.server import MCPServer

import aliases


def register(server: MCPServer) -> None:
    @server.tool()
    def upload(user: str, quota: aliases.QuotaDep) -> str:
        return f"{user}: {quota}"
"""

APP = """from mcp.server import MCPServer

import tools

mcp = MCPServer("Demo")
tools.register(mcp)
"""


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "demo"\nversion = "0"\n')
    for name, text in {"deps": DEPS, "aliases": ALIASES, "tools": TOOLS, "app": APP}.items():
        (tmp_path / f"{name}.py").write_text(text)
    return tmp_path


client = session_on_root()


async def test_typing_then_stopping_ends_as_lint_says(client: LanguageClient, root: Path) -> None:
    """The edited alias changes the verdict of the `register` function's tool, a file that is
    neither open nor a user of a resolver the open file defines: only the whole check after
    the typing reaches it."""
    docs, aliases = Docs(client), root / "aliases.py"
    docs.open(aliases)
    await settle(client, root, lint_json(root))
    broken = ALIASES.replace("deps.check_quota", "deps.quota_of")
    for typed in (ALIASES.replace("deps.check_quota", "deps.q"), ALIASES, broken):
        version = docs.change(aliases, typed)
        assert await at_version(client, aliases, version) == []  # the open file, at each keystroke
    aliases.write_text(broken)
    expected = lint_json(root)
    assert any(d["code"] == "MCPD002" for d in expected)  # the tool lacks the resolver's `account`
    await settle(client, root, expected)
