"""Sampling, roots and a richer form through `examples/questions/`, on both protocol generations."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from call_helpers import PROTOCOLS, QUESTIONS, call, write_answers


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_sample_reply_answers_the_sampling_resolver(protocol: str) -> None:
    done = call(
        QUESTIONS, "name_book", "--arg", "topic=sand", "--sample-reply", "Dune", "--protocol", protocol
    )
    assert done.returncode == 0, done.stderr
    assert "Your book about sand: Dune" in done.stdout
    assert "server:suggest_title · sampling · answered by --sample-reply" in done.stdout
    assert "Suggest a book title about sand." in done.stdout


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_answers_file_answers_sampling_by_function_name(protocol: str, tmp_path: Path) -> None:
    answers = write_answers(tmp_path, {"suggest_title": {"text": "The Sand Book"}})
    done = call(QUESTIONS, "name_book", "--arg", "topic=sand", "--answers", answers, "--protocol", protocol)
    assert done.returncode == 0, done.stderr
    assert "Your book about sand: The Sand Book" in done.stdout
    assert "answered by answers file" in done.stdout


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_roots_default_to_the_current_folder(protocol: str, tmp_path: Path) -> None:
    done = call(QUESTIONS, "list_workspace", "--protocol", protocol, "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["structuredContent"] == {"result": [tmp_path.resolve().as_uri()]}


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_root_flags_are_the_roots(protocol: str, tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    done = call(
        QUESTIONS, "list_workspace", "--root", tmp_path / "a", "--root", "/srv/data", "--protocol", protocol
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "a").as_uri() in done.stdout and "file:///srv/data" in done.stdout
    assert "server:workspace · roots · answered by --root" in done.stdout


def test_answers_file_roots_win_over_the_default(tmp_path: Path) -> None:
    answers = write_answers(tmp_path, {"server:workspace": {"roots": ["file:///srv/data", "docs"]}})
    done = call(QUESTIONS, "list_workspace", "--answers", answers, "--json")
    assert done.returncode == 0, done.stderr
    roots = json.loads(done.stdout)["structuredContent"]["result"]
    assert roots == ["file:///srv/data", (tmp_path / "docs").as_uri()]


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_richer_form_from_answers_file_shows_structured_content(protocol: str, tmp_path: Path) -> None:
    content = {"travellers": 3, "budget": 100.5, "transport": "bike", "hotel": False}
    answers = write_answers(tmp_path, {"trip_details": {"action": "accept", "content": content}})
    done = call(QUESTIONS, "plan_trip", "--arg", "city=Lyon", "--answers", answers, "--protocol", protocol)
    assert done.returncode == 0, done.stderr
    # Structured content as a field/value table, not the same JSON twice.
    assert "travellers   3" in done.stdout
    assert "budget       301.5" in done.stdout
    assert done.stdout.count('"city"') == 0


def test_recorded_content_that_breaks_the_form_is_refused_naming_the_resolver(tmp_path: Path) -> None:
    content = {"travellers": 12, "budget": 10}
    answers = write_answers(tmp_path, {"trip_details": {"action": "accept", "content": content}})
    done = call(QUESTIONS, "plan_trip", "--arg", "city=Lyon", "--answers", answers)
    assert done.returncode == 2
    assert "server:trip_details" in done.stderr
    assert "12 is greater than the maximum of 8" in done.stderr


def test_answer_of_the_wrong_kind_is_refused(tmp_path: Path) -> None:
    answers = write_answers(tmp_path, {"suggest_title": {"action": "accept", "content": {}}})
    done = call(QUESTIONS, "name_book", "--arg", "topic=sand", "--answers", answers)
    assert done.returncode == 2
    assert "'suggest_title' is a form answer, but server:suggest_title asks the client's LLM" in done.stderr


def test_malformed_answers_file_is_a_sentence(tmp_path: Path) -> None:
    answers = write_answers(tmp_path, {"suggest_title": {"txt": "typo"}})
    done = call(QUESTIONS, "name_book", "--arg", "topic=sand", "--answers", answers)
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


def test_a_question_that_changes_every_round_gives_up_with_a_sentence(tmp_path: Path) -> None:
    (tmp_path / "clock.py").write_text(UNSTABLE, encoding="utf-8")
    answers = write_answers(tmp_path, {"ask": {"action": "accept", "content": {"ok": True}}})
    done = call(tmp_path / "clock.py", "tick", "--answers", answers, "--protocol", "2026-07-28", cwd=tmp_path)
    assert done.returncode == 1
    assert "more than 10 rounds" in done.stderr
    assert "MCPD104" in done.stderr
