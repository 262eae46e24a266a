"""Names a tool's hints read that its module binds only after they are evaluated.

A module-level `@mcp.tool()` runs when Python reaches it: the SDK evaluates the tool's hints
(and its resolvers', as it builds their plan) right then, so a name the module binds further
down (`CurrentUser = Annotated[...]` written below the tool, a resolver defined later) is not
bound yet and the registration fails. Inside a function the registration runs when the function
is called, after the module is fully bound, so there is no such line.

Without `from __future__ import annotations`, Python up to 3.13 evaluates a function's
annotations even earlier, where the function is defined (`defined_late`): a module-level tool
or resolver whose annotation names something bound further down (`Resolve(login)` with `login`
defined below, `mcp.add_tool(order)` written after both) stops the module's import with a
`NameError`, before the SDK sees anything.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .bindings import Binding, Scope
    from .model import Resolver, Tool
    from .registration_site import Registration
    from .source import ParsedModule
    from .symbols import Names


def registered_at(reg: Registration) -> int | None:
    """The line at which a module-level registration runs (None inside functions)."""
    if reg.scope is not None:
        return None
    fn = reg.fn
    return fn.lineno if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef) else reg.span.line


def mark_late_resolvers(tool: Tool, resolvers: Mapping[str, Resolver], path: str, cutoff: int) -> None:
    """Resolvers whose hints name something the registering module binds only later."""
    stack = [p.resolver for p in tool.parameters if p.resolver]
    seen: set[str] = set()
    while stack:
        rid = stack.pop()
        if rid is None or rid in seen or rid not in resolvers:
            continue
        seen.add(rid)
        resolver = resolvers[rid]
        late = resolver.needs.get(path)
        if late is not None and late[0] >= cutoff and not resolver.hints_error:
            tool.late_resolvers[rid] = late_reason(late, cutoff, f"resolver {resolver.name!r}")
            continue
        stack.extend(p.resolver for p in resolver.parameters if p.resolver)


def late_reason(late: tuple[int, str], cutoff: int, what: str) -> str:
    """The sentence saying which name `what`'s hints read is bound after the registration."""
    line, name = late
    return (
        f"the hints of {what} use {name!r}, which is bound at line {line}, after the tool is "
        f"registered at line {cutoff}"
    )


def defined_late(
    names: Names, module: ParsedModule, fn: ast.AST, scope: Scope | None
) -> tuple[int, str] | None:
    """The first name (and the line first binding it) that the annotations of `fn`, evaluated
    where it is defined, read before its module binds it; None when there is none.

    Only where that moment is a line of the module's import: `fn` defined at module level or
    in a class body there, under eager annotations. A name that a line above may bind (in any
    branch), that a class body around `fn` binds, that no statement binds (the evaluation's
    own errors say that), or that a star import may bind, is not judged. Read where Python
    reads them at definition: not inside strings (the SDK evaluates those at registration) nor
    lambda bodies."""
    if module.future_annotations or not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
        return None
    local = _type_params(fn) | module.type_params  # `def f[T](x: T)`: bound where they are read
    while scope is not None:
        if not isinstance(scope.function, ast.ClassDef):
            return None  # defined when the function around it runs: after the module's import
        local.update(scope.bindings, _type_params(scope.function))
        scope = scope.parent
    table = names.table(module)
    for name in _read_when_defined(fn):
        first = None if name in local else _first_line(table.get(name))
        if first is not None and first >= fn.lineno:
            return None if names.star_targets(module) else (first, name)
    return None


def early_reason(early: tuple[int, str], defined: int, hints: str, what: str) -> str:
    """The sentence saying which name `hints` (of `what`) read is bound after `what`'s definition."""
    line, name = early
    return (
        f"{hints} use {name!r}, which is bound at line {line}, after {what} is defined at line "
        f"{defined}, where Python up to 3.13 evaluates them: importing the module fails"
    )


def _read_when_defined(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[str]:
    """The names `fn`'s annotations read when Python defines it, in the order it reads them."""
    a = fn.args
    for arg in (*a.posonlyargs, *a.args, a.vararg, *a.kwonlyargs, a.kwarg):
        if arg is not None and arg.annotation is not None:
            yield from _read(arg.annotation)
    if fn.returns is not None:
        yield from _read(fn.returns)


def _type_params(node: ast.AST) -> set[str]:
    """The type parameters a function or class declares (Python 3.12: `def f[T](x: T)`)."""
    return {p.name for p in getattr(node, "type_params", ())}


def _read(node: ast.AST) -> Iterator[str]:
    if isinstance(node, ast.Name):
        yield node.id
    elif isinstance(node, ast.Lambda):
        return  # its body runs when called; its defaults are read, but judged by no one here
    elif isinstance(node, ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp):
        yield from _read(node.generators[0].iter)  # the rest runs in the comprehension's scope
    else:
        for child in ast.iter_child_nodes(node):
            yield from _read(child)


def _first_line(binding: Binding | None) -> int | None:
    """The first line binding a name when the module runs (`if TYPE_CHECKING:` imports do not)."""
    first = None
    while binding is not None:
        if not binding.type_checking and (first is None or binding.line < first):
            first = binding.line
        binding = binding.previous
    return first
