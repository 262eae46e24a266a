"""Registrations in a function that a module-level call of its own module runs during import.

`mcp = build()` written in the module that defines `def build(): ... @mcp.tool() ...`, or
`register(mcp)` below `def register(mcp): ...`, registers the tools right there, while the
module is still being imported: the tools' hints (and the resolvers they name) see only the
names bound above that call. `def login()` written below `mcp = build()` does not exist yet,
and importing the module fails (a `NameError` where annotations are evaluated, the SDK's
`InvalidSignature` where they are postponed), whatever the function's body says.

The line is told only where the registration certainly runs at that call, so that it never
raises a false alarm: every call on the way (`arms.Way`, read as `call_order.CallOrder`'s
chain) is written in the registration's module, each in a statement that reaches it
unconditionally (`mcp = build()`, `build().run()`, `return register(mcp)`; not under an `if`,
a loop, a `try`, a `with`, an `and`/`or` or a conditional expression, nor after a `return`
or `raise` of its body), the first at the module's top level; each call names a function of
the module (`build()`: not a method, which a subclass or an assignment may replace); each
function called is a plain one (not async, not a generator, undecorated); and the
registration itself is a statement of its function's body (a decorated def, an `add_tool`
call, `registered = mcp.tool()(order)`). A call from another module, or from an entry point at start-up, runs after the module
is fully bound: nothing is late then.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from .eager_annotations import certainly_evaluated
from .model import CallChain
from .registration_site import Registration
from .signatures import contains_yield, own_nodes
from .source import ParsedModule

_Functions = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


def called_at(reg: Registration, chains: Iterable[CallChain]) -> tuple[int, str] | None:
    """The first line of `reg`'s module whose top-level call certainly runs `reg` while the
    module is imported, with that call's text (`build()`); None when there is none."""
    scope, module = reg.scope, reg.module
    if (
        scope is None
        or not isinstance(scope.function, ast.FunctionDef)
        or reg.returned
        or reg.bound is not None
        or reg.passed is not None
        or reg.collector is not None
        or reg.landed_at is not None
    ):
        return None
    found: tuple[int, str] | None = None
    for chain in chains:
        at = _run_by(module, chain, scope.qualname)
        if at is not None and (found is None or at[0] < found[0]):
            found = at
    if found is None or not _plain(scope.function) or not _registers_unconditionally(scope.function, reg):
        return None
    return found


def _run_by(module: ParsedModule, chain: CallChain, reached: str) -> tuple[int, str] | None:
    """The top-level call of `chain` with its text, when every call of it is certain to run;
    `reached`: the `__qualname__` of the function the last call runs."""
    if not chain:
        return None
    bodies = [key.rpartition("#") for _, _, _, key in chain]
    callees = [body.partition(":")[2] for body, _, _ in bodies[1:]] + [reached]
    first: tuple[int, str] | None = None
    for index, (display, line, column, _) in enumerate(chain):
        body_name, _, at = bodies[index]
        owner, _, function_name = body_name.partition(":")
        if display != module.display or owner != module.display or not at.isdigit():
            return None
        if (index == 0) != (function_name == ""):
            return None
        function = None
        if index == 0:
            body = module.tree.body if module.tree is not None else []
        else:
            function = _function(module, function_name)
            if function is None or not _plain(function):
                return None
            body = function.body
        statement_index = int(at)
        if statement_index >= len(body):
            return None
        statement = body[statement_index]
        if function is not None and _leaves_before(function, statement):
            return None
        call = _reached(statement, line, column, callees[index])
        if call is None:
            return None
        if first is None:
            first = (line, f"{ast.unparse(call.func)}()")
    return first


def _function(module: ParsedModule, qualname: str) -> ast.FunctionDef | None:
    """The def named by a `__qualname__` (`build`, `App.setup`, `build.<locals>.wire`)."""
    body = module.tree.body if module.tree is not None else []
    found: _Functions | None = None
    for part in qualname.split("."):
        if part == "<locals>":
            continue
        found = next(
            (s for s in body if isinstance(s, _Functions) and s.name == part),
            None,
        )
        if found is None:
            return None
        body = found.body
    return found if isinstance(found, ast.FunctionDef) else None


def _plain(function: ast.FunctionDef) -> bool:
    """Whether calling `function` runs its body: no generator, no decorator."""
    return not function.decorator_list and not contains_yield(function)


def _leaves_before(function: ast.FunctionDef, statement: ast.stmt) -> bool:
    """Whether a `return` or `raise` written above `statement` may end the body's run first."""
    start = min([statement.lineno, *(d.lineno for d in getattr(statement, "decorator_list", ()))])
    return any(
        isinstance(node, ast.Return | ast.Raise) and node.lineno < start for node in own_nodes(function)
    )


def _registers_unconditionally(function: ast.FunctionDef, reg: Registration) -> bool:
    """Whether `reg` is a statement of `function`'s body that every call of it reaches: its
    decorated def, or an expression or assignment statement (`mcp.add_tool(fn)`)."""
    for statement in function.body:
        if statement is reg.fn or (
            isinstance(statement, ast.Expr | ast.Assign | ast.AnnAssign)
            and isinstance(statement.value, ast.Call)  # not `ok and mcp.add_tool(order)`
            and statement.lineno <= reg.span.line <= (statement.end_lineno or 0)
        ):
            return not _leaves_before(function, statement)
    return False


def _reached(statement: ast.stmt, line: int, column: int, callee: str) -> ast.Call | None:
    """The call at `line`:`column` of the function `callee` (a `__qualname__`) when `statement`
    runs it whenever it runs: a call by its name of a function of the module or of the body
    (`build()`, the start of `build().http_app()` too), not of a method (a subclass or an
    assignment may replace it) or a class."""
    name = _called_by_name(callee)
    if name is None:
        return None
    todo: list[ast.AST]
    if isinstance(statement, ast.Expr | ast.Return | ast.Assign | ast.AnnAssign | ast.AugAssign):
        todo = [statement.value] if statement.value is not None else []
    else:
        return None
    while todo:
        node = todo.pop()
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == name
            and node.lineno == line
            and node.col_offset == column
        ):
            return node
        todo.extend(certainly_evaluated(node))
    return None


def _called_by_name(qualname: str) -> str | None:
    """The name a function is called by, when it is a module's or a body's own (`build`,
    `build.<locals>.wire`), not a method (`App.setup`)."""
    parts = qualname.split(".")
    return parts[-1] if len(parts) == 1 or parts[-2] == "<locals>" else None
