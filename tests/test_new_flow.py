"""The issue's full flow, through the real CLI: `new server`, `new resolver`, `new tool`, then check the
result with the real SDK (import + in-process Client), the generated project's own tests, lint and graph.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, run_mcpdeps
from new_helpers import graph_json, lint_json, sdk_probe


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The three-command session, run once for the module."""
    root = tmp_path_factory.mktemp("flow")
    steps = [
        (("new", "server", "bookshop"), root),
        (("new", "resolver", "stock_for", "--in", "server.py", "--arg", "title", "--context"), root / "bookshop"),
        (
            (
                "new", "tool", "order_book", "--in", "server.py",
                "--arg", "title:str", "--arg", "quantity:int", "--resolve", "stock=stock_for",
            ),
            root / "bookshop",
        ),
    ]  # fmt: skip
    for args, cwd in steps:
        proc = run_mcpdeps(*args, cwd=cwd)
        assert proc.returncode == 0, (args, proc.stdout, proc.stderr)
    return root / "bookshop"


def test_server_project_has_the_issue_files(project: Path) -> None:
    files = sorted(p.relative_to(project).as_posix() for p in project.rglob("*") if p.is_file())
    assert files == [
        ".gitignore",
        ".pre-commit-config.yaml",
        "README.md",
        "pyproject.toml",
        "server.py",
        "tests/test_server.py",
    ]
    assert "mcp==2.3.0" in (project / "pyproject.toml").read_text()
    assert "id: mcpdeps-lint" in (project / ".pre-commit-config.yaml").read_text()
    server = (project / "server.py").read_text()
    assert 'mcp = MCPServer("bookshop")' in server
    assert server.rstrip().endswith('if __name__ == "__main__":\n    mcp.run()')


def test_resolver_sits_before_the_first_tool_and_tool_after_the_last(project: Path) -> None:
    server = (project / "server.py").read_text()
    assert server.index("async def stock_for(") < server.index("@mcp.tool()\nasync def greet(")
    assert server.index("async def greet(") < server.index("async def order_book(")
    assert server.index("async def order_book(") < server.index('if __name__ == "__main__":')
    assert "from mcp.server.mcpserver import Context, Resolve\n" in server
    assert server.count("from typing import Annotated\n") == 1


def test_the_sdk_lists_the_new_tool_with_the_expected_schema(project: Path) -> None:
    probe = sdk_probe(project / "server.py", tool="order_book", arguments={"title": "Dune", "quantity": 2})
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
    assert "2 passed" in proc.stdout


def test_the_result_is_lint_clean(project: Path) -> None:
    report = lint_json(Path("server.py"), cwd=project)
    assert report["diagnostics"] == []


def test_the_graph_shows_the_new_edge(project: Path) -> None:
    graph = graph_json(Path("server.py"), cwd=project)
    (server,) = graph["servers"]
    tools = {t["name"]: t for t in server["tools"]}
    assert tools["order_book"]["arguments"] == ["title", "quantity"]
    assert tools["order_book"]["resolved"] == {"stock": "server:stock_for"}
    resolver = graph["resolvers"]["server:stock_for"]
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
    if hooks.exists():  # written by another issue; the id must match what we point at
        assert "- id: mcpdeps-lint\n" in hooks.read_text()


STDIO_PROBE = """
import sys, anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters

async def main():
    params = StdioServerParameters(command=sys.executable, args=["server.py"])
    async with Client(params) as client:
        result = await client.call_tool("order_book", {"title": "Dune", "quantity": 1})
    print(result.content[0].text)

anyio.run(main)
"""


def test_python_server_py_runs_on_stdio(project: Path) -> None:
    """`python server.py` (the generated main block) serves the new tool to a real stdio client."""
    proc = subprocess.run(
        [sys.executable, "-c", STDIO_PROBE], cwd=project, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "order_book(title='Dune', quantity=1, stock=\"stock_for(title='Dune')\")"
