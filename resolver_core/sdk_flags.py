"""Tests a decorator's body makes that every run under the SDK decides alike.

Published servers supporting both SDK generations guard their `Resolve` code with a flag set by
an import: `try: from mcp.server.mcpserver import Resolve; HAVE_RESOLVE = True` / `except
ImportError: HAVE_RESOLVE = False`, then `if not HAVE_RESOLVE: return fn` in a decorator
writing `Resolve` annotations. The server mcpdeps checks runs on `mcp` 2.3, where those imports
succeed: the flag is true. A flag counts when its module binds it only there (`True` after the
try's imports, every one of them from `mcp`; `False` in a handler of `ImportError` or
`ModuleNotFoundError`, or once before the `try`); anything else stays undecided, as does any
other test but the Python-version tests `version_tests.py` decides.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from .source import ParsedModule
from .symbols import Names, Scope, Value
from .version_tests import version_test

Decide = Callable[[ast.expr], "bool | None"]
"""Whether a test holds on every run under the SDK (None: not known)."""

_IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError"})


def deciding(names: Names, module: ParsedModule, scope: Scope | None) -> Decide:
    """How tests written in `module` (in `scope`) are decided: version tests, SDK flags."""

    def decide(test: ast.expr) -> bool | None:
        # `not` unwrapped in a loop: a closure calling itself holds itself through its cell,
        # and with it `names` and the whole build (`tests/test_memory.py`).
        negated = False
        while isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            negated, test = not negated, test.operand
        known = version_test(test)
        if known is None and isinstance(test, ast.Name):
            symbol = names.resolve(module, test, scope)
            symbol = names.follow(symbol) if symbol is not None else None
            if isinstance(symbol, Value) and symbol.scope is None and _sdk_flag(symbol.module, symbol.name):
                known = True
        return None if known is None else known != negated

    return decide


def live_body(body: list[ast.stmt], decide: Decide) -> list[ast.stmt]:
    """The statements of `body` a call runs, as far as the tests `decide` settles tell: an `if`
    whose test is settled stands for the arm that runs, and nothing runs after a `return` at
    this level (one the arm that runs ends with included)."""
    out: list[ast.stmt] = []
    for stmt in body:
        if isinstance(stmt, ast.If):
            verdict = decide(stmt.test)
            if verdict is not None:
                arm = live_body(stmt.body if verdict else stmt.orelse, decide)
                out.extend(arm)
                if arm and isinstance(arm[-1], ast.Return):
                    return out
                continue
        out.append(stmt)
        if isinstance(stmt, ast.Return):
            return out
    return out


def _sdk_flag(module: ParsedModule, name: str) -> bool:
    """Whether module-level `name` is a flag the SDK's imports set (see the module's docstring)."""
    tree = module.tree
    if tree is None:
        return False
    remembered: dict[str, bool] | None = getattr(tree, "_mcpdeps_sdk_flags", None)
    if remembered is None:
        remembered = _flags(tree.body)
        tree._mcpdeps_sdk_flags = remembered  # type: ignore[attr-defined]
    return remembered.get(name, False)


def _flags(body: list[ast.stmt]) -> dict[str, bool]:
    """Each module-level name bound to a constant, and whether it is such a flag."""
    true: set[str] = set()
    false: set[str] = set()
    other: set[str] = set()
    for stmt in body:
        if isinstance(stmt, ast.Try) and _guards_sdk_imports(stmt):
            true.update(_constants(stmt.body, True))
            for handler in stmt.handlers:
                false.update(_constants(handler.body, False))
            other.update(n for s in (*stmt.orelse, *stmt.finalbody) for n in _bound(s))
            continue
        constants = _constants([stmt], False)
        (false if constants else other).update(constants or _bound(stmt))
    return {name: name in true and name in false and name not in other for name in true | false}


def _guards_sdk_imports(stmt: ast.Try) -> bool:
    """A `try` importing only from `mcp` (and binding constants), whose handlers catch only
    the import failing and bind constants."""
    imports = [s for s in stmt.body if isinstance(s, ast.Import | ast.ImportFrom)]
    rest = [s for s in stmt.body if not isinstance(s, ast.Import | ast.ImportFrom)]
    return (
        bool(imports)
        and all(_from_sdk(s) for s in imports)
        and all(_is_constant(s) for s in rest)
        and bool(stmt.handlers)
        and all(_catches_import_error(h) and all(_is_constant(s) for s in h.body) for h in stmt.handlers)
    )


def _from_sdk(stmt: ast.Import | ast.ImportFrom) -> bool:
    if isinstance(stmt, ast.ImportFrom):
        return stmt.level == 0 and stmt.module is not None and stmt.module.split(".")[0] == "mcp"
    return all(alias.name.split(".")[0] == "mcp" for alias in stmt.names)


def _catches_import_error(handler: ast.ExceptHandler) -> bool:
    caught = handler.type
    kinds = caught.elts if isinstance(caught, ast.Tuple) else [caught]
    return caught is not None and all(isinstance(k, ast.Name) and k.id in _IMPORT_ERRORS for k in kinds)


def _is_constant(stmt: ast.stmt) -> bool:
    """`NAME = True` / `NAME = False` (or `pass`)."""
    return isinstance(stmt, ast.Pass) or (
        isinstance(stmt, ast.Assign)
        and all(isinstance(t, ast.Name) for t in stmt.targets)
        and isinstance(stmt.value, ast.Constant)
        and isinstance(stmt.value.value, bool)
    )


def _constants(body: list[ast.stmt], value: bool) -> set[str]:
    """The names `body` binds to `value` by plain assignments of its own."""
    return {
        t.id
        for s in body
        if isinstance(s, ast.Assign) and isinstance(s.value, ast.Constant) and s.value.value is value
        for t in s.targets
        if isinstance(t, ast.Name)
    }


def _bound(stmt: ast.stmt) -> set[str]:
    """Names a statement binds at module level in any other way (what makes a name no flag)."""
    return {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
