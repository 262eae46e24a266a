"""MCPD104: an `Elicit` message or `Sample` request that renders differently on every round."""

from __future__ import annotations

import ast
from collections.abc import Iterable
from functools import partial

from ...resolver_core.diagnostics import Diagnostic
from ...resolver_core.model import Graph, Resolver, Span
from ...resolver_core.source import ParsedModule
from ...resolver_core.symbols import Names, sdk_name
from .._source import (
    canonical_call,
    found_in,
    function_node,
    function_scope,
    module_at,
    names_of,
    once_per_build,
    used_resolvers,
    walk_body,
)
from ..base import Invalid, Rule, related
from ._taint import Volatile

_HEADER = (
    "from typing import Annotated\n"
    "from pydantic import BaseModel\n"
    "from mcp.server import MCPServer\n"
    "from mcp.server.mcpserver import Elicit, Resolve\n\n"
    "mcp = MCPServer('s')\n\n"
    "class Confirm(BaseModel):\n    ok: bool\n\n"
)
_TOOL = (
    "@mcp.tool()\n"
    "def delete(path: str, confirm: Annotated[Confirm, Resolve(ask)]) -> str:\n"
    "    return path if confirm.ok else 'kept'\n"
)


QUESTION_KINDS = ("Elicit", "Sample")


def _question_spellings(names: Names, module: ParsedModule) -> frozenset[str]:
    """Names a module may call `Elicit`/`Sample` by (`import ... as` aliases included).

    A cheap pre-filter read from the import statements alone: resolving every call of
    every resolver body is the costly part on large trees, so only calls spelled like a
    question are resolved for real.
    """
    aliases = {
        name
        for name, binding in names.table(module).items()
        if binding.kind == "import" and binding.target is not None and binding.target[1] in QUESTION_KINDS
    }
    return frozenset({*QUESTION_KINDS, *aliases})


def _spelled(func: ast.expr, spellings: frozenset[str]) -> bool:
    if isinstance(func, ast.Name):
        return func.id in spellings
    return isinstance(func, ast.Attribute) and func.attr in QUESTION_KINDS


def _question_parts(call: ast.Call, kind: str) -> list[ast.AST]:
    """What renders into the question: an Elicit's message, everything a Sample sends."""
    if kind == "Elicit":
        message = (
            call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "message"), None)
        )
        return [message] if message is not None else []
    return [*call.args, *(k.value for k in call.keywords)]


class UnstableQuestion(Rule):
    code = "MCPD104"
    name = "unstable-question"
    severity = "warning"
    summary = (
        "An `Elicit` message or `Sample` request is built from a clock, randomness, a uuid or a counter."
    )
    explanation = (
        "On 2026-07-28 connections a question is not answered within the call: the server returns "
        "it, the client answers, and the whole call is re-run with the answer attached. The SDK "
        "pins each answer to a digest of the exact rendered question, and the resolver runs again "
        "each round. A message or `Sample` that includes `time.time()`, `datetime.now()`, "
        "`random`, `uuid4()`, `secrets` or a counter renders differently every round, so the "
        "answer is discarded and the question asked again - until the client gives up after 10 "
        "rounds and the call fails.\n\n"
        "Fix: build the question only from the tool's arguments and other resolvers' values; if a "
        "timestamp or an id matters, compute it in the tool body, after the answer arrives."
    )
    INVALID = [
        Invalid(
            "import time\n" + _HEADER + "def ask(path: str) -> Elicit[Confirm]:\n"
            "    return Elicit(f'Delete {path}? (asked at {time.time():.0f})', Confirm)\n\n" + _TOOL,
            at=(13, 12, 13, 75),
        ),
        Invalid(
            "from datetime import datetime\n" + _HEADER + "def ask(path: str) -> Elicit[Confirm]:\n"
            "    stamp = datetime.now().isoformat()\n"
            "    message = f'Delete {path}? ({stamp})'\n"
            "    return Elicit(message, Confirm)\n\n" + _TOOL,
            at=(15, 12, 15, 36),
        ),
    ]
    VALID = [
        _HEADER + "def ask(path: str) -> Elicit[Confirm]:\n"
        "    return Elicit(f'Delete {path}?', Confirm)\n\n" + _TOOL
    ]

    def check(self, graph: Graph) -> Iterable[Diagnostic]:
        names = names_of(graph)
        if names is None:
            return
        for resolver, tool in used_resolvers(graph):
            for kind, span, what, source in found_in(
                graph, self.code, resolver, partial(_unstable, graph, names)
            ):
                yield self.diagnostic(
                    span,
                    f"the {kind} question of resolver {resolver.name!r} is built from `{what}`, which changes "
                    f"every round: on 2026-07-28 connections the answer never matches the re-rendered "
                    f"question, so it is asked again until the client gives up (10 rounds) and the call fails",
                    tool=tool.name,
                    resolver=resolver,
                    related=related(source, "the value that changes every round"),
                    help="build the question only from tool arguments and resolved values; "
                    "compute timestamps/ids in the tool body",
                )


def _unstable(graph: Graph, names: Names, resolver: Resolver) -> list[tuple[str, Span, str, Span | None]]:
    """Each question `resolver`'s body asks that is built from a changing value: its kind, where
    it is, the value spelt, and where that is when on another line (the same for every tool)."""
    fn = function_node(resolver)
    module = module_at(graph, resolver.span) if fn is not None else None
    if fn is None or module is None:
        return []
    spellings = once_per_build(
        graph, ("MCPD104", module.display), partial(_question_spellings, names, module)
    )
    if not any(word in module.segment(fn) for word in spellings):
        return []  # cheap text check before walking and resolving the body
    scope = function_scope(module, fn)
    questions = [
        (node, kind)
        for node in walk_body(fn)
        if isinstance(node, ast.Call)
        and _spelled(node.func, spellings)
        and (kind := sdk_name(canonical_call(names, module, node, scope))) in QUESTION_KINDS
    ]
    volatile = Volatile(names, module, fn, scope) if questions else None
    out = []
    for node, kind in questions:
        assert volatile is not None
        source = next((s for p in _question_parts(node, kind) if (s := volatile.source(p))), None)
        if source is not None:
            elsewhere = source.lineno != node.lineno  # type: ignore[attr-defined]
            out.append(
                (kind, module.span(node), ast.unparse(source), module.span(source) if elsewhere else None)
            )
    return out
