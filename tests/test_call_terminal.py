"""The interactive side of `mcpdeps call`, driven through a real pseudo-terminal with pexpect."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pexpect
import pytest
from call_helpers import BOOKSHOP, PROTOCOLS, QUESTIONS
from conftest import REPO


def spawn(sessions: list[pexpect.spawn], *args: str | Path) -> pexpect.spawn:
    env = {**os.environ, "NO_COLOR": "1", "TERM": "dumb", "COLUMNS": "100"}
    env.pop("FORCE_COLOR", None)
    child = pexpect.spawn(
        sys.executable,
        ["-m", "mcpdeps", "call", *map(str, args)],
        cwd=str(REPO),
        env=env,
        encoding="utf-8",
        timeout=30,
        dimensions=(50, 100),
    )
    sessions.append(child)
    return child


def finish(child: pexpect.spawn) -> tuple[str, int]:
    """What was printed after the last expectation, as one line of words (TERM=dumb wraps at 80
    columns, inside panels too), and the exit status."""
    child.expect(pexpect.EOF)
    child.close()
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", child.before).split()), child.exitstatus


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_out_of_stock_order_accepted_at_the_terminal(terminal: list[pexpect.spawn], protocol: str) -> None:
    child = spawn(terminal, BOOKSHOP, "order_book", "--arg", "title=Neuromancer", "--protocol", protocol)
    child.expect("confirm_backorder asks")
    child.expect("out of stock")
    child.expect(r"Order anyway and wait\?")  # the field's description
    child.expect(r"Confirm \(y/n\): ")
    child.sendline("maybe")
    child.expect("answer y or n")
    child.expect(r"Confirm \(y/n\): ")
    child.sendline("y")
    child.expect(r"Send\? \(accept / decline / cancel, default accept\): ")
    child.sendline("")
    output, status = finish(child)
    assert status == 0, output
    assert "Backordered 'Neuromancer'" in output
    assert "confirm_backorder · elicitation · answered by terminal" in output
    assert 'accept {"confirm": true}' in output


def test_decline_at_the_terminal_fails_the_call(terminal: list[pexpect.spawn]) -> None:
    child = spawn(terminal, BOOKSHOP, "order_book", "--arg", "title=Neuromancer")
    child.expect(r"Confirm \(y/n\): ")
    child.sendline("n")
    child.expect(r"Send\? ")
    child.sendline("d")
    output, status = finish(child)
    assert status == 1
    assert "could not resolve: elicitation was decline" in output


def test_any_start_of_the_action_word_is_understood(terminal: list[pexpect.spawn]) -> None:
    """`a` and `accept` were, `acc` was not: a person types as much of the word as they like."""
    child = spawn(terminal, BOOKSHOP, "order_book", "--arg", "title=Neuromancer")
    child.expect(r"Confirm \(y/n\): ")
    child.sendline("y")
    child.expect(r"Send\? ")
    child.sendline("xyz")
    child.expect("type accept, decline or cancel")
    child.expect(r"Send\? ")
    child.sendline("Acc")
    output, status = finish(child)
    assert status == 0, output
    assert "Backordered 'Neuromancer'" in output


def test_richer_form_checks_each_field_where_it_is_typed(terminal: list[pexpect.spawn]) -> None:
    child = spawn(terminal, QUESTIONS, "plan_trip", "--arg", "city=Lyon")
    child.expect("Planning a trip to Lyon")
    child.expect(r"Travellers \(integer 1–8, default 2\): ")
    child.sendline("9")
    child.expect("9: must be at most 8")
    child.sendline("3")
    child.expect(r"Budget \(number ≥ 0\): ")
    child.sendline("")
    child.expect("this field is required")
    child.sendline("-5")
    child.expect("must be at least 0")
    child.sendline("120.5")
    child.expect(r"1\) train   2\) plane   3\) bike")
    child.expect(r"Transport \(default train\): ")
    child.sendline("2")
    child.expect(r"Hotel \(y/n, default y\): ")
    child.sendline("")
    child.expect(r"Notes \(≤ 200 chars, optional, Enter to skip\): ")
    child.sendline("")
    child.expect(r"Send\? ")
    child.sendline("accept")
    output, status = finish(child)
    assert status == 0, output
    assert "budget 361.5" in output
    assert "transport plane" in output
    assert 'accept {"travellers": 3, "budget": 120.5, "transport": "plane", "hotel": true}' in output


def test_sampling_completion_typed_at_the_terminal(terminal: list[pexpect.spawn]) -> None:
    child = spawn(terminal, QUESTIONS, "name_book", "--arg", "topic=sand", "--protocol", "legacy")
    child.expect("suggest_title asks the client's LLM")
    child.expect("system: You name books. Answer with the title only.")
    child.expect("user: Suggest a book title about sand.")
    child.expect("max 30 tokens")
    child.expect(r"Completion \(what the LLM answers\): ")
    child.sendline("Sandworld")
    output, status = finish(child)
    assert status == 0, output
    assert "Your book about sand: Sandworld" in output
    assert "suggest_title · sampling · answered by terminal" in output


def test_stdio_server_questions_reach_the_terminal(terminal: list[pexpect.spawn]) -> None:
    # Legacy over stdio: the asker is named from the static graph, not from the wire.
    args = ("--stdio", BOOKSHOP, "order_book", "--arg", "title=Neuromancer", "--protocol", "legacy")
    child = spawn(terminal, *args)
    child.expect("server:confirm_backorder asks")
    child.expect(r"Confirm \(y/n\): ")
    child.sendline("y")
    child.expect(r"Send\? ")
    child.sendline("a")
    output, status = finish(child)
    assert status == 0, output
    assert "server:confirm_backorder · elicitation · answered by terminal" in output
    assert "protocol 2025-11-25" in output


def test_ctrl_c_at_a_question_ends_the_call_at_once(terminal: list[pexpect.spawn]) -> None:
    """The interrupt comes while the call waits at the prompt (seen on the terminal), not at a
    time after the start: its answer takes milliseconds, and the bound only tells that from a
    call that hangs, so it holds on a machine the other tests keep busy."""
    child = spawn(terminal, BOOKSHOP, "order_book", "--arg", "title=Neuromancer")
    child.expect(r"Confirm \(y/n\): ")
    child.sendintr()
    child.expect("mcpdeps: interrupted", timeout=10)
    _, status = finish(child)
    assert status == 130


TWO_AT_ONCE = """
from typing import Annotated, Literal
from mcp.server import MCPServer
from mcp.server.mcpserver import Elicit, Resolve
from pydantic import BaseModel

mcp = MCPServer("Flight")

class Seat(BaseModel):
    seat: str

class Meal(BaseModel):
    meal: Literal["soup", "salad"]

def ask_seat() -> Elicit[Seat]:
    return Elicit("Which seat?", Seat)

def ask_meal() -> Elicit[Meal]:
    return Elicit("Which meal?", Meal)

@mcp.tool()
def board(seat: Annotated[Seat, Resolve(ask_seat)], meal: Annotated[Meal, Resolve(ask_meal)]) -> str:
    return f"{seat.seat} with {meal.meal}"
"""


def test_questions_of_one_round_are_asked_one_after_the_other(
    terminal: list[pexpect.spawn], tmp_path: Path
) -> None:
    # On 2026-07-28 both questions arrive in the same round and the SDK dispatches them
    # concurrently; the person still gets one whole form at a time.
    (tmp_path / "flight.py").write_text(TWO_AT_ONCE, encoding="utf-8")
    child = spawn(terminal, tmp_path / "flight.py", "board", "--protocol", "2026-07-28")
    child.expect("flight:ask_seat asks")
    child.expect(r"Seat: ")
    child.sendline("12A")
    child.expect(r"Send\? ")
    child.sendline("")
    child.expect("flight:ask_meal asks")
    child.expect(r"1\) soup   2\) salad")
    child.expect(r"Meal: ")
    child.sendline("2")
    child.expect(r"Send\? ")
    child.sendline("")
    output, status = finish(child)
    assert status == 0, output
    assert "12A with salad" in output
