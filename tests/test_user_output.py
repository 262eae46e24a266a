"""A user's `print()` never lands in mcpdeps' stdout (issue 34, item 12).

stdout carries the JSON-RPC frames of `serve` over stdio and the one JSON document of
`call --json`. A server that prints while it is imported (or from a tool, or through a
subprocess writing to file descriptor 1) wrote before the first frame, which the client
reads as a broken message, or into the middle of the JSON. What user code prints goes to
stderr. `serve` over stdio runs in a real process: its transport is the subject.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conftest import run_mcpdeps

SERVER = """import os
import sys

from mcp.server import MCPServer

print("printed at import")
os.system("echo echoed by a child process")
sys.stdout.flush()
mcp = MCPServer("Chatty")


@mcp.tool()
def add(a: int, b: int) -> int:
    print("printed by the tool")
    return a + b
"""
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"},
    },
}


def test_serve_over_stdio_sends_frames_only_on_stdout(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text(SERVER, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "mcpdeps", "serve", "server.py", "--transport", "stdio", "--no-banner"],
        cwd=tmp_path, input=json.dumps(INITIALIZE) + "\n", capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    [frame] = [json.loads(line) for line in done.stdout.splitlines()]  # each line a frame: none else
    assert frame["id"] == 1 and frame["result"]["serverInfo"]["name"] == "Chatty"
    assert "printed at import" in done.stderr and "echoed by a child process" in done.stderr


def test_call_json_is_one_document_whatever_the_tool_prints(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text(SERVER, encoding="utf-8")
    done = run_mcpdeps("call", "server.py", "add", "--args-json", '{"a": 2, "b": 3}', "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout)["structuredContent"] == {"result": 5}
    assert "printed at import" in done.stderr and "printed by the tool" in done.stderr
