"""Names `new` accepts are names Python reads the same way, and that break nothing in the file
(and a keyword is called a keyword)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from conftest import run_mcpdeps

SERVER = """from mcp.server import MCPServer

mcp = MCPServer("names")


def report() -> None:
    print("ready")


if __name__ == "__main__":
    mcp.run()
"""


@pytest.mark.parametrize(
    ("kind", "name", "message"),
    [
        ("tool", "__name__", "dunder names"),
        ("resolver", "__main__", "dunder names"),
        ("tool", "print", "uses the global 'print' (line 7)"),
        ("resolver", "class", "'class' is a Python keyword"),
        ("tool", "ﬁle", "is read by Python as 'file'"),
        ("tool", "2fast", "not a valid Python identifier"),
        ("tool", "x" * 300, "the limit is 100"),
    ],
)
def test_names_that_would_break_the_module_are_refused(
    tmp_path: Path, kind: str, name: str, message: str
) -> None:
    (tmp_path / "server.py").write_text(SERVER)
    proc = run_mcpdeps("new", kind, name, "--in", "server.py", cwd=tmp_path)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert message in proc.stderr and "Traceback" not in proc.stderr
    assert (tmp_path / "server.py").read_text() == SERVER


def test_a_unicode_identifier_is_a_name(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text(SERVER)
    proc = run_mcpdeps("new", "tool", "café", "--in", "server.py", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    tree = ast.parse((tmp_path / "server.py").read_text())
    assert "café" in {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}


def test_a_project_name_of_300_characters_is_refused_in_a_sentence(tmp_path: Path) -> None:
    proc = run_mcpdeps("new", "server", "a" * 300, cwd=tmp_path)
    assert proc.returncode == 2 and "the limit is 100" in proc.stderr and "Traceback" not in proc.stderr
    assert list(tmp_path.iterdir()) == []
