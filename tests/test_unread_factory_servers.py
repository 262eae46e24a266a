"""An entry point's servers made by factories outside a one-file run's limit, read nowhere.

`app/main.py` hands its server to `app/relay.py`'s `setup(server)`, which calls the features'
`register(server)` helpers, and makes four servers of its own by calling factories
(`svc_0 = create_server_0()`, the `helpers` shape's `builder_*` modules), each registering a
tool and handing its server to another helper. `lint features/f_5.py` checks the entry point
only as far as the files shown before the given one (`confined.py`): a factory's server that
the entry point never reads again reaches none of them, so whether it is a server is not asked
(`Confined.unread`), and neither the factory nor the helper it hands its server to is parsed
(on `helpers` 1,000 a factory module's pre-commit run parsed 175 modules for them). Read again
(`setup(svc_0)`), the factory's server is followed as before: its tool named like the given
file's is a duplicate located there, as `lint .` and the SDK say.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_mcpdeps, write_files
from published_shapes import duplicates_logged, each_file_alone_reports_what_lint_dot_reports
from sdk_tools import tool_names
from test_entry_point_lookups import loaded
from test_relayed_lookups import relayed

FEATURES = 8
SERVICES = 4
SERVICE = (
    "from mcp.server import MCPServer\n\n"
    "from others import g_{n}\n\n\n"
    "def create_server_{n}() -> MCPServer:\n"
    "    server = MCPServer('s_{n}')\n\n"
    "    @server.tool()\n"
    "    def feature_5(text: str) -> str:\n"
    "        return text\n\n"
    "    g_{n}.register(server)\n"
    "    return server\n"
)
OTHER = (
    "from mcp.server import MCPServer\n\n\n"
    "def register(server: MCPServer) -> None:\n"
    "    @server.tool()\n"
    "    def other_{n}(text: str) -> str:\n"
    "        return text\n"
)


def _project(root: Path, read: bool) -> None:
    """The project; `read`: the entry point hands its first factory's server to the relay too."""
    files = {
        "pyproject.toml": "[project]\nname = 'unread'\n",
        "app/__init__.py": "",
        "app/server.py": "from mcp.server import MCPServer\n\nmcp = MCPServer('unread')\n",
        "services/__init__.py": "",
        "others/__init__.py": "",
        **relayed(FEATURES),
    }
    for n in range(SERVICES):
        files[f"services/s_{n}.py"] = SERVICE.format(n=n)
        files[f"others/g_{n}.py"] = OTHER.format(n=n)
    files["app/main.py"] = (
        "from app.relay import setup\nfrom app.server import mcp\n"
        + "".join(f"from services.s_{n} import create_server_{n}\n" for n in range(SERVICES))
        + "\n"
        + "".join(f"svc_{n} = create_server_{n}()\n" for n in range(SERVICES))
        + ("setup(svc_0)\n" if read else "")
        + "setup(mcp)\n"
    )
    write_files(root, files)


def test_the_servers_are_the_sdks(tmp_path: Path) -> None:
    """The factories' tools are on their own servers, the features' on the entry point's."""
    _project(tmp_path, read=False)
    assert tool_names(tmp_path) == sorted(f"feature_{n}" for n in range(FEATURES))
    assert tool_names(tmp_path, variable="svc_1") == ["feature_5", "other_1"]
    assert duplicates_logged(tmp_path, {}) == []


@pytest.mark.parametrize("read", [False, True], ids=["unread", "read"])
def test_each_file_alone_reports_what_lint_dot_reports(tmp_path: Path, read: bool) -> None:
    """Read again, the factory's server gets `features/f_5.py`'s `feature_5` through the relay
    after the factory's own: `lint features/f_5.py` reads the factory's module (it is called
    before the relay is handed its result: `called_first.py`) and reports the duplicate there,
    as `lint .` does."""
    root = tmp_path / "project"
    _project(root, read)
    each_file_alone_reports_what_lint_dot_reports(root, tmp_path)


def test_a_feature_alone_parses_no_factory_whose_server_nothing_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`lint features/f_5.py` checks the entry point (it calls the relay, which imports the
    file) without parsing the factories it calls for servers it never reads, nor the helpers
    they hand them to."""
    _project(tmp_path, read=False)
    parsed = loaded(monkeypatch)
    alone = run_mcpdeps("lint", "--format", "json", "features/f_5.py", cwd=tmp_path)
    assert alone.returncode == 0, alone.stderr
    assert "main.py" in parsed, "the entry point hands its server to the relay: it is checked"
    assert not [name for name in parsed if name.startswith(("s_", "g_"))], parsed
    cold = run_mcpdeps("lint", "--format", "json", "--no-cache", "features/f_5.py", cwd=tmp_path)
    assert json.loads(alone.stdout) == json.loads(cold.stdout)


def test_a_factory_server_read_again_is_followed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Handed to the relay too, the first factory's server is asked for and its factory parsed;
    the SDK logs its `feature_5` twice, and `lint .` and `lint FILE` report the duplicate in
    the given file (MCPD110). A name registered both in the given file and by a companion left
    unclassified may move the report, so that run checks the companions again, classified
    (`lint_rules/unclassified_records.py`), which asks for every factory's server."""
    _project(tmp_path, read=True)
    assert duplicates_logged(tmp_path, {}) == ["Tool already exists: feature_5"]
    parsed = loaded(monkeypatch)
    alone = run_mcpdeps("lint", "--format", "json", "--no-cache", "features/f_5.py", cwd=tmp_path)
    assert alone.returncode == 0, alone.stderr
    assert "s_0.py" in parsed
    whole = run_mcpdeps("lint", "--format", "json", "--no-cache", ".", cwd=tmp_path)
    for run in (whole, alone):
        located = [d for d in json.loads(run.stdout)["diagnostics"] if d["path"] == "features/f_5.py"]
        assert [d["code"] for d in located] == ["MCPD110"]
