"""Factory specs: `app.py:build_server` for `graph` (static and `--live`), `serve` and `call`.

A factory is called, with no arguments, only when every parameter has a default (as
uvicorn's `--factory` and FastMCP's CLI do); otherwise the command stops with one sentence
(exit 2) before the factory runs. The SDK is the oracle: the server a factory builds is
compared with the one mcpdeps loads, and with what a static `graph FILE:NAME` draws.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import run_mcpdeps
from mcpdeps.resolver_core.loading import LoadError, load_server

APP = """\
from typing import Annotated
from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

CALLS: list[str] = []


class Store:
    def get(self, key: str) -> str:
        return key.upper()


def lookup(key: str) -> str:
    return key.upper()


def build_server(store: Store | None = None, *, debug: bool = False) -> MCPServer:
    CALLS.append("build_server")
    factory = MCPServer("factory")

    @factory.tool()
    def fetch(key: str, value: Annotated[str, Resolve(lookup)]) -> str:
        return value

    factory.add_tool(lambda: "pong", name="ping")
    return factory


def build_strict(*, store: Store, region: str, debug: bool = False) -> MCPServer:
    CALLS.append("build_strict")
    strict = MCPServer("strict")
    return strict


async def build_async(store) -> MCPServer:
    CALLS.append("build_async")
    return MCPServer("async")


def build_any(*args, **kwargs) -> MCPServer:
    return MCPServer("any")


top = MCPServer("top")


@top.tool()
def hello(name: str) -> str:
    return name
"""

REFUSED = "is a factory that needs"


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Path]:
    """`app.py` in a folder of its own (its module is forgotten afterwards: each test imports it)."""
    folder = tmp_path / f"factory_{tmp_path.name}"
    folder.mkdir()
    (folder / "app.py").write_text(APP, encoding="utf-8")
    path = list(sys.path)
    yield folder
    sys.modules.pop("app", None)
    sys.path[:] = path


def _tool_names(server: object) -> list[str]:
    return sorted(t.name for t in server._tool_manager.list_tools())  # type: ignore[attr-defined]


def test_a_factory_with_defaults_is_called_and_its_server_served(app: Path) -> None:
    loaded = load_server("app.py:build_server", cwd=app)
    module = sys.modules["app"]
    assert module.CALLS == ["build_server"]
    assert loaded.attribute == "build_server" and loaded.server.name == "factory"
    # The oracle: the server is the one the factory builds, with the tools the SDK registered.
    assert _tool_names(loaded.server) == _tool_names(module.build_server()) == ["fetch", "ping"]
    assert load_server("app.py:build_any", cwd=app).server.name == "any"  # *args, **kwargs: nothing needed


@pytest.mark.parametrize(
    ("name", "needs"),
    [("build_strict", "store, region: mcpdeps"), ("build_async", "store: mcpdeps")],
)
def test_a_factory_that_needs_arguments_is_refused_before_it_runs(app: Path, name: str, needs: str) -> None:
    with pytest.raises(LoadError) as refused:
        load_server(f"app.py:{name}", cwd=app)
    message = str(refused.value)
    assert message.startswith(f"app.py:{name} {REFUSED} {needs} calls a factory without arguments")
    assert message.count(". ") == 0 and message.endswith("builds the server on its own.")
    assert sys.modules["app"].CALLS == []
    # The SDK agrees that nothing can call it without arguments.
    with pytest.raises(TypeError):
        getattr(sys.modules["app"], name)()


def test_graph_live_serve_and_call_take_a_factory_spec(app: Path) -> None:
    live = run_mcpdeps("graph", "--live", "app.py:build_server", "--format", "json", cwd=app)
    assert live.returncode == 0, live.stderr
    [server] = json.loads(live.stdout)["servers"]
    assert server["name"] == "factory" and [t["name"] for t in server["tools"]] == ["fetch", "ping"]
    assert server["tools"][0]["resolved"] == {"value": "app:lookup"}

    called = run_mcpdeps("call", "app.py:build_server", "fetch", "-a", "key=shelf", "--json", cwd=app)
    assert called.returncode == 0, called.stderr
    assert "SHELF" in called.stdout
    # Over stdio, `call` runs `mcpdeps serve app.py:build_server` and talks to it.
    served = run_mcpdeps("call", "--stdio", "app.py:build_server", "ping", "--json", cwd=app)
    assert served.returncode == 0, served.stderr
    assert "pong" in served.stdout
    # The spec in [tool.mcpdeps] serve is the default of every command that imports the server.
    (app / "pyproject.toml").write_text('[tool.mcpdeps]\nserve = "app.py:build_server"\n', encoding="utf-8")
    configured = run_mcpdeps("graph", "--live", "--format", "json", cwd=app)
    assert configured.returncode == 0, configured.stderr
    assert [s["name"] for s in json.loads(configured.stdout)["servers"]] == ["factory"]


@pytest.mark.parametrize(
    "args",
    [
        ("graph", "--live", "app.py:build_strict"),
        ("call", "app.py:build_strict", "fetch"),
        ("serve", "app.py:build_strict"),
        ("serve",),  # the spec from [tool.mcpdeps] serve
    ],
)
def test_every_command_refuses_a_factory_that_needs_arguments(app: Path, args: tuple[str, ...]) -> None:
    (app / "pyproject.toml").write_text('[tool.mcpdeps]\nserve = "app.py:build_strict"\n', encoding="utf-8")
    proc = run_mcpdeps(*args, cwd=app, timeout=60)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    first = proc.stderr.strip().splitlines()[0]
    assert first.startswith(f"mcpdeps: error: app.py:build_strict {REFUSED} store, region")
    assert "Traceback" not in proc.stderr


def test_static_graph_of_a_factory_spec_selects_the_server_it_builds(app: Path) -> None:
    proc = run_mcpdeps("graph", "app.py:build_server", "--format", "json", cwd=app)
    assert proc.returncode == 0, proc.stderr
    assert [(s["name"], s["line"]) for s in json.loads(proc.stdout)["servers"]] == [("factory", 19)]
    top = run_mcpdeps("graph", "app.py:top", "--format", "json", cwd=app)
    assert [s["name"] for s in json.loads(top.stdout)["servers"]] == ["top"]


def test_static_graph_of_a_factory_spec_runs_nothing(app: Path) -> None:
    source = (app / "app.py").read_text(encoding="utf-8")
    (app / "app.py").write_text(
        "import pathlib\npathlib.Path('imported').touch()\n" + source, encoding="utf-8"
    )
    for spec in ("app.py:build_server", "app.py:build_strict"):
        proc = run_mcpdeps("graph", spec, cwd=app)
        assert proc.returncode in (0, 2), proc.stderr
    assert not (app / "imported").exists()


def test_static_graph_of_a_factory_equals_the_live_one(app: Path) -> None:
    static = run_mcpdeps("graph", "app.py:build_server", "--format", "json", cwd=app)
    live = run_mcpdeps("graph", "--live", "app.py:build_server", "--format", "json", cwd=app)
    assert json.loads(static.stdout) == json.loads(live.stdout)


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("app.py:nothing", "app.py has no module-level function or server named 'nothing'"),
        ("app.py:buld_server", "(did you mean 'build_server'?)"),
        ("app.py:Store", "app.py:Store is a class"),
        ("app.py:lookup", "app.py:lookup builds no MCPServer that can be read from the source"),
        ("notes.md:mcp", "notes.md:mcp: notes.md is not a Python file"),
        ("gone.py:mcp", "gone.py does not exist"),
    ],
)
def test_static_factory_specs_that_select_nothing_are_usage_errors(app: Path, spec: str, says: str) -> None:
    (app / "notes.md").write_text("# notes\n", encoding="utf-8")
    proc = run_mcpdeps("graph", spec, cwd=app)
    assert proc.returncode == 2 and says in proc.stderr, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
