"""A server written for mcp 1.x (`from mcp.server.fastmcp import FastMCP`) is said, not passed.

Most servers published so far are written for mcp 1.x. Under mcp 2 (the SDK mcpdeps checks)
`mcp.server.fastmcp` is gone: importing the server fails with `ModuleNotFoundError` and no
tool is registered. lint said "All checks passed! 0 servers, 0 tools" on such a server, which
reads as a clean bill of health; only a helper handed such a server said anything. Now each
tool registered on mcp 1.x's `FastMCP` is reported (MCPD113, info: not analysed), with the way
on: `mcpdeps migrate`, after which the same server is analysed like any other.

Each case is imported under the real `mcp` (`oracle/sdk_verdicts.judge_case`): it fails to
import, as the message says. `lint .` and `lint FILE` (as pre-commit passes it) say the same.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import write_files
from mcpdeps.lint_rules import lint
from mcpdeps.lint_rules.migration import migrate_text
from oracle.sdk_verdicts import judge_case

SERVER = 'from mcp.server.fastmcp import Context, FastMCP\n\nmcp = FastMCP("weather")\n\n\n'

MESSAGE = (
    "tool {tool!r} not analysed: `{server}` is mcp 1.x's `FastMCP`, which mcp 2 removed "
    "(`mcpdeps migrate` moves it to `MCPServer`)"
)

CASES: dict[str, tuple[dict[str, str], list[tuple[str, int, str, str]]]] = {
    "decorated tools": (
        {
            "server.py": SERVER
            + "@mcp.tool()\nasync def forecast(city: str, ctx: Context) -> str:\n    return city\n\n\n"
            + '@mcp.tool(name="alerts")\ndef get_alerts(state: str) -> str:\n    return state\n\n\n'
            + '@mcp.prompt()\ndef ask() -> str:\n    return "?"\n\n\n'
            + 'if __name__ == "__main__":\n    mcp.run()\n'
        },
        [("server.py", 6, "forecast", "mcp"), ("server.py", 11, "alerts", "mcp")],
    ),
    "added and applied by a call": (
        {
            "server.py": SERVER
            + "def forecast(city: str) -> str:\n    return city\n\n\n"
            + "def alerts(state: str) -> str:\n    return state\n\n\n"
            + 'mcp.add_tool(forecast)\nmcp.tool(name="get_alerts")(alerts)\n'
        },
        [("server.py", 14, "forecast", "mcp"), ("server.py", 15, "get_alerts", "mcp")],
    ),
    "a factory's server, the module imported under another name": (
        {
            "server.py": "import mcp.server.fastmcp.server as fm\n\n\ndef build():\n"
            + '    app = fm.FastMCP("weather")\n\n    @app.tool()\n    def forecast(city: str) -> str:\n'
            + "        return city\n\n    return app\n"
        },
        [("server.py", 7, "forecast", "app")],
    ),
    "a helper's parameter annotated with it": (
        {
            "server.py": "from mcp.server.fastmcp import FastMCP\n\n\n"
            "def register_tools(mcp_instance: FastMCP | None) -> None:\n"
            '    @mcp_instance.tool(description="Forecast.")\n    def forecast(city: str) -> str:\n'
            '        return city\n\n\nregister_tools(FastMCP("weather"))\n'
        },
        [("server.py", 5, "forecast", "mcp_instance")],
    ),
    "a project subclass of it": (
        {
            "server.py": "from mcp.server.fastmcp import FastMCP\n\n\nclass MetaMCP(FastMCP):\n    pass\n\n\n"
            'mcp = MetaMCP("weather")\n\n\n@mcp.tool()\ndef forecast(city: str) -> str:\n    return city\n'
        },
        [("server.py", 11, "forecast", "mcp")],
    ),
    "tools in a module importing the server": (
        {
            "server.py": SERVER + "import tools  # noqa: E402, F401\n",
            "tools.py": "from server import mcp\n\n\n@mcp.tool()\ndef forecast(city: str) -> str:\n"
            "    return city\n",
        },
        [("tools.py", 4, "forecast", "mcp")],
    ),
}


@pytest.mark.parametrize("case", CASES)
def test_each_tool_on_an_mcp1_server_is_said_not_analysed(case: str, tmp_path: Path) -> None:
    files, expected = CASES[case]
    write_files(tmp_path, files)
    verdict = judge_case(tmp_path)
    assert verdict["import_error"] is not None and "ModuleNotFoundError" in verdict["import_error"]
    assert verdict["tools"] == []
    want = [
        (path, line, "MCPD113", MESSAGE.format(tool=tool, server=server))
        for path, line, tool, server in expected
    ]
    for given in (".", *files):
        found = [
            (Path(d.path).name, d.line, d.code, d.message)
            for d in lint([tmp_path / given], cwd=tmp_path).diagnostics
        ]
        shown = {path for path, *_ in want} if given == "." else {given}
        assert found == [w for w in want if w[0] in shown]


def test_after_migrate_the_server_is_analysed(tmp_path: Path) -> None:
    files, _ = CASES["decorated tools"]
    write_files(tmp_path, {"server.py": migrate_text(files["server.py"]).text})
    verdict = judge_case(tmp_path)
    assert verdict["import_error"] is None
    assert sorted(t["tool"] for t in verdict["tools"]) == ["alerts", "forecast"]
    result = lint([tmp_path], cwd=tmp_path)
    assert (result.diagnostics, result.servers, result.tools) == ([], 1, 2)


NOT_MCP1 = {
    "the standalone fastmcp package": "from fastmcp import FastMCP\n\nmcp = FastMCP('s')\n\n\n"
    "@mcp.tool()\ndef ping(x: str) -> str:\n    return x\n",
    "a project class named FastMCP": "class FastMCP:\n    def tool(self):\n        return lambda f: f\n\n\n"
    "mcp = FastMCP()\n\n\n@mcp.tool()\ndef ping(x: str) -> str:\n    return x\n",
}


@pytest.mark.parametrize("case", NOT_MCP1)
def test_other_servers_named_fastmcp_are_left_alone(case: str, tmp_path: Path) -> None:
    write_files(tmp_path, {"server.py": NOT_MCP1[case]})
    assert lint([tmp_path], cwd=tmp_path).diagnostics == []
