"""What a test in a loop's body is for each value the loop takes: true, false, or not told.

`loop_filters.py` reads a loop's body once, carrying the values still running at each
statement; each `if` test (or `case` of a `match`) is read here for each value: the loop's
variables (or a name the body binds once from them) compared with constant texts, collections
written out, or functions (`fn is skip`, `fn in SKIP`: `loop_identity.py`). Any other test is
not told, and the value runs both ways.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from .bindings import Element, Value
from .function_marks import NOT_TOLD, mark_test, mark_truth
from .loop_identity import compared, written_def
from .source import ParsedModule
from .symbols import Names, Scope
from .written_collections import written_collection

_STRING_TESTS: dict[str, Callable[[str, str | tuple[str, ...]], bool]] = {
    "startswith": str.startswith,
    "endswith": str.endswith,
}
_FIELDS = {"name": 1, "ispkg": 2}
"""The `pkgutil.ModuleInfo` fields a test reads (`info.name`), by their place in the tuple."""
_MAX_DEPTH = 8
"""Names followed to the constant they stand for before giving up (a cycle never ends)."""


class ModuleInfo(ast.Tuple):
    """One `pkgutil.ModuleInfo(module_finder, name, ispkg)` a listing yields, in a loop
    variable's place: unpacked (`for _, name, _ in ...`) or read by field (`info.name`)."""

    def __init__(self, name: str, ispkg: bool) -> None:
        super().__init__(elts=[ast.Constant(None), ast.Constant(name), ast.Constant(ispkg)], ctx=ast.Load())


class _Unknown:
    """What an expression is when the source does not tell it for a value."""


UNKNOWN = _Unknown()
Known = object
"""A constant as Python holds it (a text, a flag), or a frozenset or tuple of them."""


class ValueTests:
    """A test read for each value of the loop: true, false, or not told."""

    def __init__(
        self,
        names: Names,
        module: ParsedModule,
        scope: Scope | None,
        variables: tuple[str, ...],
        values: list[ast.expr],
        aliases: dict[str, ast.expr],
        stored: set[str],
        where: tuple[ParsedModule, Scope | None],
    ) -> None:
        self.names = names
        self.where = where
        """The module and scope the values are written in (the functions they name)."""
        self.module = module
        self.scope = scope
        self.variables = variables
        self.values = values
        self.aliases = aliases
        self.stored = stored
        """The names the body binds."""
        self._reads: dict[int, bool] = {}
        self._written_as: dict[int, Known] = {}

    def suppresses(self, manager: ast.expr) -> bool:
        """Whether a `with` item may swallow an exception of its body: `contextlib.suppress(...)`
        (the other managers published loops write, `open`, locks, a client, let it through)."""
        return (
            isinstance(manager, ast.Call)
            and self.names.canonical(self.module, manager.func, self.scope) == "contextlib.suppress"
        )

    def decided(self, test: ast.expr, live: frozenset[int]) -> tuple[frozenset[int], frozenset[int]]:
        """The values of `live` for which `test` is true, and those for which it is false."""
        true: set[int] = set()
        false: set[int] = set()
        for at in live:
            truth = self.truth(test, at, 0)
            if truth is not None:
                (true if truth else false).add(at)
        return frozenset(true), frozenset(false)

    def truth(self, test: ast.expr, at: int, depth: int) -> bool | None:
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            inner = self.truth(test.operand, at, depth)
            return None if inner is None else not inner
        if isinstance(test, ast.BoolOp):
            found = [self.truth(v, at, depth) for v in test.values]
            decisive = isinstance(test.op, ast.Or)  # `or` is true once one is, `and` false once one is
            if decisive in found:
                return decisive
            return None if None in found else not decisive
        if not self._reads_variables(test):  # (a flag of the module may be set at run time)
            return None
        value = self.term(test, at, depth)
        return None if value is UNKNOWN else bool(value)

    def _reads_variables(self, test: ast.expr) -> bool:
        """Whether a test is about the loop's variables: only those are decided (read once
        per test, not per value)."""
        found = self._reads.get(id(test))
        if found is None:
            found = self._reads[id(test)] = any(
                isinstance(n, ast.Name) and (n.id in self.variables or n.id in self.aliases)
                for n in ast.walk(test)
            )
        return found

    def term(self, expr: ast.expr, at: int, depth: int) -> Known:
        """What `expr` is when the loop takes its value at `at`."""
        if depth > _MAX_DEPTH:
            return UNKNOWN
        if isinstance(expr, ast.Constant):
            return expr.value
        if isinstance(expr, ast.Compare):
            return self._compared(expr, at, depth)
        if isinstance(expr, ast.Call):
            return self._called(expr, at, depth)
        if isinstance(expr, ast.Tuple | ast.List | ast.Set):
            items = [self.term(e, at, depth) for e in expr.elts]
            if any(i is UNKNOWN for i in items):
                return UNKNOWN
            return tuple(items) if isinstance(expr, ast.Tuple) else frozenset(items)
        if isinstance(expr, ast.JoinedStr | ast.BinOp):
            return self._joined(expr, at, depth)
        if isinstance(expr, ast.Name | ast.Attribute):
            return self._named(expr, at, depth)
        return UNKNOWN

    def _compared(self, expr: ast.Compare, at: int, depth: int) -> Known:
        if len(expr.ops) != 1:
            return UNKNOWN
        identity = self._identical(expr, at)
        if identity is not UNKNOWN:
            return identity
        left, right = self.term(expr.left, at, depth), self.term(expr.comparators[0], at, depth)
        if left is UNKNOWN or right is UNKNOWN:
            return UNKNOWN
        op = expr.ops[0]
        if isinstance(op, ast.Is | ast.IsNot) and right is None:  # `getattr(fn, "_tool", None) is not None`
            return (left is None) is isinstance(op, ast.Is)
        if isinstance(op, ast.Eq | ast.NotEq):
            return (left == right) is isinstance(op, ast.Eq)
        if not isinstance(op, ast.In | ast.NotIn):
            return UNKNOWN
        if not isinstance(right, frozenset | tuple) and not (
            isinstance(right, str) and isinstance(left, str)
        ):
            return UNKNOWN
        return (left in right) is isinstance(op, ast.In)

    def _identical(self, expr: ast.Compare, at: int) -> Known:
        """`fn is skip`, `fn in SKIP`, where the loop's variable is a function (`loop_identity`)."""
        left = self._def(expr.left, at)
        if left is None:
            return UNKNOWN
        found = compared(self.names, (self.module, self.scope), expr, left, lambda e: self._def(e, at))
        return UNKNOWN if found is None else found

    def _def(self, expr: ast.expr, at: int) -> ast.AST | None:
        """The def or class `expr` is (a loop variable: the one it takes at `at`)."""
        if isinstance(expr, ast.Name) and expr.id in self.variables:
            row = self._column(at, expr.id)
            return None if row is None else written_def(self.names, self.where[0], row, self.where[1])
        if isinstance(expr, ast.Name) and (expr.id in self.stored or expr.id in self.aliases):
            return None
        return written_def(self.names, self.module, expr, self.scope)

    def _column(self, at: int, variable: str) -> ast.expr | None:
        """The value `variable` takes from the row at `at`, as written (an `Element` kept)."""
        row = self.values[at]
        if len(self.variables) == 1:
            return row
        if not isinstance(row, ast.Tuple | ast.List) or len(row.elts) != len(self.variables):
            return None
        return row.elts[self.variables.index(variable)]

    def _called(self, expr: ast.Call, at: int, depth: int) -> Known:
        """`name.startswith("_")` (or a tuple of prefixes), `endswith`; `frozenset({...})`;
        `getattr(fn, "is_tool", False)`, a mark a decorator sets (`function_marks.py`)."""
        if mark_test(expr, self.variables) is not None:
            assert isinstance(expr.args[0], ast.Name)
            row = self._column(at, expr.args[0].id)
            at_test = (self.module, self.scope)
            found = NOT_TOLD if row is None else mark_truth(self.names, at_test, expr, row, self.where)
            return UNKNOWN if found is NOT_TOLD else found
        if expr.keywords or len(expr.args) != 1:
            return UNKNOWN
        func = expr.func
        if isinstance(func, ast.Attribute) and func.attr in _STRING_TESTS:
            text, arg = self.term(func.value, at, depth), self.term(expr.args[0], at, depth)
            if isinstance(text, str) and (
                isinstance(arg, str) or (isinstance(arg, tuple) and all(isinstance(a, str) for a in arg))
            ):
                return _STRING_TESTS[func.attr](text, arg)
            return UNKNOWN
        return self._frozen(self.module, expr, self.scope)

    def _joined(self, expr: ast.JoinedStr | ast.BinOp, at: int, depth: int) -> Known:
        """`f"{__name__}.{info.name}"`, `prefix + name`: a text of known texts."""
        if isinstance(expr, ast.BinOp):
            if not isinstance(expr.op, ast.Add):
                return UNKNOWN
            parts = [expr.left, expr.right]
        else:
            parts = []
            for v in expr.values:
                if isinstance(v, ast.FormattedValue) and (v.conversion != -1 or v.format_spec is not None):
                    return UNKNOWN
                parts.append(v.value if isinstance(v, ast.FormattedValue) else v)
        texts = [self.term(p, at, depth) for p in parts]
        return (
            "".join(t for t in texts if isinstance(t, str))
            if all(isinstance(t, str) for t in texts)
            else UNKNOWN
        )

    def _named(self, expr: ast.Name | ast.Attribute, at: int, depth: int) -> Known:
        """A loop variable (or a `ModuleInfo` field of it), a name the body binds once from
        them, the module's `__name__`, or a name bound to a constant or a collection written out."""
        base, field = (expr.value, expr.attr) if isinstance(expr, ast.Attribute) else (expr, None)
        if isinstance(base, ast.Name) and base.id in self.variables:
            value = self._taken(self.values[at], self.variables.index(base.id))
            if field is not None:
                if not isinstance(value, ModuleInfo) or field not in _FIELDS:
                    return UNKNOWN
                value = value.elts[_FIELDS[field]]
            return self.term(value, at, depth + 1) if isinstance(value, ast.Constant) else UNKNOWN
        if isinstance(expr, ast.Name):
            if expr.id in self.aliases:
                return self.term(self.aliases[expr.id], at, depth + 1)
            if expr.id in ("__name__", "__package__"):  # the module's globals
                return self.module.name if expr.id == "__name__" else self.module.package
            if expr.id in self.stored:  # bound again on each turn: not what its binding says
                return UNKNOWN
        if id(expr) not in self._written_as:  # (the same for every value)
            self._written_as[id(expr)] = self._written(expr)
        return self._written_as[id(expr)]

    def _taken(self, row: ast.expr, index: int) -> ast.expr | None:
        """The value one variable takes from a row of the loop (`for _, name, ispkg in ...`)."""
        if len(self.variables) > 1:
            if not isinstance(row, ast.Tuple | ast.List) or len(row.elts) != len(self.variables):
                return None
            row = row.elts[index]
        return row.written if isinstance(row, Element) else row

    def _written(self, expr: ast.Name | ast.Attribute) -> Known:
        """`SKIP = {"base", "utils"}` (here or in another module; a dict's keys), `PREFIX = "_"`,
        `SKIP = frozenset({...})`: what a name bound once to constants stands for."""
        found = written_collection(self.names, self.module, expr, self.scope)
        if found is not None:
            return _constants(found[2])
        symbol = self.names.resolve(self.module, expr, self.scope)
        if not isinstance(symbol, Value):
            return UNKNOWN
        if isinstance(symbol.node, ast.Constant):
            return symbol.node.value
        return self._frozen(symbol.module, symbol.node, symbol.scope)

    def _frozen(self, module: ParsedModule, expr: ast.expr, scope: Scope | None) -> Known:
        """`frozenset({"base", "utils"})` (or of a tuple, a list): the constants written out."""
        if (
            not isinstance(expr, ast.Call)
            or expr.keywords
            or len(expr.args) != 1
            or not isinstance(expr.args[0], ast.Tuple | ast.List | ast.Set)
            or self.names.canonical(module, expr.func, scope) != "builtins.frozenset"
        ):
            return UNKNOWN
        found = _constants(expr.args[0])
        return frozenset(found) if isinstance(found, tuple) else found


def _constants(collection: ast.Tuple | ast.List | ast.Set | ast.Dict) -> Known:
    """The constants a collection holds (a dict's keys): a tuple for a tuple, else a set."""
    items = collection.keys if isinstance(collection, ast.Dict) else collection.elts
    constants = [i.value for i in items if isinstance(i, ast.Constant)]
    if len(constants) != len(items):
        return UNKNOWN
    return tuple(constants) if isinstance(collection, ast.Tuple) else frozenset(constants)


def body_aliases(inside: list[ast.AST], variables: set[str]) -> dict[str, ast.expr]:
    """Names the body (its nodes) binds exactly once, by a plain assignment of what reads the loop's
    variables (`name = info.name`): a test of one reads what it was bound to (bound before
    the test, as published loops write it)."""
    stored: dict[str, int] = {}
    assigned: dict[str, ast.expr] = {}
    for n in inside:
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            stored[n.id] = stored.get(n.id, 0) + 1
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
            assigned[n.targets[0].id] = n.value
    return {
        k: v
        for k, v in assigned.items()
        if stored.get(k) == 1
        and k not in variables
        and any(isinstance(n, ast.Name) and n.id in variables for n in ast.walk(v))
    }
