"""The folders a module puts on `sys.path` itself, read from its text.

Scripts of published servers reach a folder that is neither their own nor the project's root
by putting it on `sys.path` before importing from it: `servers/a/server.py` running
`sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "common"))`, then `from auth
import load_d` (`common/auth.py`). Python finds that module; without the folder, mcpdeps
found none, took the resolver for an installed one and checked nothing.

Read without running anything: a module-level `sys.path.insert(i, E)` or `sys.path.append(E)`
(in an `if` or a `try` too, not in a function), where `E` is a path built from `__file__` by
`os.path` (`dirname`, `abspath`, `realpath`, `normpath`, `join` with literal parts) or
`pathlib` (`Path(...)`, `.parent`, `.parents[n]`, `.resolve()`, `.absolute()`, `/ "part"`),
`str(...)` or `os.fspath(...)` around it, or a module-level name assigned one. Only the
module's own imports are looked up there (`project.Project.spec`): another module's edit
runs only when that module is imported first, which the text of the importer does not tell.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Iterator
from pathlib import Path

_SAME = frozenset({"abspath", "realpath", "normpath", "fspath", "str", "resolve", "absolute", "Path"})
"""Calls that leave the path they are given where it is (for a file's own path)."""


def inserted_folders(tree: ast.Module, path: Path) -> list[Path]:
    """The folders `tree` (the module at `path`) puts on `sys.path`, in the order it does."""
    assigned = {
        stmt.targets[0].id: stmt.value
        for stmt in _top_level(tree.body)
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
    }
    out: list[Path] = []
    for stmt in _top_level(tree.body):
        added = _added(stmt)
        if added is not None:
            folder = _folded(added, path, assigned, 0)
            if folder is not None and _normal(folder) not in out:
                out.append(_normal(folder))
    return out


def _top_level(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements run at import, through `if` and `try` blocks (not functions, classes)."""
    for stmt in body:
        yield stmt
        if isinstance(stmt, ast.If):
            yield from _top_level(stmt.body)
            yield from _top_level(stmt.orelse)
        elif isinstance(stmt, ast.Try):
            for block in (stmt.body, *(h.body for h in stmt.handlers), stmt.orelse, stmt.finalbody):
                yield from _top_level(block)


def _added(stmt: ast.stmt) -> ast.expr | None:
    """The path `sys.path.insert(i, E)` / `sys.path.append(E)` adds, if `stmt` is one."""
    if not isinstance(stmt, ast.Expr) or not isinstance(call := stmt.value, ast.Call) or call.keywords:
        return None
    func = call.func
    if not (
        isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Attribute)
        and func.value.attr == "path"
        and isinstance(func.value.value, ast.Name)
        and func.value.value.id == "sys"
    ):
        return None
    if func.attr == "insert" and len(call.args) == 2:
        return call.args[1]
    if func.attr == "append" and len(call.args) == 1:
        return call.args[0]
    return None


def _folded(expr: ast.expr, path: Path, assigned: dict[str, ast.expr], depth: int) -> Path | None:
    """The path `expr` evaluates to in the module at `path`, or None when it is not one of the
    spellings read here (`depth`: names followed, a bound on `a = a`-like chains)."""
    if depth > 8:
        return None
    if isinstance(expr, ast.Name):
        if expr.id == "__file__":
            return path
        bound = assigned.get(expr.id)
        return _folded(bound, path, assigned, depth + 1) if bound is not None else None
    if isinstance(expr, ast.Attribute) and expr.attr == "parent":
        inner = _folded(expr.value, path, assigned, depth + 1)
        return inner.parent if inner is not None else None
    if (
        isinstance(expr, ast.Subscript)
        and isinstance(expr.value, ast.Attribute)
        and expr.value.attr == "parents"
    ):
        inner = _folded(expr.value.value, path, assigned, depth + 1)
        index = expr.slice
        if inner is None or not isinstance(index, ast.Constant) or not isinstance(index.value, int):
            return None
        parents = _normal(inner).parents
        return parents[index.value] if 0 <= index.value < len(parents) else None
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Div):
        inner = _folded(expr.left, path, assigned, depth + 1)
        part = expr.right
        if inner is None or not isinstance(part, ast.Constant) or not isinstance(part.value, str):
            return None
        return inner / part.value
    if isinstance(expr, ast.Call) and not expr.keywords:
        return _called(expr, path, assigned, depth)
    return None


def _called(call: ast.Call, path: Path, assigned: dict[str, ast.expr], depth: int) -> Path | None:
    """`_folded` of a call: `os.path.dirname(p)`, `os.path.join(p, "a")`, `str(p)`, `p.resolve()`..."""
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if isinstance(func, ast.Attribute) and name in ("resolve", "absolute") and not call.args:
        return _folded(func.value, path, assigned, depth + 1)
    if not call.args:
        return None
    inner = _folded(call.args[0], path, assigned, depth + 1)
    if inner is None:
        return None
    if name == "dirname" and len(call.args) == 1:
        return _normal(inner).parent
    if name == "join":
        parts = [p.value for p in call.args[1:] if isinstance(p, ast.Constant) and isinstance(p.value, str)]
        return inner.joinpath(*parts) if len(parts) == len(call.args) - 1 else None
    return inner if name in _SAME and len(call.args) == 1 else None


def _normal(path: Path) -> Path:
    """`path` with its `..` and `.` parts worked out (as the file system would, links aside)."""
    return Path(os.path.normpath(path))
