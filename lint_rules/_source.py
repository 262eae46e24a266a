"""Source-level helpers for the run-time trap rules (MCPD101-MCPD112).

The graph keeps each tool's and resolver's ast node; some traps live in those
bodies (`ctx.elicit(...)`, `Elicit(f"... {time.time()}")`, `return async_fn()`),
so these rules need the node's module, a scope to resolve names the way the
builder does, and the first tool that uses each resolver (to fill the
contract's `tool` field once per resolver rather than once per consumer).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from functools import partial
from typing import TYPE_CHECKING, NamedTuple, TypeVar

from ..resolver_core.model import Graph, Parameter, Resolver, Span, Tool
from ..resolver_core.source import ParsedModule

if TYPE_CHECKING:  # the analyzer's modules load with the builder, not with the rule registry
    from ..resolver_core.signatures import Classes
    from ..resolver_core.symbols import Names, Scope

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
T = TypeVar("T")


def names_of(graph: Graph) -> Names | None:
    """The builder's name resolution (None for live graphs, which have no source)."""
    return graph.evaluator.names if graph.evaluator is not None else None


def classes_of(graph: Graph) -> Classes | None:
    """Subclass checks (Context, BaseModel, Enum) with the builder's evaluator."""
    from ..resolver_core.signatures import Classes

    return Classes(graph.evaluator) if graph.evaluator is not None else None


def module_at(graph: Graph, span: Span | None) -> ParsedModule | None:
    """The parsed module a span points into (by display path, as the builder shows it)."""
    names = names_of(graph)
    if names is None or span is None:
        return None
    module = names.project.by_display(span.path)
    return module if module is not None and module.tree is not None else None


def function_scope(module: ParsedModule, fn: FunctionNode) -> Scope:
    """A function's local names (parameters and assignments), so imports inside it resolve."""
    from ..resolver_core.symbols import Scope

    return Scope(module, fn, getattr(fn, "name", "<lambda>"))


def canonical_call(names: Names, module: ParsedModule, call: ast.Call, scope: Scope | None) -> str | None:
    """The dotted path of an external callee (`datetime.datetime.now`), or None."""
    try:
        return names.canonical(module, call.func, scope)
    except RecursionError:  # pragma: no cover - pathological alias chains
        return None


def walk_body(fn: FunctionNode) -> list[ast.AST]:
    """Every node of a function body, nested functions included (closures share the trap).

    Walked once per function and kept on its node (several rules, and the fixed point of
    `_taint.Volatile`, read the same bodies; the list lives exactly as long as the tree).
    """
    nodes: list[ast.AST] | None = getattr(fn, "_mcpdeps_body_nodes", None)
    if nodes is None:
        roots: list[ast.AST] = [fn.body] if isinstance(fn, ast.Lambda) else list(fn.body)
        nodes = [node for root in roots for node in ast.walk(root)]
        fn._mcpdeps_body_nodes = nodes  # type: ignore[union-attr]
    return nodes


def first_consumers(graph: Graph) -> dict[str, Tool]:
    """For each resolver id, the first tool (in source order of registration) whose call runs it.

    Diagnostics about the resolver itself name that tool and pass `resolver=` (so a lint
    over several files reports them once: see `lint_rules.per_file`). Source order, not
    server by server: the order servers are first seen in depends on the other files read.
    """
    if graph._consumers is not None:
        return graph._consumers
    out: dict[str, Tool] = {}
    for tool in sorted((t for _, t in graph.tools()), key=_registered_at):
        for resolver in graph.reachable(tool):
            out.setdefault(resolver.id, tool)
    graph._consumers = out
    return out


def _registered_at(tool: Tool) -> tuple[str, int, int]:
    span = tool.registration or tool.span
    return (span.path, span.line, span.column) if span is not None else ("", 0, 0)


def found_in(graph: Graph, rule: str, resolver: Resolver, find: Callable[[Resolver], T]) -> T:
    """What `find` reads of `resolver`'s own definition (its body, its module's names), read
    once per build.

    The rules run on each given file's view of a build (`per_file.split`), and a resolver the
    tools of several files run was read again in each view (`helpers` 1,000: 2,322 visits of
    686 resolvers). The definition is the same in every view, so the views share this memo
    (`Graph._found`); what differs from view to view, the tool a diagnostic names and where a
    resolver without source of its own is located (`Graph.located`), each rule still works
    out in the view, so a file's record is what it was. `find` must return a value, not an
    iterator: another view reads it again.
    """
    return once_per_build(graph, (rule, resolver.id), partial(find, resolver))


def once_per_build(graph: Graph, key: tuple[str, str], find: Callable[[], T]) -> T:
    """`find()`, called once for the views of one build (`found_in`; `key`: the rule's code
    and what it read, a resolver's id or a module's display)."""
    memo = graph._found
    if key in memo:
        found: T = memo[key]
        return found
    memo[key] = found = find()
    return found


def used_resolvers(graph: Graph) -> Iterator[tuple[Resolver, Tool]]:
    """Each resolver some tool runs, once, with the first tool that runs it."""
    consumers = first_consumers(graph)
    for rid, tool in consumers.items():
        yield graph.resolvers[rid], tool


class ParameterSite(NamedTuple):
    """A parameter as a rule reports it: where, whose, for which tool."""

    param: Parameter
    span: Span | None
    """Where to report it (`Graph.located`: a resolver without source is reported where the
    tool's graph names it)."""
    owner: str
    """`tool 'x'` or `resolver 'y'`, for messages."""
    tool: str
    resolver: Resolver | None
    """The resolver it belongs to (None for a tool's own parameter)."""


def every_parameter(graph: Graph, rule: str, wanted: Callable[[Parameter], bool]) -> Iterator[ParameterSite]:
    """Each tool parameter and each used resolver's parameter (once, with its first consumer)
    that `wanted` picks for `rule` (a resolver's picked once per build, `found_in`)."""
    for _, tool in graph.tools():
        for p in tool.parameters:
            if wanted(p):
                yield ParameterSite(p, p.span, f"tool {tool.name!r}", tool.name, None)
    for resolver, tool in used_resolvers(graph):
        for p in found_in(graph, rule, resolver, partial(_picked, wanted)):
            span = graph.located(tool, resolver, p.span)
            yield ParameterSite(p, span, f"resolver {resolver.name!r}", tool.name, resolver)


def _picked(wanted: Callable[[Parameter], bool], resolver: Resolver) -> list[Parameter]:
    return [p for p in resolver.parameters if wanted(p)]


def function_node(resolver: Resolver) -> FunctionNode | None:
    """The resolver's function (or lambda) node, when it is one."""
    node = resolver.node
    return node if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) else None
