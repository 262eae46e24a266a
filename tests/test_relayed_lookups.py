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
