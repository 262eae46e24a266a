"""Sampling, roots and a richer form through `examples/questions/`, on both protocol generations.

A few cases run the real CLI in a subprocess (exit codes, stdout/stderr); the many
variations run the same library path in this process, with the real SDK `Client`
connected in memory to the example server imported once.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from call_helpers import PROTOCOLS, QUESTIONS, call, call_in_process, load_example, write_answers
from mcpdeps.cli.call.answers import AnswersFile, load_answers
from mcpdeps.cli.call.questions import AnswerSources
from mcpdeps.cli.errors import UserError

if TYPE_CHECKING:
    from mcp.server import MCPServer


@pytest.fixture(scope="module")
def server() -> MCPServer:
    return load_example(QUESTIONS)


def answers(entries: dict[str, object]) -> AnswerSources:
    return AnswerSources(answers=AnswersFile.model_validate(entries))


# --------------------------------------------------------------------------- the real CLI


def test_cli_sample_reply_answers_the_sampling_resolver() -> None:
    done = call(QUESTIONS, "name_book", "--arg", "topic=sand", "--sample-reply", "Dune")
    assert done.returncode == 0, done.stderr
    assert "Your book about sand: Dune" in done.stdout
    assert "server:suggest_title · sampling · answered by --sample-reply" in done.stdout
    assert "Suggest a book title about sand." in done.stdout


def test_cli_roots_default_to_the_current_folder(tmp_path: Path) -> None:
    done = call(QUESTIONS, "list_workspace", "--protocol", "legacy", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["structuredContent"] == {"result": [tmp_path.resolve().as_uri()]}


def test_cli_richer_form_from_answers_file(tmp_path: Path) -> None:
    content = {"travellers": 3, "budget": 100.5, "transport": "bike", "hotel": False}
    path = write_answers(tmp_path, {"trip_details": {"action": "accept", "content": content}})
    done = call(QUESTIONS, "plan_trip", "--arg", "city=Lyon", "--answers", path, "--protocol", "legacy")
    assert done.returncode == 0, done.stderr
    assert "travellers   3" in done.stdout  # structured content as a field/value table
    assert "budget       301.5" in done.stdout
    assert '"city"' not in done.stdout  # ...and not the same JSON again as text


def test_cli_malformed_answers_file_is_a_sentence(tmp_path: Path) -> None:
    path = write_answers(tmp_path, {"suggest_title": {"txt": "typo"}})
    done = call(QUESTIONS, "name_book", "--arg", "topic=sand", "--answers", path)
    assert done.returncode == 2
    assert "answer for 'suggest_title'" in done.stderr
    assert "Traceback" not in done.stderr


UNSTABLE = """
import time
from typing import Annotated
from mcp.server import MCPServer
from mcp.server.mcpserver import Elicit, Resolve
from pydantic import BaseModel

mcp = MCPServer("Clock")

class Ok(BaseModel):
    ok: bool

def ask() -> Elicit[Ok]:
    return Elicit(f"Asked at {time.perf_counter_ns()}", Ok)

@mcp.tool()
def tick(answer: Annotated[Ok, Resolve(ask)]) -> str:
    return "done"
"""


def test_cli_question_that_changes_every_round_gives_up_with_a_sentence(tmp_path: Path) -> None:
    (tmp_path / "clock.py").write_text(UNSTABLE, encoding="utf-8")
    path = write_answers(tmp_path, {"ask": {"action": "accept", "content": {"ok": True}}})
    done = call(tmp_path / "clock.py", "tick", "--answers", path, "--protocol", "2026-07-28", cwd=tmp_path)
    assert done.returncode == 1
    assert "still asking after 10 rounds" in done.stderr
    assert "MCPD104" in done.stderr
    assert done.stdout.count("clock:ask · elicitation · answered by answers file") == 10


# --------------------------------------------------------------------------- in process, both protocols


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_sample_reply(server: MCPServer, protocol: str) -> None:
    done = call_in_process(
        server, "name_book", "topic=sand", sources=AnswerSources(sample_reply="Dune"), protocol=protocol
    )
    assert "Your book about sand: Dune" in done.text
    [asked] = done.transcript
    assert (asked.resolver, asked.kind, asked.answered_by) == (
        "server:suggest_title",
        "sample",
        "--sample-reply",
    )


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_sampling_answered_by_function_name(server: MCPServer, protocol: str) -> None:
    sources = answers({"suggest_title": {"text": "The Sand Book"}})
    done = call_in_process(server, "name_book", "topic=sand", sources=sources, protocol=protocol)
    assert "Your book about sand: The Sand Book" in done.text
    assert done.transcript[0].answered_by == "answers file"


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_sampling_answered_by_a_whole_result(server: MCPServer, protocol: str) -> None:
    result = {
        "role": "assistant",
        "content": {"type": "text", "text": "Dune"},
        "model": "m",
        "stopReason": "maxTokens",
    }
    done = call_in_process(
        server, "name_book", "topic=sand", sources=answers({"suggest_title": {"result": result}})
    )
    assert "Your book about sand: Dune" in done.text
    assert done.transcript[0].answer == "Dune"
    broken = answers({"suggest_title": {"result": {"role": "assistant"}}})
    with pytest.raises(
        UserError, match="The sampling answer for server:suggest_title is not a CreateMessageResult"
    ):
        call_in_process(server, "name_book", "topic=sand", sources=broken, protocol=protocol)


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_root_flags_are_the_roots(server: MCPServer, protocol: str, tmp_path: Path) -> None:
    sources = AnswerSources(roots=[tmp_path, Path("/srv/data")])
    done = call_in_process(server, "list_workspace", sources=sources, protocol=protocol)
    assert done.outcome.result is not None
    assert done.outcome.result.structured_content == {"result": [tmp_path.as_uri(), "file:///srv/data"]}
    assert "server:workspace · roots · answered by --root" in done.text


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_roots_from_the_answers_file_win(server: MCPServer, protocol: str, tmp_path: Path) -> None:
    path = write_answers(tmp_path, {"server:workspace": {"roots": ["file:///srv/data", "docs"]}})
    sources = AnswerSources(answers=load_answers(path), roots=[Path("/ignored")])
    done = call_in_process(server, "list_workspace", sources=sources, protocol=protocol)
    assert done.outcome.result is not None
    roots = done.outcome.result.structured_content["result"]  # type: ignore[index]
    assert roots == ["file:///srv/data", (tmp_path / "docs").as_uri()]


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_richer_form_with_defaults_left_out(server: MCPServer, protocol: str) -> None:
    sources = answers({"server:trip_details": {"action": "accept", "content": {"budget": 50}}})
    done = call_in_process(server, "plan_trip", "city=Oslo", sources=sources, protocol=protocol)
    assert done.outcome.result is not None and not done.outcome.result.is_error
    assert done.outcome.result.structured_content == {
        "city": "Oslo",
        "travellers": 2,
        "budget": 100.0,
        "transport": "train",
        "hotel": True,
        "notes": "",
    }
    assert done.transcript[0].question == "Planning a trip to Oslo: a few details, please."


@pytest.mark.parametrize("action", ["decline", "cancel"])
def test_declined_form_fails_with_the_sdk_message(server: MCPServer, action: str) -> None:
    done = call_in_process(
        server, "plan_trip", "city=Oslo", sources=answers({"trip_details": {"action": action}})
    )
    assert done.outcome.result is not None and done.outcome.result.is_error
    assert f"could not resolve: elicitation was {action}" in done.text


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_recorded_content_that_breaks_the_form_is_refused(server: MCPServer, protocol: str) -> None:
    sources = answers({"trip_details": {"action": "accept", "content": {"travellers": 12, "budget": 10}}})
    with pytest.raises(UserError) as caught:
        call_in_process(server, "plan_trip", "city=Lyon", sources=sources, protocol=protocol)
    assert "server:trip_details" in str(caught.value)
    assert "12 is greater than the maximum of 8" in str(caught.value)


def test_answer_of_the_wrong_kind_is_refused(server: MCPServer) -> None:
    sources = answers({"suggest_title": {"action": "accept", "content": {}}})
    with pytest.raises(
        UserError, match="'suggest_title' is a form answer, but server:suggest_title asks the client"
    ):
        call_in_process(server, "name_book", "topic=sand", sources=sources)


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_no_terminal_and_no_answer_names_the_resolver_and_shows_a_fitting_entry(
    server, protocol: str
) -> None:
    with pytest.raises(UserError) as caught:
        call_in_process(server, "plan_trip", "city=Lyon", protocol=protocol)
    message = str(caught.value)
    assert "server:trip_details" in message
    assert '"content": {"travellers": 2, "budget": 0, "transport": "train", "hotel": true' in message


TWO_QUESTIONS = """
from typing import Annotated
from mcp.server import MCPServer
from mcp.server.mcpserver import Elicit, Resolve
from pydantic import BaseModel

mcp = MCPServer("Two")

class Seat(BaseModel):
    seat: str

class Meal(BaseModel):
    meal: str

def ask_seat() -> Elicit[Seat]:
    return Elicit("Seat?", Seat)

def ask_meal(seat: Annotated[Seat, Resolve(ask_seat)]) -> Elicit[Meal]:
    return Elicit(f"Meal for seat {seat.seat}?", Meal)

@mcp.tool()
def board(meal: Annotated[Meal, Resolve(ask_meal)], seat: Annotated[Seat, Resolve(ask_seat)]) -> str:
    return f"{seat.seat}: {meal.meal}"
"""


@pytest.fixture(scope="module")
def two_questions(tmp_path_factory: pytest.TempPathFactory) -> MCPServer:
    """A tool whose two resolvers ask the same kind of question, the second depending on the first."""
    path = tmp_path_factory.mktemp("two") / "two_questions.py"
    path.write_text(TWO_QUESTIONS, encoding="utf-8")
    return load_example(path)


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_each_question_is_pinned_to_its_resolver(two_questions: MCPServer, protocol: str) -> None:
    # On legacy the asker is inferred (run order, form fields); on 2026-07-28 it is the wire key.
    sources = answers(
        {
            "ask_seat": {"action": "accept", "content": {"seat": "12A"}},
            "ask_meal": {"action": "accept", "content": {"meal": "soup"}},
        }
    )
    done = call_in_process(two_questions, "board", sources=sources, protocol=protocol)
    assert "12A: soup" in done.text
    assert [q.resolver for q in done.transcript] == ["two_questions:ask_seat", "two_questions:ask_meal"]
    assert done.transcript[1].question == "Meal for seat 12A?"
