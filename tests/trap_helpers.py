"""Shared by the run-time trap tests: import a server written by a test, drive it with the SDK's Client.

`mcp` is imported inside the functions, so the modules that import this one stay cheap
to collect; the SDK itself is imported once per test process.
"""

from __future__ import annotations

import importlib.util
import itertools
from collections.abc import Awaitable, Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import anyio

_names = itertools.count()


def load_server(folder: Path, source: str) -> tuple[ModuleType, Path]:
    """Write `source` as `folder/server.py` and import it under a module name of its own."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "server.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(f"trap_server_{next(_names)}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module, path


def connect(module: ModuleType, body: Callable[[Any], Awaitable[Any]], **client_options: Any) -> Any:
    """Run `body(client)` with the SDK's Client connected in-process to `module.mcp`.

    What the call raises comes out unwrapped: the Client's task groups wrap it in
    (nested) exception groups, which would hide the SDK's own error type from the test.
    """
    from mcp import Client

    async def main() -> Any:
        async with Client(module.mcp, **client_options) as client:
            return await body(client)

    try:
        return anyio.run(main)
    except Exception as raised:
        error: BaseException = raised
        while len(getattr(error, "exceptions", ())) == 1:
            error = error.exceptions[0]  # type: ignore[attr-defined]
        if error is raised:
            raise
        raise error from None


def call(module: ModuleType, tool: str, arguments: dict[str, Any], **client_options: Any) -> tuple[bool, str]:
    """(is_error, first text block) of one tool call."""

    async def body(client: Any) -> tuple[bool, str]:
        result = await client.call_tool(tool, arguments)
        return bool(result.is_error), result.content[0].text

    return connect(module, body, **client_options)
