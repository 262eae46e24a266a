"""Where a diagnostic points, and how it names what it could not find (issue 33, items 4 and 5).

The place is the one the user must change, the same in every format: MCPD004 underlines the
return annotation that asks two questions (not the `def` line, nor a zero-width point in
JSON). An undefined resolver gets the suggestion Python's own NameError gives (the oracle:
the file imported in a fresh interpreter).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from conftest import run_mcpdeps

HEAD = """\
from typing import Annotated

from pydantic import BaseModel

from mcp.server import MCPServer
from mcp.server.mcpserver import Elicit, ListRoots, Resolve

mcp = MCPServer("s")


class Answer(BaseModel):
    ok: bool


def check_stock(title: str) -> int:
    return len(title)

"""

TWO_QUESTIONS = (
    HEAD
    + """
def ask(
    title: str,
) -> Elicit[Answer] | ListRoots:
    return ListRoots()


@mcp.tool()
def order(title: str, a: Annotated[Answer, Resolve(ask)]) -> str:
    return title


@mcp.tool()
def reserve(title: str, a: Annotated[Answer, Resolve(ask)]) -> str:
    return title
"""
)

ANNOTATION = (21, 6, 21, 32)
"""`Elicit[Answer] | ListRoots` on line 21: (line, column, end line, end column), 1-based, end exclusive."""


def test_mcpd004_points_at_the_return_annotation_in_every_format(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text(TWO_QUESTIONS, encoding="utf-8")
    line, column, end_line, end_column = ANNOTATION
    assert TWO_QUESTIONS.splitlines()[line - 1][column - 1 : end_column - 1] == "Elicit[Answer] | ListRoots"

    [d] = json.loads(run_mcpdeps("lint", "--format", "json", cwd=tmp_path).stdout)["diagnostics"]
    assert (d["code"], d["line"], d["column"], d["end_line"], d["end_column"]) == ("MCPD004", *ANNOTATION)

    sarif = json.loads(run_mcpdeps("lint", "--format", "sarif", cwd=tmp_path).stdout)
    [result] = sarif["runs"][0]["results"]
    region = result["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"], region["endLine"], region["endColumn"]) == ANNOTATION

    github = run_mcpdeps("lint", "--format", "github", cwd=tmp_path).stdout
    assert f"line={line},col={column},endLine={end_line},endColumn={end_column}," in github

    concise = run_mcpdeps("lint", "--format", "concise", cwd=tmp_path).stdout
    assert concise.startswith(f"server.py:{line}:{column}: MCPD004")

    full = run_mcpdeps("lint", cwd=tmp_path).stdout
    carets = re.search(r"^ +\| +(\^+) MCPD004$", full, re.MULTILINE)
    assert carets is not None and len(carets.group(1)) == end_column - column, full
    assert f"{line} | ) -> Elicit[Answer] | ListRoots:" in full


def test_an_undefined_resolver_gets_the_suggestion_python_gives(tmp_path: Path) -> None:
    server = tmp_path / "server.py"
    server.write_text(
        HEAD
        + "\n@mcp.tool()\ndef t(title: str, s: Annotated[int, Resolve(check_stok)]) -> str:\n    return title\n",
        encoding="utf-8",
    )
    imported = subprocess.run([sys.executable, str(server)], capture_output=True, text=True, timeout=60)
    assert "NameError: name 'check_stok' is not defined. Did you mean: 'check_stock'?" in imported.stderr
    [d] = json.loads(run_mcpdeps("lint", "--format", "json", cwd=tmp_path).stdout)["diagnostics"]
    assert d["code"] == "MCPD007"
    assert d["message"].endswith("name 'check_stok' is not defined (did you mean 'check_stock'?)")
