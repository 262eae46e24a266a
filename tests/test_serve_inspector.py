"""The MCP Inspector from npm (pinned) against `mcpdeps serve`: its CLI over stdio and HTTP, its web UI.

`tests/npm_tools.py` installs the pinned version into `.mcpdeps_cache/npm-tools/` once;
`--inspector` itself goes through npx with the same pin, as users run it.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from npm_tools import NpmUnavailable, inspector_bin
from test_serve_support import BOOKSHOP, REPO, ServeProcess, cli_env, free_port, port_is_open, serving_http

TIMEOUT = 120


@pytest.fixture(scope="module")
def inspector() -> Path:
    try:
        return inspector_bin()
    except NpmUnavailable as exc:
        pytest.skip(str(exc))


def _inspector_cli(inspector: Path, *args: str) -> dict[str, object]:
    result = subprocess.run(
        [str(inspector), "--cli", *args],
        cwd=REPO,
        env=cli_env(),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        stdin=subprocess.DEVNULL,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return json.loads(result.stdout[result.stdout.index("{") :])


def _stdio_target() -> list[str]:
    return [sys.executable, "-m", "mcpdeps", "serve", str(BOOKSHOP)]


def _check_tools(listed: dict[str, object]) -> None:
    tools = {t["name"]: t for t in listed["tools"]}  # type: ignore[index,union-attr]
    assert list(tools["reserve_book"]["inputSchema"]["properties"]) == ["title"]
    assert list(tools["order_book"]["inputSchema"]["properties"]) == ["title"]


def _check_reserved(called: dict[str, object]) -> None:
    assert called["isError"] is False
    assert called["content"] == [{"type": "text", "text": "Reserved 'Dune' (6 copies left)."}]


def _check_bookshop(inspector: Path, *target: str) -> None:
    """The inspector's CLI lists the bookshop's tools and reserves a book through `target`."""
    _check_tools(_inspector_cli(inspector, *target, "--method", "tools/list"))
    _check_reserved(
        _inspector_cli(
            inspector,
            *target,
            "--method",
            "tools/call",
            "--tool-name",
            "reserve_book",
            "--tool-arg",
            "title=Dune",
        )
    )


def test_inspector_cli_over_stdio(inspector: Path) -> None:
    _check_bookshop(inspector, *_stdio_target())


def test_inspector_cli_over_http(inspector: Path) -> None:
    with serving_http(BOOKSHOP) as (_, url):
        _check_bookshop(inspector, url, "--transport", "http")


def test_inspector_flag_starts_the_web_ui(inspector: Path) -> None:
    port = free_port()
    with ServeProcess(BOOKSHOP, "--transport", "http", "--port", str(port), "--inspector") as proc:
        proc.wait_for_port(port)
        proc.wait_for_text("MCP_INSPECTOR_API_TOKEN=")
        flat = re.sub(r"[│\s]", "", proc.stderr)
        match = re.search(
            r"inspectorhttp://127\.0\.0\.1:(\d+)/\?MCP_INSPECTOR_API_TOKEN=([0-9a-f]{32})", flat
        )
        assert match, proc.stderr
        url = f"http://127.0.0.1:{match[1]}/?MCP_INSPECTOR_API_TOKEN={match[2]}"
        deadline = time.monotonic() + TIMEOUT
        while True:
            try:
                with urllib.request.urlopen(url, timeout=5) as page:
                    assert page.status == 200
                    assert b"<html" in page.read().lower()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)
    assert not port_is_open(int(match[1])), "the Inspector outlived serve"
