"""Annotations Python evaluates where a function (or class) is defined, reading names the module
binds only further down.

Without `from __future__ import annotations`, Python up to 3.13 evaluates a function's
annotations when the `def` runs, and a class body's annotated fields when the body runs: at
module level, that is a line of the module's import. A tool or resolver whose annotation names
something bound further down (`Resolve(login)` with `login` defined below it, a return type
written after the tool that `mcp.add_tool` registers last, a method annotated with its own
class) stops the import with a `NameError`, before the SDK sees anything.

Judged only where it is certain, so that a verdict is never a false alarm: a name is late when
no statement that may have run before that line binds it (any branch, a loop's target, an
unpacking, a walrus in the header of the statement holding the definition), it is no builtin
(Python falls back on it), no function declares it `global`, no star import or dynamic binding
(`globals()`, `exec`, `setattr`...) may bind it, and some statement does bind it (otherwise the
evaluation's own errors say so). A definition inside a module-level loop, `try` or `with` (run
again, or its `NameError` caught), under `if __name__ == "__main__":` (not run on import), or
inside a function (run when called, after the import), is not judged. Names are read where
Python certainly reads them at definition: not inside strings (the SDK evaluates those at
registration), lambda bodies, or what a conditional expression, `and`/`or`, a chained
comparison or a comprehension may skip.

`unbound_before` is also what a registration's reading of a builtin name relies on
(`symbols.Names`: a tool named `list` reads the builtin `list` in its own hints).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import TYPE_CHECKING

from .arms import is_main_test
from .bindings import BUILTIN_NAMES, is_type_checking

if TYPE_CHECKING:
    from .bindings import Binding, Scope
    from .source import ParsedModule
    from .symbols import Names

_GUARDS = (ast.For, ast.AsyncFor, ast.While, ast.Try, ast.With, ast.AsyncWith)
_BODIES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def defined_late(
    names: Names, module: ParsedModule, node: ast.AST, scope: Scope | None, run_at: int | None = None
) -> tuple[int, str] | None:
    """The first name `node`'s annotations read where it is defined before its module binds
    it, with the line that binds it; None when there is none (or it is not certain).
    `run_at`: the line of the module whose call runs the functions around `node` during the
    import (`import_calls.called_at`), where `node` is defined then."""
    if module.future_annotations:
        return None
    reads = list(_read_when_defined(node))
    if not reads:
        return None
    local = _type_params(node) | module.type_params  # `def f[T](x: T)`: bound where they are read
    if isinstance(node, ast.ClassDef):
        local |= bound_in(node.body)  # a field's annotation may name what the body bound above it
    if run_at is not None:  # read where the call runs, but for the functions' own names
        reads = [(name, run_at) for name, _ in reads]
        while scope is not None:
            if not isinstance(scope.function, ast.FunctionDef | ast.AsyncFunctionDef):
                return None
            local |= set(scope.bindings) | bound_in(scope.function.body)
            scope = scope.parent
    if scope is not None:  # class bodies do not nest: only the nearest one's names are visible
        if not isinstance(scope.function, ast.ClassDef):
            return None  # defined when the function around it runs: after the module's import
        local |= set(scope.bindings) | _type_params(scope.function)
        outer = scope.parent
        while outer is not None:
            if not isinstance(outer.function, ast.ClassDef):
                return None
            outer = outer.parent
    local |= _walrus_targets(node)  # `@(Money := keep)`: decorators and defaults run first
    table = names.table(module)
    for name, line in reads:
        binding = table.get(name)
        if name in local or name in BUILTIN_NAMES or not _may_be_late(binding, line):
            continue
        if not unbound_before(names, module, name, line):
            return None
        return _bound_at(binding, line), name
    return None


def unbound_before(names: Names, module: ParsedModule, name: str, line: int) -> bool:
    """Whether, certainly, nothing binds `name` in `module` before the statement at `line` runs:
    no statement that may have run before it (any branch, the tests and targets of the compound
    statements holding it), no star import, no function declaring it `global`, no dynamic
    binding (`globals()`, `exec`, `setattr`, `builtins`...); and `line` is not run again or
    guarded (a loop, `try`, `with`, `if __name__ == "__main__":`)."""
    if module.tree is None or names.star_targets(module) or binds_dynamically(module.text or ""):
        return False
    ran, guarded = _ran_before(module.tree.body, line)
    if guarded or _declared_global(module.tree, name):
        return False
    return not any(name in _binds(stmt) for stmt in ran)


def early_reason(early: tuple[int, str], defined: int, hints: str, what: str) -> str:
    """The sentence saying which name `hints` (of `what`) read is bound after `what`'s definition."""
    line, name = early
    return (
        f"{hints} use {name!r}, which is bound at line {line}, after {what} is defined at line "
        f"{defined}, where Python up to 3.13 evaluates them: importing the module fails"
    )


def _read_when_defined(node: ast.AST) -> Iterator[tuple[str, int]]:
    """The names `node`'s annotations read when Python defines it, in the order it reads them,
    each with the line where it is read: a function's where its `def` runs, a class body's
    annotated fields and methods (a class resolver's) where each is written."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        a = node.args
        for arg in (*a.posonlyargs, *a.args, a.vararg, *a.kwonlyargs, a.kwarg):
            if arg is not None and arg.annotation is not None:
                yield from ((name, node.lineno) for name in _read(arg.annotation))
        if node.returns is not None:
            yield from ((name, node.lineno) for name in _read(node.returns))
    elif isinstance(node, ast.ClassDef):  # its body runs where it is written: fields and methods
        for stmt in node.body:
            if isinstance(stmt, ast.AnnAssign):
                yield from ((name, stmt.lineno) for name in _read(stmt.annotation))
            elif isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
                yield from _read_when_defined(stmt)


def _read(node: ast.AST) -> Iterator[str]:
    """The names an expression certainly reads when evaluated, in order (`certainly_evaluated`)."""
    if isinstance(node, ast.Name):
        yield node.id
    else:
        for child in certainly_evaluated(node):
            yield from _read(child)


def certainly_evaluated(node: ast.AST) -> list[ast.AST]:
    """The parts of an expression Python evaluates whenever it evaluates the expression, in
    order: not a lambda's body (its defaults, yes), the arms of a conditional expression, what
    `and`/`or` or a chained comparison may skip, nor a comprehension past its first iterable
    (which may be empty)."""
    if isinstance(node, ast.Lambda):
        return [d for d in (*node.args.defaults, *node.args.kw_defaults) if d is not None]
    if isinstance(node, ast.IfExp):
        return [node.test]
    if isinstance(node, ast.BoolOp):
        return list(node.values[:1])
    if isinstance(node, ast.Compare):
        return [node.left, *node.comparators[:1]]
    if isinstance(node, ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp):
        return [node.generators[0].iter]
    return list(ast.iter_child_nodes(node))


def _walrus_targets(node: ast.AST) -> set[str]:
    """The names a walrus binds in a definition's decorators or defaults (evaluated first)."""
    parts: list[ast.AST] = list(getattr(node, "decorator_list", ()))
    args = getattr(node, "args", None)
    if isinstance(args, ast.arguments):
        parts += [d for d in (*args.defaults, *args.kw_defaults) if d is not None]
    return {
        n.target.id
        for part in parts
        for n in ast.walk(part)
        if isinstance(n, ast.NamedExpr) and isinstance(n.target, ast.Name)
    }


def binds_dynamically(text: str) -> bool:
    """Whether a module may bind names without a statement naming them."""
    return any(word in text for word in _DYNAMIC)


_DYNAMIC = ("globals(", "exec(", "setattr(", "builtins", "__dict__", "sys.modules", "vars(")


def _type_params(node: ast.AST) -> set[str]:
    """The type parameters a function or class declares (Python 3.12: `def f[T](x: T)`)."""
    return {p.name for p in getattr(node, "type_params", ())}


def _may_be_late(binding: Binding | None, line: int) -> bool:
    """Whether the bindings the table knows leave `name` unbound at `line`: each starts at or
    after it, or holds it (a method annotated with its class: the class is bound as its body
    ends). The table misses some bindings (a loop's target, an unpacking): `_binds` confirms."""
    seen = False
    while binding is not None:
        if not binding.type_checking:
            seen = True
            if binding.line < line and not _holds(binding.node, line):
                return False
        binding = binding.previous
    return seen


def _bound_at(binding: Binding | None, line: int) -> int:
    """The line the message names: the first binding after `line` (the end of one holding it)."""
    found: list[int] = []
    while binding is not None:
        if not binding.type_checking:
            end = getattr(binding.node, "end_lineno", None) or binding.line
            found.append(end if _holds(binding.node, line) else binding.line)
        binding = binding.previous
    return min(found)


def _holds(node: ast.AST, line: int) -> bool:
    start = getattr(node, "lineno", 0)
    end = getattr(node, "end_lineno", None) or start
    return isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and start <= line <= end


def _ran_before(body: list[ast.stmt], line: int) -> tuple[list[ast.stmt], bool]:
    """The module-level statements that may have run when the statement at `line` runs (of a
    compound statement holding it, its header and its parts written above it), and whether
    `line` is guarded there: inside a loop or a `try` (run again, or its error caught), a
    `with` (its manager may suppress the error), or `if __name__ == "__main__":` (not run on
    import)."""
    ran: list[ast.stmt] = []
    stack = [body]
    guarded = False
    while stack:
        for stmt in stack.pop():
            end = stmt.end_lineno or stmt.lineno
            if end < line:
                ran.append(stmt)
            elif stmt.lineno <= line and not isinstance(stmt, _BODIES):
                guarded = guarded or isinstance(stmt, _GUARDS) or type(stmt).__name__ == "TryStar"
                guarded = guarded or (isinstance(stmt, ast.If) and is_main_test(stmt.test))
                ran.extend(ast.Expr(header) for header in _headers(stmt))
                stack.extend(_blocks(stmt))
    return ran, guarded


def _headers(stmt: ast.stmt) -> list[ast.expr]:
    """What a compound statement evaluates before its blocks (a walrus there binds)."""
    if isinstance(stmt, ast.If | ast.While):
        return [stmt.test]
    if isinstance(stmt, ast.Match):
        return [stmt.subject]
    return []


def _blocks(stmt: ast.stmt) -> list[list[ast.stmt]]:
    out = [getattr(stmt, field) for field in ("body", "orelse", "finalbody") if getattr(stmt, field, None)]
    out += [h.body for h in getattr(stmt, "handlers", ())]
    out += [c.body for c in getattr(stmt, "cases", ())]
    return out


def _binds(stmt: ast.stmt) -> set[str]:
    """Every name a module-level statement may bind when it runs (function and class bodies
    left out, `if TYPE_CHECKING:` bodies too)."""
    out: set[str] = set()
    todo: list[ast.AST] = [stmt]
    while todo:
        node = todo.pop()
        if isinstance(node, _BODIES):
            if not isinstance(node, ast.Lambda):
                out.add(node.name)
            continue
        if isinstance(node, ast.If) and is_type_checking(node.test):
            todo.extend(node.orelse)
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            out.add(node.id)
        elif isinstance(node, ast.alias):
            out.add((node.asname or node.name).partition(".")[0])
        elif isinstance(node, ast.ExceptHandler | ast.MatchAs | ast.MatchStar) and node.name:
            out.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            out.add(node.rest)
        todo.extend(ast.iter_child_nodes(node))
    return out


def bound_in(body: list[ast.stmt]) -> set[str]:
    """Every name the statements of `body` may bind when they run (`_binds`)."""
    return set().union(*map(_binds, body)) if body else set()


def _declared_global(tree: ast.Module, name: str) -> bool:
    """Whether a function declares `name` global (it may bind it whenever it runs)."""
    return any(isinstance(n, ast.Global) and name in n.names for n in ast.walk(tree))
