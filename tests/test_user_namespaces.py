"""A user project with its own `cli.py`, `cli/` package or `templates/` package: every command still works.

mcpdeps used to install top-level `cli` and `templates` packages: a user's `cli.py` broke `serve`,
`call` and `graph --live` (`cannot import name ... from 'cli'`), `serve --reload` and `call --stdio`
ran it as `__main__` with mcpdeps' arguments, a `cli/` package on PYTHONPATH stopped mcpdeps from
starting, and a `templates/` package broke `new server`. Now everything is `mcpdeps.*`.

Three layouts (a `cli.py` and a `cli/` package cannot share a folder): the server imports the
user's `cli` and `templates`, which live beside it, or (`cli/` only) in a folder on PYTHONPATH.
The user's `cli` writes a marker file if it is ever run as `__main__`; no test may leave one.
Real processes, the real SDK and its `Client` over stdio and streamable HTTP.
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import anyio
import pytest
from conftest import run_mcpdeps
from mcp import Client
from test_serve_support import ServeProcess, cli_env, free_port, serving_http, stdio_params, text_of

# One xdist worker runs this module (`--dist loadfile`), so its fixtures are built once per run, not once
# per worker: each layout's project.

MARKER = "RAN_AS_MAIN"

RUN_AS_MAIN = f"""
if __name__ == "__main__":  # the user's own command line: mcpdeps must never start it
    import sys
    from pathlib import Path

    Path({{folder!r}}, {MARKER!r}).write_text(" ".join(sys.argv))
    raise SystemExit(3)
"""

HELPERS = '''"""The user's helpers, imported by their server."""


def shout(text: str) -> str:
    return text.upper()
'''

SERVER = """from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

from {cli} import shout
from templates import GREETING

mcp = MCPServer("shadow")


def greeting_for(name: str) -> str:
    return shout(GREETING.format(name=name))


@mcp.tool()
async def greet(name: str, greeting: Annotated[str, Resolve(greeting_for)]) -> str:
    \"\"\"Greet someone, the user's way.\"\"\"
    return greeting
"""


@dataclass(frozen=True)
class Layout:
    """One user project: where it is, where its `cli` lives, and the PYTHONPATH it runs with."""

    name: str
    project: Path
    cli_home: Path
    pythonpath: str

    def env(self) -> dict[str, str]:
        return {"PYTHONPATH": self.pythonpath}

    def markers(self) -> list[Path]:
        return [p for folder in {self.project, self.cli_home} for p in folder.rglob(MARKER)]


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)


def make_layout(name: str, base: Path) -> Layout:
    """Write one of the three projects under `base`."""
    project = base / name / "project"
    templates = {"templates/__init__.py": 'GREETING = "hello, {name}"\n'}
    if name == "cli.py":
        body = HELPERS + RUN_AS_MAIN.format(folder=str(project))
        _write(project, {"cli.py": body, "server.py": SERVER.format(cli="cli"), **templates})
        return Layout(name, project, project, "")
    home = project if name == "cli-package" else base / name / "on-pythonpath"
    _write(
        home,
        {
            "cli/__init__.py": '"""The user\'s `cli` package (no `main`: mcpdeps must not look for one)."""\n',
            "cli/helpers.py": HELPERS,
            "cli/__main__.py": RUN_AS_MAIN.format(folder=str(home)),
        },
    )
    _write(project, {"server.py": SERVER.format(cli="cli.helpers"), **templates})
    return Layout(name, project, home, str(home) if home != project else "")


LAYOUTS = ("cli.py", "cli-package", "cli-on-pythonpath")


@pytest.fixture(scope="module", params=LAYOUTS)
def layout(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Layout]:
    made = make_layout(request.param, tmp_path_factory.mktemp("user"))
    yield made
    assert made.markers() == [], "the user's cli ran as __main__"


@pytest.fixture
def copy(layout: Layout, tmp_path: Path) -> Iterator[Layout]:
    """A private copy of the project, for the tests that change it."""
    project = tmp_path / "project"
    shutil.copytree(layout.project, project)
    home = project if layout.cli_home == layout.project else layout.cli_home
    made = Layout(layout.name, project, home, layout.pythonpath)
    yield made
    assert made.markers() == [], "the user's cli ran as __main__"


def mcpdeps(layout: Layout, *args: str, timeout: float = 120) -> str:
    proc = run_mcpdeps(*args, cwd=layout.project, env=layout.env(), input="", timeout=timeout)
    assert proc.returncode == 0, (args, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.stdout


def greet(target: object) -> str:
    async def main() -> str:
        with anyio.fail_after(30):
            async with Client(target) as client:
                return text_of(await client.call_tool("greet", {"name": "Ada"}))

    return anyio.run(main)


def test_lint(layout: Layout) -> None:
    assert "All checks passed" in mcpdeps(layout, "lint", "--no-cache", ".")


def test_graph_static_and_live_agree(layout: Layout) -> None:
    static = json.loads(mcpdeps(layout, "graph", "--format", "json", "server.py"))
    live = json.loads(mcpdeps(layout, "graph", "--live", "--format", "json", "server.py"))
    for doc in (static, live):
        (server,) = doc["servers"]
        (tool,) = server["tools"]
        assert (tool["name"], tool["arguments"], tool["resolved"]) == (
            "greet",
            ["name"],
            {"greeting": "server:greeting_for"},
        )
    assert static["resolvers"].keys() == live["resolvers"].keys() == {"server:greeting_for"}


def test_serve_stdio(layout: Layout) -> None:
    assert greet(stdio_params("server.py", cwd=layout.project, env=layout.env())) == "HELLO, ADA"


def test_serve_http(layout: Layout) -> None:
    with serving_http("server.py", cwd=layout.project, env=cli_env(**layout.env())) as (_, url):
        assert greet(url) == "HELLO, ADA"


def test_serve_reload_restarts_with_the_edit(copy: Layout) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    args = ("server.py", "-t", "http", "--port", str(port), "--reload")
    with ServeProcess(*args, cwd=copy.project, env=cli_env(**copy.env())) as proc:
        proc.wait_for_port(port, timeout=60)
        assert greet(url) == "HELLO, ADA"
        (copy.project / "templates" / "__init__.py").write_text('GREETING = "good day, {name}"\n')
        deadline, seen = time.monotonic() + 60, None
        while time.monotonic() < deadline and seen != "GOOD DAY, ADA":
            time.sleep(0.3)
            try:
                seen = greet(url)
            except Exception:
                seen = None  # restarting
        assert seen == "GOOD DAY, ADA", proc.stderr


@pytest.mark.parametrize("stdio", [False, True], ids=["in-process", "--stdio"])
def test_call(layout: Layout, stdio: bool) -> None:
    args = ["call", "server.py", "greet", "--arg", "name=Ada", "--json", *(["--stdio"] if stdio else [])]
    result = json.loads(mcpdeps(layout, *args))
    assert [block["text"] for block in result["content"]] == ["HELLO, ADA"]


def test_new(copy: Layout) -> None:
    mcpdeps(copy, "new", "tool", "wave", "--in", "server.py", "--arg", "name")
    assert "async def wave(name: str) -> str:" in (copy.project / "server.py").read_text()
    mcpdeps(copy, "new", "server", "fresh")
    assert 'MCPServer("fresh")' in (copy.project / "fresh" / "src" / "fresh" / "server.py").read_text()
    assert "All checks passed" in mcpdeps(copy, "lint", "--no-cache", ".")
