"""Names a tool's hints read that its module binds only after the registration runs.

A module-level `@mcp.tool()` runs when Python reaches it: the SDK evaluates the tool's hints
(and its resolvers', as it builds their plan) right then, so a name the module binds further
down (`CurrentUser = Annotated[...]` written below the tool, a resolver defined later) is not
bound yet and the registration fails. Inside a function the registration runs when the function
is called: after the module is fully bound, unless a call written in the module itself runs
it during the import (`mcp = build()` above `def login()`: `import_calls.py`).
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .model import Resolver, Tool
    from .registration_site import Registration


RunsAt = tuple[int, str | None]
"""The line of its module at which a registration runs during the import, and the call of
that line that runs it (`build()`), None when it is the registration's own line."""


def registered_at(reg: Registration) -> RunsAt | None:
    """The line at which a module-level registration runs (None inside functions)."""
    if reg.scope is not None:
        return None
    fn = reg.fn
    return (fn.lineno if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef) else reg.span.line), None


def mark_late_resolvers(tool: Tool, resolvers: Mapping[str, Resolver], path: str, runs: RunsAt) -> None:
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
        if late is not None and late[0] >= runs[0] and not resolver.hints_error:
            tool.late_resolvers[rid] = late_reason(late, runs, f"resolver {resolver.name!r}")
            continue
        stack.extend(p.resolver for p in resolver.parameters if p.resolver)


def late_reason(late: tuple[int, str], runs: RunsAt, what: str) -> str:
    """The sentence saying which name `what`'s hints read is bound after the registration."""
    line, name = late
    at, call = runs
    when = (
        f"the tool is registered at line {at}"
        if call is None
        else f"`{call}` at line {at} registers the tool, while the module is imported"
    )
    return f"the hints of {what} use {name!r}, which is bound at line {line}, after {when}"
