"""The library decorators whose effect mcpdeps knows, by qualified name: the standard
library's, and pydantic's `validate_call` (pydantic is installed wherever the SDK is, and
published servers stack it under `@mcp.tool()`).

Decorators written in the project are read (`decorators.py`); a library's cannot be (static
analysis never imports installed code), so these few are known by name: what `@name` gives
back for the function it decorates, as the SDK then sees it.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from .bindings import Value

if TYPE_CHECKING:
    from .source import ParsedModule
    from .symbols import Names, Scope

IDENTITY = frozenset(
    {
        "typing.final",
        "typing.override",
        "typing.no_type_check",
        "typing.runtime_checkable",
        "typing_extensions.final",
        "typing_extensions.override",
        "typing_extensions.runtime_checkable",
        "abc.abstractmethod",
        "functools.total_ordering",
        "dataclasses.dataclass",
        "atexit.register",
    }
)
"""Library decorators that return their argument (possibly after marking it)."""

WRAPPING = frozenset(
    {
        "functools.cache",
        "functools.lru_cache",
        "functools.singledispatch",
        "contextlib.contextmanager",
        "contextlib.asynccontextmanager",
    }
)
"""Library decorators returning a sync wrapper made with `update_wrapper` (so `__wrapped__`)."""

KEEPING_ASYNC = frozenset({"pydantic.validate_call", "pydantic.validate_call_decorator.validate_call"})
"""Library decorators returning a wrapper made with `functools.wraps` that is async exactly when
the function it wraps is (`@validate_call` and `@validate_call(validate_return=True)`)."""

DEPRECATING = frozenset({"typing_extensions.deprecated", "warnings.deprecated"})
"""`@deprecated("message")`: the decorator its call returns wraps the function with
`functools.wraps`, marked a coroutine function when the function is one (Python 3.12 and later,
where `inspect.iscoroutinefunction`, which the SDK asks, sees the mark)."""

MEMOIZING = frozenset({"functools.cache", "functools.lru_cache"})
"""Decorators under which every call returns what the first call made (a getter's server or
object is then one, however many call it)."""

PROPERTIES = frozenset({"builtins.property", "functools.cached_property"})
"""Library decorators making a property of the function."""

TRACERS = frozenset({"opentelemetry.trace.get_tracer"})
"""What makes an OpenTelemetry tracer: its `start_as_current_span("x")` decorates a function
with a `functools.wraps` wrapper, async exactly when the function is (`_AgnosticContextManager`)."""


def span_decorator(names: Names, module: ParsedModule, func: ast.expr, scope: Scope | None) -> bool:
    """Whether `func` (called to make a decorator) is a tracer's `start_as_current_span`:
    `trace.get_tracer(__name__).start_as_current_span`, or of a name bound once to such a
    tracer (`tracer = trace.get_tracer(__name__)`, here or imported), as published servers
    trace their tools under `@mcp.tool()`."""
    if not isinstance(func, ast.Attribute) or func.attr != "start_as_current_span":
        return False
    made = func.value
    if isinstance(made, ast.Name | ast.Attribute):
        held = names.resolve(module, made, scope)
        held = names.follow(held) if held is not None else None
        if not isinstance(held, Value) or not isinstance(held.node, ast.Call):
            return False
        module, made, scope = held.module, held.node, held.scope
    return isinstance(made, ast.Call) and names.canonical(module, made.func, scope) in TRACERS
