"""Bad input to `mcpdeps mcp`'s tools: a tool error with one sentence each, and the server keeps serving.

One stdio session takes every bad call in turn, then a good one. Paths that leave the
roots (`..`, absolute paths, symlinks to files or folders outside, a symlink inside
a linted folder) are refused before anything under them is read.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp_helpers import TIMEOUT, Roots, call_once, file_bytes, make_workspace, stdio_target, text_of


@pytest.fixture
def workspace(tmp_path: Path) -> tuple[Path, Path]:
    folder = make_workspace(tmp_path / "ws")
    outside = tmp_path / "secret"
    outside.mkdir()
    (outside / "keys.py").write_text("TOKEN = 'do-not-read'\n", encoding="utf-8")
    (folder / "binary.py").write_bytes(b"\x7fELF\x02\x01\x01\x00\x00\x00" * 50)
    with (folder / "huge.py").open("wb") as handle:
        handle.truncate(21 * 1024 * 1024)  # sparse: larger than the analyzer reads, costs no disk
    os.symlink(outside / "keys.py", folder / "link_out.py")
    os.symlink(outside, folder / "dir_out")
    (folder / "unparsable.py").write_text("def broken(:\n", encoding="utf-8")
    (folder / "project").mkdir()
    (folder / "project" / "ok.py").write_text("x = 1\n", encoding="utf-8")
    os.symlink(outside / "keys.py", folder / "project" / "sneaky.py")
    return folder, outside


BAD_CALLS: list[tuple[str, dict[str, Any], str]] = [
    ("lint", {"paths": ["missing.py"]}, "does not exist"),
    ("lint", {"paths": ["broken/servr.py"]}, "(did you mean 'broken/server.py'?)."),
    ("lint", {"paths": ["binary.py"]}, "is a binary file"),
    ("lint", {"paths": ["huge.py"]}, "MiB"),
    ("lint", {"paths": ["../secret/keys.py"]}, "'..'"),
    ("lint", {"paths": ["broken/../../secret"]}, "'..'"),
    ("lint", {"paths": ["link_out.py"]}, "is a symlink leading outside the workspace"),
    ("lint", {"paths": ["dir_out"]}, "is a symlink leading outside the workspace"),
    ("lint", {"paths": ["dir_out/keys.py"]}, "is a symlink leading outside the workspace"),
    ("lint", {"paths": ["project"]}, "project/sneaky.py is a symlink leading outside"),
    ("lint", {"paths": []}, "No path was given"),
    ("lint", {"paths": [""]}, "empty path"),
    ("lint", {"paths": ["broken"], "select": ["MCPD999"]}, "select: unknown rule"),
    ("graph", {"file": "missing.py"}, "does not exist"),
    ("graph", {"file": "bookshop/server.py", "tool": "nope"}, "No tool named 'nope'"),
    ("graph", {"file": "link_out.py"}, "outside the workspace"),
    ("graph", {"file": "unparsable.py"}, "Nothing to draw: unparsable.py:1:"),
    ("explain", {"code": "MCPD999"}, "unknown rule 'MCPD999'"),
    ("fix", {"paths": ["link_out.py"]}, "outside the workspace"),
    ("fix", {"paths": ["broken"], "codes": ["no-such-rule"]}, "codes: unknown rule"),
    ("lint", {"paths": 42}, "validation error"),
]


def _beyond(text: str, arguments: dict[str, Any]) -> str:
    """The text without the paths the caller typed (echoing those reveals nothing)."""
    for value in arguments.values():
        for typed in value if isinstance(value, list) else [value]:
            if isinstance(typed, str) and typed:
                text = text.replace(typed, "")
    return text


@pytest.mark.parametrize("mode", ["2026-07-28", "legacy"])
def test_bad_input_is_a_sentence_and_the_server_keeps_serving(
    workspace: tuple[Path, Path], mode: str
) -> None:
    folder, outside = workspace
    before = file_bytes(folder / "broken")

    async def main() -> None:
        with anyio.fail_after(TIMEOUT * 2):
            async with Client(stdio_target(folder), mode=mode, list_roots_callback=Roots(folder)) as client:
                for tool, arguments, expected in BAD_CALLS:
                    result = await client.call_tool(tool, arguments)
                    text = text_of(result)
                    assert result.is_error, (tool, arguments, text)
                    assert expected in text, (tool, arguments, text)
                    assert "Traceback" not in text and "do-not-read" not in text
                    assert "secret" not in _beyond(text, arguments), (
                        text
                    )  # not even the name of what is outside
                    if expected != "validation error":  # the SDK's own message for a schema mismatch
                        assert len(text.splitlines()) == 1 and text.endswith("."), text
                good = await client.call_tool("lint", {"paths": ["broken"]})
                assert not good.is_error, text_of(good)
                assert good.structured_content["summary"]["errors"] == 7

    anyio.run(main)
    assert file_bytes(folder / "broken") == before
    assert (outside / "keys.py").read_text(encoding="utf-8") == "TOKEN = 'do-not-read'\n"


def test_symlinks_inside_the_roots_are_followed(tmp_path: Path) -> None:
    """A link whose target stays inside the roots is an ordinary path."""
    folder = make_workspace(tmp_path / "ws")
    os.symlink(folder / "broken", folder / "alias")
    result = anyio.run(call_once, folder, "lint", {"paths": ["alias/server.py"]})
    assert not result.is_error, text_of(result)
    assert "alias/server.py" in {d["path"] for d in result.structured_content["diagnostics"]}
