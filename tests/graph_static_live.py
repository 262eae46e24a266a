"""Build the static and the live `graph --format json` documents of many cases, in one process.

Usage: `python tests/graph_static_live.py CASE_DIR [...]` (run from the repository)
prints `{"cases": {"<dir>": {"static": doc, "live": doc | null, "static_tree": text,
"live_tree": text, "error": null | "..."}}}`: the contract documents and the plain-text
trees (without lint findings, which only the static view has).

Why one process: importing `mcp` costs ~0.7 s, and the suite compares ~60 cases.
Each case is loaded exactly as `mcpdeps graph --live CASE/server.py` loads it
(`resolver_core.loading.load_server`, then `build_live_graph`), and the static
side goes through the same functions as `mcpdeps graph CASE/server.py`, with
`--server` set to the variable the live side loaded. Between cases, the case's
own modules leave `sys.modules` and its folder leaves `sys.path`, so cases that
reuse module names (`server`, `tools`) never see each other. A case whose tools register
when it starts (`# start:` lines: a factory to call, a helper to give a server) is imported,
started as the SDK oracle starts it, and its server taken from the name the start binds.
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from typing import Any

from mcpdeps.cli.graph.render import print_graph
from mcpdeps.lint_rules.api.graph_selection import select
from mcpdeps.resolver_core.graph_json import graph_document
from mcpdeps.resolver_core.graph_wire import from_wire, to_wire
from mcpdeps.resolver_core.import_closure import static_graph
from mcpdeps.resolver_core.live import build_live_graph, load_server
from mcpdeps.resolver_core.loading import find_candidates
from mcpdeps.resolver_core.model import Graph
from oracle.sdk_verdicts import start_statements


def _forget(case: Path, before: dict[str, object]) -> None:
    """Drop the case's modules and folders so the next case imports its own.

    Only a module imported (or replaced) since `before` can be the case's: the others were
    there before its folder was on `sys.path` (resolving the path of every loaded module,
    some hundreds, for each case was most of this script's time)."""
    for name, module in list(sys.modules.items()):
        if before.get(name) is module:
            continue
        places = [getattr(module, "__file__", None), *(getattr(module, "__path__", None) or [])]
        if any(p and Path(p).resolve().is_relative_to(case) for p in places):
            del sys.modules[name]  # namespace packages (`app/` without __init__) have only __path__
    sys.path[:] = [p for p in sys.path if not Path(p or ".").resolve().is_relative_to(case)]


def _specs(case: str, cwd: Path) -> list[str]:
    """One spec per module-level server when the file holds several, else the file alone."""
    path = f"{case}/server.py"
    instances = [c.name for c in find_candidates(cwd / path) if c.kind == "instance"]
    return [f"{path}:{name}" for name in instances] if len(instances) > 1 else [path]


def compare(case: str, cwd: Path) -> dict[str, Any]:
    """Static and live documents of every server of the case (servers side by side)."""
    out: dict[str, Any] = {
        "static": None,
        "live": None,
        "static_tree": "",
        "live_tree": "",
        "wire_tree": "",
        "wire_same": True,
        "error": None,
    }
    before = dict(sys.modules)
    try:
        lives, statics = [], []
        started = bool(start_statements(cwd / case / "server.py"))
        for spec in _specs(case, cwd):
            live = build_live_graph(_started(case, cwd) or load_server(spec, cwd=cwd))
            static = static_graph([f"{case}/server.py"], cwd)
            static = select(static, [live.servers[0].variable])
            if started:
                _as_started(static, live)
            lives.append(graph_document(live))
            statics.append(graph_document(static))
            out["live_tree"] += print_graph(live, capture=True) or ""
            wired = from_wire(json.loads(json.dumps(to_wire(live))))  # what the runner sends mcpdeps
            out["wire_tree"] += print_graph(wired, capture=True) or ""
            out["wire_same"] = out["wire_same"] and graph_document(wired) == lives[-1]
            out["static_tree"] += print_graph(static, capture=True) or ""
        out["live"], out["static"] = _merge(lives), _merge(statics)
    except Exception as exc:  # reported per case by the test
        out["error"] = f"{type(exc).__name__}: {exc}"
    finally:
        _forget((cwd / case).resolve(), before)
    return out


def _started(case: str, cwd: Path) -> Any:
    """The server of a case that registers its tools when it starts (None: a plain import does)."""
    starts = start_statements(cwd / case / "server.py")
    if not starts:
        return None
    from mcp.server import MCPServer

    sys.path.insert(0, str(cwd / case))
    module = importlib.import_module("server")
    namespace = vars(module)
    for statement in starts:
        exec(statement, namespace)
    assigned = [s.partition("=")[0].strip() for s in starts if "=" in s.partition("(")[0]]
    server = namespace[assigned[0]] if assigned else namespace["mcp"]
    assert isinstance(server, MCPServer)
    return server


def _as_started(static: Graph, live: Graph) -> None:
    """What a started case's two graphs can share. The live builder finds a server's line where
    a module binds it to `MCPServer(...)`; a factory's server is bound by the start (`mcp =
    build_server()`), its call is inside the factory: the live server has no span. And the
    SDK's order of registrations is the order the start ran them in, which the source does not
    fix (a helper defined first may run last): tools are put in name order on both sides."""
    for mine, theirs in zip(static.servers, live.servers, strict=False):
        if theirs.span is None:
            mine.span = None
        for server in (mine, theirs):
            server.tools.sort(key=lambda t: t.name)


def _merge(documents: list[dict[str, Any]]) -> dict[str, Any]:
    merged: dict[str, Any] = {"version": 1, "servers": [], "resolvers": {}}
    for doc in documents:
        merged["servers"] += doc["servers"]
        merged["resolvers"].update(doc["resolvers"])
    return merged


def main(cases: list[str]) -> None:
    cwd = Path.cwd()
    sys.stdout.write(json.dumps({"cases": {c: compare(c, cwd) for c in cases}}) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
