"""Servers written as calls, checked against the SDK itself.

Published servers hand their server out through a getter (`def get_mcp(): return _mcp`, a
`@lru_cache` function, `global _mcp` set on first call) and decorate with its result
directly (`@get_mcp().tool()`), or build it in the argument of the helper that registers on
it (`register(MCPServer("x"))`). Each project here is run the way the server starts (a
subprocess importing the entry point); lint must report what the SDK refuses where it is,
with every file alone (pre-commit) saying what `lint .` says there, and accept the clean
twin. Which calls share one server decides duplicate names: the SDK keeps the first `shared`
tool and logs the second (`Tool already exists`) only when both land on one server.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import lint_diagnostics, located, write_files
from published_shapes import DUPLICATES_LOGGED

PROJECT = {"pyproject.toml": "[project]\nname = 'p'\nversion = '0'\n", "app/__init__.py": ""}

RESOLVER = """\
    from typing import Annotated

    from mcp.server.mcpserver import Resolve


    def load_d(nope: str) -> str:
        return nope
"""
CLEAN = ("def load_d(nope: str) -> str:\n    return nope", "def load_d(x: int) -> str:\n    return str(x)")

HELPER = (
    RESOLVER
    + """

    def register(mcp):
        @mcp.tool()
        def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
            return d
"""
)
"""A `register(mcp)` helper, its parameter unannotated: only its callers say it is a server."""

GETTER = """\
    from mcp.server import MCPServer

    _mcp = MCPServer("x")


    def get_mcp():
        return _mcp
"""

REFUSED: dict[str, tuple[dict[str, str], str, str]] = {
    "a cached getter's result decorating directly": (
        {
            "app/server.py": """\
                from functools import lru_cache

                from mcp.server import MCPServer


                @lru_cache(maxsize=1)
                def get_server() -> MCPServer:
                    return MCPServer("x")
            """,
            "app/tools.py": RESOLVER
            + """
    from app.server import get_server


    @get_server().tool()
    def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
        return d
""",
        },
        "import app.tools",
        "app/tools.py",
    ),
    "a global set on first call, add_tool on the getter's result": (
        {
            "app/server.py": """\
                from mcp.server import MCPServer

                _mcp: MCPServer | None = None


                def get_mcp() -> MCPServer:
                    global _mcp
                    if _mcp is None:
                        _mcp = MCPServer("x")
                    return _mcp
            """,
            "app/tools.py": RESOLVER
            + """
    from app import server


    def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
        return d


    server.get_mcp().add_tool(t)
""",
        },
        "import app.tools",
        "app/tools.py",
    ),
    "a getter's result handed to the helper": (
        {
            "app/server.py": GETTER,
            "app/tools.py": HELPER,
            "app/main.py": """\
                from app.server import get_mcp
                from app.tools import register

                register(get_mcp())
            """,
        },
        "import app.main",
        "app/tools.py",
    ),
    "a server built in the helper's argument inside main()": (
        {
            "app/tools.py": HELPER,
            "app/main.py": """\
                from mcp.server import MCPServer

                from app import tools


                def main() -> None:
                    tools.register(
                        MCPServer("x"),
                    )
            """,
        },
        "import app.main\napp.main.main()",
        "app/tools.py",
    ),
    "a factory's result decorating directly": (
        {
            "app/server.py": """\
                from mcp.server import MCPServer


                def make():
                    return MCPServer("x")
            """,
            "app/tools.py": RESOLVER
            + """
    from app.server import make


    @make().tool()
    def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
        return d
""",
        },
        "import app.tools",
        "app/tools.py",
    ),
}
"""name -> (files beside `PROJECT`, what the server's start runs, the file the refusal is in)."""


def _sdk(root: Path, entry: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", entry], cwd=root, capture_output=True, text=True)


def _codes(found: list[dict], path: str) -> list[tuple[str, int]]:
    return sorted((d["code"], d["line"]) for d in located(found, path))


def _each_file_alone_agrees(root: Path, files: list[str], whole: list[dict]) -> None:
    for given in files:
        assert _codes(lint_diagnostics(root, "--no-cache", given), given) == _codes(whole, given), given


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_lint_reports_what_the_sdk_refuses_and_accepts_what_it_accepts(tmp_path: Path, case: str) -> None:
    files, entry, bad = REFUSED[case]
    write_files(tmp_path, {**PROJECT, **files})
    refused = _sdk(tmp_path, entry)
    assert "InvalidSignature: Resolver 'load_d' parameter 'nope'" in refused.stderr, refused.stderr
    whole = lint_diagnostics(tmp_path, "--no-cache", ".")
    assert [code for code, _ in _codes(whole, bad)] == ["MCPD002"], whole
    _each_file_alone_agrees(tmp_path, sorted(files), whole)
    if "app/main.py" in files:  # the entry point alone follows the server it hands the helper
        assert _codes(lint_diagnostics(tmp_path, "--no-cache", "app/main.py"), bad) == _codes(whole, bad)

    path = tmp_path / bad
    path.write_text(path.read_text().replace(*CLEAN))
    accepted = _sdk(tmp_path, entry)
    assert accepted.returncode == 0, accepted.stderr
    assert lint_diagnostics(tmp_path, "--no-cache", ".") == []
    for given in sorted(files):
        assert lint_diagnostics(tmp_path, "--no-cache", given) == [], given


def _shared(getter: str) -> str:
    """A module registering a tool named `shared` on the server `getter` (a call) stands for."""
    return f"""\
        from app.server import {getter.partition("(")[0]}


        @{getter}.tool(name="shared")
        def t(title: str) -> str:
            return title
    """


SHARING: dict[str, tuple[dict[str, str], list[str]]] = {
    "two servers built in two calls of the helper": (
        {
            "app/tools.py": """\
                def register(mcp):
                    @mcp.tool(name="shared")
                    def t(title: str) -> str:
                        return title
            """,
            "app/main.py": """\
                from mcp.server import MCPServer

                from app.tools import register

                register(MCPServer("a"))
                register(MCPServer("b"))
            """,
        },
        [],
    ),
    "one getter's server, decorated in two modules": (
        {
            "app/server.py": GETTER,
            "app/alpha.py": _shared("get_mcp()"),
            "app/beta.py": _shared("get_mcp()"),
            "app/main.py": "import app.alpha\nimport app.beta\n",
        },
        ["app/beta.py"],
    ),
    "a getter's server bound to a name, and the getter's module-level server": (
        {
            "app/server.py": GETTER
            + """

    @_mcp.tool(name="shared")
    def t(title: str) -> str:
        return title
""",
            "app/tools.py": """\
                from app.server import get_mcp

                mcp = get_mcp()


                @mcp.tool(name="shared")
                def t(title: str) -> str:
                    return title
            """,
            "app/main.py": "import app.tools\n",
        },
        ["app/tools.py"],
    ),
    "a cached factory's server, decorated in two modules": (
        {
            "app/server.py": """\
                import functools

                from mcp.server import MCPServer


                @functools.cache
                def get_server():
                    return MCPServer("x")
            """,
            "app/alpha.py": _shared("get_server()"),
            "app/beta.py": _shared("get_server()"),
            "app/main.py": "import app.alpha\nimport app.beta\n",
        },
        ["app/beta.py"],
    ),
    "an uncached factory: a new server at each call": (
        {
            "app/server.py": """\
                from mcp.server import MCPServer


                def make() -> MCPServer:
                    return MCPServer("x")
            """,
            "app/alpha.py": _shared("make()"),
            "app/beta.py": _shared("make()"),
            "app/main.py": "import app.alpha\nimport app.beta\n",
        },
        [],
    ),
}
"""name -> (files beside `PROJECT`, the files `lint .` reports MCPD110 in: one per name the
SDK logs as registered twice on one server). Files are named in the order they register
(lint meets registrations in the run's order of files)."""


@pytest.mark.parametrize("case", sorted(SHARING))
def test_calls_share_a_server_exactly_when_the_sdk_registers_on_one(tmp_path: Path, case: str) -> None:
    files, reported = SHARING[case]
    write_files(tmp_path, {**PROJECT, **files})
    sdk = subprocess.run(
        [sys.executable, "-c", DUPLICATES_LOGGED], cwd=tmp_path, capture_output=True, text=True
    )
    assert sdk.returncode == 0, sdk.stderr
    assert json.loads(sdk.stdout) == ["Tool already exists: shared"] * len(reported)
    whole = lint_diagnostics(tmp_path, "--no-cache", ".")
    assert [(d["code"], d["path"]) for d in whole] == [("MCPD110", path) for path in reported]
    _each_file_alone_agrees(tmp_path, sorted(files), whole)
