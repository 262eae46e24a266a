"""The tools a generated project's server has under the SDK, imported in this process.

The oracle of the tests that write a project and compare what mcpdeps finds statically
with what the SDK registers when the entry point runs. No tests here.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import anyio


def tool_names(root: Path, module: str = "app.main", variable: str = "mcp") -> list[str]:
    """The sorted names of the tools `module`'s `variable` lists, `root` on the import path
    for the import only (every module it loaded is forgotten after)."""
    from mcp import Client

    before = set(sys.modules)
    sys.path.insert(0, str(root))
    importlib.invalidate_caches()
    try:
        server = getattr(importlib.import_module(module), variable)

        async def names() -> list[str]:
            async with Client(server) as client:
                return sorted(t.name for t in (await client.list_tools()).tools)

        return anyio.run(names)
    finally:
        sys.path.remove(str(root))
        for loaded in set(sys.modules) - before:
            del sys.modules[loaded]
