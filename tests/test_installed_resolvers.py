"""Resolvers imported from installed code: `Resolve(get_access_token)` (the SDK's auth helper),
`Resolve(os.getcwd)`, as published servers write them.

The SDK takes them like any function; mcpdeps never reads (nor imports) code outside the
project, so it cannot check their parameters. MCPD113 says exactly that, naming the module the
source imports them from; it used to call them "computed at run time", which they are not.
The SDK's own functions are reported too: most are no resolvers, and the SDK refuses those
(`Resolve(func_metadata)`), so being part of `mcp` proves nothing about a function.
"""

from __future__ import annotations

from pathlib import Path

from conftest import lint_diagnostics, run_mcpdeps, write_files
from published_shapes import PROJECT, each_file_alone_reports_what_lint_dot_reports, sdk

SERVER = """\
    import os
    from os import getcwd as cwd_of
    from typing import Annotated

    from mcp.server import MCPServer
    from mcp.server.auth.middleware.auth_context import get_access_token
    from mcp.server.auth.provider import AccessToken
    from mcp.server.mcpserver import Resolve

    mcp = MCPServer("s")


    @mcp.tool()
    def who(q: str, tok: Annotated[AccessToken | None, Resolve(get_access_token)]) -> str:
        return q


    @mcp.tool()
    def where(q: str, d: Annotated[str, Resolve(os.getcwd)], e: Annotated[str, Resolve(cwd_of)]) -> str:
        return q
"""

AUTH = "mcp.server.auth.middleware.auth_context"
NOT_READ = "outside the project: mcpdeps does not read installed code, so its parameters are not checked"


def _notes(found: list[dict]) -> list[tuple[str, int, str]]:
    return sorted((d["code"], d["line"], d["message"]) for d in found)


def test_installed_resolvers_are_accepted_and_reported_as_unread(tmp_path: Path) -> None:
    write_files(tmp_path, {**PROJECT, "app/main.py": SERVER})
    started = sdk(tmp_path, "import app.main")
    assert started.returncode == 0, started.stderr  # the SDK accepts all three
    expected = [
        ("MCPD113", 14, f"resolver `get_access_token` comes from module `{AUTH}`, {NOT_READ}"),
        ("MCPD113", 19, f"resolver `os.getcwd` comes from module `os`, {NOT_READ}"),
        ("MCPD113", 19, f"resolver `cwd_of` comes from module `os`, {NOT_READ}"),
    ]
    whole = lint_diagnostics(tmp_path, "--no-cache", ".")
    assert _notes(whole) == sorted(expected)
    assert all(d["severity"] == "info" for d in whole)
    assert _notes(lint_diagnostics(tmp_path, "--no-cache", "app/main.py")) == sorted(expected)
    each_file_alone_reports_what_lint_dot_reports(tmp_path, tmp_path / "caches")


def test_graph_names_installed_code_not_run_time(tmp_path: Path) -> None:
    write_files(tmp_path, {**PROJECT, "app/main.py": SERVER})
    shown = run_mcpdeps("graph", "app/main.py", cwd=tmp_path).stdout
    assert "installed code, not read" in shown
    assert "not visible before run time" not in shown


def test_sdk_functions_are_not_resolvers_by_definition(tmp_path: Path) -> None:
    """Why `mcp.*` is not exempt: the SDK refuses its own `func_metadata(func, ...)` as a resolver
    (`func` is no tool argument), so lint keeps its note on every SDK function alike."""
    server = SERVER.replace("Resolve(get_access_token)", "Resolve(func_metadata)").replace(
        "import get_access_token",
        "import get_access_token\n    from mcp.server.mcpserver.utilities.func_metadata import func_metadata",
    )
    write_files(tmp_path, {**PROJECT, "app/main.py": server})
    refused = sdk(tmp_path, "import app.main")
    assert "InvalidSignature: Resolver 'func_metadata' parameter 'func'" in refused.stderr, refused.stderr
    found = lint_diagnostics(tmp_path, "--no-cache", ".")
    meta = "resolver `func_metadata` comes from module `mcp.server.mcpserver.utilities.func_metadata`"
    assert [d["code"] for d in found if d["message"].startswith(meta)] == ["MCPD113"]
