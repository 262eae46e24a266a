"""The agent's `fix`: the user is shown every change that is written, and a refused write is
never reported as done (issue 34, item 5).

The question used to be cut at 12,000 characters and, on 2026-07-28 connections, the plan
is recomputed on the answering round, so a change in the part not shown was written without
being asked. Now a plan too long to show whole is not put to the user at all (nothing is
written; the result says how to fix fewer at a time). On both protocol generations, a file
that changed between the question and the write is reported as not written, with the lint
of what is on disk. The SDK's in-memory `Client` drives the real server object.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import mcp.types as types
import pytest
from mcp import Client
from mcp_helpers import TIMEOUT, Roots, text_of
from mcpdeps.cli.agent.server import server

HEAD = (
    "from typing import Annotated\n\nfrom mcp.server import MCPServer\n"
    "from mcp.server.mcpserver import Resolve\n\nmcp = MCPServer('s')\n\n\n"
    "def r0(title: str) -> int:\n    return 1\n"
)


NOTE = "n" * 300
"""A long default on the fixed line: a few dozen fixes make a diff longer than one question."""


def _tool(i: int) -> str:
    """A tool with one safe fix (MCPD111: the default of a resolved parameter is never used)."""
    return (
        f"\n\n@mcp.tool()\ndef t{i}(title: str, stock: Annotated[int, Resolve(r0)] = {i}, "
        f"note: str = '{NOTE}') -> int:\n    return stock\n"
    )


def _project(folder: Path, tools: int) -> Path:
    folder.mkdir(parents=True)
    (folder / "pyproject.toml").write_text("[project]\nname = 'p'\nversion = '0'\n")
    server_py = folder / "server.py"
    server_py.write_text(HEAD + "".join(_tool(i) for i in range(tools)))
    return server_py


def _fix(folder: Path, mode: str, answer: Any) -> types.CallToolResult:
    async def main() -> types.CallToolResult:
        with anyio.fail_after(TIMEOUT):
            async with Client(
                server, mode=mode, list_roots_callback=Roots(folder), elicitation_callback=answer
            ) as client:
                return await client.call_tool("fix", {"paths": ["."]})

    return anyio.run(main)


class Accept:
    """Says yes to every question, after running `meanwhile` (the user saving a file) once."""

    def __init__(self, meanwhile: Any = None) -> None:
        self.asked: list[str] = []
        self.meanwhile = meanwhile

    async def __call__(self, context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        self.asked.append(params.message)
        if self.meanwhile is not None:
            self.meanwhile()
            self.meanwhile = None
        return types.ElicitResult(action="accept", content={"apply": True})


MODES = ["2026-07-28", "legacy"]


@pytest.mark.parametrize("mode", MODES)
def test_a_plan_too_long_to_show_is_never_written(tmp_path: Path, mode: str) -> None:
    server_py = _project(tmp_path / "p", 40)
    before = server_py.read_bytes()
    answer = Accept()
    result = _fix(tmp_path / "p", mode, answer)
    assert server_py.read_bytes() == before
    text = text_of(result)
    assert "nothing was written" in text.lower(), text
    assert "codes" in text or "fewer" in text, text
    for question in answer.asked:  # whatever was asked showed every change
        assert question.count("-def t") == 40


@pytest.mark.parametrize("mode", MODES)
def test_every_change_written_was_in_the_question(tmp_path: Path, mode: str) -> None:
    server_py = _project(tmp_path / "p", 3)
    answer = Accept()
    result = _fix(tmp_path / "p", mode, answer)
    assert not result.is_error, text_of(result)
    assert answer.asked, "the user was asked"
    for i in range(3):
        assert f"-def t{i}(title: str, stock: Annotated[int, Resolve(r0)] = {i}, note" in answer.asked[-1]
    assert "= 0)" not in server_py.read_text()


@pytest.mark.parametrize("mode", MODES)
def test_a_file_saved_before_the_write_is_reported_as_not_written(tmp_path: Path, mode: str) -> None:
    server_py = _project(tmp_path / "p", 2)
    saved = server_py.read_text().replace("return 1", "return 2  # saved by the user")

    def save() -> None:
        server_py.write_text(saved)

    result = _fix(tmp_path / "p", mode, Accept(meanwhile=save))
    text = text_of(result)
    document = result.structured_content
    assert server_py.read_text() == saved or mode == "2026-07-28"
    if server_py.read_text() == saved:  # the save was not overwritten: say so, truthfully
        assert document is not None and document["refused"], text
        assert document["fixed"] == 0, document
        assert "in 0 files" not in text and "All checks passed" not in text, text
        assert [d["code"] for d in document["remaining"]] == ["MCPD111", "MCPD111"], document["remaining"]
    else:  # 2026-07-28: the plan was recomputed from the saved file and asked again
        assert "saved by the user" in server_py.read_text() and "= 0)" not in server_py.read_text()
