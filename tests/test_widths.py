"""Narrow and wide terminals: nothing that matters is cut at 60, 80 or 200 columns.

Real runs of the CLI with `COLUMNS` set (rich follows it, as on a terminal of that width),
and a real pseudo-terminal of 60 columns for the log lines of `serve`.
"""

from __future__ import annotations

import io
import json
import os
import re
import sys
import time
from pathlib import Path

import pexpect
import pytest
from conftest import REPO, run_mcpdeps

BOOKSHOP = "examples/bookshop/server.py"
WIDTHS = (60, 80, 200)
HELPS = (
    (),
    ("lint",),
    ("graph",),
    ("serve",),
    ("call",),
    ("rule",),
    ("new",),
    ("new", "server"),
    ("new", "tool"),
    ("new", "resolver"),
)


@pytest.fixture(scope="module", params=WIDTHS, ids=str)
def width(request: pytest.FixtureRequest) -> int:
    """The terminal's width: a module-scoped parameter, so that pytest runs every test of one
    width before the next width."""
    return request.param


def at(width: int) -> dict[str, str]:
    return {"COLUMNS": str(width)}


def test_help_never_cuts_an_option_name_or_a_word(width: int) -> None:
    for command in HELPS:
        proc = run_mcpdeps(*command, "--help", env=at(width))
        assert proc.returncode == 0, proc.stderr
        assert "…" not in proc.stdout, (command, proc.stdout)
        if command == ("lint",):
            assert "--output-format" in proc.stdout and "--stdin-filename" in proc.stdout
            words = " ".join(re.sub(r"[│╭╮╰╯─]", " ", proc.stdout).split())
            assert "[tool.mcpdeps] in the nearest" in words  # not eaten as rich markup
        if command == ("serve",):
            assert re.search(r"Default:\s+\[tool\.mcpdeps\]\s+serve", proc.stdout), proc.stdout
            assert "\\[" not in proc.stdout


def test_serve_banner_keeps_every_name_whole(width: int) -> None:
    proc = run_mcpdeps("serve", BOOKSHOP, env=at(width), input="")  # stdin at EOF: banner, then exit
    assert proc.returncode == 0, proc.stderr
    banner = proc.stderr
    assert "…" not in banner
    for name in ("check_stock", "estimate_delivery", "confirm_backorder", "suggest_title"):
        assert name in banner
    words = " ".join(re.sub(r"[│]", " ", banner).split())
    assert "the user (confirm_backorder)" in words and "confirm_backorder: asks" not in words
    assert all(len(line) <= width for line in banner.splitlines())


def test_serve_logs_in_one_style_on_a_60_column_terminal() -> None:
    env = {**os.environ, "COLUMNS": "60", "NO_COLOR": "1", "TERM": "xterm"}
    env.pop("FORCE_COLOR", None)
    child = pexpect.spawn(
        sys.executable,
        ["-m", "mcpdeps", "serve", BOOKSHOP, "-t", "http", "-p", "0", "--no-banner"],
        cwd=str(REPO),
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(40, 60),
    )
    seen = io.StringIO()
    child.logfile_read = seen
    try:
        child.expect("Application startup complete")
        time.sleep(0.3)
        child.sendintr()
        child.expect(pexpect.EOF, timeout=30)
        output = seen.getvalue()
    finally:
        child.close(force=True)
    lines = [line for line in output.replace("\r", "").splitlines() if line.strip()]
    logs = [line for line in lines if "INFO" in line]
    assert "    INFO  StreamableHTTP session manager started" in logs  # the SDK's, on one line
    assert "    INFO  Started server process" in "\n".join(logs)  # uvicorn's, same gutter
    assert not any(re.match(r"\s*\S\s*$", line) for line in lines), output  # no one-letter lines
    assert "INFO:" not in output and ".py:" not in output  # no uvicorn default, no rich file column


@pytest.fixture(scope="module")
def answers(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("answers") / "answers.json"
    path.write_text(json.dumps({"confirm_backorder": {"action": "accept", "content": {"confirm": True}}}))
    return path


def test_call_questions_wrap_under_their_block(width: int, answers: Path) -> None:
    proc = run_mcpdeps(
        "call", BOOKSHOP, "order_book", "--arg", "title=Neuromancer", "--answers", answers, env=at(width)
    )
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.splitlines()
    block = out[out.index("Questions") + 1 : -1]  # up to the protocol line
    assert block and block[0].startswith("  1. server:confirm_backorder")
    assert all(line.startswith("     ") for line in block[1:]), proc.stdout  # never back at column 0
    assert all(line == line.rstrip() for line in out), "lines padded with spaces"
    assert "→ accept" in proc.stdout
