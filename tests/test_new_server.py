"""`mcpdeps new server` refusals, --force, --dry-run, and the re-lint gate of every `new` command."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, run_mcpdeps
from new_helpers import linter_available

needs_linter = pytest.mark.skipif(
    not linter_available(), reason="lint_rules.lint is not in this checkout yet"
)


def test_dry_run_prints_the_tree_and_writes_nothing(tmp_path: Path) -> None:
    proc = run_mcpdeps("new", "server", "shop", "--dry-run", "--dir", "not/yet", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    for name in (
        "shop/",
        "src/",
        "server.py",
        "__init__.py",
        "pyproject.toml",
        "README.md",
        ".pre-commit-config.yaml",
        "tests/",
        "test_server.py",
    ):
        assert name in proc.stdout
    assert "Dry run: nothing was written." in proc.stdout
    assert list(tmp_path.iterdir()) == []


def test_non_empty_target_is_refused_unless_force(tmp_path: Path) -> None:
    target = tmp_path / "shop"
    target.mkdir()
    (target / "server.py").write_text("# mine\n")
    (target / "notes.txt").write_text("keep me\n")
    refused = run_mcpdeps("new", "server", "shop", cwd=tmp_path)
    assert refused.returncode == 2
    assert "already exists and is not empty" in refused.stderr and "--force" in refused.stderr
    assert (target / "server.py").read_text() == "# mine\n"
    forced = run_mcpdeps("new", "server", "shop", "--force", cwd=tmp_path)
    assert forced.returncode == 0, forced.stderr
    assert 'MCPServer("shop")' in (target / "src" / "shop" / "server.py").read_text()
    assert (target / "server.py").read_text() == "# mine\n", "not a file `new server` writes"
    assert (target / "notes.txt").read_text() == "keep me\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["shop"]  # staging folder removed


def test_empty_target_and_dir_option(tmp_path: Path) -> None:
    (tmp_path / "out" / "shop").mkdir(parents=True)
    proc = run_mcpdeps("new", "server", "shop", "--dir", "out", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "out" / "shop" / "tests" / "test_server.py").is_file()
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["shop"]


@pytest.mark.parametrize("name", ["../escape", "-x", "a b", ""])
def test_bad_project_names_are_refused(tmp_path: Path, name: str) -> None:
    proc = run_mcpdeps("new", "server", name, "--yes", cwd=tmp_path)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("2048", "which Python cannot import"),
        ("class", "which Python cannot import"),
        ("json", "would hide the standard library's 'json'"),
        ("MCP", "would hide the installed 'mcp'"),
        ("mcpdeps", "would hide the installed 'mcpdeps'"),
    ],
)
def test_names_whose_package_cannot_work_are_refused(tmp_path: Path, name: str, why: str) -> None:
    """The project's package is its import name: one Python cannot import, or one that hides a module
    the server needs, is refused before anything is written."""
    proc = run_mcpdeps("new", "server", name, cwd=tmp_path)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert why in " ".join(proc.stderr.split()) and "Traceback" not in proc.stderr
    assert list(tmp_path.iterdir()) == []


def test_the_package_is_named_after_the_project(tmp_path: Path) -> None:
    proc = run_mcpdeps("new", "server", "Book.Shop-2", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    project = tmp_path / "Book.Shop-2"
    assert (project / "src" / "book_shop_2" / "server.py").is_file()
    assert 'book-shop-2 = "book_shop_2.server:main"' in (project / "pyproject.toml").read_text()
    assert "from book_shop_2.server import mcp" in (project / "tests" / "test_server.py").read_text()
    assert "--in src/book_shop_2/server.py" in proc.stdout


def test_missing_values_without_a_terminal_are_errors_not_prompts(tmp_path: Path) -> None:
    proc = run_mcpdeps("new", "resolver", cwd=tmp_path, input="")
    assert proc.returncode == 2
    assert "NAME is required (nothing is asked without a terminal, or with --yes)." in proc.stderr


def test_new_cmd_does_not_import_libcst_or_mcp_at_import_time() -> None:
    code = "import sys, mcpdeps.cli.new.command; print(sorted(m for m in ('libcst', 'mcp', 'uvicorn') if m in sys.modules))"
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == "[]"


@needs_linter
def test_relint_refuses_what_the_sdk_would_refuse(tmp_path: Path) -> None:
    # `new` cannot see into deps.py; the linter follows the import and finds R2 (MCPD002).
    (tmp_path / "deps.py").write_text("def lookup(isbn: str) -> str:\n    return isbn\n")
    source = 'from deps import lookup\nfrom mcp.server import MCPServer\n\nmcp = MCPServer("s")\n'
    (tmp_path / "server.py").write_text(source)
    proc = run_mcpdeps("new", "tool", "t", "--in", "server.py", "--resolve", "x=lookup:str", cwd=tmp_path)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "MCPD002" in proc.stderr
    assert "would not pass `mcpdeps lint`" in proc.stderr and "Nothing was written." in proc.stderr
    # An annotation the SDK cannot evaluate (MCPD009), refused even in a dry run.
    dry = run_mcpdeps(
        "new", "tool", "t", "--in", "server.py", "--arg", "x:Undefined", "--dry-run", cwd=tmp_path
    )
    assert dry.returncode == 1 and "MCPD009" in dry.stderr
    assert (tmp_path / "server.py").read_text() == source
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deps.py", "server.py"]


@needs_linter
def test_preexisting_errors_are_counted_in_the_refusal(tmp_path: Path) -> None:
    source = (
        "from typing import Annotated\n\nfrom mcp.server import MCPServer\nfrom mcp.server.mcpserver import Resolve\n\n"
        'mcp = MCPServer("s")\n\n\ndef r(nope: int) -> int:\n    return nope\n\n\n'
        "@mcp.tool()\ndef t(v: Annotated[int, Resolve(r)]) -> int:\n    return v\n"
    )
    (tmp_path / "server.py").write_text(source)
    proc = run_mcpdeps("new", "tool", "u", "--in", "server.py", cwd=tmp_path)
    assert proc.returncode == 1
    assert "(1 of them already there before this change)" in " ".join(proc.stderr.split())
    assert (tmp_path / "server.py").read_text() == source


@needs_linter
def test_new_warnings_are_shown_but_do_not_block(tmp_path: Path) -> None:
    source = (
        'from pydantic import BaseModel\nfrom mcp.server import MCPServer\n\nmcp = MCPServer("w")\n\n\n'
        "class Form(BaseModel):\n    tags: dict[str, str]\n"
    )
    (tmp_path / "server.py").write_text(source)
    assert (
        run_mcpdeps(
            "new", "resolver", "ask", "--in", "server.py", "--elicit", "Form", cwd=tmp_path
        ).returncode
        == 0
    )
    proc = run_mcpdeps("new", "tool", "t", "--in", "server.py", "--resolve", "f=ask", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "1 lint warning(s) in the result (not blocking):" in proc.stdout
    assert "MCPD103 invalid-elicitation-schema" in proc.stderr
    assert "async def t(f: Annotated[Form, Resolve(ask)]) -> str:" in (tmp_path / "server.py").read_text()
