"""How a case is written: the entry point's head, and `case` adding one to `CASES`.

A case is a project whose `server.py` binds `mcp = MCPServer("x")` and registers tools at
import; the comment above each case names where the shape was seen (a repository and file,
or the package a search hit belongs to). Each tool is refused by the SDK for at most one
reason, since the SDK reports only the first.
"""

from __future__ import annotations

HEAD = """\
from typing import Annotated, Any, Literal, Optional

from mcp.server import MCPServer
from mcp.server.mcpserver import Context, Elicit, ElicitationResult, Resolve, Sample
from pydantic import BaseModel, Field

mcp = MCPServer("x")
"""
"""What most entry points start with: every name a case may use, and the server."""

CASES: dict[str, dict[str, str]] = {}
"""Case name (`where seen: shape`) -> files (path -> text); `server.py` is the entry point."""


def case(name: str, server: str, head: str = HEAD, **others: str) -> None:
    """Add a case: `server` after `head`, and other modules (`deps_py` is written `deps.py`)."""
    files = {"server.py": head + "\n\n" + server}
    files.update({key.replace("__", "/").replace("_py", ".py"): text for key, text in others.items()})
    CASES[name] = files


POSTPONED = "from __future__ import annotations\n\n" + HEAD
"""The same head under postponed annotations (PEP 563)."""
