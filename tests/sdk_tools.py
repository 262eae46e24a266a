"""The tools a generated project's server has under the SDK, imported in this process.

The oracle of the tests that write a project and compare what mcpdeps finds statically
with what the SDK registers when the entry point runs (and what a call of a tool then does).
No tests here.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio


@contextmanager
def _server(root: Path, module: str, variable: str) -> Iterator[Any]:
    """`module`'s `variable`, `root` on the import path for the import only (every module it
    loaded is forgotten after)."""
    before = set(sys.modules)
    sys.path.insert(0, str(root))
    importlib.invalidate_caches()
    try:
        yield getattr(importlib.import_module(module), variable)
    finally:
        sys.path.remove(str(root))
        for loaded in set(sys.modules) - before:
            del sys.modules[loaded]


def tool_names(root: Path, module: str = "app.main", variable: str = "mcp") -> list[str]:
    """The sorted names of the tools `module`'s `variable` lists."""
    from mcp import Client

    with _server(root, module, variable) as server:

        async def names() -> list[str]:
            async with Client(server) as client:
                return sorted(t.name for t in (await client.list_tools()).tools)

        return anyio.run(names)


def call_tool(
    root: Path, tool: str, arguments: dict[str, Any], module: str = "server", variable: str = "mcp"
) -> tuple[bool, str]:
    """One call of `tool` through the SDK's in-memory client: whether it is an error, its text."""
    from mcp import Client

    with _server(root, module, variable) as server:

        async def call() -> tuple[bool, str]:
            async with Client(server) as client:
                result = await client.call_tool(tool, arguments)
                return result.is_error, "".join(getattr(c, "text", "") for c in result.content)

        return anyio.run(call)
