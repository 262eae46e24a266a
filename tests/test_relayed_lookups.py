"""A relay's calls of features outside a one-file run are not resolved, in functions too.

`app/main.py` hands its server to `app/relay.py`'s `setup(server)`, which calls twenty
features' `register(server)` helpers (`f_7.register(server)`, the `helpers` shape's `group_*`
modules). `lint features/f_5.py` checks the relay, following its server only into the files
shown before the given one (`confined.py`). The calls of the other features were resolved
all the same when written in a function, which parsed every feature (on `helpers` 1,000 a
factory module's pre-commit run parsed 407 modules, 53 of them only for this); a call in a
function is now told outside by its module's imports as a module-level one is, unless an
enclosing scope binds the name.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_mcpdeps, write_files
from published_shapes import duplicates_logged, each_file_alone_reports_what_lint_dot_reports
from sdk_tools import tool_names
from test_entry_point_lookups import FEATURE, loaded

FEATURES = 20


def _project(root: Path) -> None:
    files = {
        "pyproject.toml": "[project]\nname = 'relayed'\n",
        "app/__init__.py": "",
        "app/server.py": "from mcp.server import MCPServer\n\nmcp = MCPServer('relayed')\n",
        "app/tools.py": (
            "from app.server import mcp\n\n\n@mcp.tool()\ndef search(text: str) -> str:\n    return text\n"
        ),
        "app/main.py": "from app import tools  # noqa: F401\nfrom app.relay import setup\nfrom app.server import mcp\n\nsetup(mcp)\n",
        **relayed(FEATURES),
    }
    write_files(root, files)


def relayed(features: int) -> dict[str, str]:
    """`app/relay.py`'s `setup(server)` calling the `register(server)` helper of each of
    `features` modules `features/f_{n}.py`, and those modules."""
    imports = "".join(f"from features import f_{n}\n" for n in range(features))
    calls = "".join(f"    f_{n}.register(server)\n" for n in range(features))
    files = {
        "app/relay.py": f"{imports}\n\ndef setup(server) -> None:\n{calls}",
        "features/__init__.py": "",
    }
    for n in range(features):
        files[f"features/f_{n}.py"] = FEATURE.format(n=n)
    return files


def test_the_relayed_tools_are_the_sdks(tmp_path: Path) -> None:
    _project(tmp_path)
    done = run_mcpdeps("graph", "--format", "json", "app/main.py", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    (server,) = json.loads(done.stdout)["servers"]
    static = sorted(t["name"] for t in server["tools"])
    assert static == tool_names(tmp_path) == sorted(["search", *(f"feature_{n}" for n in range(FEATURES))])


def test_a_feature_alone_parses_only_the_features_shown_before_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`lint features/f_5.py` checks the relay (it imports the file) and the features shown
    before it (their registrations come first); the relay's server is followed into no other
    feature, and none of those is parsed."""
    _project(tmp_path)
    parsed = loaded(monkeypatch)
    alone = run_mcpdeps("lint", "--format", "json", "features/f_5.py", cwd=tmp_path)
    assert alone.returncode == 0, alone.stderr
    assert "relay.py" in parsed, "the relay calls the file's helper: it is checked"
    shown_before = {f"f_{n}.py" for n in range(FEATURES) if f"f_{n}.py" <= "f_5.py"}
    assert {name for name in parsed if name.startswith("f_")} == shown_before
    cold = run_mcpdeps("lint", "--format", "json", "--no-cache", "features/f_5.py", cwd=tmp_path)
    assert json.loads(alone.stdout) == json.loads(cold.stdout)


EARLY = (
    "from mcp.server import MCPServer\n\n\n"
    "def register(server: MCPServer) -> None:\n"
    "    @server.tool()\n"
    "    def {name}(text: str) -> str:\n"
    "        return text\n"
)


def _early_project(root: Path, handed: str, name: str) -> None:
    """The entry point calls `zextra/early.py`'s helper (shown after every feature) with
    `handed`, then hands its server to the relay; the helper's tool is called `name`."""
    files = {
        "pyproject.toml": "[project]\nname = 'early'\n",
        "app/__init__.py": "",
        "app/server.py": "from mcp.server import MCPServer\n\nmcp = MCPServer('early')\nother = MCPServer('other')\n",
        "zextra/__init__.py": "",
        "zextra/early.py": EARLY.format(name=name),
        "app/main.py": (
            "from app.relay import setup\nfrom app.server import mcp, other\nfrom zextra import early\n\n"
            f"early.register({handed})\nsetup(mcp)\n"
        ),
        **relayed(8),
    }
    write_files(root, files)


@pytest.mark.parametrize(
    ("handed", "name", "read"),
    [("mcp", "feature_5", True), ("other", "feature_5", False), ("mcp", "early_search", False)],
)
def test_a_helper_called_before_the_relay_is_read_when_it_may_share_a_tool_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, handed: str, name: str, read: bool
) -> None:
    """`early.register(mcp)` then `setup(mcp)`: the SDK registers early's `feature_5` first
    and logs f_5's as the duplicate; `lint .` reports MCPD110 in `features/f_5.py`, and so does
    `lint features/f_5.py`, which reads `zextra/early.py` (called before the relay with the
    same server, and spelling a name f_5's tools have: `called_first.py`) though it is shown
    after the file. Handed another server, or naming its tool otherwise, the helper makes no
    duplicate, and the file alone does not read it."""
    root = tmp_path / "project"
    _early_project(root, handed, name)
    duplicate = ["Tool already exists: feature_5"] if handed == "mcp" and name == "feature_5" else []
    assert duplicates_logged(root, {}) == duplicate
    parsed = loaded(monkeypatch)
    alone = run_mcpdeps("lint", "--format", "json", "--no-cache", "features/f_5.py", cwd=root)
    assert alone.returncode == 0, alone.stderr
    assert [d["code"] for d in json.loads(alone.stdout)["diagnostics"]] == ["MCPD110"] * len(duplicate)
    assert ("early.py" in parsed) == read
    each_file_alone_reports_what_lint_dot_reports(root, tmp_path)
