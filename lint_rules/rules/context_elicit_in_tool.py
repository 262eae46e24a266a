"""MCPD112: `ctx.elicit(...)` called in a tool (or resolver) body."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from functools import partial

from ...resolver_core.diagnostics import Diagnostic
from ...resolver_core.model import Graph, Resolver, Span
from ...resolver_core.source import ParsedModule
from .._source import FunctionNode, found_in, function_node, module_at, used_resolvers, walk_body
from ..base import Invalid, Rule, RuleFix

_HEADER = (
    "from typing import Annotated\n"
    "from pydantic import BaseModel\n"
    "from mcp.server import MCPServer\n"
    "from mcp.server.mcpserver import Context, Elicit, Resolve\n\n"
    "mcp = MCPServer('s')\n\n"
    "class Confirm(BaseModel):\n    ok: bool\n\n"
)


class ContextElicitInTool(Rule):
    code = "MCPD112"
    name = "context-elicit-in-tool"
    FIX = RuleFix(
        "move the question into a resolver returning `Elicit(...)` and take the answer as a parameter",
        fixer="mcpdeps.lint_rules.fixes.context_elicit",
        safety="unsafe",
        docs="`mcpdeps lint --fix --unsafe-fixes` (or `mcpdeps migrate`) moves a question asked at the start "
        "of a tool body into a resolver (unsafe: it is then asked before the body runs); the rest is manual",
        safety_note="Unsafe: the question is then asked before the body runs, and a declined answer "
        "read only as `.data` aborts the call.",
    )
    known_problems = (
        "A question that cannot move (after a side effect, in a loop, in a resolver or a helper) "
        "gets no fix, as `mcpdeps migrate` leaves it too."
    )
    severity = "warning"
    summary = (
        "`ctx.elicit(...)` in a tool body fails on 2026-07-28 connections; return `Elicit` from a resolver."
    )
    explanation = (
        "`ctx.elicit()` sends a server-to-client `elicitation/create` request in the middle of the "
        "call. Protocol 2026-07-28 has no such back-channel: questions travel in an "
        "`InputRequiredResult` and the call is retried with the answer, so on those connections "
        "the call fails (`NoBackChannelError`). It only works for clients still on 2025-11-25.\n\n"
        "Fix: move the question into a resolver that returns `Elicit(message, Model)` and take "
        "the answer as `Annotated[Model, Resolve(resolver)]`: the SDK then asks on both protocol "
        "generations."
    )
    INVALID = [
        Invalid(
            _HEADER + "@mcp.tool()\n"
            "async def delete(path: str, ctx: Context) -> str:\n"
            "    answer = await ctx.elicit(f'Delete {path}?', Confirm)\n"
            "    return path if answer.action == 'accept' and answer.data.ok else 'kept'\n",
            at=(13, 20, 13, 58),
            fixed=(
                "from typing import Annotated\n"
                "from pydantic import BaseModel\n"
                "from mcp.server import MCPServer\n"
                "from mcp.server.mcpserver import Elicit, ElicitationResult, Resolve\n"
                "\n"
                "mcp = MCPServer('s')\n"
                "\n"
                "class Confirm(BaseModel):\n"
                "    ok: bool\n"
                "\n"
                "\n"
                "async def ask_delete(path: str) -> Elicit[Confirm]:\n"
                "    return Elicit(f'Delete {path}?', Confirm)\n"
                "\n"
                "@mcp.tool()\n"
                "async def delete(\n"
                "    path: str,\n"
                "    answer: Annotated[ElicitationResult[Confirm], Resolve(ask_delete)],\n"
                ") -> str:\n"
                "    return path if answer.action == 'accept' and answer.data.ok else 'kept'\n"
            ),
        )
    ]
    VALID = [
        _HEADER + "def ask(path: str) -> Elicit[Confirm]:\n"
        "    return Elicit(f'Delete {path}?', Confirm)\n\n"
        "@mcp.tool()\n"
        "async def delete(path: str, confirm: Annotated[Confirm, Resolve(ask)]) -> str:\n"
        "    return path if confirm.ok else 'kept'\n"
    ]

    def check(self, graph: Graph) -> Iterable[Diagnostic]:
        for _, tool in graph.tools():
            fn = tool.node
            module = module_at(graph, tool.span)
            if tool.context and module is not None and isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                for call in _elicit_calls(module, fn, {tool.context}):
                    yield self._report(call, module.span(call), f"tool {tool.name!r}", tool.name)
        for resolver, tool in used_resolvers(graph):
            for call, span in found_in(graph, self.code, resolver, partial(_resolver_elicits, graph)):
                yield self._report(call, span, f"resolver {resolver.name!r}", tool.name, resolver)

    def _report(
        self, call: ast.Call, span: Span, owner: str, tool: str, resolver: Resolver | None = None
    ) -> Diagnostic:
        return self.diagnostic(
            span,
            f"`{ast.unparse(call.func)}(...)` in {owner} fails on 2026-07-28 connections (no back-channel for "
            "server-to-client requests); it only works for clients on 2025-11-25",
            tool=tool,
            resolver=resolver,
            help="return `Elicit(message, Model)` from a resolver and take the answer as "
            "`Annotated[Model, Resolve(resolver)]`",
        )


def _resolver_elicits(graph: Graph, resolver: Resolver) -> list[tuple[ast.Call, Span]]:
    """The `<context>.elicit(...)` calls in a resolver's body, and where each is."""
    fn = function_node(resolver)
    contexts = {p.name for p in resolver.parameters if p.kind == "context"}
    module = module_at(graph, resolver.span) if contexts and fn is not None else None
    if fn is None or module is None:
        return []
    return [(call, module.span(call)) for call in _elicit_calls(module, fn, contexts)]


def _elicit_calls(module: ParsedModule, fn: FunctionNode, contexts: set[str]) -> Iterator[ast.Call]:
    """`<context>.elicit(...)` calls in a body, where `<context>` is the injected Context."""
    if "elicit" not in module.segment(fn):
        return  # cheap text check before walking the body
    for node in walk_body(fn):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "elicit"
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id in contexts
        ):
            yield node
