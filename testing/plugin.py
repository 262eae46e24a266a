"""The pytest plugin (`pytest11` entry point `mcpdeps`): the `mcp_client` fixture.

    @pytest.fixture
    def mcp_server():
        return mcp                      # the server under test

    def test_in_stock(mcp_client):
        assert mcp_client.call("order_book", title="Dune").text == "Ordered 'Dune'."

`mcp_client` is a `mcpdeps.testing.TestClient` on `mcp_server`, once per protocol mode
(`mcp_protocol`: legacy and 2026-07-28; narrow it with `@pytest.mark.mcp_protocol("legacy")`),
closed when the test ends, failed or not, which undoes its overrides. Loading the plugin
imports nothing but this module: a run that uses no fixture of it pays nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

_PROTOCOLS = ("legacy", "2026-07-28")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "mcp_protocol(*versions): run the test's mcp_client only in these protocol modes "
        "('legacy', '2026-07-28').",
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Run each test that uses `mcp_client` once per protocol mode (those of its marker, if any)."""
    if "mcp_protocol" not in metafunc.fixturenames:
        return
    marker = metafunc.definition.get_closest_marker("mcp_protocol")
    protocols = marker.args if marker is not None else _PROTOCOLS
    unknown = [v for v in protocols if v not in _PROTOCOLS]
    if not protocols or unknown:
        pytest.fail(
            f"@pytest.mark.mcp_protocol takes one or more of {', '.join(map(repr, _PROTOCOLS))}; "
            f"{metafunc.definition.nodeid} gives {', '.join(map(repr, protocols)) or 'none'}.",
            pytrace=False,
        )
    metafunc.parametrize("mcp_protocol", protocols, indirect=True)


@pytest.fixture
def mcp_protocol(request: pytest.FixtureRequest) -> str:
    """The protocol mode of `mcp_client`: 'legacy' (initialize handshake) or '2026-07-28'."""
    return str(getattr(request, "param", _PROTOCOLS[0]))


@pytest.fixture
def mcp_server() -> Any:
    """The server under test: define this fixture (returning your `MCPServer`) to use `mcp_client`."""
    pytest.fail(
        "mcp_client needs the server under test: define a fixture named `mcp_server` that returns "
        "your MCPServer (in conftest.py: `@pytest.fixture\\ndef mcp_server(): return mcp`).",
        pytrace=False,
    )


@pytest.fixture
def mcp_client(mcp_server: Any, mcp_protocol: str) -> Iterator[Any]:
    """A `mcpdeps.testing.TestClient` on `mcp_server` in the `mcp_protocol` mode."""
    from .sync_client import TestClient

    with TestClient(mcp_server, protocol=mcp_protocol) as client:  # type: ignore[arg-type]
        yield client
