"""`mcpdeps mcp` under concurrent calls (issue 34, item 8).

The SDK runs synchronous tools and resolvers in worker threads, so six clients calling at
once analysed in six threads of one interpreter: `ast.parse` is not safe for that on
CPython 3.11 (2 of 144 calls failed with a bare "Error executing tool", a `SystemError` of
the AST constructor). Analysis now runs one call at a time, and an unexpected failure is a
sentence. The SDK's in-memory `Client` drives the real server object; `ast.parse` is
watched (not replaced) to see how many threads are inside it at once.
"""

from __future__ import annotations

import ast
import sys
import threading
import time
import types
from pathlib import Path
from typing import Any

import anyio
import mcpdeps
import pytest
from mcp import Client
from mcp_helpers import TIMEOUT, Roots, make_workspace, text_of
from mcpdeps.cli.agent.server import server

CLIENTS, CALLS = 4, 3


PACKAGE = str(Path(mcpdeps.__file__).parent)


class Watch:
    """How many threads are inside mcpdeps' calls of `ast.parse` at once (each made 2 ms
    longer). Libraries parse too (`inspect.signature` of a builtin, in the event loop's
    thread): those are not mcpdeps' analysis and are not counted."""

    def __init__(self) -> None:
        self.inside = self.most = self.parses = 0
        self.lock = threading.Lock()
        self.real = ast.parse

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if not sys._getframe(1).f_code.co_filename.startswith(PACKAGE):
            return self.real(*args, **kwargs)
        with self.lock:
            self.inside += 1
            self.parses += 1
            self.most = max(self.most, self.inside)
        try:
            time.sleep(0.002)
            return self.real(*args, **kwargs)
        finally:
            with self.lock:
                self.inside -= 1


def test_concurrent_calls_analyse_one_at_a_time_and_all_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = make_workspace(tmp_path / "ws")
    watch = Watch()
    monkeypatch.setattr(ast, "parse", watch)
    results: list[Any] = []

    async def one_client(n: int) -> None:
        async with Client(server, list_roots_callback=Roots(folder)) as client:
            for i in range(CALLS):
                if (n + i) % 2:
                    results.append(await client.call_tool("lint", {"paths": ["broken", "bookshop"]}))
                else:
                    results.append(await client.call_tool("graph", {"file": "bookshop/server.py"}))

    async def main() -> None:
        with anyio.fail_after(TIMEOUT * 2):
            async with anyio.create_task_group() as group:
                for n in range(CLIENTS):
                    group.start_soon(one_client, n)

    anyio.run(main)
    assert len(results) == CLIENTS * CALLS
    failed = [text_of(r) for r in results if r.is_error]
    assert failed == []
    assert watch.parses > 0
    assert watch.most == 1, f"{watch.most} threads parsed at once"


def test_an_unexpected_failure_is_a_sentence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What a bug in mcpdeps looks like to the agent: what failed and what to do, never a bare error."""
    from mcpdeps.resolver_core import source

    folder = make_workspace(tmp_path / "ws")

    class Broken(types.ModuleType):
        """`ast` for mcpdeps' parser only, failing the way CPython 3.11's did under threads."""

        def __getattr__(self, name: str) -> Any:
            return getattr(ast, name)

        @staticmethod
        def parse(*args: object, **kwargs: object) -> object:
            raise SystemError("AST constructor recursion depth mismatch (before=1, after=2)")

    monkeypatch.setattr(source, "ast", Broken("ast"))

    async def main() -> list[Any]:
        with anyio.fail_after(TIMEOUT):
            async with Client(server, list_roots_callback=Roots(folder)) as client:
                return [
                    await client.call_tool("lint", {"paths": ["bookshop"]}),
                    await client.call_tool("graph", {"file": "bookshop/server.py"}),
                    await client.call_tool("fix", {"paths": ["broken"]}),
                ]

    for result in anyio.run(main):
        text = text_of(result)
        assert result.is_error
        assert "SystemError" in text and "AST constructor" in text and "bug in mcpdeps" in text, text
