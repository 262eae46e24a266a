"""`mcpdeps serve --reload`: edits are served to new sessions; a broken file waits until it is fixed.

The served file lives in a temporary folder; each step polls (bounded) with a
fresh SDK client session until the restarted child answers as expected.
"""

from __future__ import annotations

import time
from pathlib import Path

import anyio
from mcp import Client
from test_serve_support import ServeProcess, free_port, port_is_open

TIMEOUT = 60
HEADER = "from mcp.server import MCPServer\n\nmcp = MCPServer('Live')\n"


def _tool(name: str) -> str:
    return f"\n\n@mcp.tool()\ndef {name}() -> str:\n    return '{name}'\n"


def _tools(url: str) -> list[str] | None:
    async def main() -> list[str]:
        with anyio.fail_after(10):
            async with Client(url) as client:
                return sorted(t.name for t in (await client.list_tools()).tools)

    try:
        return anyio.run(main)
    except Exception:
        return None  # restarting: not listening yet, or the old process going away


def _wait_for_tools(proc: ServeProcess, url: str, expected: list[str]) -> None:
    deadline = time.monotonic() + TIMEOUT
    seen = None
    while time.monotonic() < deadline:
        seen = _tools(url)
        if seen == expected:
            return
        time.sleep(0.3)
    raise AssertionError(f"expected tools {expected}, last saw {seen}:\n{proc.stderr}")


def test_reload_serves_edits_and_survives_a_broken_file(tmp_path: Path) -> None:
    server = tmp_path / "server.py"
    server.write_text(HEADER + _tool("first"))
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    with ServeProcess("server.py", "-t", "http", "--port", str(port), "--reload", cwd=tmp_path) as proc:
        proc.wait_for_port(port, timeout=TIMEOUT)
        _wait_for_tools(proc, url, ["first"])

        server.write_text(HEADER + _tool("first") + _tool("second"))
        _wait_for_tools(proc, url, ["first", "second"])

        server.write_text(HEADER + _tool("first") + "\n\ndef broken(:\n")
        proc.wait_for_text("syntax error", timeout=TIMEOUT)
        deadline = time.monotonic() + TIMEOUT
        while port_is_open(port) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not port_is_open(port), proc.stderr
        assert proc.process.poll() is None, "the reloader must keep watching after the child fails"

        server.write_text(HEADER + _tool("first") + _tool("third"))
        _wait_for_tools(proc, url, ["first", "third"])
    assert "Traceback" not in proc.stderr
