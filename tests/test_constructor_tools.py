"""Tools handed to the server's constructor, `MCPServer("x", tools=[Tool.from_function(fn, ...)])`,
checked against the SDK.

`Tool.from_function` builds the tool as `add_tool` does and refuses the same resolvers, where
the list is written; the server then holds those tools before any registered later. Each case
runs the server under the real SDK; lint must report what it refuses (`lint .` and the file
alone), accept the clean twin, and `graph` must show the tools `graph --live` shows. A list
lint cannot read is said (MCPD113), not guessed.
"""

from __future__ import annotations

import json
from pathlib import Path

from conftest import lint_diagnostics, run_mcpdeps, write_files
from published_shapes import (
    PROJECT,
    check_both_ways,
    duplicates_logged,
    each_file_alone_reports_what_lint_dot_reports,
    resolver_module,
)

IMPORTS = "from mcp.server import MCPServer\nfrom mcp.server.mcpserver.tools import Tool\n"

TOOLS = """\
def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
    return d


def u(x: int) -> str:
    return str(x)


"""
"""`t` runs `load_d`, the resolver the SDK refuses; `u` is fine."""


def _main(constructed: str, after: str = "") -> dict[str, str]:
    return {"app/main.py": resolver_module(TOOLS + constructed + after, imports=IMPORTS)}


LISTED = (
    'mcp = MCPServer("x", tools=[Tool.from_function(t, name="t"), Tool.from_function(u, description="u")])\n'
)


def test_a_listed_tool_is_refused_as_add_tool_refuses_it(tmp_path: Path) -> None:
    check_both_ways(tmp_path, _main(LISTED), "import app.main", "app/main.py")


def test_graph_shows_the_listed_tools_the_sdk_holds(tmp_path: Path) -> None:
    files = _main(
        'mcp = MCPServer("x", tools=[Tool.from_function(t, "renamed", title="T"), Tool.from_function(u)])\n'
    )
    assert _graphs_agree(tmp_path, files, "app/main.py") == ["renamed", "u"]


def _graphs_agree(root: Path, files: dict[str, str], spec: str) -> list[str]:
    """The names of the tools of the one server `graph SPEC` shows, once it is checked to show
    what `graph --live SPEC` shows (the project made clean: it starts under the SDK)."""
    write_files(root, {**PROJECT, **files})
    (root / "app/main.py").write_text((root / "app/main.py").read_text().replace("nope", "x"))
    static = run_mcpdeps("graph", "--format", "json", spec, cwd=root)
    live = run_mcpdeps("graph", "--format", "json", "--live", spec, cwd=root)
    assert static.returncode == live.returncode == 0, static.stderr + live.stderr
    assert json.loads(static.stdout) == json.loads(live.stdout)
    [server] = json.loads(static.stdout)["servers"]
    return [t["name"] for t in server["tools"]]


def test_a_name_registered_again_after_the_constructor_is_a_duplicate(tmp_path: Path) -> None:
    after = '\n\n@mcp.tool(name="u")\ndef v(x: int) -> str:\n    return "again"\n'
    write_files(tmp_path, {**PROJECT, **_main(LISTED.replace("t, name", "u, name"), after)})
    assert duplicates_logged(tmp_path, {}) == ["Tool already exists: u"]
    found = [(d["code"], d["line"]) for d in lint_diagnostics(tmp_path, "--no-cache", ".")]
    assert found == [("MCPD110", 23)]


def test_a_list_lint_cannot_read_is_said(tmp_path: Path) -> None:
    """`tools=TOOLS` and a `Tool` not built by `from_function` in the call: MCPD113 there,
    while the `from_function` calls written out beside them are still checked."""
    constructed = (
        "TOOLS = [Tool.from_function(u)]\n"
        'a = MCPServer("a", tools=TOOLS)\n'
        'b = MCPServer("b", tools=[TOOLS[0], Tool.from_function(t)])\n'
    )
    write_files(tmp_path, {**PROJECT, **_main(constructed)})
    found = sorted((d["code"], d["line"]) for d in lint_diagnostics(tmp_path, "--no-cache", "."))
    assert found == [("MCPD002", 8), ("MCPD113", 21), ("MCPD113", 22)]


def test_a_name_listed_twice_keeps_the_later_tool(tmp_path: Path) -> None:
    """`tools=[Tool.from_function(t, name="x"), Tool.from_function(u, name="x")]`: the SDK's
    `ToolManager` fills its dict in list order, so `u` replaces `t` where `t` was (where
    `add_tool` keeps the first) and logs the duplicate: `t` is the one never called. `graph`
    shows what `graph --live` shows, and MCPD110 is at `t`'s entry, naming `t`."""
    main = (
        "from mcp.server import MCPServer\nfrom mcp.server.mcpserver.tools import Tool\n\n\n"
        'def t(x: int) -> str:\n    return "t"\n\n\ndef u(y: str) -> str:\n    return "u"\n\n\n'
        'def w(z: int) -> str:\n    return "w"\n\n\n'
        'mcp = MCPServer(\n    "x",\n    tools=[\n        Tool.from_function(t, name="x"),\n'
        "        Tool.from_function(w),\n"
        '        Tool.from_function(u, name="x"),\n    ],\n)\n'
    )
    write_files(tmp_path, {**PROJECT, "app/main.py": main})
    assert duplicates_logged(tmp_path, {}) == ["Tool already exists: x"]
    static = run_mcpdeps("graph", "--format", "json", "app/main.py", cwd=tmp_path)
    live = run_mcpdeps("graph", "--format", "json", "--live", "app/main.py", cwd=tmp_path)
    assert static.returncode == live.returncode == 0, static.stderr + live.stderr
    assert json.loads(static.stdout) == json.loads(live.stdout)
    [server] = json.loads(static.stdout)["servers"]
    assert [(t["name"], t["function"]) for t in server["tools"]] == [("x", "u"), ("w", "w")]
    found = lint_diagnostics(tmp_path, "--no-cache", ".")
    assert [(d["code"], d["line"]) for d in found] == [("MCPD110", 20)]
    assert found[0]["message"] == (
        "tool name 'x' is listed twice for server 'mcp': the SDK logs 'Tool already exists: x' "
        "and keeps the later entry ('t' is never called)"
    )
    assert [(r["line"], r["message"]) for r in found[0]["related"]] == [
        (22, "'x' is listed again here (the entry the SDK keeps)")
    ]


RETURNED = 'def build() -> MCPServer:\n    return MCPServer("x", tools=[Tool.from_function(t), Tool.from_function(u)])\n'
"""A factory returning the server it makes with its tools (said as not analysed before)."""


def test_a_factory_returning_a_server_with_its_tools_is_followed(tmp_path: Path) -> None:
    check_both_ways(tmp_path, _main(RETURNED, "\n\nmcp = build()\n"), "import app.main", "app/main.py")


def test_a_factory_in_another_module_is_followed_from_each_file(tmp_path: Path) -> None:
    """The tools in `app/tools.py`, the factory in `app/factory.py`, its call in `app/main.py`:
    `lint .` and each file alone report the refused resolver in `app/tools.py`."""
    files = {
        "app/tools.py": resolver_module(TOOLS),
        "app/factory.py": IMPORTS + "\nfrom app.tools import t, u\n\n\n" + RETURNED,
        "app/main.py": "from app.factory import build\n\nmcp = build()\n",
    }
    check_both_ways(tmp_path, files, "import app.main", "app/tools.py")
    each_file_alone_reports_what_lint_dot_reports(tmp_path, tmp_path / "caches")


def test_graph_shows_the_returned_server_as_graph_live_does(tmp_path: Path) -> None:
    after = '\n\nmcp = build()\n\n\n@mcp.tool()\ndef w(x: int) -> str:\n    return "module"\n'
    assert _graphs_agree(tmp_path, _main(RETURNED, after), "app/main.py:mcp") == ["t", "u", "w"]


def test_a_name_registered_again_on_the_factory_s_result_is_a_duplicate(tmp_path: Path) -> None:
    after = '\n\nmcp = build()\n\n\n@mcp.tool(name="u")\ndef w(x: int) -> str:\n    return "module"\n'
    write_files(tmp_path, {**PROJECT, **_main(RETURNED, after)})
    (tmp_path / "app/main.py").write_text((tmp_path / "app/main.py").read_text().replace("nope", "x"))
    assert duplicates_logged(tmp_path, {}) == ["Tool already exists: u"]
    for given in (".", "app/main.py"):
        found = [
            (d["code"], d["line"], d["message"][:51]) for d in lint_diagnostics(tmp_path, "--no-cache", given)
        ]
        assert found == [("MCPD110", 27, "tool name 'u' is already registered on server 'mcp'")]


def test_a_comprehension_over_listed_functions_registers_each(tmp_path: Path) -> None:
    """`tools=[Tool.from_function(f) for f in ALL_TOOLS]` (a published factory's shape): each
    value of the list registers as `for f in ALL_TOOLS: mcp.add_tool(f)` does, so `t` is
    refused there, and `graph` shows what `graph --live` shows, a filter leaving `u` out."""
    listed = 'ALL_TOOLS = [t, u]\n\nmcp = MCPServer("x", tools=[Tool.from_function(f) for f in ALL_TOOLS])\n'
    check_both_ways(tmp_path / "a", _main(listed), "import app.main", "app/main.py")
    kept = 'mcp = MCPServer("x", tools=[Tool.from_function(f, title="T") for f in (t, u) if f is not u])\n'
    assert _graphs_agree(tmp_path / "b", _main(kept), "app/main.py") == ["t"]


def test_a_comprehension_over_values_not_listed_is_said(tmp_path: Path) -> None:
    constructed = 'mcp = MCPServer("x", tools=[Tool.from_function(f) for f in sorted([t, u], key=id)])\n'
    write_files(tmp_path, {**PROJECT, **_main(constructed)})
    found = sorted((d["code"], d["line"]) for d in lint_diagnostics(tmp_path, "--no-cache", "."))
    assert found == [("MCPD113", 20)]
