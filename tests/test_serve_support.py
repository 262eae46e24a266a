"""Helpers shared by the `mcpdeps serve` tests: real processes on real ports, always cleaned up.

No tests here. Every wait is bounded; every process is started in its own
session and its whole group is killed on the way out (uvicorn workers, the
Inspector's node children, reload children).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import mcp.types as types

REPO = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "serve_fixtures"
BOOKSHOP = REPO / "examples" / "bookshop" / "server.py"
"""The seed's bookshop, the shared example every front end is shown on."""

PROTOCOLS = ("2026-07-28", "legacy")
"""Both protocol generations, as the SDK Client's `mode=` spells them."""


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def port_is_open(port: int, host: str = "127.0.0.1") -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.settimeout(0.5)
        return sock.connect_ex((host, port)) == 0


INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"},
    },
}
"""A client's first JSON-RPC request, as the tests send it by hand."""


def cli_env(**extra: str) -> dict[str, str]:
    """Environment for a `python -m cli` child: plain output, wide enough for the banner."""
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "120", "PYTHONUNBUFFERED": "1", **extra}
    env.pop("FORCE_COLOR", None)
    return env


class ServeProcess:
    """`python -m mcpdeps serve ARGS` (or another serving `command`, such as `mcp`) in the background,
    its stderr captured in a file: a real process, as the subject is serving over a real
    transport and ending by signal."""

    def __init__(
        self,
        *args: str | os.PathLike[str],
        cwd: Path = REPO,
        env: dict[str, str] | None = None,
        command: str = "serve",
    ):
        self.args = [str(a) for a in args]
        self._final_stderr: str | None = None
        self._log = tempfile.NamedTemporaryFile(prefix="mcpdeps-serve-", suffix=".log", delete=False)  # noqa: SIM115
        env = env or cli_env()
        spawned = [sys.executable, "-m", "mcpdeps", command, *self.args]
        self.process = subprocess.Popen(
            spawned,
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=self._log,
            start_new_session=True,
        )

    @property
    def stderr(self) -> str:
        if self._final_stderr is not None:
            return self._final_stderr
        return Path(self._log.name).read_text(encoding="utf-8", errors="replace")

    def wait_for_port(self, port: int, timeout: float = 30.0) -> None:
        """Until the port accepts connections; fail with the server's stderr if it dies or hangs."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"serve exited with {self.process.returncode}:\n{self.stderr}")
            if port_is_open(port):
                return
            time.sleep(0.1)
        raise AssertionError(f"serve did not listen on {port} within {timeout}s:\n{self.stderr}")

    def wait_for_text(self, text: str, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if text in self.stderr:
                return
            time.sleep(0.1)
        raise AssertionError(f"{text!r} not in serve's stderr within {timeout}s:\n{self.stderr}")

    def wait(self, timeout: float = 30.0) -> int:
        return self.process.wait(timeout=timeout)

    def stop(self) -> None:
        """Interrupt the whole process group, then kill it if it lingers."""
        if self.process.poll() is None:
            for sig, grace in ((signal.SIGINT, 8.0), (signal.SIGKILL, 5.0)):
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.process.pid, sig)
                try:
                    self.process.wait(timeout=grace)
                    break
                except subprocess.TimeoutExpired:
                    continue
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)  # leftover children (workers, node)
        self._log.close()

    def __enter__(self) -> ServeProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
        self._final_stderr = self.stderr
        with contextlib.suppress(OSError):
            os.unlink(self._log.name)


@contextlib.contextmanager
def serving_http(
    *args: str | os.PathLike[str],
    cwd: Path = REPO,
    env: dict[str, str] | None = None,
    timeout: float = 30.0,
    command: str = "serve",
) -> Iterator[tuple[ServeProcess, str]]:
    """An HTTP `mcpdeps serve` (or `command`) on a free port: yields the process and its MCP URL."""
    port = free_port()
    with ServeProcess(
        *args, "--transport", "http", "--port", str(port), cwd=cwd, env=env, command=command
    ) as proc:
        proc.wait_for_port(port, timeout=timeout)
        yield proc, f"http://127.0.0.1:{port}/mcp"


class ElicitationAnswers:
    """An elicitation callback that answers with fixed content and records what it was asked."""

    def __init__(self, *answers: dict[str, Any], action: str = "accept") -> None:
        self.answers = list(answers)
        self.action = action
        self.asked: list[str] = []

    async def __call__(self, context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        self.asked.append(params.message)
        content = self.answers[min(len(self.asked), len(self.answers)) - 1] if self.answers else None
        return types.ElicitResult(action=self.action, content=content if self.action == "accept" else None)


def text_of(result: Any) -> str:
    """The concatenated text content of a tool result."""
    return "".join(getattr(c, "text", "") for c in result.content)


def stdio_params(*args: str, cwd: Path = REPO, env: dict[str, str] | None = None) -> Any:
    """How the SDK's stdio client launches `mcpdeps serve ARGS` (the interpreter running the tests).

    Nothing on PYTHONPATH: the checkout's folders (`cli/`, `templates/`) must never be importable
    as top-level packages, or they would mask a user's own `cli` or `templates`.
    """
    return sdk_stdio(["serve", *args], cwd=cwd, env={"NO_COLOR": "1", **(env or {})})


def sdk_stdio(args: list[str], *, cwd: Path, env: dict[str, str]) -> Any:
    """`StdioServerParameters` for `python -m mcpdeps ARGS` under `env` (which the SDK merges over
    its few default variables)."""
    from mcp.client.stdio import StdioServerParameters

    spawned = [sys.executable, "-m", "mcpdeps", *args]
    return StdioServerParameters(command=spawned[0], args=spawned[1:], cwd=cwd, env=env)
