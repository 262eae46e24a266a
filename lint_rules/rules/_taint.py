"""Values that differ on every run of a function body: clocks, randomness, uuids, counters.

A question resolver re-runs on every round of a 2026-07-28 call, and the SDK pins each
answer to a digest of the rendered question. `Volatile` finds the expressions in a
function that cannot render the same way twice: calls into the clock, `random`,
`secrets`, `uuid1`/`uuid4`, `next()` on a module-level `itertools.count`, a `global`
counter the body increments, and local variables assigned from any of these
(followed to a fixed point, so `now = time.time(); msg = f"{now}"` taints `msg`).
"""

from __future__ import annotations

import ast

from ...resolver_core.source import ParsedModule, spelling
from ...resolver_core.symbols import Names, Scope, Value
from .._source import FunctionNode, canonical_call, function_scope, walk_body

CLOCK_CALLS = frozenset(
    {
        "time.time",
        "time.time_ns",
        "time.monotonic",
        "time.monotonic_ns",
        "time.perf_counter",
        "time.perf_counter_ns",
        "time.process_time",
        "time.ctime",
        "time.asctime",
        "time.localtime",
        "time.gmtime",
        "time.strftime",
        "datetime.datetime.now",
        "datetime.datetime.utcnow",
        "datetime.datetime.today",
        "datetime.date.today",
        "uuid.uuid1",
        "uuid.uuid4",
        "os.urandom",
    }
)
"""Calls whose result changes from one call to the next."""

RANDOM_MODULES = ("random.", "secrets.", "numpy.random.")
"""Any call into these modules is random."""


class Volatile:
    """The volatile expressions of one function body (see the module docstring)."""

    def __init__(
        self, names: Names, module: ParsedModule, fn: FunctionNode, scope: Scope | None = None
    ) -> None:
        self.names = names
        self.module = module
        self.fn = fn
        self.scope = scope or function_scope(module, fn)
        self.tainted: dict[str, ast.AST] = {}
        """Local name (or `self.attr` text) -> the volatile source it was computed from."""
        self._counters()
        changed = True
        while changed:
            changed = False
            for node in walk_body(fn):
                for target, value in _assignments(node):
                    source = self.source(value) if value is not None else None
                    for name in _target_names(target):
                        if source is not None and name not in self.tainted:
                            self.tainted[name] = source
                            changed = True

    def _counters(self) -> None:
        """`global n` + `n += 1`, and `self.n += 1`: the body's own counters."""
        declared = {n for node in walk_body(self.fn) if isinstance(node, ast.Global) for n in node.names}
        for node in walk_body(self.fn):
            if isinstance(node, ast.AugAssign):
                text = spelling(node.target)
                if text in declared or isinstance(node.target, ast.Attribute):
                    self.tainted.setdefault(text, node)

    def source(self, expr: ast.AST) -> ast.AST | None:
        """The first volatile sub-expression of `expr` (the clock call, the counter...), if any."""
        for node in ast.walk(expr):
            if isinstance(node, ast.Call):
                callee = canonical_call(self.names, self.module, node, self.scope)
                if callee is not None and (callee in CLOCK_CALLS or callee.startswith(RANDOM_MODULES)):
                    return node
                if self._is_next_on_counter(node):
                    return node
            elif isinstance(node, ast.Name | ast.Attribute) and isinstance(node.ctx, ast.Load):
                hit = self.tainted.get(spelling(node))
                if hit is not None:
                    return hit
        return None

    def _is_next_on_counter(self, call: ast.Call) -> bool:
        """`next(c)` where `c` is a module-level `itertools.count(...)`."""
        if not (isinstance(call.func, ast.Name) and call.func.id == "next" and call.args):
            return False
        arg = call.args[0]
        if not isinstance(arg, ast.Name) or arg.id in self.scope.bindings:
            return False
        symbol = self.names.resolve(self.module, arg, None)
        symbol = self.names.follow(symbol) if symbol is not None else None
        if isinstance(symbol, Value) and isinstance(symbol.node, ast.Call):
            return self.names.canonical(symbol.module, symbol.node.func, symbol.scope) == "itertools.count"
        return False


def _assignments(node: ast.AST) -> list[tuple[ast.AST, ast.AST | None]]:
    """(target, value) pairs a statement or expression binds."""
    if isinstance(node, ast.Assign):
        return [(t, node.value) for t in node.targets]
    if isinstance(node, ast.AnnAssign | ast.AugAssign):
        return [(node.target, node.value)]
    if isinstance(node, ast.NamedExpr):
        return [(node.target, node.value)]
    if isinstance(node, ast.For | ast.AsyncFor):
        return [(node.target, node.iter)]
    if isinstance(node, ast.With | ast.AsyncWith):
        return [(i.optional_vars, i.context_expr) for i in node.items if i.optional_vars is not None]
    return []


def _target_names(target: ast.AST) -> list[str]:
    if isinstance(target, ast.Name | ast.Attribute):
        return [spelling(target)]
    if isinstance(target, ast.Tuple | ast.List):
        return [n for elt in target.elts for n in _target_names(elt)]
    if isinstance(target, ast.Starred):
        return _target_names(target.value)
    return []
