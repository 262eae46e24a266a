"""Messages as a new user meets them: a typo gets its "did you mean",
and a mistake is named for what it is (a missing path is a usage error, a folder is a folder).

Every case is the real CLI in a subprocess on real files; the runs go concurrently in one
module fixture (each costs a Python start-up).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from conftest import REPO, run_mcpdeps

# One xdist worker runs this module (`--dist loadfile`), so its fixtures are built once per run, not once
# per worker: one run of each usage error, made together.

BOOKSHOP = "examples/bookshop/server.py"

TYPO_SERVER = """\
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("shop")


def stock_of(titel: str) -> int:
    return len(titel)


@mcp.tool()
def order_book(title: str, stock: Annotated[int, Resolve(stock_of)]) -> str:
    return f"{title}: {stock}"
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("messages")
    (root / "typo.py").write_text(TYPO_SERVER, encoding="utf-8")
    (root / "syn.py").write_text("def broken(:\n    pass\n", encoding="utf-8")
    shop = root / "shop"
    shop.mkdir()
    (shop / "server.py").write_text((REPO / BOOKSHOP).read_text(encoding="utf-8"), encoding="utf-8")
    (root / "empty").mkdir()
    return root


RUNS: dict[str, tuple[str, ...]] = {
    "lint missing": ("lint", "nope.py"),
    "lint typo path": ("lint", "shop/srver.py"),
    "graph missing": ("graph", "nope.py"),
    "graph syntax error": ("graph", "syn.py"),
    "serve folder": ("serve", "shop"),
    "serve folder slash": ("serve", "./shop/"),
    "serve empty folder": ("serve", "empty"),
    "live no spec": ("graph", "--live"),
    "serve attribute typo": ("serve", "shop/server.py:mpc"),
    "call tool typo": ("call", "shop/server.py", "odrer_book", "--arg", "title=Dune"),
    "rule code typo": ("rule", "MCPD01"),
    "rule name typo": ("rule", "resolver-cycel"),
    "select typo": ("lint", "--select", "unclassifiable-parametr", "typo.py"),
    "graph tool typo": ("graph", "--tool", "odrer_book", "shop/server.py"),
    "typo lint": ("lint", "--format", "json", "typo.py"),
    "typo full": ("lint", "typo.py"),
}


@pytest.fixture(scope="module")
def runs(project: Path) -> dict[str, subprocess.CompletedProcess[str]]:
    return {name: run_mcpdeps(*args, cwd=project) for name, args in RUNS.items()}


USAGE_ERRORS = [
    ("lint missing", "mcpdeps: error: nope.py does not exist; give a Python file or a folder."),
    ("lint typo path", "shop/srver.py does not exist (did you mean 'shop/server.py'?)"),
    ("graph missing", "mcpdeps: error: nope.py does not exist; give a Python file or a folder."),
    ("graph syntax error", "Nothing to draw: syn.py:1:12: syntax error: invalid syntax."),
    ("serve folder", "shop is a folder; name the server's file in it, e.g. shop/server.py."),
    ("serve folder slash", "./shop/ is a folder; name the server's file in it, e.g. shop/server.py."),
    ("serve empty folder", "empty is a folder; name the server's file in it (it holds no Python file)."),
    ("serve attribute typo", "has no attribute 'mpc' (did you mean 'mcp'?)"),
    ("call tool typo", "no tool named 'odrer_book' (did you mean 'order_book'?)"),
    ("rule code typo", "unknown rule 'MCPD01' (did you mean 'MCPD001'?)"),
    ("rule name typo", "unknown rule 'resolver-cycel' (did you mean 'resolver-cycle'?)"),
    ("select typo", "'unclassifiable-parametr' (did you mean 'unclassifiable-parameter'?)"),
    ("graph tool typo", "No tool named 'odrer_book' was found (did you mean 'order_book'?)"),
]


@pytest.mark.parametrize(("name", "expected"), USAGE_ERRORS, ids=[n for n, _ in USAGE_ERRORS])
def test_usage_errors_exit_2_with_one_sentence_that_points_the_right_way(
    runs: dict[str, subprocess.CompletedProcess[str]], name: str, expected: str
) -> None:
    proc = runs[name]
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert expected in proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""


def test_graph_live_without_a_spec_suggests_a_file_not_a_serve_command(
    runs: dict[str, subprocess.CompletedProcess[str]],
) -> None:
    proc = runs["live no spec"]
    assert proc.returncode == 2
    assert "mcpdeps serve" not in proc.stderr and "Name the server's file (e.g. server.py" in proc.stderr


def test_mcpd002_suggests_the_close_tool_argument_first_and_offers_the_rename(
    runs: dict[str, subprocess.CompletedProcess[str]],
) -> None:
    [d] = json.loads(runs["typo lint"].stdout)["diagnostics"]
    assert d["code"] == "MCPD002" and d["message"].endswith("(did you mean 'title'?)")
    assert d["fix"]["message"].startswith("rename the resolver parameter")
    full = runs["typo full"].stdout
    assert "= help: rename it `title`, the tool argument it looks like a typo of" in full
    assert "1 may be fixed with `mcpdeps lint --fix`" in full


def test_mcpd002_without_a_close_name_offers_no_fix(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text(TYPO_SERVER.replace("titel", "shelf"), encoding="utf-8")
    proc = run_mcpdeps("lint", "server.py", cwd=tmp_path)
    assert "did you mean" not in proc.stdout and "may be fixed" not in proc.stdout
    assert "or add a `shelf` argument to the tools that run it" in proc.stdout


def test_call_refused_by_lint_names_call_and_relative_paths(tmp_path: Path) -> None:
    """The refusal of `call` speaks of `call` (not "serve: not starting") and of paths as typed."""
    work = tmp_path / "work"
    work.mkdir()
    (tmp_path / "typo.py").write_text(TYPO_SERVER, encoding="utf-8")
    proc = run_mcpdeps("call", "../typo.py", "order_book", "--arg", "title=Dune", cwd=work)
    assert proc.returncode == 1
    assert proc.stderr.startswith("../typo.py:9:14: MCPD002")
    assert "mcpdeps call: not calling the tool" in proc.stderr
    assert "mcpdeps serve" not in proc.stderr and str(tmp_path) not in proc.stderr
    assert "mcpdeps: error" not in proc.stderr  # said once, by the gate


def test_unreadable_file_is_not_told_to_fix_its_syntax(tmp_path: Path) -> None:
    (tmp_path / "server.py").mkdir()  # a folder named like a file: MCPD000, but no syntax advice
    proc = run_mcpdeps("lint", "--format", "json", "server.py", cwd=tmp_path)
    diagnostics = json.loads(proc.stdout)["diagnostics"]
    assert all("parse" not in (d.get("help") or "") for d in diagnostics)


def test_messages_name_the_users_server_variable_and_what_the_sdk_really_does(tmp_path: Path) -> None:
    """MCPD008's help writes the decorator on the user's variable; MCPD110 says what the SDK does
    with a duplicate (keeps the first, logs `Tool already exists`), not that it is silent."""
    (tmp_path / "server.py").write_text(
        "from mcp.server import MCPServer\n\nshop = MCPServer('s')\n\n\n"
        "@shop.tool\ndef a(x: str) -> str:\n    return x\n\n\n"
        "@shop.tool(name='b')\ndef b1(x: str) -> str:\n    return x\n\n\n"
        "@shop.tool(name='b')\ndef b2(x: str) -> str:\n    return x\n",
        encoding="utf-8",
    )
    full = run_mcpdeps("lint", cwd=tmp_path).stdout
    assert "= help: write the decorator with parentheses: `@shop.tool()`" in full
    assert "logs 'Tool already exists: b' and ignores this one ('b2' is never called)" in full
    assert "silently" not in full and "@server." not in full
