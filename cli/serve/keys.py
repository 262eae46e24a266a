"""Do all workers seal `requestState` with the same keys? Asked of the real codec, not guessed.

A multi-round call (protocol 2026-07-28) carries state sealed by the worker that
answered the previous round; another worker can only open it if it holds the same
key. With the SDK's default (`RequestStateSecurity.ephemeral()`, a key drawn at
import) every process differs. Rather than reading the user's source for
`keys=[...]`, we seal a probe here and ask a fresh interpreter, which imports the
server exactly as a worker will, to open it: this is right for env-var keys,
custom codecs and key files alike.

The fresh interpreter is the one serving (mcpdeps' own or the project's): it runs the
runner's `keys SPEC CWD TOKEN` task (`probe_main`), which exits 0 when the token opens.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import UserError
from ..runner import runner_command

if TYPE_CHECKING:
    from mcp.server import MCPServer

PROBE = b"mcpdeps-shared-key-probe"
PROBE_TIMEOUT = 60.0


def _codec(server: MCPServer) -> Any:
    """The codec of the `RequestStateBoundary` that `MCPServer` installs in its middleware."""
    from mcp.server.request_state import RequestStateBoundary

    for middleware in server.middleware:
        if isinstance(middleware, RequestStateBoundary):
            return middleware._security.codec
    return None


def require_shared_keys(server: MCPServer, spec: str, cwd: Path, workers: int) -> None:
    """Refuse `--workers N>1` unless a freshly started worker can open this process's sealed state."""
    codec = _codec(server)
    if codec is None:
        return  # no request-state boundary: nothing is sealed, nothing to share
    token = codec.seal(PROBE)
    try:
        probe = subprocess.run(
            runner_command(sys.executable, "keys", spec, str(cwd), token),
            capture_output=True,
            text=True,
            timeout=PROBE_TIMEOUT,
            cwd=cwd,
        )
    except subprocess.TimeoutExpired as exc:
        raise UserError(
            f"Checking that the {workers} workers share request-state keys took over "
            f"{PROBE_TIMEOUT:.0f}s (importing the server in a fresh process hung)."
        ) from exc
    if probe.returncode == 0:
        return
    name = server.name
    raise UserError(
        f"--workers {workers} needs request state sealed with keys every worker shares, but "
        f"{name!r} uses a key of its own in each process (the SDK's default, "
        "RequestStateSecurity.ephemeral()). A multi-round call (protocol 2026-07-28) whose next "
        'round lands on another worker would fail with "Invalid or expired requestState". '
        "Give the server shared keys: "
        "`from mcp.server.mcpserver import RequestStateSecurity`, then "
        f'`MCPServer("{name}", request_state_security=RequestStateSecurity('
        'keys=[os.environ["MCP_STATE_KEY"]]))`, and set MCP_STATE_KEY (at least 32 bytes; '
        '`python -c "import secrets; print(secrets.token_hex(32))"`), e.g. in a file passed '
        "with --env-file. Or serve with --workers 1."
    )


def probe_main(argv: list[str]) -> int:
    """Child side: import the server like a worker does, try to open the parent's token."""
    from ...resolver_core.loading import load_server

    spec, cwd, token = argv
    codec = _codec(load_server(spec, cwd=Path(cwd)).server)
    if codec is None:
        return 1
    try:
        return 0 if codec.unseal(token) == PROBE else 1
    except Exception:
        return 1
