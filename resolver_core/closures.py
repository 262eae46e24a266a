"""Resolvers a factory makes: `Resolve(make_lookup())`, `lookup = make_lookup("sku")`.

A factory returning a def of its own body (or a lambda) hands out a new function object at
each call, whose signature is the local def's and whose annotations were evaluated in the
factory's body when it ran: so the target is that def, read in the factory's scope, named
`make_lookup.<locals>.lookup` as its `__qualname__` says. What a call certainly hands out
that no one can call is said (`not_callable_result`): `Resolve(current_user())` of an `async
def` is a coroutine, of a generator function a generator, of `def get_settings(): return
{...}` a dict, FastAPI's `Depends(get_db())` slip, which the SDK refuses (T10). Anything else a
factory returns is left to `callables.Targets` (decorators applied, or opaque).
"""

from __future__ import annotations

import ast

from .eager_annotations import binds_dynamically
from .signatures import contains_yield, own_nodes, returns_of
from .symbols import Defined, Scope
from .target import Target


def closure_target(factory: Defined) -> Target | None:
    """The function (or lambda) a `return` of `factory` hands out, when it is one of its own
    local defs (`def make_lookup(): def lookup(...): ...; return lookup`), as a target."""
    node = factory.node
    assert isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    if not_callable_result(factory) is not None:
        return None
    scope = Scope(factory.module, node, factory.qualname)
    local = scope.bindings
    for ret in returns_of(node):
        if isinstance(ret.value, ast.Name) and ret.value.id in local:
            binding = local[ret.value.id]
            inner = binding.node
            if binding.kind == "def" and isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef):
                qual = f"{factory.qualname}.<locals>.{inner.name}"
                return Target(
                    "function",
                    ("def", str(factory.module.path), qual),
                    factory.module,
                    qual,
                    factory.module.name,
                    node=inner,
                    scope=scope,
                )
        if isinstance(ret.value, ast.Lambda):
            return Target(
                "lambda",
                ("lambda", str(factory.module.path), ret.value.lineno),
                factory.module,
                "<lambda>",
                factory.module.name,
                node=ret.value,
                no_hints=True,
                scope=scope,
            )
    return None


_WORDS: dict[type[ast.expr], str] = {
    ast.JoinedStr: "a str",
    ast.Dict: "a dict",
    ast.DictComp: "a dict",
    ast.List: "a list",
    ast.ListComp: "a list",
    ast.Set: "a set",
    ast.SetComp: "a set",
    ast.Tuple: "a tuple",
    ast.GeneratorExp: "a generator",
}
"""What a returned display makes: the values a call of a function returning them gives."""


def not_callable_result(factory: Defined) -> str | None:
    """What calling `factory` (undecorated) certainly gives that is not callable, said as the
    reason; None when it may give a callable. A function that returns no value gives None."""
    node = factory.node
    assert isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    if binds_dynamically(factory.module.text or ""):
        return None  # `globals()["current_user"] = ...` may replace it before it is called
    if isinstance(node, ast.AsyncFunctionDef):
        what = "an async generator" if contains_yield(node) else "a coroutine"
        return f"calling the async function {node.name!r} gives {what}"
    if contains_yield(node):
        return f"calling the generator function {node.name!r} gives a generator"
    returns = returns_of(node)
    if not returns and any(isinstance(n, ast.Raise) for n in own_nodes(node)):
        return None  # calling it may raise: the import fails there, not at `Resolve`
    kinds = {_kind(r.value) for r in returns} or {"None"}
    if None in kinds:
        return None
    return f"{node.name!r} returns {' or '.join(sorted(k for k in kinds if k))}"


def _kind(value: ast.expr | None) -> str | None:
    """The value a `return` certainly gives, when it is no callable; else None."""
    if value is None:
        return "None"
    if isinstance(value, ast.Constant):
        return "None" if value.value is None else f"a {type(value.value).__name__}"
    return _WORDS.get(type(value))
