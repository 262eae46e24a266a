"""Chains of `register(server)` helpers are followed a level at a time.

An entry point hands its server to many group helpers, each handing it on to feature
helpers (a function, or a class whose `__init__` takes the server). Which server each
feature's tools land on is read from the call sites of every link; each search for call
sites looks again at every module read so far, so the links of one level are searched for
together (`Reach.want_callers`): the number of searches grows with the chains' depth, not
with the number of helpers. The tools found are the SDK's, run on the same project.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from mcpdeps.resolver_core import build_graph
from mcpdeps.resolver_core.call_sites import CallSites
from mcpdeps.resolver_core.graph_json import graph_document
from sdk_tools import tool_names

FEATURE = (
    "def register(server) -> None:\n"
    "    @server.tool()\n"
    "    def tool_{n}(text: str) -> str:\n"
    "        return text\n"
)


def _project(root: Path, groups: int) -> None:
    """`groups` group modules, the even ones relaying through a function and the odd ones
    through a class, each handing the server to two feature modules. Each relay has a name of
    its own (helpers sharing a name are found by one search anyway)."""
    files = {
        "app/__init__.py": "",
        "app/server.py": "from mcp.server import MCPServer\n\nmcp = MCPServer('chains')\n",
        "groups/__init__.py": "",
        "features/__init__.py": "",
    }
    calls = []
    for g in range(groups):
        a, b = 2 * g, 2 * g + 1
        files[f"features/f_{a}.py"] = FEATURE.format(n=a)
        files[f"features/f_{b}.py"] = FEATURE.format(n=b)
        imports = f"from features import f_{a}, f_{b}\n\n\n"
        if g % 2 == 0:
            files[f"groups/group_{g}.py"] = (
                f"{imports}def setup_{g}(server) -> None:\n    f_{a}.register(server)\n    f_{b}.register(server)\n"
            )
            calls.append(f"group_{g}.setup_{g}(mcp)")
        else:
            files[f"groups/group_{g}.py"] = (
                f"{imports}class Installer{g}:\n    def __init__(self, server) -> None:\n"
                f"        f_{a}.register(server)\n        f_{b}.register(server)\n"
            )
            calls.append(f"group_{g}.Installer{g}(mcp)")
    modules = ", ".join(f"group_{g}" for g in range(groups))
    files["app/main.py"] = (
        f"from app.server import mcp\nfrom groups import {modules}\n\n" + "\n".join(calls) + "\n"
    )
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def _static(root: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], int]:
    """The tools `graph` finds on the server, and how many searches for new names the build's
    call-site walks made over the modules they had walked."""
    searches = 0
    walk = CallSites._walk

    def counted(self: CallSites) -> None:
        nonlocal searches
        searches += bool(self._new) and self._walked > 0
        walk(self)

    monkeypatch.setattr(CallSites, "_walk", counted)
    document = graph_document(build_graph(["."], cwd=root))
    (server,) = document["servers"]
    return sorted(t["name"] for t in server["tools"]), searches


@pytest.mark.parametrize("groups", [4, 24])
def test_every_tool_of_a_helper_chain_is_the_sdks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, groups: int
) -> None:
    _project(tmp_path, groups)
    tools, _ = _static(tmp_path, monkeypatch)
    assert tools == tool_names(tmp_path) == sorted(f"tool_{n}" for n in range(2 * groups))


def test_the_searches_grow_with_the_depth_of_the_chains_not_their_number(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _project(tmp_path / "few", 4)
    _project(tmp_path / "many", 24)
    _, few = _static(tmp_path / "few", monkeypatch)
    _, many = _static(tmp_path / "many", monkeypatch)
    assert many == few
