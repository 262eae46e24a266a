"""An entry point's imported helpers are resolved only when they may be server methods.

`app/main.py` calls thirty features' `register(mcp)` helpers, each imported under a name of
its own (`register_7`). A name imported under another and called at a line's start may be a
server's method bound in its module (`add = mcp.add_tool`, then `add(fn)`): resolving every
such name parsed every feature module, so `lint app/tools.py`, which checks the entry point
only for the registrations the tool file's come after, parsed the whole project. A module
that writes no method uncalled binds no name to one (`registrar_aliases._may_bind_method`):
it is read, not parsed, and stays a dependency of the entry point's verdicts.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_mcpdeps
from mcpdeps.lint_rules import incremental
from mcpdeps.resolver_core.project import Project
from sdk_tools import tool_names

FEATURES = 30
FEATURE = (
    "from mcp.server import MCPServer\n\n\n"
    "def register(server: MCPServer) -> None:\n"
    "    @server.tool()\n"
    "    def feature_{n}(text: str) -> str:\n"
    "        return text\n"
)


def loaded(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the modules the runs that follow load (`Project.load_path`: parse or take
    a lent tree), in order."""
    parsed: list[str] = []
    load_path = Project.load_path

    def counted(self: Project, path: Path, *args: object, **kwargs: object) -> object:
        parsed.append(Path(path).name)
        return load_path(self, path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Project, "load_path", counted)
    return parsed


def _project(root: Path) -> None:
    files = {
        "pyproject.toml": "[project]\nname = 'entry'\n",
        "app/__init__.py": "",
        "app/server.py": "from mcp.server import MCPServer\n\nmcp = MCPServer('entry')\n",
        "app/aliases.py": "from app.server import mcp\n\nadd = mcp.add_tool\n",
        "app/tools.py": (
            "from app.server import mcp\n\n\n@mcp.tool()\ndef search(text: str) -> str:\n    return text\n"
        ),
        "features/__init__.py": "",
    }
    imports, calls = [], []
    for n in range(FEATURES):
        files[f"features/f_{n}.py"] = FEATURE.format(n=n)
        imports.append(f"from features.f_{n} import register as register_{n}\n")
        calls.append(f"register_{n}(mcp)\n")
    files["app/main.py"] = (
        "from app import tools  # noqa: F401\nfrom app.aliases import add\nfrom app.server import mcp\n"
        + "".join(imports)
        + "\n\ndef ping(text: str) -> str:\n    return text\n\n\nadd(ping)\n"
        + "".join(calls)
    )
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_the_alias_is_followed_and_the_tools_are_the_sdks(tmp_path: Path) -> None:
    _project(tmp_path)
    done = run_mcpdeps("graph", "--format", "json", "app/main.py", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    (server,) = json.loads(done.stdout)["servers"]
    static = sorted(t["name"] for t in server["tools"])
    assert (
        static
        == tool_names(tmp_path)
        == sorted(["ping", "search", *(f"feature_{n}" for n in range(FEATURES))])
    )


def test_a_tool_file_alone_parses_none_of_the_features(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _project(tmp_path)
    parsed = loaded(monkeypatch)
    checked: list[list[str]] = []
    check_files = incremental.check_files

    def recorded(origins, *args, **kwargs):  # type: ignore[no-untyped-def]
        checked.append(list(origins))
        return check_files(origins, *args, **kwargs)

    monkeypatch.setattr(incremental, "check_files", recorded)
    alone = run_mcpdeps("lint", "--format", "json", "app/tools.py", cwd=tmp_path)
    assert alone.returncode == 0, alone.stderr
    assert "app/main.py" in checked[0], "the entry point is checked for the registrations before it"
    assert not [name for name in parsed if name.startswith("f_")]
    # The features the entry point reads are dependencies all the same: an edit of one
    # checks it again.
    checked.clear()
    feature = tmp_path / "features/f_3.py"
    feature.write_text(feature.read_text() + "\n# edited\n")
    again = run_mcpdeps("lint", "--format", "json", "app/tools.py", cwd=tmp_path)
    assert again.stdout == alone.stdout
    assert checked and "app/main.py" in checked[0]
