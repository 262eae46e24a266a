"""A live `Graph` as JSON data and back: how the runner hands the graph to mcpdeps.

When the server runs under another interpreter (`--python`, a project venv), the live
builder runs there and mcpdeps renders what it built. Unlike the contract's document
(`graph_json`), this keeps everything the renderers read (annotations, defaults,
questions, spans, kinds), so the tree, Mermaid and Graphviz views, the banner and the
JSON document are the same whichever process built the graph. Live graphs hold no
syntax trees or evaluated types; those fields are left out. Pure library: stdlib only.
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from typing import Any

from .model import (
    Finding,
    Graph,
    Handler,
    Parameter,
    Question,
    Resolver,
    Server,
    SourceInfo,
    Span,
    Tool,
)

_CLASSES: dict[str, type] = {
    cls.__name__: cls
    for cls in (Span, Parameter, Question, Resolver, Tool, Handler, Server, Finding, SourceInfo)
}
_LEFT_OUT = frozenset({"type", "model_type", "return_type", "node", "evaluator"})
"""Static-only fields (syntax trees, evaluated annotations): None in every live graph."""
_KIND = "@"
_TUPLE = "@tuple"


def _encode(value: Any) -> Any:
    if is_dataclass(value) and not isinstance(value, type):
        data = {_KIND: type(value).__name__}
        for f in fields(value):
            if f.name not in _LEFT_OUT and not f.name.startswith("_"):
                data[f.name] = _encode(getattr(value, f.name))
        return data
    if isinstance(value, tuple):
        return {_TUPLE: [_encode(v) for v in value]}
    if isinstance(value, list):
        return [_encode(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _encode(v) for k, v in value.items()}
    return value


def _decode(value: Any) -> Any:
    if isinstance(value, list):
        return [_decode(v) for v in value]
    if not isinstance(value, dict):
        return value
    if _TUPLE in value:
        return tuple(_decode(v) for v in value[_TUPLE])
    if _KIND in value:
        cls = _CLASSES[value[_KIND]]
        return cls(**{k: _decode(v) for k, v in value.items() if k != _KIND})
    return {k: _decode(v) for k, v in value.items()}


def to_wire(graph: Graph) -> dict[str, Any]:
    """The graph's servers, resolvers and findings as JSON-ready data."""
    return {
        "servers": _encode(graph.servers),
        "resolvers": _encode(graph.resolvers),
        "findings": _encode(graph.findings),
        "files": graph.files,
    }


def from_wire(data: dict[str, Any]) -> Graph:
    """The `Graph` that `to_wire` described."""
    return Graph(
        servers=_decode(data["servers"]),
        resolvers=_decode(data["resolvers"]),
        findings=_decode(data["findings"]),
        files=data["files"],
    )
