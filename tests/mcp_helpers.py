"""Helpers for the `mcpdeps mcp` tests: workspaces, the stdio launch, the clients' callbacks.

No tests here. The HTTP server is `test_serve_support.serving_http(command="mcp")`.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import mcp.types as types
from conftest import EXAMPLES, run_mcpdeps
from test_serve_support import sdk_stdio

TIMEOUT = 90


def make_workspace(folder: Path) -> Path:
    """A project folder holding copies of the broken example (`broken/`) and the bookshop (`bookshop/`)."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("broken", "bookshop"):
        shutil.copytree(EXAMPLES / name, folder / name, ignore=shutil.ignore_patterns("__pycache__"))
    return folder


def file_bytes(folder: Path) -> dict[str, bytes]:
    """Every Python file under `folder`, by relative path (what a fix may change)."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*.py"))}


def cli_json(*args: str, cwd: Path) -> dict[str, Any]:
    """One `mcpdeps` command's JSON document (exit 0 or 1 only)."""
    done = run_mcpdeps(*args, cwd=cwd)
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


def stdio_target(cwd: Path) -> Any:
    """How the SDK's stdio client launches `mcpdeps mcp` (the interpreter running the tests)."""
    return sdk_stdio(["mcp"], cwd=cwd, env={"NO_COLOR": "1"})


class Roots:
    """A roots callback listing fixed folders as `file://` URIs."""

    def __init__(self, *folders: Path) -> None:
        self.folders = folders
        self.asked = 0

    async def __call__(self, context: Any) -> types.ListRootsResult:
        self.asked += 1
        return types.ListRootsResult(
            roots=[types.Root(uri=f.resolve().as_uri(), name=f.name) for f in self.folders]
        )


class Answers:
    """An elicitation callback answering every question with `action` (switchable between calls)."""

    def __init__(self, action: str = "accept") -> None:
        self.action = action
        self.asked: list[str] = []

    async def __call__(self, context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        self.asked.append(params.message)
        content = {"apply": True} if self.action == "accept" else None
        return types.ElicitResult(action=self.action, content=content)


def in_memory_target() -> Any:
    """`mcpdeps mcp`'s server itself, for the SDK's in-memory `Client`: for the tests about its
    tools and answers (the transports have tests of their own, over stdio and HTTP)."""
    from mcpdeps.cli.agent.server import server

    return server


async def call_once(folder: Path, tool: str, arguments: dict[str, Any], **callbacks: Any) -> Any:
    """One tool call in a new in-memory session (the roots callback lists `folder`)."""
    import anyio
    from mcp import Client

    with anyio.fail_after(TIMEOUT):
        async with Client(in_memory_target(), list_roots_callback=Roots(folder), **callbacks) as client:
            return await client.call_tool(tool, arguments)


def text_of(result: Any) -> str:
    return "".join(getattr(c, "text", "") for c in result.content)


def without_workspace(document: dict[str, Any]) -> dict[str, Any]:
    """A tool's structured document minus the workspace it adds to the CLI's contract."""
    return {k: v for k, v in document.items() if k != "workspace"}
