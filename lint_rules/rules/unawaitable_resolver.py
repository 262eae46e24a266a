"""MCPD108: a resolver whose value is a coroutine or generator object, never awaited or iterated."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from functools import partial

from ...resolver_core.diagnostics import Diagnostic
from ...resolver_core.model import Graph, Resolver, Span
from ...resolver_core.signatures import returns_of
from ...resolver_core.source import ParsedModule
from ...resolver_core.symbols import Defined, Names, Scope
from .._source import found_in, function_node, function_scope, module_at, names_of, used_resolvers
from ..base import Invalid, Rule

_HEADER = (
    "from typing import Annotated\n"
    "from mcp.server import MCPServer\n"
    "from mcp.server.mcpserver import Resolve\n\n"
    "mcp = MCPServer('s')\n\n"
    "async def fetch_price(title: str) -> float:\n    return 9.5\n\n"
)
_TOOL = (
    "@mcp.tool()\n"
    "def quote(title: str, price: Annotated[float, Resolve(price_of)]) -> str:\n"
    "    return f'{title}: {price}'\n"
)


class UnawaitableResolver(Rule):
    code = "MCPD108"
    name = "unawaitable-resolver"
    severity = "warning"
    summary = (
        "A plain function (or a sync decorator wrapper) returning an async function's coroutine, "
        "or a generator, used as a resolver."
    )
    explanation = (
        "The SDK awaits a resolver only when the resolver itself is an `async def`; a plain "
        "function runs in a worker thread and whatever it returns is injected as is. A sync "
        "wrapper `def price_of(title): return fetch_price(title)` around an async function "
        "therefore injects the coroutine object (never awaited: `RuntimeWarning: coroutine ... "
        "was never awaited`). A decorator does the same when its wrapper is a plain `def` around "
        "an `async def` resolver: `functools.wraps` keeps the signature, not the async-ness. A resolver that `yield`s injects the generator object instead "
        "of a value. The tool then works on the wrong kind of object.\n\n"
        "Fix: make the wrapper `async def` and `await` the call (or use the async function "
        "directly as the resolver); make a generator resolver `return` its value."
    )
    INVALID = [
        Invalid(
            _HEADER + "def price_of(title: str) -> float:\n    return fetch_price(title)\n\n" + _TOOL,
            at=(11, 12, 11, 30),
        ),
        Invalid(
            _HEADER + "def price_of(title: str):\n    yield 9.5\n\n" + _TOOL,
            at=(10, 1, 10, 1),
        ),
        Invalid(
            _HEADER
            + "import functools\n\n\ndef traced(fn):\n    @functools.wraps(fn)\n"
            + "    def wrapper(*args, **kwargs):\n        return fn(*args, **kwargs)\n\n    return wrapper\n\n\n"
            + "price_of = traced(fetch_price)\n\n\n"
            + _TOOL,
            at=(7, 1, 7, 1),
        ),
    ]
    VALID = [
        _HEADER + "async def price_of(title: str) -> float:\n    return await fetch_price(title)\n\n" + _TOOL
    ]

    def check(self, graph: Graph) -> Iterable[Diagnostic]:
        names = names_of(graph)
        for resolver, tool in used_resolvers(graph):
            fn = function_node(resolver)
            if resolver.wrapped_async is not None and resolver.span is not None:
                via = f" (`{', '.join(resolver.decorators)}`)" if resolver.decorators else ""
                yield self.diagnostic(
                    resolver.span,
                    f"resolver {resolver.name!r} is a sync wrapper{via} around async "
                    f"{resolver.wrapped_async!r}: the SDK runs it in a worker thread and injects the "
                    f"coroutine, never awaited, into tool {tool.name!r}",
                    tool=tool.name,
                    resolver=resolver,
                    help="make the decorator's wrapper `async def` and `await` the wrapped function",
                )
                continue
            if fn is None or resolver.span is None:
                continue
            if resolver.is_generator:
                what = "an async generator" if resolver.is_async else "a generator"
                yield self.diagnostic(
                    resolver.span,
                    f"resolver {resolver.name!r} is {what}: the SDK does not iterate it, so tool "
                    f"{tool.name!r} receives {what} object instead of a value",
                    tool=tool.name,
                    resolver=resolver,
                    help="`return` the value instead of `yield`ing it",
                )
                continue
            if resolver.is_async or names is None:
                continue
            for span, call, callee in found_in(
                graph, self.code, resolver, partial(_coroutines, graph, names)
            ):
                yield self.diagnostic(
                    span,
                    f"resolver {resolver.name!r} is a plain function returning `{call}`, a "
                    f"coroutine of async {callee!r}: the SDK injects the coroutine object, never awaited, "
                    f"into tool {tool.name!r}",
                    tool=tool.name,
                    resolver=resolver,
                    help=f"make {resolver.name!r} `async def` and `await` the call (or resolve {callee!r} directly)",
                )


def _coroutines(graph: Graph, names: Names, resolver: Resolver) -> list[tuple[Span, str, str]]:
    """Where a sync resolver returns a coroutine, the call as written and the async function it
    calls (the same for every tool running it)."""
    fn = function_node(resolver)
    module = module_at(graph, resolver.span)
    if fn is None or module is None:
        return []
    return [
        (module.span(call), ast.unparse(call), callee)
        for call, callee in _async_calls_returned(names, module, fn)
    ]


def _async_calls_returned(
    names: Names, module: ParsedModule, fn: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
) -> Iterator[tuple[ast.Call, str]]:
    """Calls of `async def` functions that a sync function returns (directly or via a local name)."""
    scope = function_scope(module, fn)
    returned = (
        [fn.body] if isinstance(fn, ast.Lambda) else [r.value for r in returns_of(fn) if r.value is not None]
    )
    locals_: dict[str, ast.Call] | None = None  # walked only when a plain name is returned
    for value in returned:
        call: ast.expr | None = value
        if isinstance(value, ast.Name):
            locals_ = _local_calls(fn) if locals_ is None else locals_
            call = locals_.get(value.id)
        if isinstance(call, ast.Call):
            callee = _async_callee(names, module, call, scope)
            if callee is not None:
                yield call, callee


def _local_calls(fn: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> dict[str, ast.Call]:
    if isinstance(fn, ast.Lambda):
        return {}
    out: dict[str, ast.Call] = {}
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            out.update((t.id, node.value) for t in node.targets if isinstance(t, ast.Name))
    return out


def _async_callee(names: Names, module: ParsedModule, call: ast.Call, scope: Scope) -> str | None:
    """The name of the `async def` a call invokes, if it is one the project defines.

    Besides plain names, `self.method(...)` inside a method is followed to the class body.
    """
    method = _own_async_method(module, scope.function, call.func)
    if method is not None:
        return method
    symbol = names.resolve(module, call.func, scope)
    symbol = names.follow(symbol) if symbol is not None else None
    if isinstance(symbol, Defined) and isinstance(symbol.node, ast.AsyncFunctionDef):
        return symbol.qualname
    return None


def _own_async_method(module: ParsedModule, fn: ast.AST, func: ast.expr) -> str | None:
    """`self.m(...)`/`cls.m(...)` in a method of a class whose `m` is an `async def`."""
    if not (
        isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Name)
        and isinstance(fn, ast.FunctionDef)
        and fn.args.args
        and func.value.id == fn.args.args[0].arg
        and module.tree is not None
    ):
        return None
    for cls in ast.walk(module.tree):
        if isinstance(cls, ast.ClassDef) and fn in cls.body:
            found = next(
                (m for m in cls.body if isinstance(m, ast.AsyncFunctionDef) and m.name == func.attr), None
            )
            return f"{cls.name}.{found.name}" if found is not None else None
    return None
