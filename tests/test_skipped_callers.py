"""A caller of a `register(server)` helper that the byte prefilter skips still passes its server.

An entry module that imports the server from elsewhere and calls the helpers holds none of
the prefilter's markers when its server variable is not called `mcp` (`from app.server import
other` / `alpha.register(other)`): it declares nothing, yet it is where the helpers' tools get
their server. Each case here is imported under the real SDK (the oracle: which server gets
which tools, which names it logs as `Tool already exists`), then linted: cold, with a cache
(and after edits), in worker processes, and one file at a time.
"""

from __future__ import annotations

import importlib
import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from coupled_projects import TITLED_FEATURE as FEATURE
from mcpdeps.lint_rules import LintResult, lint
from mcpdeps.lint_rules.slice_plan import MIN_FILES_PER_JOB
from mcpdeps.resolver_core import build_graph
from mcpdeps.resolver_core.diagnostics import plain
from mcpdeps.resolver_core.graph_json import graph_document
from mcpdeps.resolver_core.prefilter import might_contribute

BASE = {
    "pyproject.toml": "[project]\nname = 'p'\nversion = '0'\n",
    "app/__init__.py": "",
    "app/server.py": (
        "from mcp.server import MCPServer\n\nmcp = MCPServer('a')\nother = MCPServer('b')\nthird = MCPServer('c')\n"
    ),
    "app/extra.py": "VALUE = 1\n",
    "features/__init__.py": "",
    "features/alpha.py": FEATURE.format(n=1),
    "features/beta.py": FEATURE.format(n=2),
}

CALLERS: dict[str, dict[str, str]] = {
    "direct": {
        "app/main.py": "from app.server import other\nfrom features import alpha, beta\n\n"
        "alpha.register(other)\nbeta.register(other)\n",
    },
    "imported under another name": {
        "app/main.py": "from app.server import other\nfrom features.alpha import register as install_alpha\n"
        "from features.beta import register as install_beta\n\ninstall_alpha(other)\ninstall_beta(other)\n",
    },
    "alias in a package __init__": {
        "features/__init__.py": "from features.alpha import register as install_alpha\n"
        "from features.beta import register as install_beta\n",
        "app/main.py": "from app.server import other\nfrom features import install_alpha, install_beta\n\n"
        "install_alpha(other)\ninstall_beta(other)\n",
    },
    "loop over modules": {
        "app/main.py": "from app.server import other\nfrom features import alpha, beta\n\n"
        "for feature in (alpha, beta):\n    feature.register(other)\n",
    },
    "skipped helper passing the server on": {
        "app/wiring.py": "from features import alpha, beta\n\n\ndef install(server) -> None:\n"
        "    alpha.register(server)\n    beta.register(server)\n",
        "app/main.py": "from app import wiring\nfrom app.server import other\n\nwiring.install(other)\n",
    },
}


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


@contextmanager
def _imported(root: Path, name: str) -> Iterator[Any]:
    """`name` imported with `root` first on `sys.path`, then forgotten with every module of `root`."""
    before = set(sys.modules)
    sys.path.insert(0, str(root))
    importlib.invalidate_caches()
    try:
        yield importlib.import_module(name)
    finally:
        sys.path.remove(str(root))
        for module in set(sys.modules) - before:
            if str(root) in (getattr(sys.modules[module], "__file__", None) or ""):
                del sys.modules[module]


async def _tool_names(server: Any) -> list[str]:
    from mcp import Client

    async with Client(server) as client:
        return sorted(t.name for t in (await client.list_tools()).tools)


def sdk_outcome(root: Path, caplog: pytest.LogCaptureFixture) -> tuple[dict[str, list[str]], list[str]]:
    """Run `app/main.py` under the SDK: each server's tools, and the names it logs as duplicates."""
    caplog.clear()
    with caplog.at_level(logging.WARNING), _imported(root, "app.main"):
        servers = sys.modules["app.server"]
        tools = {
            variable: anyio.run(_tool_names, getattr(servers, variable))
            for variable in ("mcp", "other", "third")
        }
    logged = [r.getMessage() for r in caplog.records if "Tool already exists" in r.getMessage()]
    return tools, logged


def static_outcome(root: Path) -> dict[str, list[str]]:
    """Each server's tools as `graph` lists them (a duplicate name once, as the SDK keeps it)."""
    document = graph_document(build_graph(["."], cwd=root))
    return {s["variable"]: sorted(t["name"] for t in s["tools"]) for s in document["servers"]}


def _dump(result: LintResult) -> list[dict[str, object]]:
    return [plain(d) for d in result.diagnostics]


def _at(result: LintResult, path: str) -> list[dict[str, object]]:
    return [d for d in _dump(result) if d["path"] == path]


@pytest.fixture(params=sorted(CALLERS))
def project(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    _write(root, {**BASE, **CALLERS[request.param]})
    for name in ("app/main.py", "app/wiring.py", "app/extra.py", "features/__init__.py"):
        path = root / name
        assert not path.exists() or not might_contribute(path.read_bytes()), (
            f"{name} must be one the prefilter skips"
        )
    return root


def test_the_verdict_is_the_sdks(project: Path, caplog: pytest.LogCaptureFixture) -> None:
    tools, logged = sdk_outcome(project, caplog)
    assert tools == {"mcp": [], "other": ["only_1", "only_2", "shared"], "third": []}
    assert logged == ["Tool already exists: shared"]
    assert static_outcome(project) == tools
    cold = lint(["."], cwd=project)
    assert [(d["code"], d["path"], d["line"]) for d in _dump(cold)] == [("MCPD110", "features/beta.py", 11)]
    assert "already registered on server 'other'" in str(_dump(cold)[0]["message"])


def test_cached_runs_and_edits_of_the_caller_agree_with_cold(project: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cold = lint(["."], cwd=project)
    assert _dump(lint(["."], cwd=project, cache_dir=cache)) == _dump(cold)
    assert _dump(lint(["."], cwd=project, cache_dir=cache)) == _dump(cold)
    caller = "app/wiring.py" if (project / "app" / "wiring.py").exists() else "app/main.py"
    # The caller passes a server mcpdeps cannot follow: the helpers' tools are not analysed
    # (MCPD113), as cold. (A value known to be no server, `None`, registers nothing it checks.)
    text = (project / caller).read_text()
    (project / caller).write_text(
        text.replace("(other)", '(globals()["other"])').replace(
            "register(server)", 'register(globals()["x"])'
        )
    )
    warm = lint(["."], cwd=project, cache_dir=cache)
    assert _dump(warm) == _dump(lint(["."], cwd=project))
    assert {d.code for d in warm.diagnostics} == {"MCPD113"}
    (project / caller).write_text(text)
    assert _dump(lint(["."], cwd=project, cache_dir=cache)) == _dump(cold)
    # A file that declared nothing starts calling a helper with a third server: still skipped
    # by the prefilter, and `beta`'s tools land on `third` too.
    extra = project / "app" / "extra.py"
    extra.write_text("from app.server import third\nfrom features import beta\n\nbeta.register(third)\n")
    assert not might_contribute(extra.read_bytes())
    warm = lint(["."], cwd=project, cache_dir=cache)
    assert _dump(warm) == _dump(lint(["."], cwd=project))
    assert static_outcome(project)["third"] == ["only_2", "shared"]


def test_workers_find_the_skipped_caller(project: Path) -> None:
    """Enough tool-less modules beside them for the run to use two workers."""
    _write(
        project,
        {
            f"filler/m{i:03}.py": f"from mcp.server.mcpserver import Resolve\n\n\ndef f{i}(x: int) -> int:\n    return x\n"
            for i in range(MIN_FILES_PER_JOB * 2 + 4)
        },
    )
    one = lint(["."], cwd=project, jobs=1)
    many = lint(["."], cwd=project, jobs=2)
    assert one.graph.servers and not many.graph.servers, "the graphs stayed in the workers"
    assert _dump(many) == _dump(one)
    assert [d["code"] for d in _dump(one)] == ["MCPD110"]


@pytest.mark.parametrize("given", ["features/alpha.py", "features/beta.py", "app/main.py", "app/server.py"])
def test_one_file_reports_what_the_whole_run_reports_there(project: Path, given: str) -> None:
    """`alpha` alone meets `beta`'s `shared` where `lint .` does, after its own (though it is
    read through `app/main.py`), and `beta` alone is checked with `alpha` (another helper the
    caller hands the same server): MCPD110 is in `beta.py` in both runs, not in `alpha.py`."""
    whole = lint(["."], cwd=project)
    assert _at(lint([given], cwd=project), given) == _at(whole, given)
