"""`mcpdeps lint` and `mcpdeps graph` (static) never import user code, nor `mcp`.

The promise of the static analyzer is that linting is safe on any checkout: a module
with import-time side effects (connecting to a database, reading secrets, starting
threads) is read, never run. The project below writes a marker file from every one of
its modules when imported; after lint and graph the markers must be absent. A control
test imports the same project for real, so a marker that is never written cannot make
the other tests pass by accident.

`python -X importtime` lists every module the process imports: `mcp` must not be among
them (importing the SDK would cost ~0.7 s of lint start-up and could run user code
through plugins).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from conftest import run_mcpdeps

# One xdist worker runs this module (`--dist loadfile`), so its fixtures are built once per run, not once
# per worker: the runs whose imports the tests read.

MARKER = "IMPORTED-{}"
WRITE_MARKER = 'import pathlib\npathlib.Path(__file__).parent.joinpath("{marker}").write_text("imported")\n'

PROJECT = {
    "server.py": '''
        """A server whose modules all have an import-time side effect."""
        {write}
        from typing import Annotated

        from mcp.server import MCPServer
        from mcp.server.mcpserver import Resolve

        import sidecar
        from app.deps import check_stock

        mcp = MCPServer("SideEffects")


        @mcp.tool()
        def reserve(title: str, stock: Annotated[int, Resolve(check_stock)], tag: Annotated[str, Resolve(sidecar.tag)]) -> str:
            """Reserve a book."""
            return f"{{title}} {{stock}} {{tag}}"
    ''',
    "sidecar.py": '''
        """A helper module imported by the server."""
        {write}

        def tag(title: str) -> str:
            return title[:3]
    ''',
    "app/__init__.py": '''
        """A package whose __init__ has a side effect."""
        {write}
    ''',
    "app/deps.py": '''
        """Resolvers in a package module."""
        {write}

        def check_stock(title: str) -> int:
            return len(title)
    ''',
}


def write_project(root: Path) -> Path:
    """Write the side-effect project under `root`; each module writes its own marker when imported."""
    root.mkdir(parents=True, exist_ok=True)
    for relative, template in PROJECT.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        name = relative.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
        marker = MARKER.format(name)
        write = WRITE_MARKER.format(marker=marker).replace("\n", "\n        ")
        path.write_text(textwrap.dedent(template.format(write=write)).lstrip())
    return root


def markers(root: Path) -> list[str]:
    return sorted(p.name for p in root.rglob(MARKER.format("*")))


def imported_modules(importtime_stderr: str) -> set[str]:
    """Module names from `python -X importtime` output (`import time: self | cumulative | name`)."""
    names = set()
    for line in importtime_stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            name = line.rsplit("|", 1)[1].strip()
            if name != "imported package":
                names.add(name)
    return names


def run_importtime(*args: str | Path) -> subprocess.CompletedProcess[str]:
    """`python -X importtime -m cli ARGS`: the real CLI, with the list of what it imported."""
    env = {**os.environ, "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "mcpdeps", *map(str, args)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """Run lint and graph (in this process), and both under `-X importtime` in processes of their
    own (concurrently, while the others run), once on one side-effect project."""
    project = write_project(tmp_path_factory.mktemp("side_effects") / "project")
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = {
            "importtime lint": pool.submit(run_importtime, "lint", "--format", "json", project),
            "importtime graph": pool.submit(run_importtime, "graph", project / "server.py"),
        }
        results: dict[str, object] = {
            "lint": run_mcpdeps("lint", "--format", "json", project),
            "graph": run_mcpdeps("graph", "--format", "json", project / "server.py"),
        }
        results.update({name: future.result() for name, future in futures.items()})
    return {"project": project, **results}


def test_control_importing_the_project_writes_every_marker(tmp_path: Path) -> None:
    project = write_project(tmp_path / "project")
    subprocess.run([sys.executable, "-c", "import server"], cwd=project, check=True, capture_output=True)
    assert markers(project) == ["IMPORTED-app", "IMPORTED-app.deps", "IMPORTED-server", "IMPORTED-sidecar"]


def test_lint_reads_the_project_without_importing_it(runs: dict[str, object]) -> None:
    lint = runs["lint"]
    assert isinstance(lint, subprocess.CompletedProcess)
    assert lint.returncode == 0, lint.stderr
    report = json.loads(lint.stdout)
    assert report["summary"]["parsed"] >= 4, report["summary"]
    assert report["diagnostics"] == []
    assert markers(runs["project"]) == []  # type: ignore[arg-type]


def test_static_graph_reads_the_project_without_importing_it(runs: dict[str, object]) -> None:
    graph = runs["graph"]
    assert isinstance(graph, subprocess.CompletedProcess)
    assert graph.returncode == 0, graph.stderr
    document = json.loads(graph.stdout)
    tools = {tool["name"]: tool for server in document["servers"] for tool in server["tools"]}
    assert tools["reserve"]["arguments"] == ["title"]
    assert sorted(tools["reserve"]["resolved"]) == ["stock", "tag"]
    assert markers(runs["project"]) == []  # type: ignore[arg-type]


@pytest.mark.parametrize("command", ["lint", "graph"])
def test_never_imports_mcp_or_user_modules(runs: dict[str, object], command: str) -> None:
    run = runs[f"importtime {command}"]
    assert isinstance(run, subprocess.CompletedProcess)
    errors = "\n".join(line for line in run.stderr.splitlines() if not line.startswith("import time:"))
    assert run.returncode == 0, errors
    modules = imported_modules(run.stderr)
    assert any(m.startswith("mcpdeps.cli.") for m in modules)  # the parse saw real output
    assert sorted(m for m in modules if m == "mcp" or m.startswith("mcp.")) == []
    assert modules.isdisjoint({"server", "sidecar", "app", "app.deps"})


def test_language_server_never_imports_mcp_or_user_modules(tmp_path: Path) -> None:
    """A whole `mcpdeps lsp` session (open, diagnostics, hover, definition) under `-X importtime`."""
    from lsp_helpers import RawSession

    project = write_project(tmp_path / "project")
    (project / "pyproject.toml").write_text('[project]\nname = "side-effects"\nversion = "0"\n')
    session = RawSession(project, "-X", "importtime")
    session.initialize()
    server = project / "server.py"
    session.open(server)
    assert session.diagnostics(server) == []
    lines = server.read_text().splitlines()
    line = next(n for n, text in enumerate(lines) if "def reserve" in text)
    where = {"textDocument": {"uri": server.as_uri()}, "position": {"line": line, "character": 6}}
    assert "**reserve** · tool" in json.dumps(
        session.request("textDocument/hover", where), ensure_ascii=False
    )
    column = lines[line].index("check_stock)") + 2
    found = session.request(
        "textDocument/definition", {**where, "position": {"line": line, "character": column}}
    )
    assert "app/deps.py" in json.dumps(found["result"])
    code, stderr = session.finish()
    assert code == 0, stderr
    modules = imported_modules(stderr)
    assert "mcpdeps.cli.lsp.server" in modules
    assert sorted(m for m in modules if m == "mcp" or m.startswith("mcp.")) == []
    assert modules.isdisjoint({"server", "sidecar", "app", "app.deps"})
    assert markers(project) == []
