"""`mcpdeps.testing`: test an MCP tool with its resolvers replaced and its questions answered.

    from mcpdeps.testing import TestClient

    with TestClient(server, protocol="2026-07-28") as client:
        client.override(check_stock, lambda title: Stock(title=title, copies=0))
        call = client.call("order_book", title="Dune",
                           answers={"confirm_backorder": {"action": "decline"}})

Under pytest the plugin's `mcp_client` fixture is such a client, opened on your `mcp_server`
fixture in each protocol mode and closed (overrides undone) when the test ends.
Names are imported on first use, so importing this package (and the pytest plugin) costs
nothing until a test uses it.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .answering import Question, UnansweredQuestion
    from .client import PROTOCOLS, AsyncTestClient, read_answers
    from .identity import access_token
    from .naming import NotAResolver
    from .record import CallRecord, Runs
    from .rewiring import OverrideError, value
    from .sdk_internals import UnsupportedSDK
    from .sync_client import TestClient

_WHERE = {
    "AsyncTestClient": "client",
    "PROTOCOLS": "client",
    "read_answers": "client",
    "TestClient": "sync_client",
    "CallRecord": "record",
    "Runs": "record",
    "Question": "answering",
    "UnansweredQuestion": "answering",
    "NotAResolver": "naming",
    "OverrideError": "rewiring",
    "value": "rewiring",
    "UnsupportedSDK": "sdk_internals",
    "access_token": "identity",
}

__all__ = [
    "PROTOCOLS",
    "AsyncTestClient",
    "CallRecord",
    "NotAResolver",
    "OverrideError",
    "Question",
    "Runs",
    "TestClient",
    "UnansweredQuestion",
    "UnsupportedSDK",
    "access_token",
    "read_answers",
    "value",
]


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module 'mcpdeps.testing' has no attribute {name!r}")
    return getattr(import_module(f".{_WHERE[name]}", __name__), name)
