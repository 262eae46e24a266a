"""The tools of an `Apps` extension, registered by the server given it (`extensions=[apps]`).

mcp 2's `Apps` keeps the functions `@apps.tool(resource_uri=...)` decorates, and the server
constructed with it registers them then, in order (`extension_tools.py`). lint saw no tool
there ("1 server, 0 tools"), so a refused parameter passed unreported and the server did not
start.

Each case is imported under the real `mcp` (`oracle/sdk_verdicts.judge_case`); `lint .` and
`lint server.py` must report what it refuses or logs, and nothing else.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import write_files
from mcpdeps.lint_rules import lint
from oracle.sdk_verdicts import judge_case
from published_shapes import lint_and_the_sdk_agree, the_editor_reports_what_lint_dot_reports

HEAD = "from mcp.server.apps import Apps\nfrom mcp.server.mcpserver import MCPServer\n\napps = Apps()\n\n"

CLOCK = '\n@apps.tool(resource_uri="ui://clock/app.html"{options})\ndef get_time({param}: str) -> str:\n    return {param}\n\n'

RESOURCE = '\napps.add_html_resource("ui://clock/app.html", "<p>clock</p>", title="Clock")\n'

SERVER = 'mcp = MCPServer("clock", extensions=[apps])\n'

CASES: dict[str, tuple[str, list[str], list[str]]] = {
    "a tool the SDK refuses": (
        HEAD + CLOCK.format(options="", param="_tz") + RESOURCE + SERVER,
        ["get_time"],
        ["MCPD006"],
    ),
    "under a name": (
        HEAD + CLOCK.format(options=', name="clock"', param="tz") + RESOURCE + SERVER,
        ["clock"],
        [],
    ),
    "decorated after the server is made: never registered": (
        HEAD + RESOURCE + SERVER + CLOCK.format(options="", param="_tz"),
        [],
        [],
    ),
    "a server tool of the same name, registered after": (
        HEAD
        + CLOCK.format(options="", param="tz")
        + RESOURCE
        + SERVER
        + "\n\n@mcp.tool()\ndef get_time(zone: str) -> str:\n    return zone\n",
        ["get_time", "get_time"],
        ["MCPD110"],
    ),
}

REFUSED_AT_START = {
    "a resource_uri no resource serves": HEAD + CLOCK.format(options="", param="_tz") + SERVER,
    "a resource_uri not under ui://": (
        HEAD + CLOCK.format(options="", param="_tz") + RESOURCE + SERVER
    ).replace('resource_uri="ui://clock/app.html"', 'resource_uri="https://clock/app.html"'),
}


@pytest.mark.parametrize("case", REFUSED_AT_START)
def test_no_tool_when_apps_refuses_the_server(case: str, tmp_path: Path) -> None:
    """`Apps` raises `ValueError` (at the decoration, or when the server takes it): the server
    registers none of its tools, and lint judges none (no code names the error itself)."""
    write_files(tmp_path, {"server.py": REFUSED_AT_START[case]})
    verdict = judge_case(tmp_path)
    assert verdict["import_error"] is not None and "ValueError" in verdict["import_error"]
    assert verdict["tools"] == []
    for target in (tmp_path, tmp_path / "server.py"):
        result = lint([target], cwd=tmp_path)
        assert (result.diagnostics, result.tools) == ([], 0)


@pytest.mark.parametrize("case", CASES)
def test_the_server_registers_its_extension_tools(case: str, tmp_path: Path) -> None:
    text, tools, expected = CASES[case]
    write_files(tmp_path, {"server.py": text})
    lint_and_the_sdk_agree(tmp_path, tools, expected)


def test_the_editor_reports_what_lint_reports(tmp_path: Path) -> None:
    """`mcpdeps lsp`'s model, the refused parameter renamed in unsaved text and back."""
    write_files(tmp_path, {"server.py": CASES["a tool the SDK refuses"][0]})
    the_editor_reports_what_lint_dot_reports(tmp_path, "server.py", ("_tz", "tz"))
