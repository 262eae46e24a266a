"""The SDK's own `Client` against `mcpdeps serve`, over stdio and HTTP, on both protocol generations.

One HTTP server is shared by the module (starting one costs about a second);
stdio sessions are launched by the client itself, as real hosts do.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import anyio
import pytest
from mcp import Client
from test_serve_support import BOOKSHOP, PROTOCOLS, ElicitationAnswers, serving_http, stdio_params, text_of

TIMEOUT = 60


@pytest.fixture(scope="module")
def http_url() -> Iterator[str]:
    with serving_http(BOOKSHOP) as (_, url):
        yield url


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
