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


STOCK = "def check_stock(title: str) -> int:\n    return len(title)\n"
IMPORTS_IT = """\
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

from {module} import check_stock

mcp = MCPServer("s")


@mcp.tool()
def t(title: str, s: Annotated[int, Resolve(check_stock)]) -> str:
    return title
"""


def _module_not_found(server: Path) -> str:
    """What Python says importing the server (what the SDK's `mcp run` does first)."""
    proc = subprocess.run(
        [sys.executable, server.name], capture_output=True, text=True, timeout=60, cwd=server.parent
    )
    return proc.stderr.strip().splitlines()[-1]


def test_a_misspelt_project_module_is_not_found_and_fails(tmp_path: Path) -> None:
    (tmp_path / "stock.py").write_text(STOCK, encoding="utf-8")
    server = tmp_path / "server.py"
    server.write_text(IMPORTS_IT.format(module="stocks"), encoding="utf-8")
    assert _module_not_found(server) == "ModuleNotFoundError: No module named 'stocks'"
    proc = run_mcpdeps("lint", "--format", "json", cwd=tmp_path)
    [d] = json.loads(proc.stdout)["diagnostics"]
    assert (d["code"], d["severity"], proc.returncode) == ("MCPD007", "error", 1)
    assert d["message"].endswith("module 'stocks' was not found (did you mean 'stock'?)")
    full = run_mcpdeps("lint", cwd=tmp_path).stdout
    assert "= help: correct the module's name in the import" in full

    (tmp_path / "stock.py").rename(tmp_path / "inventory.py")  # the cache must not keep the verdict
    proc = run_mcpdeps("lint", "--format", "json", cwd=tmp_path)
    [d] = json.loads(proc.stdout)["diagnostics"]
    assert (d["code"], d["severity"], proc.returncode) == ("MCPD113", "info", 0)


def test_a_module_found_nowhere_and_like_no_project_module_may_be_installed_elsewhere(tmp_path: Path) -> None:
    """pre-commit runs mcpdeps in an environment of its own: a dependency missing there is
    no proof; it is said plainly, at `info`."""
    server = tmp_path / "server.py"
    server.write_text(IMPORTS_IT.format(module="warehouse_client"), encoding="utf-8")
    proc = run_mcpdeps("lint", "--format", "json", cwd=tmp_path)
    [d] = json.loads(proc.stdout)["diagnostics"]
    assert (d["code"], d["severity"], proc.returncode) == ("MCPD113", "info", 0)
    assert (
        "module 'warehouse_client', which is neither in the project nor installed where mcpdeps runs"
        in (d["message"])
    )
    assert "computed at run time" not in d["message"]
