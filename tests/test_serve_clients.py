"""The SDK's own `Client` against `mcpdeps serve`, over stdio and HTTP, on both protocol generations.

One HTTP server is shared by the module (starting one costs about a second);
stdio sessions are launched by the client itself, as real hosts do.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client
from test_serve_support import (
    BOOKSHOP,
    INITIALIZE,
    PROTOCOLS,
    REPO,
    ElicitationAnswers,
    ServeProcess,
    cli_env,
    serving_http,
    stdio_params,
    text_of,
)

# One xdist worker runs this module (`--dist loadfile`), so its fixtures are built once per run, not once
# per worker: an HTTP server shared by the module.

TIMEOUT = 60


@pytest.fixture(scope="module")
def http_server() -> Iterator[tuple[ServeProcess, str]]:
    with serving_http(BOOKSHOP) as served:
        yield served


@pytest.fixture(scope="module")
def http_url(http_server: tuple[ServeProcess, str]) -> str:
    return http_server[1]


def _targets(http_url: str) -> dict[str, Any]:
    return {"stdio": stdio_params(str(BOOKSHOP)), "http": http_url}


async def _exercise(target: Any, mode: str) -> None:
    """List tools, reserve a book, and order an out-of-stock one (elicitation accepted)."""
    answers = ElicitationAnswers({"confirm": True})
    with anyio.fail_after(TIMEOUT):
        async with Client(target, mode=mode, elicitation_callback=answers) as client:
            assert (client.protocol_version == "2026-07-28") == (mode == "2026-07-28")
            tools = {t.name: t for t in (await client.list_tools()).tools}
            assert set(tools) >= {"reserve_book", "order_book"}
            assert list(tools["reserve_book"].input_schema["properties"]) == ["title"]
            assert list(tools["order_book"].input_schema["properties"]) == ["title"]

            reserved = await client.call_tool("reserve_book", {"title": "Dune", "stock": {"copies": 99}})
            assert not reserved.is_error, text_of(reserved)
            assert text_of(reserved) == "Reserved 'Dune' (6 copies left)."

            ordered = await client.call_tool("order_book", {"title": "Neuromancer"})
            assert not ordered.is_error, text_of(ordered)
            assert "Backordered 'Neuromancer'" in text_of(ordered)
            assert answers.asked == ["'Neuromancer' is out of stock (2-3 weeks). Order anyway?"]


@pytest.mark.parametrize("mode", PROTOCOLS)
@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_sdk_client_round_trip(transport: str, mode: str, http_url: str) -> None:
    anyio.run(_exercise, _targets(http_url)[transport], mode)


@pytest.mark.parametrize("mode", PROTOCOLS)
def test_declined_elicitation_fails_the_call_over_http(mode: str, http_url: str) -> None:
    async def main() -> None:
        answers = ElicitationAnswers(action="decline")
        with anyio.fail_after(TIMEOUT):
            async with Client(http_url, mode=mode, elicitation_callback=answers) as client:
                result = await client.call_tool("order_book", {"title": "Neuromancer"})
        assert result.is_error
        assert "could not resolve" in text_of(result)

    anyio.run(main)


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({"Host": "attacker.example"}, 421),
        ({"Host": "attacker.example:80"}, 421),
        ({"Origin": "http://attacker.example"}, 403),
        ({}, 200),
    ],
)
def test_dns_rebinding_protection_stays_on(http_url: str, headers: dict[str, str], status: int) -> None:
    """A page on another origin (or a rebound DNS name) cannot drive the local server."""
    accept = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    response = httpx2.post(http_url, json=INITIALIZE, headers={**accept, **headers}, timeout=10)
    assert response.status_code == status, response.text


def test_banner_shows_server_url_tools_resolvers_and_questions(http_server: tuple[ServeProcess, str]) -> None:
    proc, url = http_server
    banner = proc.stderr
    assert "Bookshop" in banner and url in banner
    assert "DNS-rebinding protection on" in banner
    rows = {
        line.split()[1]: line
        for line in banner.splitlines()
        if line.startswith("│   ") and len(line.split()) > 2
    }
    assert "check_stock" in rows["reserve_book"]
    assert "the user (confirm_backorder)" in banner  # under the row label "asks"
    assert "estimate_delivery" in banner


def test_stdio_keeps_stdout_for_the_protocol() -> None:
    """The banner and logs go to stderr: a client reading stdout sees only JSON-RPC."""
    line = json.dumps(INITIALIZE) + "\n"
    result = subprocess.run(
        [sys.executable, "-m", "mcpdeps", "serve", str(BOOKSHOP)],
        input=line,
        capture_output=True,
        text=True,
        cwd=REPO,
        env=cli_env(),
        timeout=60,
    )
    assert "Bookshop" in result.stderr
    messages = [json.loads(out) for out in result.stdout.splitlines()]
    assert messages and all(m["jsonrpc"] == "2.0" for m in messages)
    assert messages[0]["result"]["serverInfo"]["name"] == "Bookshop"


def test_log_level_quiets_uvicorn_and_the_sdk() -> None:
    with serving_http(BOOKSHOP, "--log-level", "warning") as (proc, url):

        async def main() -> None:
            with anyio.fail_after(TIMEOUT):
                async with Client(url) as client:
                    await client.call_tool("reserve_book", {"title": "Dune"})

        anyio.run(main)
        assert "Bookshop" in proc.stderr  # the banner is not a log line
        assert "INFO" not in proc.stderr, proc.stderr


def test_package_module_spec_with_relative_imports_over_stdio(tmp_path: Path) -> None:
    """`serve pkg.module:obj` imports under the real name: relative imports work, `__main__` does not run."""
    package = tmp_path / "shop"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "catalog.py").write_text("TITLES = ('Dune', 'Solaris')\n")
    (package / "app.py").write_text(
        "from mcp.server import MCPServer\n"
        "from .catalog import TITLES\n\n"
        "server = MCPServer('Shop')\n\n\n"
        "@server.tool()\n"
        "def titles() -> str:\n"
        "    return ', '.join(TITLES)\n\n\n"
        "if __name__ == '__main__':\n"
        "    raise SystemExit('the __main__ block must not run')\n"
    )

    async def main() -> str:
        with anyio.fail_after(TIMEOUT):
            async with Client(stdio_params("shop.app:server", cwd=tmp_path)) as client:
                return text_of(await client.call_tool("titles", {}))

    assert anyio.run(main) == "Dune, Solaris"
