"""`lint` (plain, `--fix`, `--diff`), static `graph` (every format) and `new` never run user code.

Every module of the project below writes a marker file when it is imported: the server,
its resolver module, a package `__init__`, and modules named like what mcpdeps itself
imports (`typer.py`, `rich.py`, `libcst.py`, `pydantic.py`, `ast.py`, `tokenize.py`), which
would run if the user's folder were ever put on `sys.path` ahead of the real ones. The
commands run through the installed `mcpdeps` console script (what users type), from inside
the project. A control test imports the project for real, so the markers do work.

(`tests/test_static_never_imports.py` already covers plain `lint` and `graph --format json`
on another project, and that `mcp` is never imported; this file covers the rest.)
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

MARK = (
    'import pathlib as _p\n_p.Path(__file__).resolve().parent.joinpath("RAN-" + __name__).write_text("x")\n'
)
SHADOWS = ("typer", "rich", "libcst", "pydantic", "ast", "tokenize")

SERVER = (
    MARK
    + """from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

from shop.deps import check_stock

mcp = MCPServer("Marked")


@mcp.tool()
def reserve(title: str, stock: Annotated[int, Resolve(check_stock)] = 3) -> str:
    return f"{title} {stock}"
"""
)
DEPS = MARK + "def check_stock(title: str) -> int:\n    return len(title)\n"
SCRIPT = Path(sys.executable).parent / "mcpdeps"


def write_project(root: Path) -> Path:
    (root / "shop").mkdir(parents=True)
    (root / "server.py").write_text(SERVER, encoding="utf-8")
    (root / "shop" / "__init__.py").write_text(MARK, encoding="utf-8")
    (root / "shop" / "deps.py").write_text(DEPS, encoding="utf-8")
    for name in SHADOWS:
        (root / f"{name}.py").write_text(MARK, encoding="utf-8")
    (root / "pyproject.toml").write_text('[project]\nname = "marked"\n', encoding="utf-8")
    return root


def ran(root: Path) -> list[str]:
    return sorted(p.name for p in root.rglob("RAN-*"))


def test_control_importing_the_project_writes_markers(tmp_path: Path) -> None:
    project = write_project(tmp_path / "p")
    for module in ("server", "shop.deps", *SHADOWS):  # one by one: a shadow breaks the next import
        subprocess.run(
            [sys.executable, "-c", f"import {module}"], cwd=project, capture_output=True, timeout=60
        )
    assert set(ran(project)) == {"RAN-server", "RAN-shop", "RAN-shop.deps", *(f"RAN-{m}" for m in SHADOWS)}


COMMANDS = [
    ("lint", "--format", "json"),
    ("lint", "--format", "sarif"),
    ("lint", "--diff"),
    ("lint", "--fix"),
    ("graph", "server.py"),
    ("graph", "server.py", "--format", "mermaid"),
    ("graph", "server.py", "--format", "dot"),
    ("graph", ".", "--format", "json"),
    ("new", "resolver", "price_of", "--in", "server.py", "--arg", "title"),
    ("new", "tool", "restock", "--in", "server.py", "--arg", "qty:int", "--sync"),
    ("new", "resolver", "more_stock", "--in", "shop/deps.py", "--arg", "title"),
    ("new", "server", "fresh"),
]


@pytest.mark.skipif(not SCRIPT.exists(), reason="the mcpdeps console script is not installed next to python")
@pytest.mark.parametrize("argv", COMMANDS, ids=" ".join)
def test_command_never_runs_user_code(tmp_path: Path, argv: tuple[str, ...]) -> None:
    project = write_project(tmp_path / "p")
    env = {**os.environ, "NO_COLOR": "1", "MCPDEPS_NO_INSTALL": "1"}
    env.pop("PYTHONPATH", None)
    proc = subprocess.run(
        [str(SCRIPT), *argv],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=180,
        env=env,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode in (0, 1), proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr
    assert ran(project) == [], f"{' '.join(argv)} executed user code"
    if argv[0] == "new" and argv[1] == "server":
        assert (project / "fresh" / "src" / "fresh" / "server.py").is_file()
    shutil.rmtree(project)


ENTRY_SHADOWS = (*SHADOWS, "pygls", "lsprotocol", "mcp", "anyio", "click", "json", "re")
"""What `lint`, `lsp` and `mcp` import (with stdlib modules not loaded at start-up): each one,
found in the current folder first, would run there."""


@pytest.mark.parametrize("argv", [("lint", "."), ("graph", "."), ("lsp",), ("mcp",)], ids=" ".join)
def test_python_m_mcpdeps_imports_nothing_from_the_current_folder(
    tmp_path: Path, argv: tuple[str, ...]
) -> None:
    """`python -m` puts the current folder first on `sys.path`, and the README tells MCP
    clients to launch `python -m mcpdeps mcp` in the project (issue 34, item 3). The process
    is the subject: a real interpreter started as users start it."""
    project = write_project(tmp_path / "p")
    for name in ENTRY_SHADOWS:
        (project / f"{name}.py").write_text(MARK, encoding="utf-8")
    env = {**os.environ, "NO_COLOR": "1", "MCPDEPS_NO_INSTALL": "1"}
    env.pop("PYTHONPATH", None)
    env.pop("PYTHONSAFEPATH", None)
    proc = subprocess.run(
        [sys.executable, "-m", "mcpdeps", *argv],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=180,
        env=env,
        stdin=subprocess.DEVNULL,  # the servers read EOF and stop
    )
    assert ran(project) == [], f"python -m mcpdeps {' '.join(argv)} executed user code: {proc.stderr[-1500:]}"
    assert "Traceback" not in proc.stderr, proc.stderr[-2000:]
    if argv[0] in ("lint", "graph"):
        assert proc.returncode in (0, 1), proc.stderr[-2000:]
