"""A factory's own server is the server each of its calls makes, checked against the SDK.

`def build(): server = MCPServer("x"); @server.tool() def t(...); return server` registers `t`
when it is called, on the server the call returns: `mcp = build()` then `@mcp.tool() def t`
is one server, where the SDK logs `Tool already exists: t` and keeps the factory's. Each call
makes its own (two calls, two servers); a factory nothing calls keeps its tools, checked as if
it ran. Every verdict is the SDK's (the server started in a subprocess), and the same from
`lint .`, each file alone (pre-commit), two workers and the language server; `graph` shows
the one server `graph --live` shows.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
import pytest_lsp
from conftest import lint_diagnostics, run_mcpdeps, write_files
from lsp_helpers import SERVER, Docs, lint_json, settle, start
from mcpdeps.lint_rules import lint
from mcpdeps.resolver_core.loading import find_candidates
from published_shapes import (
    PROJECT,
    check_both_ways,
    duplicates_logged,
    each_file_alone_reports_what_lint_dot_reports,
    found,
    resolver_module,
)
from pytest_lsp import LanguageClient

ONE_FILE = textwrap.dedent(
    """\
    from mcp.server import MCPServer


    def build() -> MCPServer:
        server = MCPServer("x")

        @server.tool()
        def t(x: int) -> str:
            return "factory"

        return server


    mcp = build()


    @mcp.tool()
    def t(x: int) -> str:
        return "module"
    """
)
"""The factory registers `t` on its server; the module registers `t` again on the result."""

ACROSS_FILES = {
    "app/tools.py": """\
        def register(mcp):
            @mcp.tool()
            def t(x: int) -> str:
                return "helper"
    """,
    "app/factory.py": """\
        from mcp.server import MCPServer

        from app.tools import register


        def build() -> MCPServer:
            server = MCPServer("x")
            register(server)

            @server.tool()
            def u(x: int) -> str:
                return "factory"

            return server
    """,
    "app/main.py": """\
        from app.factory import build

        mcp = build()
        other = build()


        @mcp.tool()
        def t(x: int) -> str:
            return "module"


        @other.tool(name="u")
        def v(x: int) -> str:
            return "module"
    """,
}
"""The factory's tools (its own `u`, the helper's `t` it hands its server to) in other files
than the calls' results' (`app/main.py`, shown before `app/tools.py`): the SDK registers the
factory's first, whatever the paths."""


def _codes(root: Path, *args: str) -> list[tuple[str, str, int]]:
    return [(d["code"], d["path"], d["line"]) for d in lint_diagnostics(root, "--no-cache", *args)]


def test_a_name_registered_on_a_factory_call_is_a_duplicate_of_the_factory_s(tmp_path: Path) -> None:
    write_files(tmp_path, {**PROJECT, "app/main.py": ONE_FILE})
    assert duplicates_logged(tmp_path, {}) == ["Tool already exists: t"]
    assert _codes(tmp_path, ".") == [("MCPD110", "app/main.py", 17)]
    assert _codes(tmp_path, "app/main.py") == _codes(tmp_path, "-j", "2", ".") == _codes(tmp_path, ".")
    result = lint(["."], cwd=tmp_path)
    assert (result.servers, result.tools) == (1, 1)  # one server, which keeps one `t`


def test_the_factory_s_tools_come_first_wherever_they_are_written(tmp_path: Path) -> None:
    write_files(tmp_path, {**PROJECT, **ACROSS_FILES})
    assert duplicates_logged(tmp_path, {}) == ["Tool already exists: t", "Tool already exists: u"]
    assert _codes(tmp_path, ".") == [("MCPD110", "app/main.py", 7), ("MCPD110", "app/main.py", 12)]
    assert found(tmp_path, ["."], jobs=2) == found(tmp_path, ["."])
    each_file_alone_reports_what_lint_dot_reports(tmp_path, tmp_path / "caches")
    # `main.py:other` names the server made where `other = build()` is written, in another file.
    [server] = _graph(tmp_path, "app/main.py:other")["servers"]
    assert sorted(t["name"] for t in server["tools"]) == ["t", "u"]


def test_a_duplicate_names_the_server_as_the_caller_binds_it(tmp_path: Path) -> None:
    """MCPD110 on a factory's result names the server as the code registering the duplicate
    writes it (`mcp`, `other`: its help says `@other.tool(name=...)`), not as the factory does
    (`server`, which the graph shows as `graph --live` does), from each file and `lint .`."""
    write_files(tmp_path, {**PROJECT, **ACROSS_FILES})
    for given in (".", "app/main.py", "app/factory.py", "app/tools.py"):
        said = [
            (d["line"], d["message"].split(":")[0])
            for d in lint_diagnostics(tmp_path, "--no-cache", given)
            if d["path"] == "app/main.py"
        ]
        assert said == (
            []
            if given not in (".", "app/main.py")
            else [
                (7, "tool name 't' is already registered on server 'mcp'"),
                (12, "tool name 'u' is already registered on server 'other'"),
            ]
        ), given
    for variable in ("mcp", "other"):
        # The server as both graphs show it: where the factory makes it (the live one named
        # `mcp`, at no line, when the factory was imported from another module).
        live, static = (
            _by_name(_graph(tmp_path, "--live", f"app/main.py:{variable}")),
            _by_name(_graph(tmp_path, f"app/main.py:{variable}")),
        )
        assert static == live
        assert [(s["variable"], s["path"], s["line"]) for s in live["servers"]] == [
            ("server", "app/factory.py", 7)
        ]


def _by_name(document: dict) -> dict:
    """A graph with each server's tools in name order: which of a factory's own registrations
    and its helper's lands first the static graph does not order (`graph_static_live._as_started`)."""
    for server in document["servers"]:
        server["tools"].sort(key=lambda t: t["name"])
    return document


def test_two_calls_make_two_servers(tmp_path: Path) -> None:
    main = ONE_FILE.replace("mcp = build()", "mcp = build()\nother = build()").replace(
        "@mcp.tool()\ndef t", '@other.tool(name="w")\ndef t'
    )
    write_files(tmp_path, {**PROJECT, "app/main.py": main})
    assert duplicates_logged(tmp_path, {}) == []
    assert _codes(tmp_path, ".") == []
    result = lint(["."], cwd=tmp_path)
    assert (result.servers, result.tools) == (2, 3)  # `t` on each, `w` on `other`


def _graph(root: Path, *args: str) -> dict:
    ran = run_mcpdeps("graph", "--format", "json", *args, cwd=root)
    assert ran.returncode == 0, ran.stderr
    document: dict = json.loads(ran.stdout)
    return document


def test_graph_shows_the_one_server_the_sdk_builds(tmp_path: Path) -> None:
    write_files(tmp_path, {**PROJECT, "app/main.py": ONE_FILE})
    static = _graph(tmp_path, "app/main.py:mcp")
    assert static == _graph(tmp_path, "--live", "app/main.py:mcp")
    [server] = static["servers"]
    assert [(t["name"], t["function"]) for t in server["tools"]] == [("t", "build.<locals>.t")]
    # `serve app/main.py` serves what `mcp` holds, not what a new call of `build` would make.
    kinds = [(c.name, c.kind) for c in find_candidates(tmp_path / "app" / "main.py")]
    assert kinds == [("build", "factory"), ("mcp", "instance")]


REFUSED_FACTORY = textwrap.dedent(
    """\
    from mcp.server import MCPServer


    def build() -> MCPServer:
        server = MCPServer("x")

        @server.tool()
        def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
            return d

        return server
    """
)
"""A factory registering a tool the SDK refuses (`load_d(nope)`) on the server it returns."""


def test_a_factory_nothing_calls_keeps_its_tools(tmp_path: Path) -> None:
    """Checked as if it ran (the oracle calls it), on the server it makes: the one `graph` shows."""
    files = {"app/main.py": resolver_module(REFUSED_FACTORY)}
    check_both_ways(tmp_path, files, "import app.main\napp.main.build()", "app/main.py")
    [server] = _graph(tmp_path, "app/main.py")["servers"]
    assert (server["variable"], [t["name"] for t in server["tools"]]) == ("server", ["t"])


@pytest.mark.parametrize("calls", ["mcp = build()\n", "mcp = build()\nother = build()\n"])
def test_a_factory_s_refused_tool_is_reported_once_however_many_calls(tmp_path: Path, calls: str) -> None:
    files = {"app/main.py": resolver_module(REFUSED_FACTORY + "\n\n" + calls)}
    check_both_ways(tmp_path, files, "import app.main", "app/main.py")


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient, request: pytest.FixtureRequest):
    root: Path = request.getfixturevalue("tmp_path")
    write_files(root, {**PROJECT, **ACROSS_FILES})
    await start(lsp_client, root)
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio(loop_scope="function")
async def test_the_language_server_says_what_lint_says(client: LanguageClient, tmp_path: Path) -> None:
    """The duplicates are in `app/main.py`; renaming the factory's tool, in another file,
    takes the one on `other` away."""
    docs, factory = Docs(client), tmp_path / "app" / "factory.py"
    docs.open(tmp_path / "app" / "main.py")
    expected = lint_json(tmp_path)
    assert [(d["code"], d["line"]) for d in expected] == [("MCPD110", 7), ("MCPD110", 12)]
    await settle(client, tmp_path, expected)
    docs.open(factory)
    renamed = factory.read_text().replace("def u(", "def u2(")
    docs.change(factory, renamed)
    factory.write_text(renamed)
    expected = lint_json(tmp_path)
    assert [(d["code"], d["line"]) for d in expected] == [("MCPD110", 7)]
    await settle(client, tmp_path, expected)
