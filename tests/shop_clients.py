"""The fixtures of the `mcpdeps.testing` tests on `testing_shop`: a test client per protocol,
and the shop's run counters cleared around every test (a count is what the tests compare).

A test module imports them (`from shop_clients import shop_client, shop_fresh_counts`) and
asks for them by their fixture names, `client` and `fresh_counts`."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import testing_shop as shop
from mcpdeps.testing import PROTOCOLS, TestClient


@pytest.fixture(autouse=True, name="fresh_counts")
def shop_fresh_counts() -> Iterator[None]:
    shop.RAN.clear()
    yield
    shop.RAN.clear()


@pytest.fixture(params=PROTOCOLS, name="client")
def shop_client(request: pytest.FixtureRequest) -> Iterator[TestClient]:
    with TestClient(shop.mcp, protocol=request.param) as opened:
        yield opened
