"""Resolvers a factory makes: `Resolve(make_lookup())`, `lookup = make_lookup("sku")`.

A factory returning a def of its own body (or a lambda) hands out a new function object at
each call, whose signature is the local def's and whose annotations were evaluated in the
factory's body when it ran: so the target is that def, read in the factory's scope, named
`make_lookup.<locals>.lookup` as its `__qualname__` says. Anything else a factory returns is
left to `callables.Targets` (decorators applied, or opaque).
"""

from __future__ import annotations

import ast

from .signatures import returns_of
from .symbols import Defined, Scope
from .target import Target


def closure_target(factory: Defined) -> Target | None:
    """The function (or lambda) a `return` of `factory` hands out, when it is one of its own
    local defs (`def make_lookup(): def lookup(...): ...; return lookup`), as a target."""
    node = factory.node
    assert isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
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
