"""`examples/bookshop` does what the seed page says, under the SDK's real in-process `Client`.

The oracle test only proves the example *registers*; this proves the graph behaves at
call time: resolved parameters stay out of the schema, `check_stock` feeds the tools,
`confirm_backorder` asks only when the book is out of stock, and `suggest_title`'s
`Sample` reaches the client's sampling callback.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Coroutine
from pathlib import Path
from types import ModuleType
from typing import Any

import anyio
import pytest

BOOKSHOP = Path(__file__).resolve().parents[2] / "examples" / "bookshop" / "server.py"


@pytest.fixture(scope="module")
def bookshop() -> ModuleType:
    """The example imported from its file, under a name that cannot clash with other tests."""
    spec = importlib.util.spec_from_file_location("bookshop_example", BOOKSHOP)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class FakeClient:
    """Answers the server's questions like a user and an LLM would, and remembers what was asked."""

    def __init__(self, confirm: bool | None) -> None:
        self.confirm = confirm
        self.asked: list[str] = []

    async def elicit(self, context: Any, params: Any) -> Any:
        from mcp.types import ElicitResult

        self.asked.append(params.message)
        if self.confirm is None:
            return ElicitResult(action="decline")
        return ElicitResult(action="accept", content={"confirm": self.confirm})

    async def sample(self, context: Any, params: Any) -> Any:
        from mcp.types import CreateMessageResult, TextContent

        self.asked.append(params.messages[0].content.text)
        return CreateMessageResult(
            role="assistant", content=TextContent(type="text", text="Dune"), model="fake"
        )


def run_with_client(
    bookshop: ModuleType, fake: FakeClient, body: Callable[[Any], Coroutine[Any, Any, Any]]
) -> Any:
    """Connect the SDK's Client in-process to the example's server and run `body(client)`."""
    from mcp import Client

    async def main() -> Any:
        async with Client(
            bookshop.mcp, elicitation_callback=fake.elicit, sampling_callback=fake.sample
        ) as client:
            return await body(client)

    return anyio.run(main)


def call(bookshop: ModuleType, fake: FakeClient, tool: str, arguments: dict[str, Any]) -> tuple[bool, str]:
    """Call one tool; return (is_error, text of the first content block)."""

    async def body(client: Any) -> tuple[bool, str]:
        result = await client.call_tool(tool, arguments)
        return bool(result.is_error), result.content[0].text

    return run_with_client(bookshop, fake, body)


def test_resolved_parameters_are_not_in_the_input_schemas(bookshop: ModuleType) -> None:
    async def body(client: Any) -> dict[str, list[str]]:
        listed = await client.list_tools()
        return {tool.name: list(tool.input_schema["properties"]) for tool in listed.tools}

    assert run_with_client(bookshop, FakeClient(True), body) == {
        "reserve_book": ["title"],
        "order_book": ["title"],
        "recommend_book": ["genre"],
    }


def test_reserve_book_receives_the_stock_from_check_stock(bookshop: ModuleType) -> None:
    fake = FakeClient(True)
    assert call(bookshop, fake, "reserve_book", {"title": "Dune"}) == (
        False,
        "Reserved 'Dune' (6 copies left).",
    )
    assert call(bookshop, fake, "reserve_book", {"title": "Neuromancer"}) == (
        False,
        "'Neuromancer' is out of stock.",
    )
    assert fake.asked == []


def test_order_book_in_stock_asks_nothing(bookshop: ModuleType) -> None:
    fake = FakeClient(False)
    assert call(bookshop, fake, "order_book", {"title": "Dune"}) == (
        False,
        "Ordered 'Dune'; it arrives tomorrow.",
    )
    assert fake.asked == []


@pytest.mark.parametrize(
    ("confirm", "expected"),
    [
        (True, (False, "Backordered 'Neuromancer'; it would arrive in 2-3 weeks.")),
        (False, (False, "No order placed.")),
        (
            None,
            (
                True,
                "Error executing tool order_book: Resolver for parameter 'backorder' could not resolve: "
                "elicitation was decline",
            ),
        ),
    ],
)
def test_order_book_out_of_stock_asks_the_user_once(
    bookshop: ModuleType, confirm: bool | None, expected: tuple[bool, str]
) -> None:
    fake = FakeClient(confirm)
    assert call(bookshop, fake, "order_book", {"title": "Neuromancer"}) == expected
    assert fake.asked == ["'Neuromancer' is out of stock (2-3 weeks). Order anyway?"]


def test_recommend_book_samples_the_clients_llm(bookshop: ModuleType) -> None:
    fake = FakeClient(True)
    assert call(bookshop, fake, "recommend_book", {"genre": "sci-fi"}) == (False, "Today's sci-fi pick: Dune")
    assert fake.asked == ["Suggest one sci-fi book title. Answer with the title only."]
