"""`mcpdeps call` on the bookshop: the real CLI, the real SDK `Client`, both protocol generations."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from call_helpers import BOOKSHOP, PROTOCOLS, call, write_answers

ACCEPT = {"confirm_backorder": {"action": "accept", "content": {"confirm": True}}}


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_in_stock_title_asks_nothing(protocol: str, tmp_path: Path) -> None:
    answers = write_answers(tmp_path, ACCEPT)
    done = call(BOOKSHOP, "order_book", "--arg", "title=Dune", "--protocol", protocol, "--answers", answers)
    assert done.returncode == 0, done.stderr
    assert "Dune" in done.stdout
    assert "No question was asked." in done.stdout
    assert "Resolvers ran, in order: check_stock, estimate_delivery, confirm_backorder" in done.stdout
    assert "Not used from the answers file: confirm_backorder" in done.stderr


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_out_of_stock_title_with_accept_orders_it(protocol: str, tmp_path: Path) -> None:
    answers = write_answers(tmp_path, ACCEPT)
    done = call(
        BOOKSHOP, "order_book", "--arg", "title=Neuromancer", "--answers", answers, "--protocol", protocol
    )
    assert done.returncode == 0, done.stderr
    assert "Neuromancer" in done.stdout
    assert ":confirm_backorder · elicitation · answered by answers file" in done.stdout
    assert 'accept {"confirm": true}' in done.stdout
    assert ("protocol 2026-07-28" if protocol != "legacy" else "protocol 2025-11-25") in done.stdout


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_out_of_stock_title_with_decline_fails_with_the_sdk_message(protocol: str, tmp_path: Path) -> None:
    # Keyed by module:qualname this time; the SDK's own wording of the failure comes through.
    answers = write_answers(tmp_path, {"server:confirm_backorder": {"action": "decline"}})
    done = call(
        BOOKSHOP, "order_book", "--arg", "title=Neuromancer", "--answers", answers, "--protocol", protocol
    )
    assert done.returncode == 1, done.stderr
    assert "could not resolve: elicitation was decline" in done.stdout
    assert 'order_book(title="Neuromancer") failed' in done.stdout
    assert "→ decline" in done.stdout


def test_a_question_without_answer_or_terminal_names_the_resolver() -> None:
    done = call(BOOKSHOP, "order_book", "--arg", "title=Neuromancer")
    assert done.returncode == 2
    assert "confirm_backorder" in done.stderr
    assert "no terminal" in done.stderr
    assert '{"confirm_backorder": {"action": "accept", "content": {"confirm": true}}}' in done.stderr
    assert "Traceback" not in done.stderr


def test_json_prints_the_raw_result(tmp_path: Path) -> None:
    answers = write_answers(tmp_path, ACCEPT)
    done = call(
        BOOKSHOP, "order_book", "--args-json", '{"title": "Neuromancer"}', "--answers", answers, "--json"
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["isError"] is False
    assert "Neuromancer" in result["content"][0]["text"]


def test_unknown_tool_lists_the_tools() -> None:
    done = call(BOOKSHOP, "order_books", "--arg", "title=Dune")
    assert done.returncode == 2
    assert "no tool named 'order_books'" in done.stderr
    assert "order_book" in done.stderr and "reserve_book" in done.stderr


def test_missing_argument_is_reported_from_the_schema_before_calling() -> None:
    done = call(BOOKSHOP, "order_book")
    assert done.returncode == 2
    assert "missing required argument: 'title'" in done.stderr
    assert "title: string (required)" in done.stderr


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_stdio_runs_mcpdeps_serve_and_answers_over_it(protocol: str, tmp_path: Path) -> None:
    answers = write_answers(tmp_path, ACCEPT)
    done = call(
        "--stdio",
        BOOKSHOP,
        "order_book",
        "--arg",
        "title=Neuromancer",
        "--answers",
        answers,
        "--protocol",
        protocol,
    )
    assert done.returncode == 0, done.stderr
    assert "Neuromancer" in done.stdout
    assert 'accept {"confirm": true}' in done.stdout


@pytest.mark.parametrize("transport", [(), ("--stdio",)])
def test_a_server_lint_refuses_is_not_started(transport: tuple[str, ...]) -> None:
    done = call(
        *transport, BOOKSHOP.parent.parent / "broken" / "server.py", "order_book", "--arg", "title=Dune"
    )
    assert done.returncode == 1
    assert "MCPD001" in done.stderr
    assert "Traceback" not in done.stderr
