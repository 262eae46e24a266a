"""`mcpdeps.testing` answers, records and identity with the real SDK, in both protocol modes.

Answers go through the SDK's own client callbacks, so what the tool receives is what the
SDK delivers (compared with a bare `Client` and a hand-written callback); run counts are
compared with the resolvers' own side effects (`testing_shop.RAN`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest
import testing_shop as shop
from mcp import Client
from mcp_types import ElicitResult
from mcpdeps.resolver_core.answers import AnswersError
from mcpdeps.testing import PROTOCOLS, NotAResolver, TestClient, UnansweredQuestion, access_token
from shop_clients import shop_client, shop_fresh_counts  # noqa: F401 - fixtures `client`, `fresh_counts`

ACCEPT = {"confirm_backorder": {"action": "accept", "content": {"confirm": True}}}


def bare_sdk_call(protocol: str, tool: str, arguments: dict[str, Any], answer: ElicitResult) -> Any:
    """The same call through a bare SDK `Client` whose callback answers by hand."""

    async def elicit(_ctx: Any, _params: Any) -> ElicitResult:
        return answer

    async def main() -> Any:
        async with Client(shop.mcp, mode=protocol, elicitation_callback=elicit) as bare:
            return await bare.call_tool(tool, arguments)

    return anyio.run(main)


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ({"action": "accept", "content": {"confirm": False}}, "accept: confirm=False"),
        ({"action": "decline"}, "decline"),
        ({"action": "cancel"}, "cancel"),
    ],
)
def test_each_outcome_reaches_an_elicitation_result_consumer(
    client: TestClient, answer: dict[str, Any], expected: str
) -> None:
    call = client.call("maybe_order", title="Neuromancer", answers={"confirm_backorder": answer})
    assert call.text == expected
    bare = bare_sdk_call(client.protocol, "maybe_order", {"title": "Neuromancer"}, ElicitResult(**answer))
    assert call.result.content == bare.content and call.result.is_error == bare.is_error


@pytest.mark.parametrize("action", ["decline", "cancel"])
def test_an_unwrapped_consumer_aborts_as_the_sdk_does(client: TestClient, action: str) -> None:
    call = client.call("order_book", title="Neuromancer", answers={"confirm_backorder": {"action": action}})
    assert call.is_error
    assert call.text == (
        f"Error executing tool order_book: Resolver for parameter 'backorder' could not resolve: elicitation was {action}"
    )
    bare = bare_sdk_call(client.protocol, "order_book", {"title": "Neuromancer"}, ElicitResult(action=action))
    assert call.result.content == bare.content


def test_runs_and_rounds_are_what_the_sdk_ran(client: TestClient) -> None:
    modern = client.protocol != "legacy"
    in_stock = client.call("order_book", title="Dune")
    assert (in_stock.rounds, in_stock.questions) == (1, [])
    assert in_stock.runs == {"check_stock": 1, "estimate_delivery": 1, "confirm_backorder": 1} == shop.RAN
    shop.RAN.clear()
    asked = client.call("order_book", title="Neuromancer", answers=ACCEPT)
    assert asked.text == "Backordered 'Neuromancer'; it would arrive in 2-3 weeks."
    assert asked.rounds == (2 if modern else 1)
    runs = 2 if modern else 1  # every resolver runs again on the round that carries the answer
    assert (
        asked.runs == {"check_stock": runs, "estimate_delivery": runs, "confirm_backorder": runs} == shop.RAN
    )
    assert asked.protocol == ("2026-07-28" if modern else asked.protocol)


def test_questions_are_recorded_in_order_with_their_answers(client: TestClient) -> None:
    answers = {**ACCEPT, "suggest_title": {"text": "Solaris"}}
    call = client.call("gift", title="Neuromancer", genre="sci-fi", answers=answers)
    assert call.text == "Neuromancer (confirm=True) and Solaris"
    asked = [(q.resolver, q.kind, q.text, q.answer) for q in call.questions]
    expected = [
        (
            "testing_shop:confirm_backorder",
            "elicit",
            "'Neuromancer' is out of stock (2-3 weeks). Order anyway?",
            {"action": "accept", "content": {"confirm": True}},
        ),
        ("testing_shop:suggest_title", "sample", "Suggest one sci-fi book title.", {"text": "Solaris"}),
    ]
    # legacy asks one question at a time, in the tool's parameter order; 2026-07-28 asks one round of both
    assert asked == expected if client.protocol == "legacy" else sorted(asked) == sorted(expected)
    assert call.rounds == (1 if client.protocol == "legacy" else 2)


def test_sampling_and_roots_answers(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert client.call(
        "recommend", genre="noir", answers={"suggest_title": {"text": "The Big Sleep"}}
    ).text == ("Read The Big Sleep")
    roots = client.call("workspace", answers={"client_roots": {"roots": ["docs", "file:///srv/data"]}})
    assert roots.structured == {"result": [(tmp_path / "docs").as_uri(), "file:///srv/data"]}


def test_an_unanswered_question_fails_with_its_text(client: TestClient) -> None:
    with pytest.raises(UnansweredQuestion) as failed:
        client.call("order_book", title="Neuromancer")
    assert str(failed.value) == (
        "testing_shop:confirm_backorder asks the user: \"'Neuromancer' is out of stock (2-3 weeks). Order anyway?\", "
        'and the test gives no answer for it. Give one, e.g. answers={"confirm_backorder": '
        '{"action": "accept", "content": {"confirm": true}}}.'
    )
    with pytest.raises(UnansweredQuestion, match="asks for the client's roots"):
        client.call("workspace")
    assert client.call("order_book", title="Dune").text == "Ordered 'Dune'; it arrives tomorrow."


def test_answers_that_do_not_fit_the_question_fail_the_test(client: TestClient) -> None:
    with pytest.raises(UnansweredQuestion, match="the test's answer 'confirm_backorder' is a sample answer"):
        client.call("order_book", title="Neuromancer", answers={"confirm_backorder": {"text": "yes"}})
    with pytest.raises(UnansweredQuestion, match="does not fit its form: 'yes' is not of type 'boolean'"):
        client.call(
            "order_book",
            title="Neuromancer",
            answers={"confirm_backorder": {"action": "accept", "content": {"confirm": "yes"}}},
        )


def test_answers_given_once_serve_every_later_call(client: TestClient) -> None:
    client.answer(shop.confirm_backorder, {"action": "accept", "content": {"confirm": False}})
    assert client.call("order_book", title="Neuromancer").text == "No order placed."
    assert client.call("order_book", title="Neuromancer", answers=ACCEPT).text.startswith("Backordered")


def test_answers_file_is_the_call_commands_format(tmp_path: Path) -> None:
    path = tmp_path / "answers.json"
    path.write_text(
        json.dumps(
            {"testing_shop:confirm_backorder": {"action": "decline"}, "client_roots": {"roots": ["."]}}
        )
    )
    with TestClient(shop.mcp, answers=path) as client:
        assert client.call("maybe_order", title="Neuromancer").text == "decline"
    path.write_text(json.dumps({"confirm_backorder": {"action": "maybe"}}))
    with pytest.raises(
        AnswersError, match=r"has an answer of no known shape \(answer for 'confirm_backorder'\)"
    ):
        TestClient(shop.mcp, answers=path)


def test_calling_as_an_access_token(client: TestClient) -> None:
    assert client.call("whoami").text == "anonymous"
    ada = access_token("ada", scopes=["orders:write", "books:read"])
    assert client.call("whoami", access_token=ada).text == "ada ['books:read', 'orders:write']"
    assert client.call("whoami").text == "anonymous", "the identity is the call's, not left behind"


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_client_wide_identity(protocol: str) -> None:
    with TestClient(shop.mcp, protocol=protocol, access_token=access_token(client_id="kiosk")) as client:  # type: ignore[arg-type]
        assert client.call("whoami").text == "kiosk []"
        assert client.call("whoami", access_token=None).text == "anonymous"


def test_an_answer_for_no_resolver_is_an_error(client: TestClient) -> None:
    with pytest.raises(
        NotAResolver, match=r"'confirm_backordr' is not a resolver .*did you mean 'confirm_backorder'"
    ):
        client.call("order_book", title="Dune", answers={"confirm_backordr": {"action": "decline"}})


def test_a_sampling_answer_as_a_whole_result(client: TestClient) -> None:
    from mcp_types import CreateMessageResult, ElicitResult, TextContent

    result = CreateMessageResult(role="assistant", content=TextContent(type="text", text="Ubik"), model="m")
    assert client.call("recommend", genre="sf", answers={"suggest_title": result}).text == "Read Ubik"
    wire = {
        "role": "assistant",
        "content": {"type": "text", "text": "Kindred"},
        "model": "m",
        "stopReason": "endTurn",
    }
    call = client.call("recommend", genre="sf", answers={"suggest_title": {"result": wire}})
    assert (call.text, call.questions[0].answer) == ("Read Kindred", {"result": wire})
    declined = client.call(
        "maybe_order", title="Neuromancer", answers={"confirm_backorder": ElicitResult(action="decline")}
    )
    assert declined.text == "decline"
    with pytest.raises(UnansweredQuestion, match="is not a CreateMessageResult"):
        client.call("recommend", genre="sf", answers={"suggest_title": {"result": {"role": "assistant"}}})
