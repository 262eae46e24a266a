"""Resolvers handed in as arguments: `Resolve(resolve_login)` where `resolve_login` is a parameter.

Published servers give the helper that registers their tools the resolver to use
(`register_shell_tools(mcp, resolve_login=header_login)`, which passes it on to
`_register_games(mcp, resolve_login)`, whose tools say `Resolve(resolve_login)`). The marker
is evaluated when the helper runs, so the SDK reads the callable its call passed: each call
site's argument is described where the call is written (followed again when it is itself the
caller's parameter). When every call passes one and the same callable, that is the resolver.

Only calls that also hand the function a server are followed: a run checking the caller
then checks the tools that server gets in the callee (`handed_servers`), so `lint FILE` on
the resolver's module, which checks the files spelling its name (`carriers`), meets the
tool as `lint .` does. Calls passing different callables (each call registers tools of its
own resolver), a parameter left to its default, a call handing no server (a factory given
only the resolver), or no call at all leave it unknown (`None`: the target stays opaque, as
any other computed one).
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import TYPE_CHECKING
from weakref import ReferenceType

from .passed_loops import argument
from .servers import Servers
from .signatures import function_params
from .symbols import Param, Scope
from .target import Target

if TYPE_CHECKING:
    from .call_sites import CallSite, CallSites
    from .source import ParsedModule

Describe = Callable[["ParsedModule", ast.expr, "Scope | None", str, int], Target]
"""`Targets.describe`: what an expression written somewhere names, as a resolver."""


class PassedResolvers:
    """What each call passes for a parameter a `Resolve(...)` names."""

    def __init__(self, call_sites: ReferenceType[CallSites], servers: Servers) -> None:
        self._call_sites = call_sites  # weak: the call sites hold the targets' `method`
        self._servers = servers

    def target(self, describe: Describe, param: Param, key: str, depth: int) -> Target | None:
        """The one callable every call of `param`'s function passes for it, described; or None."""
        call_sites = self._call_sites()
        if call_sites is None:
            return None
        fn = param.function
        params = function_params(fn)
        index = [arg for arg, *_ in params].index(param.node)
        positional = index < len(fn.args.posonlyargs) + len(fn.args.args)
        default = params[index][3]
        cls = self._servers.class_of(param.module, fn) if fn.name == "__init__" else None
        if cls is not None:  # `Kit(mcp, r)` names the class, not `__init__`
            call_sites.want([cls.name])
        found: Target | None = None
        for site in call_sites.sites(fn):
            module, call, scope = site
            # `Kit(mcp, r)`, `kit.register(mcp, r)`: the call passes no `self`.
            bound = cls is not None or (
                isinstance(call.func, ast.Attribute) and params[0][0].arg in ("self", "cls")
            )
            arg = argument(call, index - bound if positional else -1, param.node.arg)
            if not self._hands_server(site, arg):
                return None
            if arg is None and default is not None and _top_level(param.module, fn):
                # `def register(mcp, resolve=current_user)` called without it: the default,
                # evaluated where the def is written.
                module, arg, scope = param.module, default, None
            if arg is None:
                return None
            target = describe(module, arg, scope, key, depth + 1)
            if target.problem or (found is not None and found.key != target.key):
                return None
            found = target
        return found

    def _hands_server(self, site: CallSite, passed: ast.expr | None) -> bool:
        """Whether the call also passes a server (an argument other than `passed`)."""
        module, call, scope = site
        given = [*call.args, *(k.value for k in call.keywords)]
        return any(arg is not passed and self._servers.of(module, arg, scope) is not None for arg in given)


def _top_level(module: ParsedModule, fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether `fn` is a module-level def or a method of a module-level class (where its
    defaults are evaluated: the module's globals, a class body's names aside)."""
    tree = module.tree
    if tree is None:
        return False
    return any(
        stmt is fn or (isinstance(stmt, ast.ClassDef) and any(inner is fn for inner in stmt.body))
        for stmt in tree.body
    )
