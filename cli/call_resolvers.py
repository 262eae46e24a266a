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
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, get_args, get_origin

from cli.call_answers import QuestionKind

if TYPE_CHECKING:
    from mcp.server import MCPServer


@dataclass(frozen=True, slots=True)
class ResolverInfo:
    """One resolver of the called tool."""

    id: str
    """The SDK's wire key, `module:qualname` (`#n`-suffixed for look-alike closures)."""
    name: str
    asks: QuestionKind | None
    """The question its return annotation declares, or None when it declares none."""
    fields: frozenset[str] | None = None
    """For `Elicit[Model]`: the form's property names, to tell two elicitations apart."""


@dataclass(slots=True)
class ResolverIndex:
    """The tool's resolvers in run order, and which ones a legacy question was pinned to."""

    resolvers: list[ResolverInfo]
    attributed: set[str] = field(default_factory=set)

    def by_id(self, key: str) -> ResolverInfo | None:
        return next((r for r in self.resolvers if r.id == key), None)

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


def live_resolvers(server: MCPServer, tool_name: str) -> ResolverIndex | None:
    """The resolvers of an in-process tool, from the plans the SDK built at registration.

    Reads `Tool.resolved_params` and `Tool.resolver_plans` (fields of the SDK's tool
    model) and walks them the way `resolve_arguments` does: each resolved parameter in
    order, dependencies before their dependant, each resolver once.
    """
    tool = server._tool_manager.get_tool(tool_name)
    if tool is None:
        return None
    plans: Sequence[Any] = list(tool.resolver_plans.values())
    ordered: list[ResolverInfo] = []
    seen: set[str] = set()

    def plan_for(fn: Callable[..., Any]) -> Any:
        return next((p for p in plans if p.fn is fn or p.fn == fn), None)

    def visit(fn: Callable[..., Any]) -> None:
        plan = plan_for(fn)
        if plan is None or plan.wire_key in seen:
            return
        seen.add(plan.wire_key)
        for param in plan.params.values():
            if param.kind == "resolve" and param.resolve is not None:
                visit(param.resolve.fn)
        asks, fields = _question_of(plan.fn)
        ordered.append(ResolverInfo(plan.wire_key, _display_name(plan.fn), asks, fields))

    for marker, _wants_union in tool.resolved_params.values():
        visit(marker.fn)
    return ResolverIndex(ordered)
