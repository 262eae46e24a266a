"""`serve` over HTTP keeps its sessions bounded: the SDK's session manager
limits (`max_sessions`, `session_idle_timeout`) exposed as `--max-sessions` and
`--session-idle-timeout`, with small defaults, and said in the banner.

Real process, real HTTP: sessions are opened with `initialize` and never closed, as a
careless client would.
"""

from __future__ import annotations

import time

import httpx2
from test_hardening_serve import HEADERS, INITIALIZE
from test_serve_support import BOOKSHOP, ServeProcess, free_port


def _open_session(client: httpx2.Client, url: str) -> int:
    return client.post(url, json=INITIALIZE, headers=HEADERS).status_code


def test_sessions_beyond_the_limit_are_refused_until_one_idles_out() -> None:
    port = free_port()
    args = ("--transport", "http", "--port", str(port), "--max-sessions", "3", "--session-idle-timeout", "2")
    with ServeProcess(BOOKSHOP, *args) as proc, httpx2.Client(timeout=10) as client:
        proc.wait_for_port(port)
        url = f"http://127.0.0.1:{port}/mcp"
        assert [_open_session(client, url) for _ in range(3)] == [200, 200, 200]
        assert _open_session(client, url) == 503, "a fourth open session is refused"
        time.sleep(3.5)  # every session idle for longer than the timeout: closed by the server
        assert _open_session(client, url) == 200
        assert "at most 3 open, each closed after 2 s idle" in proc.stderr


def test_the_defaults_are_small_and_shown() -> None:
    port = free_port()
    with ServeProcess(BOOKSHOP, "--transport", "http", "--port", str(port)) as proc:
        proc.wait_for_port(port)
        proc.wait_for_text("sessions")
        assert "at most 100 open, each closed after 5 min idle" in proc.stderr
