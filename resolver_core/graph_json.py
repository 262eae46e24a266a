"""The `mcpdeps graph --format json` document (see contracts.md), built from a `Graph`.

Pure library: both builders feed it, so the static and live documents can be
compared byte for byte. Only what a run of the SDK would publish or execute is
in it: a second tool with an already registered name is left out (the SDK drops
it silently), and only resolvers some listed tool runs appear.
"""

from __future__ import annotations

import json
import re
from typing import Any

from .model import Graph, Parameter, Resolver, Server, Tool

VERSION = 1


def published_tools(server: Server) -> list[Tool]:
    """The tools the SDK keeps: the first registration of each name (later ones are dropped)."""
    kept: dict[str, Tool] = {}
    for tool in server.tools:
        kept.setdefault(tool.name, tool)
    return list(kept.values())


def used_by(graph: Graph) -> dict[str, list[str]]:
    """Resolver id to the names of the tools whose call runs it, in registration order."""
    users: dict[str, list[str]] = {}
    for server in graph.servers:
        for tool in published_tools(server):
            for resolver in graph.reachable(tool):
                names = users.setdefault(resolver.id, [])
                if tool.name not in names:
                    names.append(tool.name)
    return users


def _parameter(p: Parameter) -> dict[str, Any]:
    return {"name": p.name, "kind": p.kind, "resolver": p.resolver if p.kind == "resolved" else None}


def _resolver(r: Resolver, users: list[str]) -> dict[str, Any]:
    return {
        "name": r.name,
        "qualname": r.qualname,
        "module": r.module,
        "path": r.span.path if r.span else None,
        "line": r.span.line if r.span else None,
        "is_async": r.is_async,
        "asks": r.asks,
        "parameters": [_parameter(p) for p in r.parameters],
        "used_by": users,
    }


def _tool(t: Tool) -> dict[str, Any]:
    return {
        "name": t.name,
        "function": t.function,
        "path": t.span.path if t.span else None,
        "line": t.span.line if t.span else None,
        "arguments": t.arguments,
        "context": t.context,
        "resolved": t.resolved,
    }


def _server(s: Server) -> dict[str, Any]:
    return {
        "name": s.name,
        "variable": s.variable,
        "path": s.path,
        "line": s.span.line if s.span else None,
        "tools": [_tool(t) for t in published_tools(s)],
    }


def graph_document(graph: Graph) -> dict[str, Any]:
    """The contract's document for every server of `graph` (filter the graph first to narrow it)."""
    users = used_by(graph)
    return {
        "version": VERSION,
        "servers": [_server(s) for s in graph.servers],
        "resolvers": {rid: _resolver(graph.resolvers[rid], names) for rid, names in users.items()},
    }


def dumps(document: dict[str, Any]) -> str:
    """Stable text for a document: same graph, same bytes."""
    return escape_surrogates(json.dumps(document, indent=2, ensure_ascii=False))


def escape_surrogates(text: str) -> str:
    """JSON text with lone surrogates written as `\\udcXX` escapes.

    A file name that is not valid UTF-8 (`bad\\xff.py`) reaches us with its bytes kept as
    surrogates; written raw, the document would not be UTF-8 at all. They only occur inside
    JSON strings, where the escape is valid and `json.loads` gives the same name back.
    """
    return text if text.isascii() else _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


_SURROGATE = re.compile("[\ud800-\udfff]")
