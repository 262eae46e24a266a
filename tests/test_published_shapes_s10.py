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

import pytest
from published_shapes import check_both_ways, resolver_module

TOOL = """\
    @mcp.tool()
    def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
        return d
"""


def _helper(name: str = "register", server: str = "mcp", prefix: str = "") -> str:
    """A `def NAME(SERVER)` helper registering `t` on its parameter (`prefix`: its signature
    before the server, as `config, ` or `*, `)."""
    return (
        f"def {name}({prefix}{server}) -> None:\n    @{server}.tool()\n"
        "    def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n        return d\n"
    )


MAIN = """\
    from mcp.server import MCPServer

    {imports}

    mcp = MCPServer("x")
    {call}
"""


def _main(imports: str, call: str) -> str:
    return MAIN.format(imports=imports, call=call)


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
    "a class building its server in __init__, closures registered in a method": (
        {
            "app/server.py": resolver_module(
                """\
                class WeatherServer:
                    def __init__(self) -> None:
                        self.mcp = MCPServer("x")
                        self._register_tools()

                    def _register_tools(self) -> None:
                        @self.mcp.tool()
                        def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
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
            "app/main.py": _main(
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
            "app/main.py": _main("from app.registrar import ToolsRegister", "ToolsRegister(mcp).register()"),
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
            "app/main.py": _main("from app.tools import register_tools", "register_tools(mcp)"),
        },
        "import app.main",
        "app/tools/files.py",
    ),
    "register_tools(mcp) importing its helpers relatively in its body": (
        {
            "app/tools/__init__.py": """\
                def register_tools(mcp) -> None:
                    from .files import register_file_tools

                    register_file_tools(mcp)
            """,
            "app/tools/files.py": resolver_module(_helper("register_file_tools")),
            "app/main.py": _main("from app.tools import register_tools", "register_tools(mcp)"),
        },
        "import app.main",
        "app/tools/files.py",
    ),
    "the server handed to the helper by keyword": (
        {
            "app/tools.py": resolver_module(_helper()),
            "app/main.py": _main("from app import tools", "tools.register(mcp=mcp)"),
        },
        "import app.main",
        "app/tools.py",
    ),
    "the server handed to a keyword-only parameter after other arguments": (
        {
            "app/tools.py": resolver_module(_helper(prefix="config, *, ")),
            "app/main.py": _main("from app import tools", 'tools.register({"k": 1}, mcp=mcp)'),
        },
        "import app.main",
        "app/tools.py",
    ),
    "the server as the helper's second positional argument": (
        {
            "app/tools.py": resolver_module(_helper(prefix="client, ")),
            "app/main.py": _main("from app import tools", "tools.register(object(), mcp)"),
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
            "app/main.py": _main("from app.weather import Weather", "Weather.register(mcp)"),
        },
        "import app.main",
        "app/weather.py",
    ),
    "a server subclass registering in its own __init__": (
        {
            "app/server.py": resolver_module(
                """\
                class WeatherServer(MCPServer):
                    def __init__(self) -> None:
                        super().__init__("x")

                        @self.tool()
                        def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                            return d
                """,
                imports="from mcp.server import MCPServer\n",
            ),
            "app/main.py": "from app.server import WeatherServer\n\nserver = WeatherServer()\n",
        },
        "import app.main",
        "app/server.py",
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
    "one server bound to two names in one statement": (
        {
            "app/server.py": 'from mcp.server import MCPServer\n\napp = mcp = MCPServer("x")\n',
            "app/tools.py": resolver_module(TOOL, imports="from app.server import mcp\n"),
        },
        "import app.tools",
        "app/tools.py",
    ),
    "tools listed in a dict by name, added in a loop over its items": (
        {
            "app/tools.py": resolver_module(
                """\
                def forecast(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                    return d


                TOOLS = {"forecast": forecast}
                mcp = MCPServer("x")
                for name, fn in TOOLS.items():
                    mcp.add_tool(fn, name=name)
                """,
                imports="from mcp.server import MCPServer\n",
            ),
        },
        "import app.tools",
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
            "app/main.py": _main("from app.tools import register_all", "register_all(mcp)"),
        },
        "import app.main",
        "app/tools/weather.py",
    ),
    "a module-level server None until init() binds it globally, helper called there": (
        {
            "app/tools.py": resolver_module(_helper()),
            "app/main.py": """\
                from mcp.server import MCPServer

                from app.tools import register

                mcp = None


                def init() -> None:
                    global mcp
                    mcp = MCPServer("x")
                    register(mcp)
            """,
        },
        "import app.main\napp.main.init()",
        "app/tools.py",
    ),
    "a tool kit holding the server it is built with, registering in a method": (
        {
            "app/weather.py": resolver_module(
                """\
                class WeatherTools:
                    def __init__(self, mcp_server) -> None:
                        self._mcp = mcp_server

                    def register_tools(self) -> None:
                        @self._mcp.tool()
                        def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                            return d
                """
            ),
            "app/main.py": _main(
                "from app.weather import WeatherTools", "WeatherTools(mcp).register_tools()"
            ),
        },
        "import app.main",
        "app/weather.py",
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
            "app/main.py": _main("from app.weather import WeatherTools", "WeatherTools(mcp)"),
        },
        "import app.main",
        "app/weather.py",
    ),
    "module functions added as tools by attribute, in a loop over a tuple": (
        {
            "app/tools.py": resolver_module(
                """\
                def forecast(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                    return d
                """
            ),
            "app/main.py": _main(
                "from app import tools", "for fn in (tools.forecast,):\n        mcp.add_tool(fn)"
            ),
        },
        "import app.main",
        "app/tools.py",
    ),
    "a service instance's bound method added as a tool": (
        {
            "app/service.py": resolver_module(
                """\
                class Service:
                    def forecast(self, x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                        return d
                """
            ),
            "app/main.py": _main(
                "from app.service import Service", "service = Service()\n    mcp.add_tool(service.forecast)"
            ),
        },
        "import app.main",
        "app/service.py",
    ),
    "a class's staticmethods registered by the SDK's decorator in the class body": (
        {
            "app/server.py": 'from mcp.server import MCPServer\n\nmcp = MCPServer("x")\n',
            "app/tools.py": resolver_module(
                """\
                class WeatherTools:
                    @mcp.tool()
                    @staticmethod
                    def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                        return d
                """,
                imports="from app.server import mcp\n",
            ),
        },
        "import app.tools",
        "app/tools.py",
    ),
    "a helper imported and called only when a setting enables it": (
        {
            "app/tools.py": resolver_module(_helper()),
            "app/main.py": _main(
                "import os",
                'if os.environ.get("FEATURE", "1") == "1":\n        from app.tools import register\n\n        register(mcp)',
            ),
        },
        "import app.main",
        "app/tools.py",
    ),
    "an optional helper imported in try/except ImportError, called in else": (
        {
            "app/tools.py": resolver_module(_helper()),
            "app/main.py": _main(
                "",
                "try:\n        from app.tools import register\n    except ImportError:\n        pass\n    else:\n        register(mcp)",
            ),
        },
        "import app.main",
        "app/tools.py",
    ),
    "tool-kit subclasses built in a loop over the classes": (
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
            "app/main.py": _main(
                "from app.weather import WeatherTools",
                "for kit in (WeatherTools,):\n        kit(mcp).register_tools()",
            ),
        },
        "import app.main",
        "app/weather.py",
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
            "app/main.py": _main(
                "from app.weather import WeatherTools", 'WeatherTools(mcp, "metric").register_tools()'
            ),
        },
        "import app.main",
        "app/weather.py",
    ),
    "a subclass of a tool-kit subclass": (
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
            "app/local.py": "from app.weather import WeatherTools\n\n\nclass LocalWeather(WeatherTools):\n    pass\n",
            "app/main.py": _main("from app.local import LocalWeather", "LocalWeather(mcp).register_tools()"),
        },
        "import app.main",
        "app/weather.py",
    ),
    "a dependency alias of another module (Db = Annotated[str, Resolve(load_d)])": (
        {
            "app/deps.py": resolver_module("Db = Annotated[str, Resolve(load_d)]\n"),
            "app/tools.py": """\
                from mcp.server import MCPServer

                from app.deps import Db

                mcp = MCPServer("x")


                @mcp.tool()
                def t(x: int, d: Db) -> str:
                    return d
            """,
        },
        "import app.tools",
        "app/deps.py",
    ),
    "a Depends() function of the project returning Resolve": (
        {
            "app/deps.py": resolver_module(
                """\
                def Depends(fn):  # noqa: N802
                    return Resolve(fn)
                """
            ),
            "app/tools.py": """\
                from typing import Annotated

                from mcp.server import MCPServer

                from app.deps import Depends, load_d

                mcp = MCPServer("x")


                @mcp.tool()
                def t(x: int, d: Annotated[str, Depends(load_d)]) -> str:
                    return d
            """,
        },
        "import app.tools",
        "app/deps.py",
    ),
    "the server bound in the package __init__, tools importing it relatively": (
        {
            "app/__init__.py": 'from mcp.server import MCPServer\n\nmcp = MCPServer("x")\n',
            "app/tools.py": resolver_module(TOOL, imports="from . import mcp\n"),
            "app/main.py": "import app.tools  # noqa: F401\nfrom app import mcp\n",
        },
        "import app.main",
        "app/tools.py",
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
            "app/main.py": _main(
                "import importlib",
                'for name in ("weather",):\n        importlib.import_module(f"app.tools.{name}").register(mcp)',
            ),
        },
        "import app.main",
        "app/tools/weather.py",
    ),
    "a helper registering through an inner function it calls": (
        {
            "app/tools.py": resolver_module(
                """\
                def register(mcp) -> None:
                    def _weather() -> None:
                        @mcp.tool()
                        def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                            return d

                    _weather()
                """
            ),
            "app/main.py": _main("from app.tools import register", "register(mcp)"),
        },
        "import app.main",
        "app/tools.py",
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
    "a cached getter of the server, its result bound to a name": (
        {
            "app/server.py": """\
                from functools import lru_cache

                from mcp.server import MCPServer


                @lru_cache
                def get_server() -> MCPServer:
                    return MCPServer("x")
            """,
            "app/tools.py": resolver_module(
                TOOL, imports="from app.server import get_server\n\nmcp = get_server()\n"
            ),
        },
        "import app.tools",
        "app/tools.py",
    ),
    "a factory classmethod building the server": (
        {
            "app/server.py": """\
                from mcp.server import MCPServer


                class ServerFactory:
                    @classmethod
                    def create(cls) -> MCPServer:
                        return MCPServer("x")
            """,
            "app/tools.py": resolver_module(
                TOOL, imports="from app.server import ServerFactory\n\nmcp = ServerFactory.create()\n"
            ),
        },
        "import app.tools",
        "app/tools.py",
    ),
    "Depends bound to Resolve in another module": (
        {
            "app/deps.py": resolver_module("Depends = Resolve\n"),
            "app/tools.py": """\
                from typing import Annotated

                from mcp.server import MCPServer

                from app.deps import Depends, load_d

                mcp = MCPServer("x")


                @mcp.tool()
                def t(x: int, d: Annotated[str, Depends(load_d)]) -> str:
                    return d
            """,
        },
        "import app.tools",
        "app/deps.py",
    ),
}

NOT_FOLLOWED: dict[str, str] = {}
"""Shapes the SDK refuses that lint does not follow yet (the report to the lead says why)."""


@pytest.mark.parametrize(
    "case",
    [
        pytest.param(case, marks=pytest.mark.xfail(strict=True, reason=NOT_FOLLOWED[case]))
        if case in NOT_FOLLOWED
        else case
        for case in sorted(CASES)
    ],
)
def test_lint_reports_what_the_sdk_refuses_and_accepts_what_it_accepts(tmp_path: Path, case: str) -> None:
    check_both_ways(tmp_path, *CASES[case])
