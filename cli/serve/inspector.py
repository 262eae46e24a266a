"""`--inspector`: the MCP Inspector web UI (npm, pinned, through npx), connected to this server.

Pinned so that what the tests drive is what users get; `tests/npm_tools.py`
installs the same version. The UI listens on a free port on 127.0.0.1 with an
auth token we choose, so the printed URL works and no other local page can use
its proxy. The browser is not opened (`MCP_AUTO_OPEN_ENABLED=false`): serve is
often run headless; the URL is in the banner.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import socket
import subprocess
from collections.abc import Sequence

from ...resolver_core.records import slotted
from ..errors import UserError

INSPECTOR_PACKAGE = "@modelcontextprotocol/inspector"
INSPECTOR_VERSION = "2.12.0"
INSPECTOR_SPEC = f"{INSPECTOR_PACKAGE}@{INSPECTOR_VERSION}"


@slotted
class Inspector:
    """A started Inspector UI process and the URL to open."""

    process: subprocess.Popen[bytes]
    url: str

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the UI (its whole process group: npx, node and the proxy it spawns)."""
        if self.process.poll() is not None:
            return
        import signal

        try:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=timeout)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=timeout)


def npx_path() -> str:
    """The npx executable, or a sentence saying Node.js is needed."""
    npx = shutil.which("npx")
    if npx is None:
        raise UserError(
            "--inspector needs Node.js: `npx` was not found on PATH. Install Node.js 20 or newer "
            "(https://nodejs.org), or serve without --inspector and connect another client."
        )
    return npx


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def start_inspector(target: Sequence[str], *, transport: str, port: int | None = None) -> Inspector:
    """Start the UI for an HTTP URL (`transport="http"`) or a stdio command (`transport="stdio"`).

    Does not wait: the UI takes a few seconds to answer, the server starts meanwhile.
    """
    npx = npx_path()
    ui_port = port or free_port()
    token = secrets.token_hex(16)
    env = {
        **os.environ,
        "CLIENT_PORT": str(ui_port),
        "MCP_SANDBOX_PORT": str(free_port()),
        "MCP_INSPECTOR_API_TOKEN": token,
        "MCP_AUTO_OPEN_ENABLED": "false",
        "HOST": "127.0.0.1",
        "npm_config_loglevel": "error",  # npx's engine warnings would bury the banner
    }
    if transport == "http":
        args = ["--transport", "http", "--server-url", target[0]]
    else:
        args = ["--transport", "stdio", "--", *target]
    process = subprocess.Popen(
        [npx, "--yes", INSPECTOR_SPEC, "--web", *args],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        start_new_session=True,
    )
    return Inspector(process, f"http://127.0.0.1:{ui_port}/?MCP_INSPECTOR_API_TOKEN={token}")
