"""Names a loop's body binds to what its variables take, read as what they stand for.

`for f in TOOLS: w = f; mcp.add_tool(w)` registers each function of `TOOLS`, as
`mcp.add_tool(f)` would; `for f in TOOLS: w = make_wrapper(f); mcp.tool()(w)` (a wrapper
factory applied to each function of a list, singlestore's registry) registers
`make_wrapper(a)`, then `make_wrapper(b)`: the call read with each value in its place
(`in_place`), as `mcp.tool()(make_wrapper(f))` written inline is. Without this the name
stood for nothing mcpdeps could read, and the registration was dropped without a word.

Only a name bound once in the loop's body (not in a nested block, not again anywhere in it),
to an expression of a loop variable, before the registration reads it, is read so: any other
binding may differ from one pass to the next, and the registration is left as written (said,
not guessed, where it cannot be followed: `unanalysed_tools.note_unnamed`).
"""

from __future__ import annotations

import ast
import copy
from collections import Counter
from collections.abc import Collection, Iterator, Mapping
from contextlib import contextmanager

_MAX_ALIASES = 8
"""`w2 = w` chains read through before giving up."""


class LoopAliases:
    """The aliases the loops around a scanned statement bind (`enclosing_loops.EnclosingLoops` holds one)."""

    def __init__(self) -> None:
        self._aliases: dict[str, tuple[int, ast.expr]] = {}
        """Alias -> the last line of the statement binding it, and the expression it stands for."""

    @contextmanager
    def entered(self, stmt: ast.stmt, variables: Collection[str]) -> Iterator[None]:
        """While inside `stmt` (a loop): the names its body binds to an expression of one of
        `variables` (the variables of the loops around it, its own included)."""
        found = _aliases_of(stmt, variables) if isinstance(stmt, ast.For | ast.AsyncFor) else {}
        outer = {name: self._aliases[name] for name in found if name in self._aliases}
        self._aliases.update(found)
        try:
            yield
        finally:
            for name in found:
                del self._aliases[name]
            self._aliases.update(outer)

    def unaliased(self, expr: ast.expr) -> ast.expr:
        """What `expr` stands for: the expression an alias read after its binding is bound to."""
        for _ in range(_MAX_ALIASES):
            found = self._aliases.get(expr.id) if isinstance(expr, ast.Name) else None
            if found is None or expr.lineno <= found[0]:
                return expr
            expr = found[1]
        return expr


def _aliases_of(stmt: ast.For | ast.AsyncFor, variables: Collection[str]) -> dict[str, tuple[int, ast.expr]]:
    """The names `stmt`'s body binds once, by a statement of the body itself, to an expression
    naming a loop variable (or an alias bound before it, read through)."""
    own = {n.id for n in ast.walk(stmt.target) if isinstance(n, ast.Name)}
    known = {*variables, *own}
    bound = Counter(_bound_names(stmt.body))
    out: dict[str, tuple[int, ast.expr]] = {}
    for each in stmt.body:
        target, value = _assigned(each)
        if target is None or value is None or target in known or bound[target] != 1:
            continue
        names = {n.id for n in ast.walk(value) if isinstance(n, ast.Name)}
        if names & known or names & out.keys():
            earlier = {name: out[name][1] for name in names & out.keys()}
            out[target] = (each.end_lineno or each.lineno, in_place(value, earlier))
    return out


def _assigned(stmt: ast.stmt) -> tuple[str | None, ast.expr | None]:
    """`w = value` (or `w: T = value`): the name and the value."""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
        return stmt.targets[0].id, stmt.value
    if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
        return stmt.target.id, stmt.value
    return None, None


def _bound_names(body: list[ast.stmt]) -> Iterator[str]:
    """Every name a block binds (assignments, loop and `with` targets, walrus, definitions,
    imports), in nested blocks too; a definition's own body binds its own names."""
    todo: list[ast.AST] = list(body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield node.name
            todo += node.decorator_list
            continue
        if isinstance(node, ast.Lambda):
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            yield node.id
        elif isinstance(node, ast.alias):
            yield node.asname or node.name.partition(".")[0]
        todo += ast.iter_child_nodes(node)


def in_place(expr: ast.expr, values: Mapping[str, ast.expr]) -> ast.expr:
    """A copy of `expr` with each name of `values` read as its value (`expr` itself when it
    names none of them)."""
    if not any(isinstance(n, ast.Name) and n.id in values for n in ast.walk(expr)):
        return expr
    return _InPlace(values).visit(copy.deepcopy(expr))  # type: ignore[no-any-return]


class _InPlace(ast.NodeTransformer):
    def __init__(self, values: Mapping[str, ast.expr]) -> None:
        self.values = values

    def visit_Name(self, node: ast.Name) -> ast.expr:
        return self.values.get(node.id, node) if isinstance(node.ctx, ast.Load) else node
