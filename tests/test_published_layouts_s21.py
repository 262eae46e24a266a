"""Project layouts of published servers, round s21: packages started as scripts, and imports
written to work both ways.

Published servers often keep an `__init__.py` in the server's folder yet start it as a script
(`python app/server.py`, `mcp run app/server.py`, `uv run src/<pkg>/server.py`), or append the
module's own folder to `sys.path`: Python then puts that package folder first on `sys.path`, and
the modules import their siblings by bare name (`from tools import register`). Others write
each import twice, `try: from tools import register` / `except ImportError: from app.tools
import register`, so the same files start as a script and with `python -m`. Each case is a small
project of my own in the 2.3 API, after a shape read in published repositories (named in the
comment above it), started as its author starts it; the SDK refuses a resolver of one module
(`bad`), and `lint .` at the repository root, `lint bad` alone (what pre-commit passes), each
file alone cold and cached, and the editor must all report it there, and accept the clean twin.

Before this round `lint .` said MCPD113 (the helper's server unknown: its caller's import was
not followed) or nothing for the packages started as scripts, and `lint bad` alone was silent
on them and on the dual imports whose first arm names no project module.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from conftest import lint_diagnostics, located, write_files
from published_shapes import (
    CLEAN,
    REFUSED,
    each_file_alone_reports_what_lint_dot_reports,
    the_editor_reports_what_lint_dot_reports,
)
from test_published_layouts import DEPS, HEAD, PYPROJECT, helper, refused_and_reported, sdk, server

Start = tuple[list[str], str]
"""The Python arguments starting the server, and the folder they run in."""
Case = tuple[dict[str, str], list[Start], str, str, tuple[str, str]]
"""(files, the ways the server is started, the refused resolver's file, what the SDK says of it,
the text replaced in that file to make its clean twin)."""


def dual(first: str, then: str, names: str) -> str:
    """`try: from <first> import names` / `except ImportError: from <then> import names`."""
    return f"try:\n    from {first} import {names}\nexcept ImportError:\n    from {then} import {names}\n"


CITY = DEPS.replace("nope", "city")
"""A resolver the SDK accepts for a tool with a `city` argument and refuses for the others."""

CASES: dict[str, Case] = {}

# A package folder (`mcp_server/__init__.py`) whose README starts `python mcp_server/server.py`:
# the server module imports its siblings by bare name.
CASES["package folder started as a script, siblings by bare name"] = (
    {
        "mcp_server/__init__.py": "",
        "mcp_server/server.py": server("from tools import register", "register(mcp)"),
        "mcp_server/tools.py": helper("from deps import load_d"),
        "mcp_server/deps.py": DEPS,
    },
    [(["mcp_server/server.py"], ".")],
    "mcp_server/deps.py",
    REFUSED,
    CLEAN,
)
# `uv run src/<pkg>/server.py` in a project with a pyproject and a `src/` package.
CASES["src/<pkg>/ package started as a script"] = (
    {
        "pyproject.toml": PYPROJECT,
        "src/my_server/__init__.py": "",
        "src/my_server/server.py": server("from tools import register", "register(mcp)"),
        "src/my_server/tools.py": helper("from deps import load_d"),
        "src/my_server/deps.py": DEPS,
    },
    [(["src/my_server/server.py"], ".")],
    "src/my_server/deps.py",
    REFUSED,
    CLEAN,
)
# A package module appending its own folder to `sys.path` before its bare-name imports, so that
# `python -m app.server` works too.
CASES["package module appending its own folder to sys.path, started with -m"] = (
    {
        "app/__init__.py": "",
        "app/server.py": "import os\nimport sys\n\nsys.path.append(os.path.dirname(os.path.abspath(__file__)))\n"
        + server("from tools import register  # noqa: E402", "register(mcp)"),
        "app/tools.py": helper("from deps import load_d"),
        "app/deps.py": DEPS,
    },
    [(["-m", "app.server"], ".")],
    "app/deps.py",
    REFUSED,
    CLEAN,
)
# `app/main.py` started as a script, adding the tool functions of a `tools/` subpackage that
# imports the resolver from the package folder by bare name.
CASES["package folder started as a script, a tools/ subpackage adding its functions"] = (
    {
        "app/__init__.py": "",
        "app/main.py": "from mcp.server import MCPServer\n\nfrom tools.weather import forecast\n\n"
        "mcp = MCPServer('x')\nmcp.add_tool(forecast)\n",
        "app/tools/__init__.py": "",
        "app/tools/weather.py": HEAD
        + "from deps import load_d\n\n\ndef forecast(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n"
        + "    return d\n",
        "app/deps.py": DEPS,
    },
    [(["app/main.py"], ".")],
    "app/deps.py",
    REFUSED,
    CLEAN,
)
# A package folder holding `server.py` (the server), `main.py` (started as a script: `python
# app/main.py`) and tool modules decorating the server they import by bare name.
CASES["package folder started as a script, tool modules decorating the sibling server"] = (
    {
        "app/__init__.py": "",
        "app/server.py": "from mcp.server import MCPServer\n\nmcp = MCPServer('x')\n",
        "app/main.py": "from server import mcp\nimport tools  # noqa: F401\n\nif __name__ == '__main__':\n    mcp.run()\n",
        "app/tools.py": HEAD
        + "from deps import load_d\nfrom server import mcp\n\n\n@mcp.tool()\n"
        + "def forecast(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n    return d\n",
        "app/deps.py": DEPS,
    },
    [(["app/main.py"], ".")],
    "app/deps.py",
    REFUSED,
    CLEAN,
)
# `src/__init__.py` beside the modules, a root launcher putting `src/` on `sys.path` and
# importing `server` by bare name; `src/tools/` a package importing `deps` the same way.
CASES["src/ package put on sys.path by a root launcher"] = (
    {
        "run.py": "import sys\nfrom pathlib import Path\n\nsys.path.insert(0, str(Path(__file__).parent / 'src'))\n\n"
        "from server import mcp  # noqa: E402,F401\n",
        "src/__init__.py": "",
        "src/server.py": server("from tools.weather import register", "register(mcp)"),
        "src/tools/__init__.py": "",
        "src/tools/weather.py": helper("from deps import load_d"),
        "src/deps.py": DEPS,
    },
    [(["run.py"], ".")],
    "src/deps.py",
    REFUSED,
    CLEAN,
)


def dual_case(tools: tuple[str, str], deps: tuple[str, str]) -> Case:
    """A package whose modules import `tools` and `deps` both ways (`dual`), started as a script
    and with `-m`."""
    files = {
        "app/__init__.py": "",
        "app/server.py": server(dual(*tools, "register"), "register(mcp)"),
        "app/tools.py": helper(dual(*deps, "load_d")),
        "app/deps.py": DEPS,
    }
    return files, [(["app/server.py"], "."), (["-m", "app.server"], ".")], "app/deps.py", REFUSED, CLEAN


# Imports written for both starts, the bare name first and the package's absolute name in the
# handler (`try: from tools_registry import ...` / `except ImportError: from pkg.tools_registry ...`).
CASES["dual imports, the bare name first, the package's name in except ImportError"] = dual_case(
    ("tools", "app.tools"), ("deps", "app.deps")
)
# The same with the relative import first and the bare name in the handler.
CASES["dual imports, relative first, the bare name in except ImportError"] = dual_case(
    (".tools", "tools"), (".deps", "deps")
)
# Two script servers of a collection, each importing a sibling `deps.py` by bare name, with the
# same text: the resolver's `city` is an argument of the first server's tool only.
CASES["servers/<name>/ scripts each with a deps.py of the same text"] = (
    {
        "servers/a/server.py": server("from tools import register", "register(mcp)"),
        "servers/a/tools.py": helper("from deps import load_d").replace("x: int", "city: str"),
        "servers/a/deps.py": CITY,
        "servers/b/server.py": server("from tools import register", "register(mcp)"),
        "servers/b/tools.py": helper("from deps import load_d"),
        "servers/b/deps.py": CITY,
    },
    [(["server.py"], "servers/b")],
    "servers/b/deps.py",
    "InvalidSignature: Resolver 'load_d' parameter 'city'",
    ("city", "x"),
)
# The same with both servers' modules in a package of the same name (`common/`).
CASES["servers/<name>/ scripts each with a package of the same name"] = (
    {
        "servers/a/server.py": server("from common.tools import register", "register(mcp)"),
        "servers/a/common/__init__.py": "",
        "servers/a/common/tools.py": helper("from common.deps import load_d").replace("x: int", "city: str"),
        "servers/a/common/deps.py": CITY,
        "servers/b/server.py": server("from common.tools import register", "register(mcp)"),
        "servers/b/common/__init__.py": "",
        "servers/b/common/tools.py": helper("from common.deps import load_d"),
        "servers/b/common/deps.py": CITY,
    },
    [(["server.py"], "servers/b")],
    "servers/b/common/deps.py",
    "InvalidSignature: Resolver 'load_d' parameter 'city'",
    ("city", "x"),
)


def shared_folder_user(insert: str) -> str:
    """A server script putting a shared folder on `sys.path` (`insert`, its statements), then
    importing the resolver from there by bare name."""
    return (
        "import os\nimport sys\nfrom pathlib import Path\n\n"
        + insert
        + "\n"
        + HEAD
        + "from mcp.server import MCPServer  # noqa: E402\n\nfrom auth import load_d  # noqa: E402\n\n"
        + "mcp = MCPServer('x')\n\n\n@mcp.tool()\n"
        + "def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n    return d\n"
    )


# A collection of servers sharing a `common/` folder of resolvers, each server script putting it
# on `sys.path` itself (pathlib's `parents[n]`, and `os.path.join` with `..` through a name).
CASES["servers/<name>/ scripts inserting a shared common/ folder in sys.path"] = (
    {
        "common/auth.py": DEPS,
        "servers/a/server.py": shared_folder_user(
            "sys.path.insert(0, str(Path(__file__).resolve().parents[2] / 'common'))\n"
        ),
        "servers/b/server.py": shared_folder_user(
            "HERE = os.path.dirname(os.path.abspath(__file__))\n"
            "sys.path.append(os.path.join(HERE, '..', '..', 'common'))\n"
        ),
    },
    [(["server.py"], "servers/a"), (["server.py"], "servers/b")],
    "common/auth.py",
    REFUSED,
    CLEAN,
)


def _repo(tmp_path: Path, files: dict[str, str]) -> Path:
    """A clone of the case (a `.git` marks its root), packaged by a `requirements.txt`."""
    root = tmp_path / "repo"
    root.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    write_files(root, {"requirements.txt": "mcp\n", **files})
    return root


def _codes(found: list[dict], path: str) -> list[str]:
    return [d["code"] for d in located(found, path)]


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_sdk_refuses_the_layout_and_lint_dot_and_lint_file_report_it(tmp_path: Path, name: str) -> None:
    """Every way the author starts the server is refused by the SDK and `lint .` and `lint bad`
    report MCPD002 in `bad` alone; with the clean twin every start succeeds and both accept it."""
    files, *rest = CASES[name]
    refused_and_reported(_repo(tmp_path, files), *rest)


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_file_alone_reports_what_lint_dot_reports_cold_and_cached(tmp_path: Path, name: str) -> None:
    files, _, bad, _, _ = CASES[name]
    each_file_alone_reports_what_lint_dot_reports(_repo(tmp_path, files), tmp_path, entry=bad)


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_editor_reports_what_lint_dot_reports(tmp_path: Path, name: str) -> None:
    """The editor's model of the repository, the refused file saved and its clean twin unsaved
    and the other way round, reports what `lint .` reports."""
    files, _, bad, _, clean = CASES[name]
    the_editor_reports_what_lint_dot_reports(_repo(tmp_path, files), bad, clean)


def test_a_package_module_named_after_the_standard_library_is_not_what_a_bare_import_means(
    tmp_path: Path,
) -> None:
    """`from json import load_d` in a package started with `-m` is the standard library's `json`
    (the SDK never starts: ImportError), not the package's own `json.py` beside it, whose refused
    resolver no tool runs: lint reports nothing there, in `lint .` or alone."""
    files = {
        "app/__init__.py": "",
        "app/server.py": HEAD
        + "from json import load_d\n\nfrom mcp.server import MCPServer\n\nmcp = MCPServer('x')\n\n\n"
        + "@mcp.tool()\ndef forecast(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n    return d\n",
        "app/json.py": DEPS,
    }
    root = _repo(tmp_path, files)
    ran = sdk(root, ["-m", "app.server"], ".")
    assert "ImportError: cannot import name 'load_d' from 'json'" in ran.stderr, ran.stderr
    assert located(lint_diagnostics(root, "--no-cache", "."), "app/json.py") == []
    assert lint_diagnostics(root, "--no-cache", "app/json.py") == []


def _anyio_beside(tmp_path: Path, beside: str, imports: str) -> None:
    """A package `app` holding `app/anyio.py` (`beside`) and a server importing `imports`, then
    the installed `anyio`, resolving with its `current_time`: started with `-m` the SDK accepts
    it, and lint reports no error."""
    files = {
        "app/__init__.py": "",
        "app/anyio.py": beside,
        "app/server.py": HEAD
        + f"import anyio\n\nfrom mcp.server import MCPServer\n{imports}\nmcp = MCPServer('x')\n\n\n@mcp.tool()\n"
        + "def t(x: int, d: Annotated[float, Resolve(anyio.current_time)]) -> float:\n    return d\n",
    }
    root = _repo(tmp_path, files)
    ran = sdk(root, ["-m", "app.server"], ".")
    assert ran.returncode == 0, ran.stderr
    assert [d["code"] for d in lint_diagnostics(root, "--no-cache", ".") if d["severity"] == "error"] == []


def test_a_package_module_wrapping_an_installed_library_is_not_what_a_bare_import_means(
    tmp_path: Path,
) -> None:
    """`app/anyio.py` wrapping the installed `anyio` (importing it) and `app/server.py` importing
    `from app.anyio import ...` as a package started with `-m` does: the bare `import anyio`
    there is the library (and in `app/anyio.py` is not itself)."""
    _anyio_beside(
        tmp_path,
        "import anyio\n\n\ndef now() -> float:\n    return anyio.current_time()\n",
        "\nfrom app.anyio import now  # noqa: F401\n",
    )


@pytest.mark.xfail(
    strict=True,
    reason="started with `-m`, `import anyio` in app/server.py is the installed library and the SDK "
    "accepts `Resolve(anyio.current_time)`; app/server.py imports nothing relatively nor under its "
    "package's name, so lint reads `anyio` as the module beside it (the package folder a script's, "
    "`Project._in_packages`) and reports MCPD007 (no attribute `current_time` in app/anyio.py)",
)
def test_a_bare_import_of_an_installed_library_with_an_unrelated_module_of_that_name_beside_it(
    tmp_path: Path,
) -> None:
    _anyio_beside(tmp_path, "ANSWER = 42\n", "")


@pytest.mark.xfail(
    strict=True,
    reason="`python run.py` puts lib/ on sys.path before importing server.py, whose `from shared.auth "
    "import load_d` the SDK then refuses (parameter 'nope'); lint reads only the folders a module puts "
    "on sys.path itself (`path_inserts`), not those another module put there before importing it "
    "(the importer's order is the run's), and says MCPD113 (the resolver from outside the project)",
)
def test_a_folder_a_launcher_puts_on_sys_path_is_searched_by_the_modules_it_imports(tmp_path: Path) -> None:
    files = {
        "lib/shared/__init__.py": "",
        "lib/shared/auth.py": DEPS,
        "run.py": "import sys\nfrom pathlib import Path\n\nsys.path.insert(0, str(Path(__file__).parent / 'lib'))\n\n"
        "import server  # noqa: E402,F401\n",
        "server.py": HEAD
        + "from mcp.server import MCPServer\n\nfrom shared.auth import load_d\n\nmcp = MCPServer('x')\n\n\n"
        + "@mcp.tool()\ndef t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n    return d\n",
    }
    root = _repo(tmp_path, files)
    assert REFUSED in sdk(root, ["run.py"], ".").stderr
    assert _codes(lint_diagnostics(root, "--no-cache", "."), "lib/shared/auth.py") == ["MCPD002"]


@pytest.mark.parametrize(
    ("text", "folders"),
    [
        ("sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))", ["a/b"]),
        ("sys.path.insert(0, str(Path(__file__).parent / 'src'))", ["a/b/src"]),
        ("sys.path.append(os.path.join(os.path.dirname(__file__), '..', 'lib'))", ["a/lib"]),
        (
            "ROOT = Path(__file__).resolve().parents[1]\nif str(ROOT) not in sys.path:\n    sys.path.insert(0, str(ROOT))",
            ["a"],
        ),
        (
            "try:\n    import x\nexcept ImportError:\n    sys.path.append(os.fspath(Path(__file__).absolute().parent.parent))",
            ["a"],
        ),
        ("def main():\n    sys.path.insert(0, os.path.dirname(__file__))", []),
        ("sys.path.insert(0, os.environ['EXTRA'])", []),
        ("sys.path.insert(0, os.path.join(os.path.dirname(__file__), NAME))", []),
    ],
)
def test_the_folders_a_module_puts_on_sys_path_are_read_from_its_text(text: str, folders: list[str]) -> None:
    """The spellings of `sys.path.insert`/`append` of a folder built from `__file__` that are read
    (module level, in an `if` or `try` too, through a module-level name), and those that are not
    (in a function, from the environment, a part that is no literal)."""
    import ast

    from mcpdeps.resolver_core.path_inserts import inserted_folders

    path = Path("/p/a/b/server.py")
    assert inserted_folders(ast.parse(text), path) == [Path("/p") / f for f in folders]


def test_the_editor_follows_an_unsaved_edit_of_the_folder_a_script_puts_on_sys_path(tmp_path: Path) -> None:
    """The server script's unsaved text putting `common2/` (a clean resolver) on `sys.path`
    instead of `common/` (the refused one), and back: the editor reports what `lint .` reports
    of each text saved."""
    files = {
        "common/auth.py": DEPS,
        "common2/auth.py": DEPS.replace(*CLEAN),
        "servers/a/server.py": shared_folder_user(
            "sys.path.insert(0, str(Path(__file__).resolve().parents[2] / 'common'))\n"
        ),
    }
    root = _repo(tmp_path, files)
    assert REFUSED in sdk(root, ["server.py"], "servers/a").stderr
    the_editor_reports_what_lint_dot_reports(root, "servers/a/server.py", ("'common'", "'common2'"))
