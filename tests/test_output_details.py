"""Small output details a new user meets, on the real CLI."""

from __future__ import annotations

from pathlib import Path

from conftest import run_mcpdeps, run_mcpdeps_in_colour
from mcpdeps.lint_rules.docs import rule_markdown
from mcpdeps.lint_rules.registry import find_rule

SERVER = """\
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("shop")


def stock_of(shelf: str) -> int:
    return len(shelf)


@mcp.tool()
def order_book(title: str, stock: Annotated[int, Resolve(stock_of)]) -> str:
    return f"{title}: {stock}"
"""


def test_rule_piped_prints_its_markdown_unpadded() -> None:
    proc = run_mcpdeps("rule", "MCPD001", env={"COLUMNS": "80"})
    assert proc.returncode == 0
    assert proc.stdout == rule_markdown(find_rule("MCPD001"))
    assert all(line == line.rstrip() for line in proc.stdout.splitlines())


def test_lint_source_lines_keep_the_terminals_own_colour(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text(SERVER, encoding="utf-8")
    proc = run_mcpdeps_in_colour("lint", "server.py", cwd=tmp_path, columns=200)
    code = next(line for line in proc.stdout.splitlines() if "def stock_of" in line)
    gutter, _, source = code.partition(" | ")
    assert "\x1b[34m" in gutter  # the gutter is blue
    assert source.startswith("\x1b[0mdef stock_of(shelf: str) -> int:") and "\x1b" not in source[4:]
