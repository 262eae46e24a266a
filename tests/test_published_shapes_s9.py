"""Shapes published servers register tools in, checked against the SDK itself.

Each case is a small project in the shape (the server travelling through a helper whose
parameter is annotated with a name imported only under `if TYPE_CHECKING:`, a method
`register(self, mcp)` called on an instance, ...) whose tool runs `load_d(nope)`, a resolver
the SDK refuses at registration (`InvalidSignature`: no tool argument `nope`). The SDK is run
the way the server starts (a subprocess importing the entry point and calling what it calls);
`lint .` must report MCPD002 in the resolver's file, `lint FILE` alone (pre-commit) the same
there; with `load_d(x)` instead both the SDK and lint accept the project.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import published_shapes
import pytest
from conftest import lint_diagnostics, write_files
from published_shapes import check_both_ways
from published_shapes import resolver_module as _resolver_module

CASES: dict[str, tuple[dict[str, str], str, str]] = {
    "helper parameter annotated with a TYPE_CHECKING import": (
        {
            "app/tools.py": """\
                from __future__ import annotations

                from typing import TYPE_CHECKING, Annotated

                from mcp.server.mcpserver import Resolve

                if TYPE_CHECKING:
                    from mcp.server import MCPServer


                def load_d(nope: str) -> str:
                    return nope


                def register(mcp: MCPServer) -> None:
                    @mcp.tool()
                    def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                        return d
            """,
            "app/main.py": """\
                from mcp.server import MCPServer

                from app import tools

                mcp = MCPServer("x")
                tools.register(mcp)
            """,
        },
        "import app.main",
        "app/tools.py",
    ),
    "register(self, mcp) of instances in a loop over a tuple": (
        {
            "app/kits.py": """\
                class ToolKit:
                    def register(self, mcp) -> None:
                        raise NotImplementedError
            """,
            "app/weather.py": _resolver_module(
                """\
                class Weather(ToolKit):
                    def register(self, mcp) -> None:
                        @mcp.tool()
                        def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                            return d
            """,
                imports="""\
                from app.kits import ToolKit
            """,
            ),
            "app/main.py": """\
                from mcp.server import MCPServer

                from app.weather import Weather

                mcp = MCPServer("x")
                for kit in (Weather(),):
                    kit.register(mcp)
            """,
        },
        "import app.main",
        "app/weather.py",
    ),
    "register(self, mcp) called on a fresh instance, inside main()": (
        {
            "app/weather.py": _resolver_module(
                """\
                class Weather:
                    def register(self, mcp) -> None:
                        @mcp.tool()
                        def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                            return d
            """,
            ),
            "app/main.py": """\
                from mcp.server import MCPServer

                from app.weather import Weather


                def main() -> None:
                    mcp = MCPServer("x")
                    Weather().register(mcp)
                    mcp.run()
            """,
        },
        "import app.main\napp.main.MCPServer.run = lambda self: None\napp.main.main()",
        "app/weather.py",
    ),
    "staticmethod register(mcp) called on the class": (
        {
            "app/weather.py": _resolver_module(
                """\
                class Weather:
                    @staticmethod
                    def register(mcp) -> None:
                        @mcp.tool()
                        def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                            return d
            """,
            ),
            "app/main.py": """\
                from mcp.server import MCPServer

                from app.weather import Weather

                mcp = MCPServer("x")
                Weather.register(mcp)
            """,
        },
        "import app.main",
        "app/weather.py",
    ),
    "server held as a class attribute of a settings object": (
        {
            "app/state.py": """\
                from mcp.server import MCPServer


                class State:
                    mcp = MCPServer("x")


                state = State()
            """,
            "app/tools.py": _resolver_module(
                """\
                @state.mcp.tool()
                def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                    return d
            """,
                imports="""\
                from app.state import state
            """,
            ),
        },
        "import app.tools",
        "app/tools.py",
    ),
    "helpers listed in a module-level list, called in a loop": (
        {
            "app/tools.py": _resolver_module(
                """\
                def register(mcp) -> None:
                    @mcp.tool()
                    def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                        return d
            """,
            ),
            "app/main.py": """\
                from mcp.server import MCPServer

                from app import tools

                REGISTRARS = [tools.register]
                mcp = MCPServer("x")
                for registrar in REGISTRARS:
                    registrar(mcp)
            """,
        },
        "import app.main",
        "app/tools.py",
    ),
    "tool modules listed in another module, called in a loop": (
        {
            "app/tools/__init__.py": """\
                from app.tools import alpha

                TOOL_MODULES = (alpha,)
            """,
            "app/tools/alpha.py": _resolver_module(
                """\
                def register(mcp) -> None:
                    @mcp.tool()
                    def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                        return d
            """,
            ),
            "app/main.py": """\
                from mcp.server import MCPServer

                from app.tools import TOOL_MODULES

                mcp = MCPServer("x")
                for module in TOOL_MODULES:
                    module.register(mcp)
            """,
        },
        "import app.main",
        "app/tools/alpha.py",
    ),
    "a dataclass context carrying the server into the helper": (
        {
            "app/context.py": """\
                from dataclasses import dataclass

                from mcp.server import MCPServer


                @dataclass
                class AppContext:
                    server: MCPServer
            """,
            "app/tools.py": _resolver_module(
                """\
                def register(context: AppContext) -> None:
                    @context.server.tool()
                    def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                        return d
            """,
                imports="""\
                from app.context import AppContext
            """,
            ),
            "app/main.py": """\
                from mcp.server import MCPServer

                from app.context import AppContext
                from app.tools import register

                register(AppContext(MCPServer("x")))
            """,
        },
        "import app.main",
        "app/tools.py",
    ),
    "a server built in the call that hands it to the helper": (
        {
            "app/tools.py": _resolver_module(
                """\
                def register(mcp):
                    @mcp.tool()
                    def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                        return d
            """,
            ),
            "app/main.py": """\
                from mcp.server import MCPServer

                from app.tools import register

                register(MCPServer("x"))
            """,
        },
        "import app.main",
        "app/tools.py",
    ),
    "a getter's result decorating directly": (
        {
            "app/server.py": """\
                from mcp.server import MCPServer

                _mcp = MCPServer("x")


                def get_mcp() -> MCPServer:
                    return _mcp
            """,
            "app/tools.py": _resolver_module(
                """\
                @get_mcp().tool()
                def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                    return d
            """,
                imports="""\
                from app.server import get_mcp
            """,
            ),
        },
        "import app.tools",
        "app/tools.py",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_lint_reports_what_the_sdk_refuses_and_accepts_what_it_accepts(tmp_path: Path, case: str) -> None:
    check_both_ways(tmp_path, *CASES[case])


def test_helpers_called_in_exclusive_branches_register_no_duplicate(tmp_path: Path) -> None:
    tool = """\
        def register(mcp) -> None:
            @mcp.tool()
            def t(x: int) -> str:
                return "{}"
    """
    write_files(
        tmp_path,
        {
            "pyproject.toml": "[project]\nname = 'p'\nversion = '0'\n",
            "app/__init__.py": "",
            "app/a.py": tool.format("a"),
            "app/b.py": tool.format("b"),
            "app/main.py": """\
                import os

                from mcp.server import MCPServer

                from app import a, b

                mcp = MCPServer("x")
                if os.environ.get("B"):
                    b.register(mcp)
                else:
                    a.register(mcp)
            """,
        },
    )
    # Either arm alone registers one `t`: the SDK logs no duplicate.
    for arm in ("", "1"):
        ran = subprocess.run(
            [sys.executable, "-c", "import app.main"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            env={**os.environ, "B": arm},
        )
        assert ran.returncode == 0 and "already exists" not in ran.stderr, ran.stderr
    assert lint_diagnostics(tmp_path, "--no-cache", ".") == []


test_the_editor_reports_what_lint_dot_reports = published_shapes.editor_test(CASES)
