"""`mcpdeps.testing` overrides with the real SDK: the fake runs, the original does not, the schema stays.

Each kind of resolver the SDK accepts is replaced (top level, nested, closure from a
factory, bound method, class), named each way a test can name it, in both protocol modes.
The shop's resolvers count their own runs (`testing_shop.RAN`), which is what the SDK
really ran.
"""

from __future__ import annotations

import pytest
import testing_shop as shop
from mcp.server.mcpserver import Context
from mcpdeps.testing import PROTOCOLS, NotAResolver, OverrideError, TestClient, value
from shop_clients import shop_client, shop_fresh_counts  # noqa: F401 - fixtures `client`, `fresh_counts`


def schemas(client: TestClient) -> dict[str, dict[str, object]]:
    return {name: client.input_schema(name) for name in ("order_book", "quote", "maybe_order")}


def test_a_top_level_resolver_is_replaced_for_every_consumer(client: TestClient) -> None:
    before = schemas(client)
    client.override(shop.check_stock, lambda title: shop.Stock(title=title, copies=3))
    call = client.call("order_book", title="Neuromancer")
    assert call.text == "Ordered 'Neuromancer'; it arrives tomorrow."  # stock, delivery and backorder agree
    assert shop.RAN["check_stock"] == 0
    assert call.runs == {shop.check_stock: 1, "estimate_delivery": 1, "confirm_backorder": 1}
    assert schemas(client) == before


def test_a_nested_resolver_is_replaced_and_its_dependencies_do_not_run(client: TestClient) -> None:
    client.override("estimate_delivery", lambda: "by drone")
    call = client.call("order_book", title="Dune")
    assert call.text == "Ordered 'Dune'; it arrives by drone."
    assert shop.RAN == {"check_stock": 1, "confirm_backorder": 1}


def test_a_fake_gets_its_own_parameters_resolved(client: TestClient) -> None:
    async def pessimist(stock: shop.Annotated[shop.Stock, shop.Resolve(shop.check_stock)], title: str) -> str:
        return f"{title}: {stock.copies} left, so never"

    client.override(shop.estimate_delivery, pessimist)
    assert (
        client.call("order_book", title="Dune").text == "Ordered 'Dune'; it arrives Dune: 7 left, so never."
    )
    assert shop.RAN["check_stock"] == 1, "still one inventory look-up for its three consumers"


def test_closures_from_one_factory_are_told_apart(client: TestClient) -> None:
    client.override(shop.price_us, value(99.0))
    text = client.call("quote", title="Dune").text
    assert text == "['Dune']: 10.0 EUR / 99.0 USD, -10%"
    assert shop.RAN["price x1.0"] == 1 and shop.RAN["price x1.5"] == 0


def test_a_closure_by_id(client: TestClient) -> None:
    client.override("testing_shop:make_pricer.<locals>.price", value(1.0))
    assert client.call("quote", title="Dune").text == "['Dune']: 1.0 EUR / 15.0 USD, -10%"


def test_a_bound_method_and_a_class_resolver(client: TestClient) -> None:
    class FakeCart:
        items = ["a fake"]

    client.override(shop.LEDGER.discount, lambda: 50)
    client.override(shop.Cart, lambda: FakeCart())
    assert client.call("quote", title="Dune").text == "['a fake']: 10.0 EUR / 15.0 USD, -50%"
    assert shop.RAN["Ledger.discount"] == 0 and shop.RAN["Cart"] == 0


def test_overrides_given_when_the_client_is_made() -> None:
    fake = {shop.check_stock: shop.Stock(title="Dune", copies=0)}
    with TestClient(shop.mcp, overrides=fake) as client:
        call = client.call("order_book", title="Dune", answers={"confirm_backorder": {"action": "decline"}})
    assert call.is_error and "elicitation was decline" in call.text
    assert shop.RAN["check_stock"] == 0


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_the_original_is_back_after_the_client_closes_even_on_failure(protocol: str) -> None:
    tool = next(t for t in shop.mcp._tool_manager.list_tools() if t.name == "order_book")
    registered = (tool.resolved_params, tool.resolver_plans)
    with pytest.raises(ZeroDivisionError), TestClient(shop.mcp, protocol=protocol) as client:  # type: ignore[arg-type]
        client.override(shop.check_stock, lambda title: shop.Stock(title=title, copies=0))
        1 / 0  # noqa: B018
    assert (tool.resolved_params, tool.resolver_plans) == registered
    with TestClient(shop.mcp, protocol=protocol) as client:  # type: ignore[arg-type]
        assert client.call("order_book", title="Dune").text == "Ordered 'Dune'; it arrives tomorrow."
    assert shop.RAN["check_stock"] == 1


def test_what_is_not_a_resolver_is_an_error_that_says_what_it_could_mean() -> None:
    client = TestClient(shop.mcp)
    with pytest.raises(
        NotAResolver,
        match=r"'check_stok' is not a resolver of server 'Shop' \(did you mean 'check_stock'\?\)",
    ):
        client.override("check_stok", value(None))
    with pytest.raises(NotAResolver, match="'order_book' is not a resolver of server 'Shop'"):
        client.override(shop.order_book, value(None))
    with pytest.raises(NotAResolver, match=r"names 2 resolvers .*make_pricer.<locals>.price#1"):
        client.override("price", value(None))
    with pytest.raises(NotAResolver, match="another closure or instance"):
        client.override(shop.make_pricer(2.0), value(None))
    with pytest.raises(NotAResolver, match="another closure or instance"):
        client.override(shop.Ledger(5).discount, value(None))


def test_a_fake_the_sdk_would_not_register_is_refused_and_the_client_goes_on(client: TestClient) -> None:
    client.override(shop.estimate_delivery, value("soon"))
    with pytest.raises(OverrideError, match="parameter 'isbn' cannot be resolved"):
        client.override(shop.check_stock, lambda isbn: None)
    assert client.call("order_book", title="Dune").text == "Ordered 'Dune'; it arrives soon."
    assert shop.RAN["check_stock"] == 1


def test_one_client_per_server_at_a_time() -> None:
    with TestClient(shop.mcp), pytest.raises(RuntimeError, match="already has an open"):
        TestClient(shop.mcp).__enter__()


def test_ids_are_the_graphs() -> None:
    from mcpdeps.resolver_core.live import build_live_graph

    ids = [e.id for e in TestClient(shop.mcp).async_client.index.entries]
    assert sorted(ids) == sorted(build_live_graph(shop.mcp).resolvers)
    assert "testing_shop:make_pricer.<locals>.price#1" in ids


def test_a_fake_that_asks_is_answered_under_the_originals_name(client: TestClient) -> None:
    client.override(
        shop.confirm_backorder, lambda title: shop.Elicit(f"Really order {title}?", shop.Backorder)
    )
    call = client.call(
        "order_book",
        title="Dune",
        answers={"confirm_backorder": {"action": "accept", "content": {"confirm": False}}},
    )
    assert call.text == "No order placed."
    assert [(q.resolver, q.text) for q in call.questions] == [
        ("testing_shop:confirm_backorder", "Really order Dune?")
    ]
    assert shop.RAN["confirm_backorder"] == 0


def test_the_async_client_in_an_event_loop() -> None:
    import anyio
    from mcpdeps.testing import AsyncTestClient

    async def main() -> list[str]:
        async with AsyncTestClient(shop.mcp, protocol="2026-07-28") as client:
            client.override("check_stock", value(shop.Stock(title="Dune", copies=2)))
            first = await client.call("order_book", {"title": "Dune"})
            return [first.text, str(first.rounds)]

    assert anyio.run(main) == ["Ordered 'Dune'; it arrives tomorrow.", "1"]


def test_an_sdk_outside_the_range_is_one_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    from mcpdeps.testing import UnsupportedSDK, sdk_internals

    monkeypatch.setattr(sdk_internals.metadata, "version", lambda name: "3.1.0")
    with pytest.raises(
        UnsupportedSDK, match=r"^mcpdeps.testing supports mcp>=2.3,<3, but mcp 3.1.0 is installed.$"
    ):
        TestClient(shop.mcp)


def test_a_fake_can_take_the_context_and_the_sdk_passes_it(client: TestClient) -> None:
    seen: list[object] = []

    def stock_from_context(ctx: Context, title: str) -> shop.Stock:
        seen.append(ctx.request_id)
        return shop.Stock(title=title, copies=1)

    client.override("check_stock", stock_from_context)
    assert client.call("reserve_book", title="Neuromancer").text == "Reserved 'Neuromancer' (0 copies left)."
    assert len(seen) == 1 and seen[0] is not None


def test_bound_methods_and_classes_by_qualname_and_id(client: TestClient) -> None:
    client.override("Ledger.discount", 30)
    client.override("testing_shop:Cart", value(shop.Cart("by id")))
    assert client.call("quote", title="Dune").text == "['by id']: 10.0 EUR / 15.0 USD, -30%"
    assert shop.RAN == {"price x1.0": 1, "price x1.5": 1, "Cart": 1}  # the one Cart made above


def test_a_value_in_place_of_a_question_asks_nothing(client: TestClient) -> None:
    client.override(shop.confirm_backorder, shop.Backorder(confirm=True))
    call = client.call("order_book", title="Neuromancer")
    assert (call.text, call.questions, call.rounds) == (
        "Backordered 'Neuromancer'; it would arrive in 2-3 weeks.",
        [],
        1,
    )


def test_what_is_not_an_mcpserver_is_refused_in_one_sentence() -> None:
    with pytest.raises(
        TypeError,
        match=r"^mcpdeps.testing tests an MCPServer \(`from mcp.server import MCPServer`\), not NoneType.$",
    ):
        TestClient(None)  # type: ignore[arg-type]
