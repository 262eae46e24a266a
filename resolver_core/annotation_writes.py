"""Annotations a decorator writes into the function it hands back.

`def gated(fn): fn.__annotations__["d"] = Annotated[str, Resolve(load_d)]; return fn` over a
tool gives its parameter `d` that annotation: the SDK reads `__annotations__` (through
`inspect.signature` and `get_type_hints`) when the tool is registered, after the decorator ran,
so `d` is resolved by `load_d` whatever the def declares. Read when each write is a statement
of the decorator's body itself (run on every call: no `return` under a test nothing decides
before it, `sdk_flags.py`) storing under a constant key, literal or a name bound to one
(`"return"` too: the tool's return annotation), into `fn.__annotations__` or a name bound once to it
(`ann = fn.__annotations__`); the value is an object the decorator builds, evaluated where it
is written (the decorator's module and scope), or a string, which `get_type_hints` evaluates
in the tool's module (`fn.__globals__`), where it may name nothing. A write read otherwise (a
key computed, the whole dict replaced, `__annotations__.update(...)`, `__signature__`, a write
under a test, an f-string) is not guessed: the decorator is then said not to be followed
(`decorators.py`).
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from .source import ParsedModule
from .symbols import Names, Scope, Value

if TYPE_CHECKING:
    from .decorated import Obj

Written = tuple[str, ParsedModule, ast.expr, Scope]
"""A parameter's annotation a decorator writes: its name, and the value's expression with the
module and scope it is evaluated in."""

Where = tuple[ParsedModule, ast.expr, Scope]
"""An annotation's value: the expression, with the module and scope it is evaluated in."""

_REWRITING = ("__annotations__", "__signature__")


def by_parameter(written: tuple[Written, ...]) -> dict[str, Where]:
    """Each parameter's annotation a decorator wrote (the last write of it: what it holds)."""
    return {name: (module, value, scope) for name, module, value, scope in written}


def with_written(
    given: Obj,
    node: ast.FunctionDef,
    body: list[ast.stmt],
    where: tuple[Names, ParsedModule, Scope],
    returns: list[ast.Return],
) -> Obj | str | None:
    """`given` (what the decorator `node` returns: the function passed to it, by the name of
    its parameter) with the annotations `node` writes into it; None when it writes none; a
    sentence when it rewrites them in a way not read. `body`: the statements of `node` a call
    runs (`sdk_flags.live_body`), `returns` its `return`s among them; a write after a `return`
    under a test left undecided runs on some calls only: not guessed."""
    names, module, scope = where
    handed = {r.value.id for r in returns if isinstance(r.value, ast.Name)}
    if len(handed) != 1 or any(not isinstance(r.value, ast.Name) for r in returns):
        return None
    param = handed.pop()
    holders = _holders(node, param)
    found: list[Written] = []
    read: set[int] = set()
    for index, stmt in enumerate(body):
        key = _written_key(stmt, param, holders, lambda k: _key_text(names, module, k, scope))
        if key is not None and any(isinstance(n, ast.Return) for s in body[:index] for n in ast.walk(s)):
            return f"{node.name}() writes an annotation of `{param}` on some calls only ({key!r})"
        if key is not None and isinstance(stmt, ast.Assign):
            if isinstance(stmt.value, ast.JoinedStr) or (_postponed(stmt.value) and given.module is None):
                return f"{node.name}() writes an annotation of `{param}` mcpdeps does not read ({key!r})"
            if _postponed(stmt.value) and given.module is not None:  # read where the tool is written
                found.append((key, given.module, stmt.value, given.scope or scope))
            else:
                found.append((key, module, stmt.value, scope))
            read.update((id(stmt), id(stmt.targets[0]), id(stmt.targets[0].value)))  # type: ignore[attr-defined]
    for inner in (n for stmt in body for n in ast.walk(stmt)):
        if id(inner) in read or (isinstance(inner, ast.Assign) and id(inner.value) in holders.values()):
            continue
        if _rewrites(inner, param) or _handed_on(inner, param) or _holder_used(inner, holders):
            return f"{node.name}() rewrites the annotations of `{param}` in a way mcpdeps does not read"
    return replace(given, annotations=(*given.annotations, *found)) if found else None


def _holders(node: ast.FunctionDef, param: str) -> dict[str, int]:
    """Names the decorator binds to `param.__annotations__` once, by a statement of its own
    body (`ann = fn.__annotations__`, then `ann["d"] = ...`): each name, with the id of the
    expression it is bound to. A name bound more than once is none (what it holds is not read)."""
    bound = [n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)]
    return {
        stmt.targets[0].id: id(stmt.value)
        for stmt in node.body
        if isinstance(stmt, ast.Assign)
        and len(stmt.targets) == 1
        and isinstance(stmt.targets[0], ast.Name)
        and bound.count(stmt.targets[0].id) == 1
        and _rewritten(stmt.value, param)
        and isinstance(stmt.value, ast.Attribute)
        and stmt.value.attr == "__annotations__"
    }


def _holder_used(node: ast.AST, holders: dict[str, int]) -> bool:
    """A use of a name bound to the annotations other than a write `_written_key` reads
    (`ann.update(...)`, `del ann["d"]`, `other(ann)`): what it does to them is not read."""
    return isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in holders


def _handed_on(node: ast.AST, param: str) -> bool:
    """Whether `node` binds `param.__annotations__` to a name (`ann = fn.__annotations__`, then
    `ann["d"] = ...`) or passes it to a call: what is written through it is not read."""
    if isinstance(node, ast.Assign | ast.AnnAssign | ast.NamedExpr):
        return node.value is not None and _rewritten(node.value, param)
    if isinstance(node, ast.Call):
        return any(_rewritten(a, param) for a in (*node.args, *(k.value for k in node.keywords)))
    return False


def _postponed(value: ast.expr) -> bool:
    """A string written as an annotation (`"Annotated[str, Resolve(f)]"`): the SDK evaluates it
    in the tool's module, not where the decorator writes it."""
    return isinstance(value, ast.JoinedStr) or (
        isinstance(value, ast.Constant) and isinstance(value.value, str)
    )


def _rewrites(node: ast.AST, param: str) -> bool:
    """Whether `node` stores into `param.__annotations__` or `param.__signature__`: assigns or
    deletes it or one of its keys, or calls a method of it (`.update(...)`); reading is not."""
    if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign | ast.Delete):
        targets = node.targets if isinstance(node, ast.Assign | ast.Delete) else [node.target]
        return any(_rewritten(t.value if isinstance(t, ast.Subscript) else t, param) for t in targets)
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and _rewritten(node.func.value, param)
    )


def _rewritten(node: ast.expr, param: str) -> bool:
    """`param.__annotations__` or `param.__signature__`."""
    return (
        isinstance(node, ast.Attribute)
        and node.attr in _REWRITING
        and isinstance(node.value, ast.Name)
        and node.value.id == param
    )


def _written_key(
    stmt: ast.stmt, param: str, holders: dict[str, int], text: Callable[[ast.expr], str | None]
) -> str | None:
    """`param.__annotations__["d"] = value` (one target, a constant key, or a name bound to one:
    `text`): "d"; the same through a name bound to them (`holders`: `ann["d"] = value`)."""
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1):
        return None
    target = stmt.targets[0]
    if not isinstance(target, ast.Subscript):
        return None
    holder = target.value
    if _rewritten(holder, param) and isinstance(holder, ast.Attribute) and holder.attr == "__annotations__":
        return text(target.slice)
    if isinstance(holder, ast.Name) and holder.id in holders:
        return text(target.slice)
    return None


def _key_text(names: Names, module: ParsedModule, key: ast.expr, scope: Scope) -> str | None:
    """The string a key stands for: a literal, or a name bound to one (`ACK_PARAM = "ack"`,
    here or imported)."""
    if isinstance(key, ast.Constant):
        return key.value if isinstance(key.value, str) else None
    if not isinstance(key, ast.Name):
        return None
    symbol = names.resolve(module, key, scope)
    symbol = names.follow(symbol) if symbol is not None else None
    node = symbol.node if isinstance(symbol, Value) else None
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None
