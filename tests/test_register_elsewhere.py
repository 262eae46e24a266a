"""Tools registered through a function of another module, when only the server file is given:
what pre-commit passes when only `server.py` changed.

The SDK is the oracle: importing `server.py` refuses the tool, so `lint server.py` must say
so, exactly as `lint .` and `graph server.py` do, cached or not.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import run_mcpdeps

SERVER = """from mcp.server import MCPServer

import tools

mcp = MCPServer("p")
tools.register(mcp)
"""

TOOLS = """from mcp.server import MCPServer


def register(server: MCPServer) -> None:
    @server.tool()
    def shout(_text: str) -> str:
        return _text
"""


def _codes(*args: str, cwd: Path) -> list[tuple[str, str, int]]:
    proc = run_mcpdeps("lint", "--format", "json", "--exit-zero", *args, cwd=cwd)
    assert proc.returncode == 0, proc.stderr
    return [(d["code"], d["path"], d["line"]) for d in json.loads(proc.stdout)["diagnostics"]]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\nversion = '0'\n")
    (tmp_path / "server.py").write_text(SERVER)
    (tmp_path / "tools.py").write_text(TOOLS)
    return tmp_path


def test_the_sdk_refuses_the_tool(project: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "server.py"], cwd=project, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode != 0 and "_text" in proc.stderr


def test_lint_of_the_server_file_alone_sees_it(project: Path) -> None:
    everything = _codes("--no-cache", ".", cwd=project)
    assert everything == [("MCPD006", "tools.py", 6)]
    assert _codes("--no-cache", "server.py", cwd=project) == everything
    assert _codes("--no-cache", "server.py", "tools.py", cwd=project) == everything
    assert _codes("server.py", cwd=project) == everything  # fills the cache
    assert _codes("server.py", cwd=project) == everything  # from the cache
    (project / "tools.py").write_text(TOOLS.replace("_text", "text"))
    assert _codes("server.py", cwd=project) == [] == _codes("--no-cache", "server.py", cwd=project)


def test_graph_agrees(project: Path) -> None:
    proc = run_mcpdeps("graph", "--format", "json", "server.py", cwd=project)
    assert proc.returncode == 0, proc.stderr
    tools = [t["name"] for s in json.loads(proc.stdout)["servers"] for t in s["tools"]]
    assert tools == ["shout"]
