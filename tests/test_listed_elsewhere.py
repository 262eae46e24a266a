"""Helpers called in a loop over a collection another project module binds, checked against the SDK.

Published servers list their tool modules (or their `register` functions) in one module,
often the package `__init__`, and the entry point loops over that list: `from app.tools import
TOOL_MODULES` then `for m in TOOL_MODULES: m.register(mcp)`, `for install in REGISTRARS:
install(mcp)`. The SDK registers what each listed value registers, so a tool of `alpha` running
`load_d(nope)` is refused when the entry point is imported. Each case is run as the server
starts (a subprocess importing it); `lint .` must report MCPD002 in the resolver's module, and
`lint FILE` alone (pre-commit) the same there, for the entry point, the helper, the list's
module and the resolver module each given alone, cold and cached; with `load_d(x)` instead
both the SDK and lint accept the project.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import lint_diagnostics, located, write_files

HELPER = """\
    from typing import Annotated

    from mcp.server.mcpserver import Resolve

    from app.deps import load_d


    def register(mcp) -> None:
        @mcp.tool()
        def t_{n}(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
            return d
"""
BAD = "def load_d(nope: str) -> str:\n    return nope\n"
GOOD = "def load_d(x: int) -> str:\n    return str(x)\n"
SERVER = 'from mcp.server import MCPServer\n\napi = MCPServer("x")\n'
MODULES = "from app.tools import alpha, beta\n\nTOOL_MODULES = (alpha, beta)\n"
FUNCTIONS = "from app.tools import alpha, beta\n\nREGISTRARS = [alpha.register, beta.register]\n"

CASES: dict[str, tuple[dict[str, str], str, str]] = {
    "a tuple of modules in the package __init__": (
        {
            "app/tools/__init__.py": MODULES,
            "app/main.py": """\
                from mcp.server import MCPServer

                from app.tools import TOOL_MODULES

                mcp = MCPServer("x")
                for module in TOOL_MODULES:
                    module.register(mcp)
            """,
        },
        "import app.main",
        "app/tools/__init__.py",
    ),
    "a list of register functions in the package __init__": (
        {
            "app/tools/__init__.py": FUNCTIONS,
            "app/main.py": """\
                from mcp.server import MCPServer

                from app.tools import REGISTRARS

                mcp = MCPServer("x")
                for install in REGISTRARS:
                    install(mcp)
            """,
        },
        "import app.main",
        "app/tools/__init__.py",
    ),
    "a module imported under another name, its list read as an attribute": (
        {
            "app/tools/__init__.py": "",
            "app/tools/registry.py": MODULES,
            "app/main.py": """\
                from mcp.server import MCPServer

                import app.tools.registry as t

                mcp = MCPServer("x")
                for m in t.TOOL_MODULES:
                    m.register(mcp)
            """,
        },
        "import app.main",
        "app/tools/registry.py",
    ),
    "a list re-exported by the package __init__": (
        {
            "app/tools/__init__.py": "from app.tools.registry import REGISTRARS\n",
            "app/tools/registry.py": FUNCTIONS,
            "app/main.py": """\
                from mcp.server import MCPServer

                from app.tools import REGISTRARS

                mcp = MCPServer("x")
                for install in REGISTRARS:
                    install(mcp)
            """,
        },
        "import app.main",
        "app/tools/registry.py",
    ),
    "a factory's own server, in a loop over imported functions": (
        {
            "app/tools/__init__.py": FUNCTIONS,
            "app/main.py": """\
                from mcp.server import MCPServer

                from app.tools import REGISTRARS


                def build() -> MCPServer:
                    mcp = MCPServer("x")
                    for install in REGISTRARS:
                        install(mcp)
                    return mcp
            """,
        },
        "import app.main\napp.main.build()",
        "app/tools/__init__.py",
    ),
    "a helper passing its parameter on, in a loop over imported modules": (
        {
            "app/tools/__init__.py": MODULES,
            "app/wiring.py": """\
                from app.tools import TOOL_MODULES


                def install(server) -> None:
                    for m in TOOL_MODULES:
                        m.register(server)
            """,
            "app/main.py": """\
                from mcp.server import MCPServer

                from app.wiring import install

                mcp = MCPServer("x")
                install(mcp)
            """,
        },
        "import app.main",
        "app/tools/__init__.py",
    ),
    "a server imported into an entry point the prefilter skips": (
        {
            "app/tools/__init__.py": FUNCTIONS,
            "app/server.py": SERVER,
            "app/main.py": """\
                from app.server import api
                from app.tools import REGISTRARS

                for install in REGISTRARS:
                    install(api)
            """,
        },
        "import app.main",
        "app/tools/__init__.py",
    ),
}
"""Each case: its files (beside `app/deps.py` and the helpers `app/tools/alpha.py` and
`beta.py`), what starts the server, and the module binding the list."""


def _project(root: Path, files: dict[str, str], resolver: str) -> None:
    write_files(
        root,
        {
            "pyproject.toml": "[project]\nname = 'p'\nversion = '0'\n",
            "app/__init__.py": "",
            "app/deps.py": resolver,
            "app/tools/alpha.py": HELPER.format(n="alpha"),
            "app/tools/beta.py": HELPER.format(n="beta"),
            **files,
        },
    )


def _sdk(root: Path, entry: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", entry], cwd=root, capture_output=True, text=True)


def _codes(found: list[dict], path: str) -> list[tuple[str, int]]:
    return sorted((d["code"], d["line"]) for d in located(found, path))


def _alone(files: dict[str, str], listing: str) -> list[str]:
    """The files a pre-commit run may be given alone: the entry point, a helper, the module
    binding the list, the resolver module, and the case's other files."""
    return sorted({"app/main.py", "app/tools/alpha.py", listing, "app/deps.py", *files})


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_loop_over_another_modules_list_registers_each_listed_helper(tmp_path: Path, case: str) -> None:
    files, entry, listing = CASES[case]
    _project(tmp_path, files, BAD)
    refused = _sdk(tmp_path, entry)
    assert "InvalidSignature: Resolver 'load_d' parameter 'nope'" in refused.stderr, refused.stderr
    whole = lint_diagnostics(tmp_path, "--no-cache", ".")
    assert [d["path"] for d in whole] == ["app/deps.py"], whole
    assert [code for code, _ in _codes(whole, "app/deps.py")] == ["MCPD002"]
    for given in _alone(files, listing):
        alone = lint_diagnostics(tmp_path, "--no-cache", given)
        assert _codes(alone, given) == _codes(whole, given), given
        if given in ("app/main.py", "app/deps.py"):  # the helpers' tools, as the SDK registers them
            assert _codes(alone, "app/deps.py") == _codes(whole, "app/deps.py"), given

    (tmp_path / "app/deps.py").write_text(GOOD)
    accepted = _sdk(tmp_path, entry)
    assert accepted.returncode == 0, accepted.stderr
    assert lint_diagnostics(tmp_path, "--no-cache", ".") == []
    for given in _alone(files, listing):
        assert lint_diagnostics(tmp_path, "--no-cache", given) == [], given


@pytest.mark.parametrize("given", ["app/main.py", "app/deps.py", "."])
def test_a_cached_run_sees_the_list_change(tmp_path: Path, given: str) -> None:
    """The entry point's analysis read the list in `app/tools/__init__.py`: taking `alpha` and
    `beta` off it (the SDK then registers no tool running `load_d`) re-checks the run's files,
    and putting them back does again."""
    files, entry, listing = CASES["a list of register functions in the package __init__"]
    _project(tmp_path, files, BAD)
    whole = _codes(lint_diagnostics(tmp_path, "--no-cache", "."), "app/deps.py")
    assert _codes(lint_diagnostics(tmp_path, given), "app/deps.py") == whole == [("MCPD002", 1)]
    (tmp_path / listing).write_text("REGISTRARS = []\n")
    assert _sdk(tmp_path, entry).returncode == 0
    assert _codes(lint_diagnostics(tmp_path, given), "app/deps.py") == []
    (tmp_path / listing).write_text(FUNCTIONS)
    assert _codes(lint_diagnostics(tmp_path, given), "app/deps.py") == whole


def test_the_resolver_module_alone_reads_no_listed_helper_that_cannot_reach_it(tmp_path: Path) -> None:
    """`lint app/deps.py`: `app/main.py` is checked as a caller of alpha's helper, and its loop
    over `TOOL_MODULES` (imported `as` modules in `app/tools/__init__.py`) is followed only into
    the run's files, as a loop written in place is (`Confined`): `beta`, which does not import
    deps.py, is not read; `lint .` reads it."""
    from mcpdeps.lint_rules.checking import lint

    listing = (
        "import app.tools.alpha as alpha\nimport app.tools.beta as beta\n\nTOOL_MODULES = (alpha, beta)\n"
    )
    files, _, _ = CASES["a tuple of modules in the package __init__"]
    _project(tmp_path, {**files, "app/tools/__init__.py": listing}, BAD)
    beta = HELPER.replace("from app.deps import load_d", "def load_d(x: int) -> str:\n        return str(x)")
    write_files(tmp_path, {"app/tools/beta.py": beta.format(n="beta")})
    assert "InvalidSignature" in _sdk(tmp_path, "import app.main").stderr
    alone = lint(["app/deps.py"], cwd=tmp_path)
    assert [d.code for d in alone.diagnostics] == ["MCPD002"]
    assert "app/tools/alpha.py" in alone.graph.sources
    assert "app/tools/beta.py" not in alone.graph.sources
    whole = lint(["."], cwd=tmp_path)
    assert [(d.code, d.path) for d in whole.diagnostics] == [("MCPD002", "app/deps.py")]
    assert "app/tools/beta.py" in whole.graph.sources
