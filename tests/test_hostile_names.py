"""Names from the user's source never reach a terminal or a renderer as raw control
characters (issue 34, item 12): a server or tool named with an escape sequence
(`"t\\x1b]0;pwned\\x07"` retitles the terminal) is written with visible escapes by every
format (JSON, being data, by its own escapes); `mermaid` and `dot` printed them raw.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_mcpdeps

SERVER = (
    "from typing import Annotated\n\nfrom mcp.server import MCPServer\n"
    "from mcp.server.mcpserver import Resolve\n\n"
    'mcp = MCPServer("S\\x1b[31mred")\n\n\ndef r0(titel: str) -> int:\n    return 1\n\n\n'
    '@mcp.tool(name="t\\x1b]0;pwned\\x07x\\u202e")\n'
    "def t(title: str, stock: Annotated[int, Resolve(r0)] = 5) -> int:\n    return stock\n"
)
RAW = ("\x1b", "\x07", "\u202e")


@pytest.mark.parametrize(
    "argv",
    [
        ("graph", "--format", "mermaid"),
        ("graph", "--format", "dot"),
        ("graph", "--format", "json"),
        ("graph",),
        ("lint", "--no-cache", "--format", "github"),
        ("lint", "--no-cache", "--format", "concise"),
        ("lint", "--no-cache", "--format", "json"),
    ],
    ids=" ".join,
)
def test_control_characters_in_names_are_escaped(tmp_path: Path, argv: tuple[str, ...]) -> None:
    (tmp_path / "server.py").write_text(SERVER)
    proc = run_mcpdeps(*argv, "server.py", cwd=tmp_path)
    assert proc.returncode in (0, 1), proc.stderr
    assert "pwned" in proc.stdout
    # JSON is data: it escapes control characters itself and keeps the rest of Unicode as is
    raw = RAW[:2] if "json" in argv else RAW
    assert not any(ch in proc.stdout + proc.stderr for ch in raw), repr(proc.stdout[:400])


@pytest.mark.parametrize("fmt", ["github", "concise", "full"])
def test_control_characters_in_file_names_are_escaped(tmp_path: Path, fmt: str) -> None:
    """A file found by walking a folder is named by its path: `github` wrote it raw."""
    (tmp_path / "se\x1b]0;pwned\x07rver.py").write_text(SERVER)
    proc = run_mcpdeps("lint", "--no-cache", "--format", fmt, ".", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert "se\\x1b]0;pwned\\x07rver.py" in proc.stdout
    assert not any(ch in proc.stdout + proc.stderr for ch in RAW), repr(proc.stdout[:400])
