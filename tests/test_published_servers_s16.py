"""Whole published servers (s16): the structure of real Python MCP servers (layout, how tools
are registered, how db clients / the current user / settings / confirmations reach the tools)
rebuilt in the 2.3 API with resolvers, each in a valid twin and a twin with one planted
mistake, checked against the SDK started the way the author starts it
(`published_servers.Server`). The repositories named are where the structure was learnt; no
code of theirs is here.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from published_servers import Server, check_each_file_alone, check_planted_twin, check_valid_twin
from published_shapes import with_known_gaps

HEAD = "from typing import Annotated\n\nfrom mcp.server.mcpserver import Context, Resolve\n"


def mod(body: str, head: str = HEAD) -> str:
    """A module: `head` (the imports resolvers need), then `body` dedented."""
    return head + textwrap.dedent(body)


CASES: dict[str, Server] = {}

# 1. ianrichard/mcp-server: a flat layout (no package), `main.py` binds `mcp` and then imports
#    `tools.register_tools`, which imports each feature's `register_*` lazily inside its body.
#    Planted: a sandbox resolver asks for `base_dir`, which no tool has (R2).
CASES["flat layout, register_tools importing feature registrars lazily"] = Server(
    files={
        "main.py": """\
            from mcp.server import MCPServer

            mcp = MCPServer("demo")

            from tools import register_tools  # noqa: E402

            register_tools(mcp)
            """,
        "tools/__init__.py": """\
            def register_tools(mcp) -> None:
                from .file_tools import register_file_tools
                from .math_tools import register_math_tools

                register_file_tools(mcp)
                register_math_tools(mcp)
            """,
        "tools/sandbox.py": """\
            from pathlib import Path


            def sandbox_root(path: str) -> Path:
                return Path("/srv/files") / path
            """,
        "tools/file_tools.py": mod("""\
            from pathlib import Path

            from .sandbox import sandbox_root


            def register_file_tools(mcp) -> None:
                @mcp.tool()
                def read_file(path: str, where: Annotated[Path, Resolve(sandbox_root)]) -> str:
                    return str(where)
            """),
        "tools/math_tools.py": """\
            def register_math_tools(mcp) -> None:
                @mcp.tool()
                def add(a: int, b: int) -> int:
                    return a + b
            """,
    },
    start="import main\nserver = main.mcp",
    planted=("tools/sandbox.py", "def sandbox_root(path: str)", "def sandbox_root(base_dir: str)"),
    expected=[("tools/sandbox.py", "MCPD002")],
    refused="Resolver 'sandbox_root' parameter 'base_dir'",
    read_from="ianrichard/mcp-server",
)

# 2. jatindera/agentic-ai-video-ad-generator: `create_mcp_server()` builds the server and calls
#    `routes.register_tools(mcp)`, which `add_tool`s functions from `app/tools/*`; two search
#    providers both name their function `search`. Planted: the second one registered without
#    `name=` (dropped by the SDK as a duplicate).
CASES["factory calling routes.register_tools, add_tool of same-named functions"] = Server(
    files={
        "app/__init__.py": "",
        "app/deps.py": """\
            class Http:
                def __init__(self, base: str) -> None:
                    self.base = base


            def http_client() -> Http:
                return Http("https://example.invalid")
            """,
        "app/tools/__init__.py": "",
        "app/tools/google.py": mod("""\
            from app.deps import Http, http_client


            def search(query: str, http: Annotated[Http, Resolve(http_client)]) -> str:
                return http.base + query
            """),
        "app/tools/bing.py": mod("""\
            from app.deps import Http, http_client


            def search(query: str, http: Annotated[Http, Resolve(http_client)]) -> str:
                return http.base + "/bing?" + query
            """),
        "app/server/__init__.py": "",
        "app/server/routes.py": """\
            from app.tools import bing, google


            def register_tools(mcp) -> None:
                mcp.add_tool(google.search)
                mcp.add_tool(bing.search, name="bing_search")
            """,
        "app/server/mcp_server.py": """\
            from mcp.server import MCPServer

            from app.server.routes import register_tools


            def create_mcp_server() -> MCPServer:
                mcp = MCPServer("ads")
                register_tools(mcp)
                return mcp
            """,
    },
    start="from app.server.mcp_server import create_mcp_server\nserver = create_mcp_server()",
    planted=(
        "app/server/routes.py",
        'mcp.add_tool(bing.search, name="bing_search")',
        "mcp.add_tool(bing.search)",
    ),
    expected=[("app/server/routes.py", "MCPD110")],
    dropped=True,
    read_from="jatindera/agentic-ai-video-ad-generator",
)

# 3. leaninnovationlabs/dmcp: a class owns its server (`self.mcp = MCPServer(...)`) and
#    registers its own bound methods in `_register_tools`. Planted: the helper the tool resolves
#    is written as a method beside it, so the annotation (evaluated in the class body) holds the
#    plain function and its `self` is unclassifiable (R2).
CASES["class owning its server, registering bound methods"] = Server(
    files={
        "app/__init__.py": "",
        "app/units.py": """\
            def units(city: str) -> str:
                return "imperial" if city.endswith("US") else "metric"
            """,
        "app/server.py": mod("""\
            from mcp.server import MCPServer

            from app.units import units


            class WeatherServer:
                def __init__(self, name: str) -> None:
                    self.mcp = MCPServer(name)
                    self._register_tools()

                def _register_tools(self) -> None:
                    self.mcp.add_tool(self.forecast)
                    self.mcp.tool()(self.hello)

                def forecast(self, city: str, unit: Annotated[str, Resolve(units)]) -> str:
                    return city + " in " + unit

                def hello(self, name: str = "World") -> str:
                    return "Hello, " + name
            """),
    },
    start="from app.server import WeatherServer\nserver = WeatherServer('w').mcp",
    planted=(
        "app/server.py",
        "    def forecast(self",
        "    def units(self, city: str) -> str:\n        return 'metric'\n\n    def forecast(self",
    ),
    expected=[("app/server.py", "MCPD002")],
    refused="Resolver 'units' parameter 'self'",
    read_from="leaninnovationlabs/dmcp",
)


NOT_FOLLOWED: dict[str, str] = {}
"""Cases lint does not yet report as the SDK does, with the reason (strict xfails)."""


@pytest.mark.parametrize("case", sorted(CASES))
def test_sdk_starts_the_valid_twin_and_lint_reports_nothing(tmp_path: Path, case: str) -> None:
    check_valid_twin(tmp_path, CASES[case])


@pytest.mark.parametrize(
    "case", with_known_gaps("planted", sorted(CASES), {("planted", k): v for k, v in NOT_FOLLOWED.items()})
)
def test_sdk_refuses_the_planted_twin_and_lint_reports_it(tmp_path: Path, case: str) -> None:
    check_planted_twin(tmp_path, CASES[case])


@pytest.mark.parametrize("planted", [False, True], ids=["valid", "planted"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_each_file_alone_reports_what_lint_dot_reports(tmp_path: Path, case: str, planted: bool) -> None:
    check_each_file_alone(tmp_path / "p", CASES[case], tmp_path, planted)
