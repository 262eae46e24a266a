"""A `register(server)` helper checked alone reports the duplicate tool names `lint .` reports there.

pre-commit passes only the changed files. A helper's tools land on the servers its callers
hand it, which the callers import or create: `lint features/alpha.py` must also check the
modules registering on those servers before it (the server's own module, the other helpers
the callers hand the same server), and meet their registrations in the order `lint .` meets
them, since MCPD110 is reported at the second registration of a name. Each project here is
imported under the real SDK (in a subprocess, as the user's process would): which of the two
`shared` tools it keeps, and that it logs the other as `Tool already exists`. Then every file
is linted alone, without a cache, with one, and after runs on other lists of files
(pre-commit), and compared with `lint .` restricted to that file.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from coupled_projects import TITLED_FEATURE as FEATURE
from mcpdeps.lint_rules import lint
from mcpdeps.resolver_core.diagnostics import plain
from published_shapes import WARNINGS_KEPT

BASE = {
    "pyproject.toml": "[project]\nname = 'p'\nversion = '0'\n",
    "app/__init__.py": "",
    "features/__init__.py": "",
    "features/alpha.py": FEATURE.format(n="alpha"),
}
BETA = {"features/beta.py": FEATURE.format(n="beta")}

SERVER = "from mcp.server import MCPServer\n\nmcp = MCPServer('a')\n"

SHAPES: dict[str, tuple[dict[str, str], str, str, str]] = {
    "two helpers registering the same name": (
        {
            **BETA,
            "app/server.py": SERVER,
            "app/main.py": "from app.server import mcp\nfrom features import alpha, beta\n\n"
            "alpha.register(mcp)\nbeta.register(mcp)\n",
        },
        "app.server",
        "alpha",
        "features/beta.py",
    ),
    "server created in a factory, passed down a chain of helpers": (
        {
            **BETA,
            "app/main.py": """\
                from mcp.server import MCPServer

                from app import wiring


                def create_server() -> MCPServer:
                    server = MCPServer("a")
                    wiring.install(server)
                    return server


                mcp = create_server()
                """,
            "app/wiring.py": "from app import setup\n\n\ndef install(server) -> None:\n    setup.features(server)\n",
            "app/setup.py": "from features import alpha, beta\n\n\ndef features(server) -> None:\n"
            "    alpha.register(server)\n    beta.register(server)\n",
        },
        "app.main",
        "alpha",
        "features/beta.py",
    ),
    "the server's own module registering the name first": (
        {
            "app/server.py": SERVER
            + '\n\n@mcp.tool()\ndef shared(title: str) -> str:\n    return "server:" + title\n',
            "app/main.py": "from app.server import mcp\nfrom features import alpha\n\nalpha.register(mcp)\n",
        },
        "app.server",
        "server",
        "features/alpha.py",
    ),
    "the server's own module registering the name before a tool module": (
        {
            "app/server.py": SERVER
            + '\n\n@mcp.tool()\ndef shared(title: str) -> str:\n    return "server:" + title\n',
            "app/tools.py": "from app.server import mcp\n\n\n@mcp.tool()\ndef shared(title: str) -> str:\n"
            '    return "tools:" + title\n',
            "app/main.py": "import app.tools\nfrom app.server import mcp\nfrom features import alpha\n\n"
            "alpha.register(mcp)\n",
        },
        "app.server",
        "server",
        "app/tools.py features/alpha.py",
    ),
    # `lint features/beta.py` follows the entry point's server only into the helpers shown
    # before it and what leads there (`companions._reach`): alpha through the group shown
    # after it, not gamma, whose `shared` comes after beta's in every order.
    "helpers shown before and after the file, one reached through a later group": (
        {
            **BETA,
            "features/gamma.py": FEATURE.format(n="gamma"),
            "zgroup/__init__.py": "",
            "zgroup/every.py": "from features import alpha\n\n\ndef register_all(server) -> None:\n"
            "    alpha.register(server)\n",
            "app/server.py": SERVER,
            "app/main.py": "from app.server import mcp\nfrom features import beta, gamma\nfrom zgroup import every\n\n"
            "every.register_all(mcp)\nbeta.register(mcp)\ngamma.register(mcp)\n",
        },
        "app.server",
        "alpha",
        "features/beta.py features/gamma.py",
    ),
}
"""name -> (files beside `BASE`, the module whose `mcp` is the server, whose `shared` the SDK
keeps, the files `lint .` reports MCPD110 in). `app.main` is what the user runs."""

ORACLE = (
    WARNINGS_KEPT
    + """
import sys
import anyio
from mcp import Client

import app.main
server = sys.modules[sys.argv[1]].mcp

async def shared():
    async with Client(server) as client:
        result = await client.call_tool("shared", {"title": "t"})
        return result.content[0].text

print(json.dumps({"kept": anyio.run(shared), "logged": [m for m in logged if "already exists" in m]}))
"""
)


def _project(root: Path, shape: str) -> None:
    files, _, _, _ = SHAPES[shape]
    for name, text in {**BASE, **files}.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


def _at(root: Path, paths: list[str], given: str, cache: Path | None = None) -> list[dict[str, object]]:
    return [plain(d) for d in lint(paths, cwd=root, cache_dir=cache).diagnostics if d.path == given]


@pytest.fixture(params=sorted(SHAPES))
def shape(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Path, str]:
    root = tmp_path / "proj"
    _project(root, request.param)
    return root, request.param


def test_the_sdk_keeps_the_first_registration_lint_dot_reports_the_second(shape: tuple[Path, str]) -> None:
    root, name = shape
    _, server, kept, reported = SHAPES[name]
    sdk = subprocess.run(
        [sys.executable, "-c", ORACLE, server], cwd=root, capture_output=True, text=True, check=False
    )
    assert sdk.returncode == 0, sdk.stderr
    twice = reported.split()
    assert json.loads(sdk.stdout) == {
        "kept": f"{kept}:t",
        "logged": ["Tool already exists: shared"] * len(twice),
    }
    whole = [plain(d) for d in lint(["."], cwd=root).diagnostics]
    assert [(d["code"], d["path"]) for d in whole] == [("MCPD110", path) for path in twice]


def test_each_file_alone_reports_what_lint_dot_reports_there(shape: tuple[Path, str], tmp_path: Path) -> None:
    """Cold, with a cache of its own (twice), and with the cache runs on other lists of
    files left (pre-commit: a new list almost every commit)."""
    root, _ = shape
    whole = [plain(d) for d in lint(["."], cwd=root).diagnostics]
    files = sorted(str(p.relative_to(root)) for p in root.rglob("*.py"))
    for n, given in enumerate(files):
        expected = [d for d in whole if d["path"] == given]
        cache = tmp_path / f"cache{n}"
        assert _at(root, [given], given) == expected, given
        assert _at(root, [given], given, cache) == expected, given
        assert _at(root, [given], given, cache) == expected, given
        shared = tmp_path / "shared-cache"
        _at(root, ["app/main.py"], given, shared)
        _at(root, ["app/main.py", given], given, shared)
        assert _at(root, [given], given, shared) == expected, given


def test_a_file_alone_reads_only_the_helpers_that_come_before_it(tmp_path: Path) -> None:
    """The entry point calls three helpers with the server the given file's tools share; only
    the registrations before the given file's can make a duplicate located in it, so the
    helper shown after it is not read (nor parsed), and the group shown after it, leading to
    one shown before, is."""
    root = tmp_path / "proj"
    _project(root, "helpers shown before and after the file, one reached through a later group")
    alone = lint(["features/beta.py"], cwd=root)
    assert {"features/alpha.py", "zgroup/every.py"} <= set(alone.graph.sources)
    assert "features/gamma.py" not in alone.graph.sources
    assert "features/gamma.py" in lint(["features/beta.py", "features/gamma.py"], cwd=root).graph.sources
