"""Which resolvers a tool runs and which question each may ask, for naming the asker.

On a 2026-07-28 connection the SDK keys each question by its resolver's wire key
(`module:qualname`), so the asker is known. On a legacy connection a question is a
bare server-to-client request with a JSON-RPC id: the asker is inferred here from
the tool's resolver DAG, in the order the SDK runs it (dependencies first), by the
question's kind and, for `Elicit`, the requested form's field names.
"""

from __future__ import annotations

import inspect
import types
import typing
from collections.abc import Callable, Iterable
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, get_args, get_origin

from ...resolver_core.records import record, slotted
from .answers import QuestionKind

if TYPE_CHECKING:
    from mcp.server import MCPServer

_K = TypeVar("_K")


@record
class ResolverInfo:
    """One resolver of the called tool."""

    id: str
    """The SDK's wire key, `module:qualname` (`#n`-suffixed for look-alike closures)."""
    name: str
    asks: QuestionKind | None
    """The question its return annotation declares, or None when it declares none."""
    fields: frozenset[str] | None = None
    """For `Elicit[Model]`: the form's property names, to tell two elicitations apart."""


@slotted
class ResolverIndex:
    """The tool's resolvers in run order, and which ones a legacy question was pinned to."""

    resolvers: list[ResolverInfo]
    attributed: set[str] = field(default_factory=set)

    def attribute(self, kind: QuestionKind, fields: Iterable[str] | None = None) -> ResolverInfo | None:
        """The resolver that most likely asked a legacy question: first unasked one that declares it."""
        wanted = frozenset(fields) if fields is not None else None
        fresh = [r for r in self.resolvers if r.id not in self.attributed]
        ranked = (
            [r for r in fresh if r.asks == kind and (wanted is None or r.fields in (None, wanted))]
            or [r for r in fresh if r.asks == kind]
            or [r for r in fresh if r.asks is None]
        )
        if not ranked:
            return None
        self.attributed.add(ranked[0].id)
        return ranked[0]


def _question_of(fn: Callable[..., Any]) -> tuple[QuestionKind | None, frozenset[str] | None]:
    """Read the question kind from a resolver's return annotation, as the SDK's R4 check does."""
    from mcp.server.elicitation import render_elicitation_schema
    from mcp.server.mcpserver import Elicit, ListRoots, Sample

    target = fn if inspect.isroutine(fn) else type(fn).__call__  # a callable object: its hints
    try:
        hint = typing.get_type_hints(target).get("return")
    except Exception:
        return None, None
    arms = get_args(hint) if get_origin(hint) in (typing.Union, types.UnionType) else (hint,)
    for arm in arms:
        if get_origin(arm) is Elicit:
            model = next(iter(get_args(arm)), None)
            if model is None:
                return "elicit", None
            try:
                properties = render_elicitation_schema(model).get("properties", {})
            except Exception:
                return "elicit", None
            return "elicit", frozenset(properties)
        if arm is Elicit:
            return "elicit", None
        if arm is Sample:
            return "sample", None
        if arm is ListRoots:
            return "list_roots", None
    return None, None


def _display_name(fn: Callable[..., Any]) -> str:
    return getattr(fn, "__name__", None) or type(fn).__name__


def _in_run_order(
    roots: Iterable[_K], children: Callable[[_K], Iterable[_K]], info: Callable[[_K], ResolverInfo]
) -> ResolverIndex:
    """Dependencies before their dependant, each resolver once: the order the SDK runs them."""
    ordered: list[ResolverInfo] = []
    seen: set[_K] = set()

    def visit(node: _K) -> None:
        if node in seen:
            return
        seen.add(node)
        for child in children(node):
            visit(child)
        ordered.append(info(node))

    for root in roots:
        visit(root)
    return ResolverIndex(ordered)


def live_resolvers(server: MCPServer, tool_name: str) -> ResolverIndex | None:
    """The resolvers of an in-process tool, from the plans the SDK built at registration.

    Reads `Tool.resolved_params` and `Tool.resolver_plans` (fields of the SDK's tool
    model) and walks them the way `resolve_arguments` does.
    """
    manager = getattr(server, "_tool_manager", None)
    tool = manager.get_tool(tool_name) if manager is not None else None
    if tool is None or not hasattr(tool, "resolver_plans"):
        return None
    plans: dict[str, Any] = {plan.wire_key: plan for plan in tool.resolver_plans.values()}

    def key_of(fn: Callable[..., Any]) -> str | None:
        return next((k for k, p in plans.items() if p.fn is fn or p.fn == fn), None)

    def children(key: str) -> Iterable[str]:
        deps = (p.resolve.fn for p in plans[key].params.values() if p.kind == "resolve" and p.resolve)
        return [k for k in map(key_of, deps) if k is not None]

    def info(key: str) -> ResolverInfo:
        fn = plans[key].fn
        return ResolverInfo(key, _display_name(fn), *_question_of(fn))

    roots = [k for k in (key_of(marker.fn) for marker, _ in tool.resolved_params.values()) if k is not None]
    return _in_run_order(roots, children, info)


def static_resolvers(path: Path, tool_name: str) -> ResolverIndex | None:
    """The resolvers of a tool read from source, for a server running in another process (`--stdio`).

    Best effort: naming the asker is a convenience of the transcript, so a graph
    that cannot be built leaves the resolvers unknown rather than failing the call.
    """
    try:
        from ...resolver_core import build_graph

        graph = build_graph([path])
    except Exception:
        return None
    tool = next((t for _, t in graph.tools() if t.name == tool_name), None)
    if tool is None:
        return None
    resolvers = graph.resolvers

    def children(rid: str) -> Iterable[str]:
        return [
            p.resolver for p in resolvers[rid].parameters if p.kind == "resolved" and p.resolver in resolvers
        ]

    def info(rid: str) -> ResolverInfo:
        resolver = resolvers[rid]
        question = resolver.questions[0] if resolver.questions else None
        fields = frozenset(name for name, _ in question.fields) if question and question.fields else None
        return ResolverInfo(rid, resolver.name, question.kind if question else None, fields)

    return _in_run_order([r for r in tool.resolved.values() if r in resolvers], children, info)
