"""More shapes published servers register tools in, checked against the SDK itself.

Each case is a small project in a shape read in published servers (a class building its server
in `__init__` and registering its own methods, a tool-kit base class holding the server it is
constructed with, a package's `register_tools(mcp)` importing its helpers in its body, a
server handed on by keyword, ...), whose tool runs `load_d(nope)`, a resolver the SDK refuses.
`published_shapes.check_both_ways` says what each must do: the SDK (run as the server starts)
refuses it and lint reports MCPD002 in the resolver's file, `lint .` and `lint FILE` alike;
with the clean resolver both accept it.
"""

from __future__ import annotations

from pathlib import Path

import published_shapes
import pytest
from conftest import lint_diagnostics, write_files
from published_shapes import PROJECT, check_both_ways, entry_point, resolver_module, sdk


def _helper(name: str = "register") -> str:
    """A `def NAME(mcp)` helper registering `t` on the server it is given."""
    return (
        f"def {name}(mcp) -> None:\n    @mcp.tool()\n"
        "    def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n        return d\n"
    )


DEPENDS_TOOL = """\
    from typing import Annotated

    from mcp.server import MCPServer

    from app.deps import Depends, load_d

    mcp = MCPServer("x")


    @mcp.tool()
    def t(x: int, d: Annotated[str, Depends(load_d)]) -> str:
        return d
"""
"""A tool module whose resolver is named through a project's `Depends` (FastAPI's spelling)."""


CASES: dict[str, tuple[dict[str, str], str, str]] = {
    "a class building its server in __init__ and registering its bound methods": (
        {
            "app/server.py": resolver_module(
                """\
                class WeatherServer:
                    def __init__(self) -> None:
                        self.mcp = MCPServer("x")
                        self._register_tools()

                    def _register_tools(self) -> None:
                        self.mcp.tool()(self.forecast)

                    def forecast(self, x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                        return d
                """,
                imports="from mcp.server import MCPServer\n",
            ),
            "app/main.py": "from app.server import WeatherServer\n\nserver = WeatherServer()\n",
        },
        "import app.main",
        "app/server.py",
    ),
    "a tool-kit base class holding the server it is built with, subclass registering": (
        {
            "app/base.py": """\
                class Tools:
                    def __init__(self, mcp_server) -> None:
                        self._mcp = mcp_server

                    def register_tools(self) -> None:
                        raise NotImplementedError
            """,
            "app/weather.py": resolver_module(
                """\
                class WeatherTools(Tools):
                    def register_tools(self) -> None:
                        @self._mcp.tool()
                        def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                            return d
                """,
                imports="from app.base import Tools\n",
            ),
            "app/main.py": entry_point(
                "from app.weather import WeatherTools", "WeatherTools(mcp).register_tools()"
            ),
        },
        "import app.main",
        "app/weather.py",
    ),
    "a registrar object handing the server it holds to a module's helper": (
        {
            "app/search.py": resolver_module(_helper("register_tools")),
            "app/registrar.py": """\
                from app import search


                class ToolsRegister:
                    def __init__(self, mcp) -> None:
                        self.mcp = mcp

                    def register(self) -> None:
                        search.register_tools(self.mcp)
            """,
            "app/main.py": entry_point(
                "from app.registrar import ToolsRegister", "ToolsRegister(mcp).register()"
            ),
        },
        "import app.main",
        "app/search.py",
    ),
    "register_tools(mcp) importing its helpers in its body": (
        {
            "app/tools/__init__.py": """\
                def register_tools(mcp) -> None:
                    from app.tools.files import register_file_tools

                    register_file_tools(mcp)
            """,
            "app/tools/files.py": resolver_module(_helper("register_file_tools")),
            "app/main.py": entry_point("from app.tools import register_tools", "register_tools(mcp)"),
        },
        "import app.main",
        "app/tools/files.py",
    ),
    "the server handed to the helper by keyword": (
        {
            "app/tools.py": resolver_module(_helper()),
            "app/main.py": entry_point("from app import tools", "tools.register(mcp=mcp)"),
        },
        "import app.main",
        "app/tools.py",
    ),
    "a classmethod register(cls, mcp) called on the class": (
        {
            "app/weather.py": resolver_module(
                """\
                class Weather:
                    @classmethod
                    def register(cls, mcp) -> None:
                        @mcp.tool()
                        def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                            return d
                """
            ),
            "app/main.py": entry_point("from app.weather import Weather", "Weather.register(mcp)"),
        },
        "import app.main",
        "app/weather.py",
    ),
    "a server subclass adding its own methods as tools": (
        {
            "app/server.py": resolver_module(
                """\
                class WeatherServer(MCPServer):
                    def __init__(self) -> None:
                        super().__init__("x")
                        self.add_tool(self.forecast)

                    def forecast(self, x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                        return d
                """,
                imports="from mcp.server import MCPServer\n",
            ),
            "app/main.py": "from app.server import WeatherServer\n\nserver = WeatherServer()\n",
        },
        "import app.main",
        "app/server.py",
    ),
    "an async main building the server and calling the helper": (
        {
            "app/tools.py": resolver_module(_helper()),
            "app/main.py": """\
                import asyncio

                from mcp.server import MCPServer

                from app.tools import register


                async def main() -> None:
                    mcp = MCPServer("x")
                    register(mcp)


                if __name__ == "__main__":
                    asyncio.run(main())
            """,
        },
        "import runpy\nrunpy.run_module('app.main', run_name='__main__')",
        "app/tools.py",
    ),
    "modules found by pkgutil, each one's register(mcp) called": (
        {
            "app/tools/__init__.py": """\
                import importlib
                import pkgutil


                def register_all(mcp) -> None:
                    for info in pkgutil.iter_modules(__path__):
                        module = importlib.import_module(f"{__name__}.{info.name}")
                        module.register(mcp)
            """,
            "app/tools/weather.py": resolver_module(_helper()),
            "app/main.py": entry_point("from app.tools import register_all", "register_all(mcp)"),
        },
        "import app.main",
        "app/tools/weather.py",
    ),
    "a tool kit registering its bound methods in __init__ on the server it is given": (
        {
            "app/weather.py": resolver_module(
                """\
                class WeatherTools:
                    def __init__(self, mcp) -> None:
                        mcp.tool()(self.forecast)

                    def forecast(self, x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                        return d
                """
            ),
            "app/main.py": entry_point("from app.weather import WeatherTools", "WeatherTools(mcp)"),
        },
        "import app.main",
        "app/weather.py",
    ),
    "a helper imported and called only when a setting enables it": (
        {
            "app/tools.py": resolver_module(_helper()),
            "app/main.py": entry_point(
                "import os",
                'if os.environ.get("FEATURE", "1") == "1":\n        from app.tools import register\n\n        register(mcp)',
            ),
        },
        "import app.main",
        "app/tools.py",
    ),
    "a tool-kit subclass whose own __init__ hands the server to super().__init__": (
        {
            "app/base.py": """\
                class Tools:
                    def __init__(self, mcp_server) -> None:
                        self._mcp = mcp_server

                    def register_tools(self) -> None:
                        raise NotImplementedError
            """,
            "app/weather.py": resolver_module(
                """\
                class WeatherTools(Tools):
                    def __init__(self, mcp, units: str) -> None:
                        super().__init__(mcp)
                        self.units = units

                    def register_tools(self) -> None:
                        @self._mcp.tool()
                        def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                            return d
                """,
                imports="from app.base import Tools\n",
            ),
            "app/main.py": entry_point(
                "from app.weather import WeatherTools", 'WeatherTools(mcp, "metric").register_tools()'
            ),
        },
        "import app.main",
        "app/weather.py",
    ),
    "a Depends() function of the project returning Resolve": (
        {
            "app/deps.py": resolver_module(
                """\
                def Depends(fn):  # noqa: N802
                    return Resolve(fn)
                """
            ),
            "app/tools.py": DEPENDS_TOOL,
        },
        "import app.tools",
        "app/deps.py",
    ),
    "a package __init__ calling its modules' helpers on the server it imports": (
        {
            "app/server.py": 'from mcp.server import MCPServer\n\nmcp = MCPServer("x")\n',
            "app/tools/__init__.py": """\
                from app.server import mcp

                from .weather import register as register_weather

                register_weather(mcp)
            """,
            "app/tools/weather.py": resolver_module(_helper()),
            "app/main.py": "import app.tools  # noqa: F401\n",
        },
        "import app.main",
        "app/tools/weather.py",
    ),
    "modules named in a tuple, imported by importlib, each one's register(mcp) called": (
        {
            "app/tools/__init__.py": "",
            "app/tools/weather.py": resolver_module(_helper()),
            "app/main.py": entry_point(
                "import importlib",
                'for name in ("weather",):\n        importlib.import_module(f"app.tools.{name}").register(mcp)',
            ),
        },
        "import app.main",
        "app/tools/weather.py",
    ),
    "a helper importing the server in its body (no circular import)": (
        {
            "app/server.py": 'from mcp.server import MCPServer\n\nmcp = MCPServer("x")\n',
            "app/tools.py": resolver_module(
                """\
                def register() -> None:
                    from app.server import mcp

                    @mcp.tool()
                    def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                        return d
                """
            ),
            "app/main.py": "from app.tools import register\n\nregister()\n",
        },
        "import app.main",
        "app/tools.py",
    ),
    "Depends bound to Resolve in another module": (
        {
            "app/deps.py": resolver_module("Depends = Resolve\n"),
            "app/tools.py": DEPENDS_TOOL,
        },
        "import app.tools",
        "app/deps.py",
    ),
    "registrars in a dict by feature name, the enabled ones called": (
        {
            "app/tools.py": resolver_module(_helper()),
            "app/main.py": entry_point(
                "from app import tools",
                'REGISTRARS = {"weather": tools.register}\n    for feature, registrar in REGISTRARS.items():\n'
                '        if feature in ("weather",):\n            registrar(mcp)',
            ),
        },
        "import app.main",
        "app/tools.py",
    ),
    "a server built and given to the helper under if __name__ == '__main__'": (
        {
            "app/tools.py": resolver_module(_helper()),
            "app/main.py": """\
                from mcp.server import MCPServer

                from app.tools import register

                if __name__ == "__main__":
                    mcp = MCPServer("x")
                    register(mcp)
            """,
        },
        "import runpy\nrunpy.run_module('app.main', run_name='__main__')",
        "app/tools.py",
    ),
    "a tool-kit base class whose __init__ calls the register method subclasses define": (
        {
            "app/base.py": """\
                class Tools:
                    def __init__(self, mcp) -> None:
                        self.mcp = mcp
                        self.register_tools()

                    def register_tools(self) -> None:
                        raise NotImplementedError
            """,
            "app/weather.py": resolver_module(
                """\
                class WeatherTools(Tools):
                    def register_tools(self) -> None:
                        @self.mcp.tool()
                        def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                            return d
                """,
                imports="from app.base import Tools\n",
            ),
            "app/main.py": entry_point("from app.weather import WeatherTools", "WeatherTools(mcp)"),
        },
        "import app.main",
        "app/weather.py",
    ),
    "a tool-kit subclass of a dataclass declaring the server field": (
        {
            "app/base.py": """\
                from dataclasses import dataclass

                from mcp.server import MCPServer


                @dataclass
                class Tools:
                    mcp: MCPServer
            """,
            "app/weather.py": resolver_module(
                """\
                class WeatherTools(Tools):
                    def register_tools(self) -> None:
                        @self.mcp.tool()
                        def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                            return d
                """,
                imports="from app.base import Tools\n",
            ),
            "app/main.py": entry_point(
                "from app.weather import WeatherTools", "WeatherTools(mcp).register_tools()"
            ),
        },
        "import app.main",
        "app/weather.py",
    ),
    "a property returning the server the object holds": (
        {
            "app/weather.py": resolver_module(
                """\
                class WeatherTools:
                    def __init__(self, mcp) -> None:
                        self._mcp = mcp

                    @property
                    def mcp(self):
                        return self._mcp

                    def register_tools(self) -> None:
                        @self.mcp.tool()
                        def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                            return d
                """
            ),
            "app/main.py": entry_point(
                "from app.weather import WeatherTools", "WeatherTools(mcp).register_tools()"
            ),
        },
        "import app.main",
        "app/weather.py",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_lint_reports_what_the_sdk_refuses_and_accepts_what_it_accepts(tmp_path: Path, case: str) -> None:
    check_both_ways(tmp_path, *CASES[case])


@pytest.mark.parametrize("same", [False, True])
def test_tool_kit_subclasses_register_on_the_server_each_was_built_with(tmp_path: Path, same: bool) -> None:
    """`self._mcp` stored by the base's `__init__` is, in a subclass's method, what that
    subclass was built with: two kits given two servers register no duplicate `t`; given one,
    the second is the duplicate the SDK drops (MCPD110), as it logs."""
    kit = """\
        from app.base import Tools


        class {0}Tools(Tools):
            def register_tools(self) -> None:
                @self._mcp.tool()
                def t(x: int) -> str:
                    return "{0}"
    """
    files = {
        "app/base.py": "class Tools:\n    def __init__(self, mcp_server) -> None:\n        self._mcp = mcp_server\n",
        "app/a.py": kit.format("A"),
        "app/b.py": kit.format("B"),
        "app/main.py": entry_point(
            "from app.a import ATools\n    from app.b import BTools",
            f'two = MCPServer("y")\n    ATools(mcp).register_tools()\n    BTools({"mcp" if same else "two"}).register_tools()',
        ),
    }
    write_files(tmp_path, {**PROJECT, **files})
    ran = sdk(tmp_path, "import app.main")
    assert ran.returncode == 0 and ("Tool already exists: t" in ran.stderr) is same, ran.stderr
    found = [(d["code"], d["path"]) for d in lint_diagnostics(tmp_path, "--no-cache", ".")]
    assert found == ([("MCPD110", "app/b.py")] if same else [])


test_the_editor_reports_what_lint_dot_reports = published_shapes.editor_test(CASES)
