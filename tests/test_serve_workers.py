"""`mcpdeps serve --workers 2`: one multi-round call served by two processes, or a refusal.

The rounds of a 2026-07-28 call carry sealed `requestState`; with shared keys a
round may land on any worker. The client opens a new connection per request (no
keep-alive), so the kernel hands rounds to whichever worker accepts first; the
resolvers log their pid, and a call is retried (bounded) until its rounds were
seen on two different workers.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path

import anyio
import httpx2
import pytest
from conftest import run_mcpdeps
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from test_serve_support import (
    FIXTURES,
    ElicitationAnswers,
    cli_env,
    free_port,
    port_is_open,
    serving_http,
    text_of,
)

# One xdist worker runs this module (`--dist loadfile`), so its fixtures are built once per run, not once
# per worker: a server with workers.

SERVER = FIXTURES / "workers" / "server.py"
ATTEMPTS = 12


@pytest.fixture(scope="module")
def pid_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("workers") / "pids.log"


@pytest.fixture(scope="module")
def workers_url(pid_log: Path) -> Iterator[str]:
    env = cli_env(MCP_STATE_KEY=secrets.token_hex(32), MCPDEPS_TEST_PID_LOG=str(pid_log))
    with serving_http(SERVER, "--workers", "2", env=env, timeout=60) as (proc, url):
        proc.wait_for_text("Application startup complete", timeout=60)
        yield url


async def _call_once(url: str) -> str:
    """One two-question call over fresh connections; returns the tool's text."""
    answers = ElicitationAnswers({"day": "Friday"}, {"count": 2})
    limits = httpx2.Limits(max_keepalive_connections=0)
    with anyio.fail_after(60):
        async with httpx2.AsyncClient(limits=limits, timeout=30) as http:
            transport = streamable_http_client(url, http_client=http)
            async with Client(transport, mode="2026-07-28", elicitation_callback=answers) as client:
                result = await client.call_tool("book_trip", {"city": "Lyon"})
    assert not result.is_error, text_of(result)
    assert answers.asked == ["Which day do you travel to Lyon?", "How many seats to Lyon on Friday?"]
    return text_of(result)


def _pids(log: Path) -> list[tuple[str, int]]:
    return [(what, int(pid)) for what, pid in (line.split() for line in log.read_text().splitlines())]


def test_rounds_of_one_call_land_on_different_workers(workers_url: str, pid_log: Path) -> None:
    for _ in range(ATTEMPTS):
        pid_log.write_text("")
        text = anyio.run(_call_once, workers_url)
        runs = _pids(pid_log)
        # Three rounds: ask_day asks; ask_day answered + ask_seats asks; both answered + the tool.
        assert [what for what, _ in runs].count("ask_day") == 3
        assert runs[-1][0] == "book_trip"
        assert text == f"Booked 2 seat(s) to Lyon on Friday (worker {runs[-1][1]})."
        if len({pid for _, pid in runs}) == 2:
            return
    pytest.fail(f"{ATTEMPTS} calls never spread over two workers; last rounds ran on {runs}")


def test_default_key_refuses_to_start_and_never_binds() -> None:
    port = free_port()
    result = run_mcpdeps(
        "serve",
        FIXTURES / "workers" / "default_key.py",
        "--transport",
        "http",
        "--workers",
        "2",
        "--port",
        port,
    )
    assert result.returncode == 2, result.stderr
    assert "--workers 2 needs request state sealed with keys every worker shares" in result.stderr
    assert "RequestStateSecurity(keys=" in result.stderr
    assert "Traceback" not in result.stderr
    assert not port_is_open(port)


def test_workers_need_http() -> None:
    result = run_mcpdeps("serve", SERVER, "--workers", "2")
    assert result.returncode == 2
    assert "--workers needs --transport http" in result.stderr
