"""Project layouts of published servers, run the way their READMEs start them, against the SDK.

Each case is a small project of my own in the 2.3 API, laid out after a shape read in published
MCP server repositories (named in the comment above it): `src/` layouts, scripts at the root
importing folders without `__init__.py`, launchers putting a folder on `sys.path`, monorepos of
`servers/<name>/`, hyphenated folders, `setup.py` only, no packaging file at all. A tool in one
module runs `load_d(nope)`, defined in another, which the SDK refuses at registration. The server
is started as its author starts it (`python server.py` in its folder, `python -m pkg`); then
`lint .` at the repository root and `lint <resolver file>` alone (what pre-commit passes) must
both report MCPD002 there, and both accept the clean twin (`load_d(x)`).

`marker`: what marks the repository's root besides the case's own files: a `.git` (a clone) or
nothing (an archive without its history, packaged by a `requirements.txt` alone).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import lint_diagnostics, located, write_files
from published_shapes import CLEAN, REFUSED, the_editor_reports_what_lint_dot_reports

HEAD = "from typing import Annotated\n\nfrom mcp.server.mcpserver import Resolve\n"
DEPS = "def load_d(nope: str) -> str:\n    return nope\n"
"""The resolver the SDK refuses, alone in its module."""
PYPROJECT = "[project]\nname = 'p'\nversion = '0'\n"


def server(imports: str, call: str) -> str:
    """An entry point making the server, then calling `call` (its tools' registration)."""
    return f"from mcp.server import MCPServer\n{imports}\n\nmcp = MCPServer('x')\n{call}\n"


def helper(imports: str) -> str:
    """A module whose `register(mcp)` adds a tool resolving `d` with `load_d` (from `imports`)."""
    return (
        HEAD
        + imports
        + "\n\n\ndef register(mcp):\n    @mcp.tool()\n"
        + "    def forecast(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n        return d\n"
    )


REGISTERED = server("from tools.weather import register", "register(mcp)")
"""A server registering `tools/weather.py`'s tools (`tools/`: a folder without `__init__.py`)."""

Case = tuple[dict[str, str], list[str], str, str]
"""(files, the Python arguments starting the server, the folder it is started in, the resolver's file)."""

CASES: dict[str, Case] = {}

# Small servers at the repository root: `server.py` importing `tools/` (no `__init__.py`, a
# namespace package), run as `python server.py`, `requirements.txt` beside it.
CASES["root script, namespace tools/ importing tools.deps"] = (
    {
        "server.py": REGISTERED,
        "tools/weather.py": helper("from tools.deps import load_d"),
        "tools/deps.py": DEPS,
    },
    ["server.py"],
    ".",
    "tools/deps.py",
)
CASES["root script, namespace tools/ importing a root module by bare name"] = (
    {"server.py": REGISTERED, "tools/weather.py": helper("from deps import load_d"), "deps.py": DEPS},
    ["server.py"],
    ".",
    "deps.py",
)
# A main.py importing every module of `tools/` with importlib in a loop over the folder, each
# module decorating with the server of a sibling `server.py`.
CASES["main.py importing tools/* in a loop, tools decorate the root server"] = (
    {
        "server.py": "from mcp.server import MCPServer\n\nmcp = MCPServer('x')\n",
        "main.py": (
            "import importlib\nimport os\n\nfrom server import mcp\n\n"
            "for name in sorted(os.listdir(os.path.join(os.path.dirname(__file__), 'tools'))):\n"
            "    if name.endswith('.py'):\n        importlib.import_module(f'tools.{name[:-3]}')\n"
        ),
        "tools/weather.py": HEAD
        + "from deps import load_d\nfrom server import mcp\n\n\n@mcp.tool()\n"
        + "def forecast(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n    return d\n",
        "deps.py": DEPS,
    },
    ["main.py"],
    ".",
    "deps.py",
)
# pyproject with `[tool.setuptools.packages.find] where = ["src"]`, started as `python -m`.
CASES["src layout package (setuptools where = src)"] = (
    {
        "pyproject.toml": PYPROJECT + "\n[tool.setuptools.packages.find]\nwhere = ['src']\n",
        "src/weather/__init__.py": "",
        "src/weather/server.py": server("from weather.tools import register", "register(mcp)"),
        "src/weather/tools.py": helper("from weather.deps import load_d"),
        "src/weather/deps.py": DEPS,
    },
    ["-m", "weather.server"],
    "src",
    "src/weather/deps.py",
)
# `src/` without `__init__.py` holding bare-name siblings, started as `python src/server.py`.
CASES["src/ of scripts importing siblings by bare name"] = (
    {
        "src/server.py": server("from tools import register", "register(mcp)"),
        "src/tools.py": helper("from deps import load_d"),
        "src/deps.py": DEPS,
    },
    ["src/server.py"],
    ".",
    "src/deps.py",
)
# A root `run.py` doing `sys.path.insert(0, str(Path(__file__).parent / "src"))`, then `from server import mcp`.
CASES["root launcher inserting src/ in sys.path"] = (
    {
        "run.py": "import sys\nfrom pathlib import Path\n\nsys.path.insert(0, str(Path(__file__).parent / 'src'))\n\nfrom server import mcp  # noqa: E402\n",
        "src/server.py": server("from tools import register", "register(mcp)"),
        "src/tools.py": helper("from deps import load_d"),
        "src/deps.py": DEPS,
    },
    ["run.py"],
    ".",
    "src/deps.py",
)
# `main.py` at the root importing `src.server` (src/ a namespace package), the pyproject's
# script naming `src.<name>.cli:main`.
CASES["main.py importing src.server, src/ a namespace package"] = (
    {
        "main.py": "from src.server import mcp\n",
        "src/server.py": server("from src.tools import register", "register(mcp)"),
        "src/tools.py": helper("from src.deps import load_d"),
        "src/deps.py": DEPS,
    },
    ["main.py"],
    ".",
    "src/deps.py",
)
# `scripts/run.py` putting `Path(__file__).resolve().parents[1]` on sys.path, then importing the package.
CASES["scripts/ launcher inserting the repository root"] = (
    {
        "scripts/run.py": "import sys\nfrom pathlib import Path\n\nsys.path.insert(0, str(Path(__file__).resolve().parents[1]))\n\nfrom app.server import mcp  # noqa: E402\n",
        "app/__init__.py": "",
        "app/server.py": server("from app.tools import register", "register(mcp)"),
        "app/tools.py": helper("from app.deps import load_d"),
        "app/deps.py": DEPS,
    },
    ["scripts/run.py"],
    ".",
    "app/deps.py",
)
# A package's `__main__.py` (`python -m pkg`), its tools importing the resolver relatively.
CASES["python -m package with __main__, relative import"] = (
    {
        "pkg/__init__.py": "",
        "pkg/__main__.py": server("from pkg.tools import register", "register(mcp)"),
        "pkg/tools.py": helper("from .deps import load_d"),
        "pkg/deps.py": DEPS,
    },
    ["-m", "pkg"],
    ".",
    "pkg/deps.py",
)
# A regular package whose `tools/` subfolder has no `__init__.py`.
CASES["package with a tools/ subfolder without __init__"] = (
    {
        "app/__init__.py": "",
        "app/server.py": server("from app.tools.weather import register", "register(mcp)"),
        "app/tools/weather.py": helper("from app.deps import load_d"),
        "app/deps.py": DEPS,
    },
    ["-m", "app.server"],
    ".",
    "app/deps.py",
)
# `setup.py` only, the package at the root.
CASES["setup.py only, package at the root"] = (
    {
        "setup.py": "from setuptools import setup\n\nsetup(name='p', packages=['weather'])\n",
        "weather/__init__.py": "",
        "weather/server.py": server("from weather.tools import register", "register(mcp)"),
        "weather/tools.py": helper("from weather.deps import load_d"),
        "weather/deps.py": DEPS,
    },
    ["-m", "weather.server"],
    ".",
    "weather/deps.py",
)
# Collections of servers: `servers/<name>/server.py` each run in its folder, siblings by bare name.
CASES["monorepo servers/<name>/ of scripts with bare-name siblings"] = (
    {
        "servers/a/server.py": server("", ""),
        "servers/b/server.py": server("from tools import register", "register(mcp)"),
        "servers/b/tools.py": helper("from deps import load_d"),
        "servers/b/deps.py": DEPS,
    },
    ["server.py"],
    "servers/b",
    "servers/b/deps.py",
)
# The same where the first server has a pyproject and the second a `tools/` namespace folder
# importing its server folder's modules by bare name.
CASES["monorepo, servers/b/tools/ namespace importing servers/b modules"] = (
    {
        "servers/a/pyproject.toml": PYPROJECT,
        "servers/a/server.py": server("", ""),
        "servers/b/server.py": REGISTERED,
        "servers/b/tools/weather.py": helper("from deps import load_d"),
        "servers/b/deps.py": DEPS,
    },
    ["server.py"],
    "servers/b",
    "servers/b/deps.py",
)
CASES["monorepo, servers/b/tools/ namespace importing tools.deps"] = (
    {
        "servers/a/server.py": server("", ""),
        "servers/b/server.py": REGISTERED,
        "servers/b/tools/weather.py": helper("from tools.deps import load_d"),
        "servers/b/tools/deps.py": DEPS,
    },
    ["server.py"],
    "servers/b",
    "servers/b/tools/deps.py",
)
# `servers/<name>-server/` with its own pyproject and `src/<name>_server/` package.
CASES["servers/x-server/src/x_server subproject with its own pyproject"] = (
    {
        "servers/x-server/pyproject.toml": PYPROJECT,
        "servers/x-server/src/x_server/__init__.py": "",
        "servers/x-server/src/x_server/server.py": server(
            "from x_server.tools import register", "register(mcp)"
        ),
        "servers/x-server/src/x_server/tools.py": helper("from x_server.deps import load_d"),
        "servers/x-server/src/x_server/deps.py": DEPS,
    },
    ["-m", "x_server.server"],
    "servers/x-server/src",
    "servers/x-server/src/x_server/deps.py",
)
# A hyphenated folder (`my-server/`) of scripts, run in it.
CASES["hyphenated folder of scripts"] = (
    {
        "my-server/server.py": server("from helpers import register", "register(mcp)"),
        "my-server/helpers.py": helper("from deps import load_d"),
        "my-server/deps.py": DEPS,
    },
    ["server.py"],
    "my-server",
    "my-server/deps.py",
)
# A hyphenated folder whose `tools/` has no `__init__.py`, importing its folder's modules.
CASES["hyphenated folder, namespace tools/ importing the folder's modules"] = (
    {
        "my-server/server.py": REGISTERED,
        "my-server/tools/weather.py": helper("from deps import load_d"),
        "my-server/deps.py": DEPS,
    },
    ["server.py"],
    "my-server",
    "my-server/deps.py",
)
# A package's console entry point putting `tools/mcp_server/` on sys.path and importing the
# bare `server` there.
CASES["package entry point inserting tools/mcp_server/ in sys.path"] = (
    {
        "cli/__init__.py": "",
        "cli/main.py": "import sys\nfrom pathlib import Path\n\nsys.path.insert(0, str(Path(__file__).resolve().parents[1] / 'tools' / 'mcp_server'))\n\nfrom server import mcp  # noqa: E402\n",
        "tools/mcp_server/server.py": server("from handlers import register", "register(mcp)"),
        "tools/mcp_server/handlers.py": helper("from deps import load_d"),
        "tools/mcp_server/deps.py": DEPS,
    },
    ["-m", "cli.main"],
    ".",
    "tools/mcp_server/deps.py",
)
# `examples/<name>/server.py` run in its folder, inserting the repository root (`'..', '..'`)
# to import the library of the repository.
CASES["examples/<name>/ script importing the repository's library"] = (
    {
        "pyproject.toml": PYPROJECT,
        "lib/__init__.py": "",
        "lib/deps.py": DEPS,
        "examples/demo/server.py": HEAD
        + "import os\nimport sys\n\nsys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', '..'))\n\n"
        + "from mcp.server import MCPServer  # noqa: E402\n\nfrom lib.deps import load_d  # noqa: E402\n\nmcp = MCPServer('x')\n\n\n"
        + "@mcp.tool()\ndef forecast(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n    return d\n",
    },
    ["server.py"],
    "examples/demo",
    "lib/deps.py",
)
# A repository with a `.venv` inside (a copy of the package in its site-packages) and tests
# importing the server: neither is the server's code.
CASES["virtualenv and tests inside the repository"] = (
    {
        ".venv/pyvenv.cfg": "home = /usr/bin\n",
        ".venv/lib/python3/site-packages/tools/deps.py": "def load_d(x: int) -> str:\n    return str(x)\n",
        "tests/test_server.py": "import sys\nfrom pathlib import Path\n\nsys.path.insert(0, str(Path(__file__).resolve().parents[1]))\n\nimport server  # noqa: E402\n\n\ndef test_named():\n    assert server.mcp.name == 'x'\n",
        **CASES["root script, namespace tools/ importing tools.deps"][0],
    },
    *CASES["root script, namespace tools/ importing tools.deps"][1:],
)

# Poetry's `packages = [{include = "wx", from = "lib"}]`, a root `main.py` importing the package
# (installed, or `lib/` on the path).
CASES["poetry package from lib/, a root main.py importing it"] = (
    {
        "pyproject.toml": PYPROJECT + "\n[tool.poetry]\npackages = [{include = 'wx', from = 'lib'}]\n",
        "main.py": "from wx.server import mcp\n",
        "lib/wx/__init__.py": "",
        "lib/wx/server.py": server("from wx.tools import register", "register(mcp)"),
        "lib/wx/tools.py": helper("from wx.deps import load_d"),
        "lib/wx/deps.py": DEPS,
    },
    ["-c", "import runpy, sys\nsys.path.insert(0, 'lib')\nrunpy.run_path('main.py')"],
    ".",
    "lib/wx/deps.py",
)
# The server a project of its own in `server/` (its pyproject, `src/`), beside a client folder.
CASES["server/ project with its own pyproject and src/, beside a client"] = (
    {
        "server/pyproject.toml": PYPROJECT,
        "server/src/wx/__init__.py": "",
        "server/src/wx/server.py": server("from wx.tools import register", "register(mcp)"),
        "server/src/wx/tools.py": helper("from wx.deps import load_d"),
        "server/src/wx/deps.py": DEPS,
        "client/app.py": "print('client')\n",
    },
    ["-m", "wx.server"],
    "server/src",
    "server/src/wx/deps.py",
)
# A uv workspace (`[tool.uv.workspace] members = ["packages/*"]`): the server's package imports
# the resolver from another member's `src/` (both installed in the workspace's environment).
CASES["uv workspace, the server importing another member"] = (
    {
        "pyproject.toml": PYPROJECT + "\n[tool.uv.workspace]\nmembers = ['packages/*']\n",
        "packages/alpha/pyproject.toml": PYPROJECT,
        "packages/alpha/src/alpha/__init__.py": "",
        "packages/alpha/src/alpha/server.py": server("from alpha.tools import register", "register(mcp)"),
        "packages/alpha/src/alpha/tools.py": helper("from zeta.deps import load_d"),
        "packages/zeta/pyproject.toml": PYPROJECT,
        "packages/zeta/src/zeta/__init__.py": "",
        "packages/zeta/src/zeta/deps.py": DEPS,
    },
    ["-c", "import sys\nsys.path[:0] = ['packages/alpha/src', 'packages/zeta/src']\nimport alpha.server"],
    ".",
    "packages/zeta/src/zeta/deps.py",
)

# The same with a flat member (`packages/zeta/zeta/`, no `src/`), and a member the workspace
# excludes beside them (`packages/old`, never installed: its `zeta` is not the one imported).
CASES["uv workspace, a flat member imported, an excluded one beside it"] = (
    {
        "pyproject.toml": PYPROJECT
        + "\n[tool.uv.workspace]\nmembers = ['packages/*']\nexclude = ['packages/old']\n",
        "packages/alpha/pyproject.toml": PYPROJECT,
        "packages/alpha/src/alpha/__init__.py": "",
        "packages/alpha/src/alpha/server.py": server("from alpha.tools import register", "register(mcp)"),
        "packages/alpha/src/alpha/tools.py": helper("from zeta.deps import load_d"),
        "packages/old/pyproject.toml": PYPROJECT,
        "packages/old/zeta/__init__.py": "",
        "packages/old/zeta/deps.py": DEPS.replace(*CLEAN),
        "packages/zeta/pyproject.toml": PYPROJECT,
        "packages/zeta/zeta/__init__.py": "",
        "packages/zeta/zeta/deps.py": DEPS,
    },
    ["-c", "import sys\nsys.path[:0] = ['packages/alpha/src', 'packages/zeta']\nimport alpha.server"],
    ".",
    "packages/zeta/zeta/deps.py",
)

GAPS: dict[str, str] = {}
"""Layouts mcpdeps does not follow yet (strict xfails: an XPASS says to delete the entry)."""

NO_MARKER = [
    "root script, namespace tools/ importing tools.deps",
    "root script, namespace tools/ importing a root module by bare name",
    "src/ of scripts importing siblings by bare name",
    "monorepo servers/<name>/ of scripts with bare-name siblings",
    "monorepo, servers/b/tools/ namespace importing servers/b modules",
    "hyphenated folder of scripts",
    "setup.py only, package at the root",
]
"""Layouts also checked without `.git` (an archive): `lint FILE` there was silent on all of them
(nothing marked the project, so no importer of the resolver's file was looked for)."""


def sdk(root: Path, argv: list[str], folder: str) -> subprocess.CompletedProcess[str]:
    """The server started as its author starts it: Python with `argv` in `folder`."""
    return subprocess.run(
        [sys.executable, *argv], cwd=root / folder, capture_output=True, text=True, timeout=120
    )


def _codes(found: list[dict], path: str) -> list[str]:
    return [d["code"] for d in located(found, path)]


def layouts(gaps: dict[str, str]) -> list[object]:
    """Every case with a `.git`, and those of `NO_MARKER` without: `gaps`' cases strict xfails."""
    return [
        *(
            pytest.param(name, "git", marks=pytest.mark.xfail(strict=True, reason=gaps[name]))
            if name in gaps
            else (name, "git")
            for name in CASES
        ),
        *((name, "none") for name in NO_MARKER),
    ]


def _repo(tmp_path: Path, name: str, marker: str) -> Path:
    """The case's repository, with a `.git` or nothing marking its root."""
    root = tmp_path / "repo"
    root.mkdir()
    if marker == "git":
        subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    write_files(root, {"requirements.txt": "mcp\n", **CASES[name][0]})
    return root


@pytest.mark.parametrize(("name", "marker"), layouts(GAPS))
def test_layout_refused_by_the_sdk_is_reported_by_lint_dot_and_lint_file(
    tmp_path: Path, name: str, marker: str
) -> None:
    _, argv, folder, bad = CASES[name]
    refused_and_reported(_repo(tmp_path, name, marker), [(argv, folder)], bad)


def refused_and_reported(
    root: Path,
    starts: list[tuple[list[str], str]],
    bad: str,
    refused_with: str = REFUSED,
    clean: tuple[str, str] = CLEAN,
) -> None:
    """Every start of the server (Python's arguments, the folder they run in) is refused by the
    SDK (saying `refused_with`), and `lint .` and `lint bad` report MCPD002 in `bad` alone; with
    the clean twin (`bad`'s text with `clean` replaced) every start succeeds and both accept it."""
    for argv, folder in starts:
        refused = sdk(root, argv, folder)
        assert refused_with in refused.stderr, (argv, refused.stderr)
    whole = lint_diagnostics(root, "--no-cache", ".")
    assert _codes(whole, bad) == ["MCPD002"], whole
    assert [d for d in whole if d["path"] != bad] == [], whole
    assert _codes(lint_diagnostics(root, "--no-cache", bad), bad) == ["MCPD002"]

    path = root / bad
    path.write_text(path.read_text().replace(*clean))
    for argv, folder in starts:
        accepted = sdk(root, argv, folder)
        assert accepted.returncode == 0, (argv, accepted.stderr)
    assert lint_diagnostics(root, "--no-cache", ".") == []
    assert lint_diagnostics(root, "--no-cache", bad) == []


EDITOR_GAPS: dict[str, str] = {}
"""Layouts the editor reports otherwise than `lint .` (strict xfails)."""


@pytest.mark.parametrize(("name", "marker"), layouts(EDITOR_GAPS))
def test_the_editor_reports_what_lint_dot_reports(tmp_path: Path, name: str, marker: str) -> None:
    """Opened on the repository, on the folder the server starts in (as `lint .` there), and on
    the project holding the refused file when that is not the repository (a uv workspace's
    member opened as the editor's folder: its importers are in another member)."""
    _, _, folder, bad = CASES[name]
    root = _repo(tmp_path, name, marker)
    the_editor_reports_what_lint_dot_reports(root, bad)
    if folder != ".":
        the_editor_reports_what_lint_dot_reports(root / folder)
    project = next(p for p in (root / bad).parents if (p / "pyproject.toml").is_file() or p == root)
    if project != root:
        the_editor_reports_what_lint_dot_reports(project, str((root / bad).relative_to(project)))


def test_no_project_root_above_the_home_folder_the_temporary_folder_or_the_file_systems_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file in an unmarked folder is in the project of the folder lint runs in, unless that
    folder is the home folder, the temporary folder or `/` (walking them for importers would
    read everything)."""
    import tempfile

    from mcpdeps.resolver_core.search_roots import project_root_of

    (tmp_path / "repo" / "tools").mkdir(parents=True)
    start = tmp_path / "repo" / "tools"
    assert project_root_of(start, tmp_path / "repo") == tmp_path / "repo"
    assert project_root_of(start, tmp_path / "elsewhere") is None
    monkeypatch.setenv("HOME", str(tmp_path))
    assert project_root_of(start, tmp_path) is None
    monkeypatch.setenv("HOME", str(tmp_path / "elsewhere"))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    assert project_root_of(start, tmp_path) is None
    assert project_root_of(start, tmp_path / "repo") == tmp_path / "repo"
    assert project_root_of(start, Path("/")) is None
