"""A new project's whole flow, through the real CLI: `new server`, `new resolver`, `new tool`, then check the
result with the real SDK (import + in-process Client), the generated project's own tests, lint, graph,
`serve` and `call`.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, run_mcpdeps
from new_helpers import graph_json, lint_json, sdk_probe

# One xdist worker runs this module (`--dist loadfile`), so its fixtures are built once per run, not once
# per worker: a generated project with its venv checks.

SERVER = "src/bookshop/server.py"
"""The server module: in the project's own package, so it imports as `bookshop.server`."""


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The three-command session, run once for the module."""
    root = tmp_path_factory.mktemp("flow")
    steps = [
        (("new", "server", "bookshop"), root),
        (("new", "resolver", "stock_for", "--in", SERVER, "--arg", "title", "--context"), root / "bookshop"),
        (
            (
                "new", "tool", "order_book", "--in", SERVER,
                "--arg", "title:str", "--arg", "quantity:int", "--resolve", "stock=stock_for",
            ),
            root / "bookshop",
        ),
    ]  # fmt: skip
    for args, cwd in steps:
        proc = run_mcpdeps(*args, cwd=cwd)
        assert proc.returncode == 0, (args, proc.stdout, proc.stderr)
    return root / "bookshop"


def test_server_project_has_its_files(project: Path) -> None:
    files = sorted(p.relative_to(project).as_posix() for p in project.rglob("*") if p.is_file())
    assert files == [
        ".gitignore",
        ".pre-commit-config.yaml",
        "README.md",
        "pyproject.toml",
        "src/bookshop/__init__.py",
        SERVER,
        "tests/test_server.py",
    ]
    pyproject = (project / "pyproject.toml").read_text()
    assert "mcp==2.3.0" in pyproject
    assert "py-modules" not in pyproject, "no top-level `server` module shared by every scaffolded project"
    assert 'bookshop = "bookshop.server:main"' in pyproject
    assert 'serve = "src/bookshop/server.py:mcp"' in pyproject
    assert "id: mcpdeps-lint" in (project / ".pre-commit-config.yaml").read_text()
    server = (project / SERVER).read_text()
    assert 'mcp = MCPServer("bookshop")' in server
    assert server.rstrip().endswith(
        'def main() -> None:\n    """Serve over stdio: the console script `bookshop` and `python -m bookshop.server`."""\n    mcp.run()\n\n\nif __name__ == "__main__":\n    main()'
    )


def test_resolver_sits_before_the_first_tool_and_tool_after_the_last(project: Path) -> None:
    server = (project / SERVER).read_text()
    assert server.index("async def stock_for(") < server.index("@mcp.tool()\nasync def greet(")
    assert server.index("async def greet(") < server.index("async def order_book(")
    assert server.index("async def order_book(") < server.index("def main() -> None:")
    assert "from mcp.server.mcpserver import Context, Resolve\n" in server
    assert server.count("from typing import Annotated\n") == 1


def test_the_sdk_lists_the_new_tool_with_the_expected_schema(project: Path) -> None:
    probe = sdk_probe(project / SERVER, tool="order_book", arguments={"title": "Dune", "quantity": 2})
    schema = probe["tools"]["order_book"]
    assert list(schema["properties"]) == ["title", "quantity"]
    assert schema["properties"]["quantity"]["type"] == "integer"
    assert schema["required"] == ["title", "quantity"]
    assert list(probe["tools"]["greet"]["properties"]) == ["name"]
    # The resolver really ran, reading the tool argument `title` by name.
    assert probe["call"] == {
        "is_error": False,
        "text": ["order_book(title='Dune', quantity=2, stock=\"stock_for(title='Dune')\")"],
    }


def test_the_generated_tests_pass_under_pytest(project: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "6 passed" in proc.stdout  # 3 tests, each in both protocol modes


def test_the_result_is_lint_clean(project: Path) -> None:
    report = lint_json(Path(SERVER), cwd=project)
    assert report["diagnostics"] == []


def test_the_graph_shows_the_new_edge(project: Path) -> None:
    graph = graph_json(Path(SERVER), cwd=project)
    (server,) = graph["servers"]
    tools = {t["name"]: t for t in server["tools"]}
    assert tools["order_book"]["arguments"] == ["title", "quantity"]
    assert tools["order_book"]["resolved"] == {"stock": "bookshop.server:stock_for"}
    resolver = graph["resolvers"]["bookshop.server:stock_for"]
    assert resolver["used_by"] == ["order_book"]
    assert [(p["name"], p["kind"]) for p in resolver["parameters"]] == [
        ("title", "tool_argument"),
        ("ctx", "context"),
    ]


def test_the_pre_commit_config_is_valid_and_names_our_hook(project: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "pre_commit", "validate-config", ".pre-commit-config.yaml"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    hooks = REPO / ".pre-commit-hooks.yaml"
    if hooks.exists():  # the hooks this repository publishes; the id must match what we point at
        assert "- id: mcpdeps-lint\n" in hooks.read_text()


def test_the_generated_pre_commit_hook_runs_today_with_the_installed_mcpdeps(
    project: Path, tmp_path: Path
) -> None:
    """The config `new server` writes works before mcpdeps is published (a `repo: local` hook
    running the mcpdeps of the environment, installed from a clone or a wheel): the real
    pre-commit, in a real git repository, passes the project, then fails a misspelt resolver."""
    import shutil

    copy = tmp_path / "bookshop"
    shutil.copytree(project, copy)
    config = (copy / ".pre-commit-config.yaml").read_text()
    assert "repo: local" in config and "language: system" in config and "v0.1.0" not in config
    bin_dir = str(Path(sys.executable).parent)  # where this environment's `mcpdeps` script is
    env = {**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}
    env |= {"PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"), "GIT_CONFIG_GLOBAL": os.devnull}
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
    for args in (["init", "-q"], ["add", "-A"]):
        subprocess.run([*git, *args], cwd=copy, env=env, check=True, timeout=60)

    def run_hooks() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "pre_commit", "run", "--all-files", "--color", "never"],
            cwd=copy, env=env, capture_output=True, text=True, timeout=300,
        )  # fmt: skip

    clean = run_hooks()
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert re.search(r"mcpdeps lint\.+Passed", clean.stdout), clean.stdout
    server = copy / SERVER
    server.write_text(
        server.read_text().replace("def stock_for(title", "def stock_for(titel"), encoding="utf-8"
    )
    subprocess.run([*git, "add", "-A"], cwd=copy, env=env, check=True, timeout=60)
    broken = run_hooks()
    assert broken.returncode == 1, broken.stdout + broken.stderr
    assert "MCPD002" in broken.stdout and "(did you mean 'title'?)" in broken.stdout


STDIO_PROBE = """
import os, sys, anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters

async def main():
    params = StdioServerParameters(command=sys.argv[1], args=sys.argv[2:], env=dict(os.environ))
    async with Client(params) as client:
        result = await client.call_tool("order_book", {"title": "Dune", "quantity": 1})
    print(result.content[0].text)

anyio.run(main)
"""
ORDER_BOOK = "order_book(title='Dune', quantity=1, stock=\"stock_for(title='Dune')\")"


@pytest.mark.parametrize(
    "command",
    [[sys.executable, "-m", "bookshop.server"], [sys.executable, "-m", "mcpdeps", "serve"]],
    ids=["python -m bookshop.server", "mcpdeps serve"],
)
def test_the_server_runs_on_stdio(project: Path, command: list[str]) -> None:
    """The generated main block, and `mcpdeps serve` with no SPEC (`[tool.mcpdeps] serve`), answer a real
    stdio client with the new tool."""
    env = {**os.environ, "PYTHONPATH": str(project / "src")}
    proc = subprocess.run(
        [sys.executable, "-c", STDIO_PROBE, *command],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=90,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == ORDER_BOOK


@pytest.mark.parametrize("stdio", [False, True], ids=["in-process", "--stdio"])
def test_call_runs_the_new_tool(project: Path, stdio: bool) -> None:
    args = ["call", SERVER, "order_book", "--arg", "title=Dune", "--arg", "quantity=1", "--json"]
    proc = run_mcpdeps(*args, *(["--stdio"] if stdio else []), cwd=project, input="")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert [block["text"] for block in json.loads(proc.stdout)["content"]] == [ORDER_BOOK]
