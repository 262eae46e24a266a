"""The lint summary says what was analysed: files, servers, tools; and says so when nothing was.

The counts are the SDK's: the servers the given files create or register on (a server with
no tool counts), and the tools those servers keep once imported (a name registered twice is
one tool: the SDK drops the second). They come from each file's record, so a cold run, a
warm one that re-checks one edited file, and a run split over workers print the same line.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest
from conftest import run_mcpdeps

SERVER = """\
from typing import Annotated
from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

import admin_tools

mcp = MCPServer("shop")
admin = MCPServer("admin")
spare = MCPServer("spare")

def stock(title: str) -> int:
    return 1

@mcp.tool()
def reserve(title: str, n: Annotated[int, Resolve(stock)]) -> str:
    return title

@mcp.tool()
def browse() -> str:
    return ""

mcp.add_tool(lambda: "", name="ping")
admin_tools.register(admin)
"""

ADMIN_TOOLS = """\
from mcp.server import MCPServer

def register(server: MCPServer) -> None:
    @server.tool()
    def purge() -> str:
        return ""

    @server.tool(name="purge")
    def purge_again() -> str:
        return ""
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "server.py").write_text(SERVER, encoding="utf-8")
    (tmp_path / "admin_tools.py").write_text(ADMIN_TOOLS, encoding="utf-8")
    (tmp_path / "util.py").write_text("def helper() -> int:\n    return 1\n", encoding="utf-8")
    (tmp_path / "README.md").write_text("# shop\n", encoding="utf-8")
    return tmp_path


def _sdk_counts(folder: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    """Servers and tools as the SDK has them once the server module is imported."""
    from mcp.server import MCPServer

    monkeypatch.syspath_prepend(str(folder))
    for name in ("server", "admin_tools"):
        sys.modules.pop(name, None)
    module = importlib.import_module("server")
    try:
        servers = [v for v in vars(module).values() if isinstance(v, MCPServer)]
        return len(servers), sum(len(s._tool_manager.list_tools()) for s in servers)
    finally:
        for name in ("server", "admin_tools"):
            sys.modules.pop(name, None)


def _summary(folder: Path, *args: str, path: str = ".", seed: int | None = None) -> str:
    proc = run_mcpdeps("lint", path, "--exit-zero", "--format", "concise", *args, cwd=folder, hash_seed=seed)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.splitlines()[-1]


def test_the_summary_counts_what_the_sdk_registers(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    servers, tools = _sdk_counts(project, monkeypatch)
    assert (servers, tools) == (3, 4)  # shop: reserve, browse, ping; admin: purge; spare: none
    # The second `purge` is dropped by the SDK (MCPD110 says so), and counted once.
    assert _summary(project, "--no-cache") == (
        f"Found 1 warning in 1 file; checked 3 files, {servers} servers, {tools} tools."
    )


def test_a_clean_run_says_what_it_checked(project: Path) -> None:
    (project / "admin_tools.py").write_text(ADMIN_TOOLS.replace('name="purge"', 'name="wipe"'), "utf-8")
    assert _summary(project, "--no-cache") == "All checks passed! 3 files, 3 servers, 5 tools"
    assert _summary(project, "--no-cache", path="util.py") == "All checks passed! 1 file, 0 servers, 0 tools"


def test_cold_warm_and_workers_print_the_same_counts(project: Path) -> None:
    cold = _summary(project, "--no-cache", seed=1)
    assert _summary(project, seed=2) == cold  # fills the cache
    (project / "util.py").write_text("def helper() -> int:\n    return 2\n", encoding="utf-8")
    assert _summary(project, seed=3) == cold  # re-checks util.py, the rest from the cache
    assert _summary(project, "--no-cache", "--jobs", "2", seed=4) == cold


@pytest.mark.parametrize("fmt", ["full", "concise"])
def test_nothing_to_check_is_said_not_passed(tmp_path: Path, fmt: str) -> None:
    (tmp_path / "notes.md").write_text("no code here\n", encoding="utf-8")
    (tmp_path / "empty").mkdir()
    for where in (".", "empty"):
        proc = run_mcpdeps("lint", where, "--format", fmt, cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout == "Nothing to check: no Python files found.\n"
