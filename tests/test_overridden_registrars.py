"""A server class overriding `tool` with a method that registers through `self.add_tool`.

Published servers subclass `MCPServer` to accept options the SDK's `tool()` does not take
(`meta=`), storing them and registering through `self.add_tool(fn, name=name)` in the
decorator the override returns:

    class MetaServer(MCPServer):
        def tool(self, name=None, *, meta=None):
            def decorator(fn):
                self.add_tool(fn, name=name, meta=meta)
                return fn

            return decorator

The SDK registers each decorated function once, through that `add_tool`. lint counted the
`@mcp.tool()` it is applied with (read through the override) and the registration inside the
override landed on the same def as two, and reported every tool as registered twice
(MCPD110). They are one registration now, read where the `@mcp.tool()` is written
(`tool_function.landed_twice`), so that a file linted alone keeps its tools; an override that
hands the SDK's decorator on (`super().tool(...)`) is read as before.

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

META = """from typing import Any

from mcp.server.mcpserver import MCPServer


class MetaServer(MCPServer):
    def __init__(self, *a: Any, **kw: Any) -> None:
        super().__init__(*a, **kw)
        self.metas: dict[str, Any] = {}

    def add_tool(self, fn: Any, name: str | None = None, *, meta: dict | None = None) -> None:
        if meta is not None:
            self.metas[name or fn.__name__] = meta
        super().add_tool(fn, name=name)

    def tool(self, name: str | None = None, *, meta: dict | None = None) -> Any:
        def decorator(fn: Any) -> Any:
            self.add_tool(fn, name=name, meta=meta)
            return fn

        return decorator


mcp = MetaServer(name="z")

"""

HANDED_ON = """from typing import Any

from mcp.server.mcpserver import MCPServer


class LoggedServer(MCPServer):
    def tool(self, *args: Any, **kwargs: Any) -> Any:
        registers = super().tool(*args, **kwargs)

        def decorator(fn: Any) -> Any:
            return registers(fn)

        return decorator


mcp = LoggedServer(name="z")

"""

PING = "\n@mcp.tool({options})\ndef {name}({param}: int) -> int:\n    return {param}\n"

CASES: dict[str, tuple[str, list[str], list[str]]] = {
    "registered through self.add_tool": (
        META + PING.format(options="", name="ping", param="x"),
        ["ping"],
        [],
    ),
    "with the option the override adds": (
        META + PING.format(options='meta={"a": 1}', name="ping", param="x"),
        ["ping"],
        [],
    ),
    "under a name": (META + PING.format(options='name="pong"', name="ping", param="x"), ["pong"], []),
    "the tool's own error": (META + PING.format(options="", name="ping", param="_x"), ["ping"], ["MCPD006"]),
    "two tools of one name": (
        META
        + PING.format(options='name="p"', name="ping", param="x")
        + "\n"
        + PING.format(options='name="p"', name="pong", param="x"),
        ["p", "p"],
        ["MCPD110"],
    ),
    "an override handing the SDK's decorator on": (
        HANDED_ON + PING.format(options="", name="ping", param="_x"),
        ["ping"],
        ["MCPD006"],
    ),
}


@pytest.mark.parametrize("case", CASES)
def test_each_tool_registers_once_as_the_sdk_does(case: str, tmp_path: Path) -> None:
    text, tools, expected = CASES[case]
    write_files(tmp_path, {"server.py": text})
    lint_and_the_sdk_agree(tmp_path, tools, expected)


def test_the_editor_reports_what_lint_reports(tmp_path: Path) -> None:
    """`mcpdeps lsp`'s model, the refused parameter renamed in unsaved text and back."""
    write_files(tmp_path, {"server.py": CASES["the tool's own error"][0]})
    the_editor_reports_what_lint_dot_reports(tmp_path, "server.py", ("_x", "x"))


def test_the_override_in_another_module_and_the_file_alone(tmp_path: Path) -> None:
    """The server class in `base.py`, the tools in `server.py`: pre-commit passes
    `server.py` alone, and its tools are still checked, once."""
    head, tools = META.split("\n\nmcp = MetaServer", 1)
    write_files(
        tmp_path,
        {
            "base.py": head + "\n",
            "server.py": "from base import MetaServer\n\nmcp = MetaServer"
            + tools
            + PING.format(options="", name="ping", param="x")
            + "\n"
            + PING.format(options="", name="bad", param="_x"),
        },
    )
    verdict = judge_case(tmp_path)
    assert [(t["tool"], t["code"]) for t in verdict["tools"]] == [("ping", None), ("bad", "MCPD006")]
    for target in (tmp_path, tmp_path / "server.py"):
        result = lint([target], cwd=tmp_path)
        assert [(d.code, d.tool) for d in result.diagnostics] == [("MCPD006", "bad")]
        assert result.tools == 2
