"""Where an imported server was created, named the way the static builder names it.

The live builder reads tools from the SDK's objects, but a server's id and span come
from its source: the module and variable of the `MCPServer(...)` call, which may be a
module the entry file only re-exports from, or a factory's local variable. This is the
one place the live graph reads a server's source text to find that call; it imports
`mcp` (for the `MCPServer` class), as `live.py` does, and only `live.py` imports it.
"""

from __future__ import annotations

import ast
import builtins
import inspect
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcp.server import MCPServer

    from .loading import LoadedServer


def evaluate(expr: ast.expr | None, namespace: dict[str, Any]) -> Any:
    """The object a `Name` or dotted `Attribute` denotes in a module's globals (None otherwise)."""
    if isinstance(expr, ast.Name):
        return namespace.get(expr.id, getattr(builtins, expr.id, None))
    if isinstance(expr, ast.Attribute):
        return getattr(evaluate(expr.value, namespace), expr.attr, None)
    return None


def creation_site(
    server: MCPServer, loaded: LoadedServer | None
) -> tuple[str, Path | None, str, ast.Call | None]:
    """(module, file, variable, `MCPServer(...)` call) where the server was created.

    The static builder names a server where `MCPServer(...)` is written: that may be
    a module the entry file only re-exports from (`from app.core import mcp`), or a
    factory's local variable. Every imported module holding the server is a candidate.
    """
    candidates: list[tuple[str, Path, str]] = []
    if loaded is not None:
        candidates.append((loaded.module, loaded.path, loaded.attribute))
    for name, module in list(sys.modules.items()):
        file = getattr(module, "__file__", None)
        if not file or module is None:
            continue
        candidates.extend((name, Path(file), var) for var, value in vars(module).items() if value is server)
    for module_name, path, attribute in candidates:
        namespace = vars(sys.modules[module_name]) if module_name in sys.modules else {}
        variable, call, factory = _server_site(path, attribute, namespace)
        if call is None and factory is not None:  # `mcp = build()`, `build` imported from another module
            module_name, path, variable, call = _imported_factory_site(factory, module_name, path, variable)
        if call is not None:
            return module_name, path, variable, call
    if candidates:
        module_name, path, attribute = candidates[0]
        return module_name, path, attribute, None
    return "__main__", None, "mcp", None


def _is_server_call(node: ast.AST | None, namespace: dict[str, Any]) -> bool:
    """`MCPServer(...)` under whatever name the module imported it as."""
    from mcp.server import MCPServer

    if not isinstance(node, ast.Call):
        return False
    callee = evaluate(node.func, namespace)
    return inspect.isclass(callee) and issubclass(callee, MCPServer)


def _server_site(path: Path, attribute: str, namespace: dict[str, Any]) -> tuple[str, ast.Call | None, Any]:
    """The variable the static builder names the server by, and its `MCPServer(...)` call;
    with them, the factory a call of which it is bound to when that factory is no def of
    this file (`from app.factory import build`, then `mcp = build()`).

    For `mcp = MCPServer(...)` that is `mcp`; for a factory (`def build(): server =
    MCPServer(...)`, or `app = build()`) it is the variable inside the factory.
    """
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
        return attribute, None, None
    defs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
    factory = defs.get(attribute)
    imported = None
    for node in tree.body:
        if not isinstance(node, ast.Assign | ast.AnnAssign) or not isinstance(node.value, ast.Call):
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        if not any(isinstance(t, ast.Name) and t.id == attribute for t in targets):
            continue
        if _is_server_call(node.value, namespace):
            return attribute, node.value, None
        callee = node.value.func
        factory = defs.get(callee.id) if isinstance(callee, ast.Name) else None
        imported = evaluate(callee, namespace) if factory is None else None
    found = _local_site(factory, namespace) or _held_site(tree, factory, namespace)
    return (found[0], found[1], None) if found is not None else (attribute, None, imported)


def _held_site(
    tree: ast.Module, factory: ast.AST | None, namespace: dict[str, Any]
) -> tuple[str, ast.Call] | None:
    """`def main(): return FalconServer().server`, the class of this file storing the server its
    `__init__` makes (`self.server = MCPServer(...)`): that attribute, as the static builder
    names a server an object holds, and the call."""
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    made = [
        classes[call.func.id]
        for call in (ast.walk(factory) if factory is not None else ())
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in classes
    ]
    for cls in made:
        for init in (m for m in cls.body if isinstance(m, ast.FunctionDef) and m.name == "__init__"):
            for inner in ast.walk(init):
                if (
                    isinstance(inner, ast.Assign)
                    and isinstance(inner.targets[0], ast.Attribute)
                    and isinstance(inner.value, ast.Call)
                    and _is_server_call(inner.value, namespace)
                ):
                    return inner.targets[0].attr, inner.value
    return None


def _local_site(factory: ast.AST | None, namespace: dict[str, Any]) -> tuple[str, ast.Call] | None:
    """The local variable a factory's body binds to `MCPServer(...)`, and that call; or the
    `MCPServer(..., tools=[...])` it returns, named by the callee and the call's place
    (`MCPServer()@8:12`), as the static builder names the server a factory returns so."""
    for inner in ast.walk(factory) if factory is not None else ():
        if isinstance(inner, ast.Assign) and _is_server_call(inner.value, namespace):
            target = inner.targets[0]
            if isinstance(target, ast.Name) and isinstance(inner.value, ast.Call):
                return target.id, inner.value
        if (
            isinstance(inner, ast.Return)
            and isinstance(inner.value, ast.Call)
            and any(k.arg == "tools" for k in inner.value.keywords)
            and _is_server_call(inner.value, namespace)
        ):
            call = inner.value
            callee = ast.unparse(call.func) if isinstance(call.func, ast.Name | ast.Attribute) else "server"
            return f"{callee}()@{call.lineno}:{call.col_offset + 1}", call
    return None


def _imported_factory_site(
    factory: Any, module_name: str, path: Path, attribute: str
) -> tuple[str, Path, str, ast.Call | None]:
    """Where a factory another module defines (a plain function at its top level) binds the
    server it returns, as the static builder names it wherever the factory is written; else
    the caller's own name for it (`module_name`, `path`, `attribute`), with no call."""
    module = sys.modules.get(getattr(factory, "__module__", None) or "")
    file = getattr(module, "__file__", None)
    if not inspect.isfunction(factory) or module is None or not file or "<locals>" in factory.__qualname__:
        return module_name, path, attribute, None
    try:
        tree = ast.parse(Path(file).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
        return module_name, path, attribute, None
    defs = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == factory.__name__]
    found = _local_site(defs[-1] if defs else None, vars(module))
    if found is None:
        return module_name, path, attribute, None
    return module.__name__, Path(file), found[0], found[1]
