"""What a user sees when `mcpdeps serve` cannot or must not start: sentences and exit codes, no tracebacks.

The lint refusal is checked end to end on the shared broken example: exit 1,
the MCPD codes on stderr, and the port never bound (polled while it runs).
"""

from __future__ import annotations

import time
from pathlib import Path

import anyio
import pytest
from conftest import EXAMPLES, run_mcpdeps
from mcp import Client
from test_serve_support import BOOKSHOP, FIXTURES, ServeProcess, free_port, port_is_open, stdio_params

BROKEN = EXAMPLES / "broken" / "server.py"


def _fails(result, code: int = 2) -> str:  # type: ignore[no-untyped-def]
    assert result.returncode == code, result.stderr
    assert "Traceback" not in result.stderr
    return " ".join(result.stderr.split())


def test_lint_errors_refuse_to_start_and_never_bind_the_port() -> None:
    port = free_port()
    with ServeProcess(BROKEN, "--transport", "http", "--port", str(port)) as proc:
        bound = False
        deadline = time.monotonic() + 60
        while proc.process.poll() is None and time.monotonic() < deadline:
            bound = bound or port_is_open(port)
            time.sleep(0.05)
        assert proc.wait(timeout=5) == 1, proc.stderr
        stderr = proc.stderr
    assert not bound and not port_is_open(port)
    for code in ("MCPD001", "MCPD002", "MCPD003", "MCPD006", "MCPD008"):
        assert code in stderr
    assert "not starting" in stderr
    assert "Traceback" not in stderr


def test_no_lint_lets_the_sdk_refuse_with_the_users_frame() -> None:
    """The SDK stops at its first refusal (exit 1, as for lint's); the message points at the user's line."""
    text = _fails(run_mcpdeps("serve", BROKEN, "--no-lint"), code=1)
    assert "Importing examples/broken/server.py failed with InvalidSignature: Resolver 'plan_of'" in text
    assert "broken/server.py, line 35, in <module> @mcp.tool()" in text


def test_missing_file() -> None:
    text = _fails(run_mcpdeps("serve", "nope.py"))
    assert "Server file nope.py does not exist" in text


def test_no_server_lists_what_was_found(tmp_path: Path) -> None:
    (tmp_path / "tools.py").write_text("LIMIT = 3\n\ndef helper():\n    return 1\n")
    text = _fails(run_mcpdeps("serve", "tools.py", "--no-lint", cwd=tmp_path))
    assert "No MCPServer found in tools.py" in text
    assert "LIMIT (int), helper (function)" in text


def test_several_servers_are_listed(tmp_path: Path) -> None:
    (tmp_path / "two.py").write_text(
        "from mcp.server import MCPServer\npublic = MCPServer('A')\nadmin = MCPServer('B')\n"
    )
    text = _fails(run_mcpdeps("serve", "two.py", cwd=tmp_path))
    assert "two.py defines several servers: public (line 2, MCPServer(...)); admin (line 3" in text
    assert "two.py:public" in text


def test_import_error_shows_the_users_frame_and_v_the_traceback(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text(
        "from mcp.server import MCPServer\n\nmcp = MCPServer('x')\nLIMITS = {'a': 1}\nDEFAULT = LIMITS['b']\n"
    )
    text = _fails(run_mcpdeps("serve", "--no-lint", cwd=tmp_path))
    assert "Importing server.py failed with KeyError: 'b'" in text
    assert f"File {tmp_path / 'server.py'}, line 5, in <module> DEFAULT = LIMITS['b']" in text
    verbose = run_mcpdeps("serve", "--no-lint", "-v", cwd=tmp_path)
    assert verbose.returncode == 2 and "Traceback" in verbose.stderr


def test_syntax_error_names_the_line(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text("from mcp.server import MCPServer\nmcp = MCPServer('x'\n")
    text = _fails(run_mcpdeps("serve", "--no-lint", cwd=tmp_path))
    assert "line 2" in text and "syntax error" in text


def test_bad_env_file_names_the_line(tmp_path: Path) -> None:
    env = tmp_path / "bad.env"
    env.write_text("GOOD=1\nthis is not an assignment\n")
    text = _fails(run_mcpdeps("serve", BOOKSHOP, "--env-file", env))
    assert f"Env file {env}, line 2 is not KEY=VALUE" in text
    missing = _fails(run_mcpdeps("serve", BOOKSHOP, "--env-file", tmp_path / "no.env"))
    assert "does not exist" in missing


def test_env_file_reaches_the_server_before_import(tmp_path: Path) -> None:
    """The workers fixture reads MCP_STATE_KEY at import: without the env file it cannot start."""
    server = FIXTURES / "workers" / "server.py"
    text = _fails(run_mcpdeps("serve", server))
    assert "KeyError: 'MCP_STATE_KEY'" in text
    env = tmp_path / ".env"
    env.write_text(f"MCP_STATE_KEY={'k' * 40}\n# a comment\nexport OTHER='x y'\n")

    async def main() -> list[str]:
        with anyio.fail_after(60):
            async with Client(stdio_params(str(server), "--env-file", str(env))) as client:
                return [t.name for t in (await client.list_tools()).tools]

    assert anyio.run(main) == ["book_trip"]


def test_port_in_use() -> None:
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        text = _fails(run_mcpdeps("serve", BOOKSHOP, "-t", "http", "--port", port))
    assert f"Port {port} on 127.0.0.1 is already in use" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("-t", "websocket"), "Unknown transport 'websocket': use stdio or http"),
        (("--reload",), "--reload needs --transport http"),
        (("-t", "http", "--path", "mcp"), "--path must start with '/'"),
        (("--log-level", "loud"), "Unknown log level 'loud'"),
        (("-t", "http", "--reload", "--reload-dir", "nowhere"), "--reload-dir nowhere is not a folder."),
    ],
)
def test_option_errors(args: tuple[str, ...], message: str) -> None:
    assert message in _fails(run_mcpdeps("serve", BOOKSHOP, *args))


def test_inspector_without_node_says_so() -> None:
    port = free_port()
    result = run_mcpdeps(
        "serve", BOOKSHOP, "-t", "http", "--port", port, "--inspector", env={"PATH": "/nonexistent"}
    )
    text = _fails(result)
    assert "--inspector needs Node.js: `npx` was not found on PATH" in text
    assert not port_is_open(port)


def test_lint_warnings_are_shown_but_do_not_stop_the_server(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text(
        "from typing import Annotated\n\nfrom mcp.server import MCPServer\nfrom mcp.server.mcpserver import Resolve\n\n"
        "mcp = MCPServer('W')\n\n\ndef who() -> str:\n    return 'me'\n\n\n"
        "@mcp.tool()\ndef hello(name: Annotated[str, Resolve(who)] = 'x') -> str:\n    return name\n"
    )
    result = run_mcpdeps("serve", cwd=tmp_path, input="")  # stdin at EOF: the stdio server ends cleanly
    assert result.returncode == 0, result.stderr
    assert "server.py:14:11: MCPD111" in result.stderr
    assert "W" in result.stderr and "hello" in result.stderr
