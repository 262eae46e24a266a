"""The refusals `new` makes before it renders anything: names Python would not take (or
would read differently), taken names, unknown resolvers, resolver parameters the SDK could
not classify, and dependency cycles.

They read the module being edited (`ModuleInfo`), so they hold for the exact text that would be
written. Each failure is a `UserError` whose message says what to do instead.
"""

from __future__ import annotations

import ast
import builtins
import keyword
import unicodedata
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..errors import UserError

if TYPE_CHECKING:  # libcst stays off the import path of `new`'s option parsing
    from .module_info import FunctionInfo, ModuleInfo

MAX_NAME = 100
"""Longest name accepted: a file or folder is named after it (and file names stop at 255 bytes)."""


def check_identifier(value: str, what: str) -> str:
    """Refuse a name Python would not accept as a parameter or function name, saying why.

    Python's identifiers are Unicode (`café` is one); a keyword is not an identifier; a name
    Python would read as another (NFKC normalisation: `ﬁle` is `file`) is refused too, since
    the tool or parameter would then be called something else than what was asked for.
    """
    if keyword.iskeyword(value) or (keyword.issoftkeyword(value) and value == "_"):
        raise UserError(f"{what} {value!r} is a Python keyword; choose another name (like {value}_).")
    if not value.isidentifier():
        raise UserError(
            f"{what} {value!r} is not a valid Python identifier: use letters, digits and '_', "
            "not starting with a digit."
        )
    normal = unicodedata.normalize("NFKC", value)
    if normal != value:
        raise UserError(f"{what} {value!r} is read by Python as {normal!r}; write it that way.")
    if len(value) > MAX_NAME:
        raise UserError(f"{what} is {len(value)} characters long; the limit is {MAX_NAME}.")
    return value


def check_name_free(info: ModuleInfo, name: str, path: str) -> None:
    """A new function must not rebind a module-level name (it would silently replace it), take a
    name Python reserves (`__name__`: `if __name__ == "__main__":` would stop running), or hide
    a global the module reads (a builtin like `print`, used somewhere in the file)."""
    if name.startswith("__") and name.endswith("__"):
        raise UserError(
            f"{name!r} is a name Python reserves (dunder names like __name__ belong to the module); "
            "choose another name. Nothing was written."
        )
    if name in info.bindings:
        what = "a function named" if name in info.functions else "the name"
        raise UserError(
            f"{path} already defines {what} {name!r} (line {info.bindings[name]}); "
            "choose another name. Nothing was written."
        )
    line = _global_read(info, name)
    if line is not None:
        raise UserError(
            f"{path} uses the global {name!r} (line {line}); a function of that name would replace it "
            "for the whole module. Choose another name. Nothing was written."
        )


def _global_read(info: ModuleInfo, name: str) -> int | None:
    """The first line where the module reads the builtin `name` (a def of that name would hide it)."""
    if not hasattr(builtins, name):
        return None  # not bound anywhere yet: nobody can be reading it
    try:
        tree = ast.parse(info.module.code)
    except (SyntaxError, ValueError, RecursionError):
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load):
            return node.lineno
    return None


def check_resolver_known(info: ModuleInfo, resolver: str, path: str) -> None:
    """`Resolve(x)` needs `x` bound when the module is imported: a def, an import or an assignment."""
    head = resolver.split(".", 1)[0]
    if head not in info.bindings:
        known = sorted(info.resolver_names | {n for n, f in info.functions.items() if not f.server})
        hint = f" Functions in that module: {', '.join(known)}." if known else ""
        raise UserError(
            f"unknown resolver {resolver!r}: {path} does not define or import it.{hint} "
            f"Create it first with `mcpdeps new resolver {head} --in {path}`. Nothing was written."
        )


def local_resolver(info: ModuleInfo, resolver: str) -> FunctionInfo | None:
    """The module-level function a `Resolve(...)` target names, when it is defined in this module."""
    function = info.functions.get(resolver)
    return function if function is not None and function.server is None else None


def tool_arguments_needed(info: ModuleInfo, resolver: str) -> dict[str, tuple[str, str | None]]:
    """Tool arguments `resolver` reads by name, through its own `Resolve` dependencies.

    Returns argument name -> (the resolver that reads it, its annotation). Resolvers defined in
    another module are not followed here; the re-lint before writing covers them.
    """
    needed: dict[str, tuple[str, str | None]] = {}
    seen: set[str] = set()
    stack = [resolver]
    while stack:
        current = stack.pop()
        if current in seen:
            continue
        seen.add(current)
        function = local_resolver(info, current)
        if function is None:
            continue
        for param in function.params:
            if param.kind == "plain":
                needed.setdefault(param.name, (current, param.annotation))
            elif param.kind == "resolve" and param.resolver:
                stack.append(param.resolver)
    return needed


def check_classifiable(
    info: ModuleInfo, resolvers: Iterable[str], tool: str, arguments: Iterable[str], injected: Iterable[str]
) -> None:
    """Every by-name resolver parameter must match one of the tool's *arguments* (SDK rule R2).

    A resolver parameter named after a resolved or Context parameter of the tool does not
    match: those are not arguments.
    """
    argument_names = set(arguments)
    injected_names = set(injected)
    for resolver in resolvers:
        for name, (reader, _annotation) in tool_arguments_needed(info, resolver).items():
            if name in argument_names:
                continue
            why = (
                f"{name!r} is a resolved or Context parameter of {tool!r}, not a tool argument"
                if name in injected_names
                else f"{tool!r} has no argument {name!r}"
            )
            raise UserError(
                f"resolver {reader!r} (used through {resolver!r}) reads the tool argument {name!r} by name, "
                f"but {why}, so the SDK would refuse to register the tool. "
                f"Add `--arg {name}:TYPE` to the tool, or choose another resolver. Nothing was written."
            )


def dependency_edges(info: ModuleInfo) -> dict[str, list[str]]:
    """resolver -> the resolvers its parameters `Resolve(...)`, for functions defined in this module."""
    return {
        name: [p.resolver for p in f.params if p.kind == "resolve" and p.resolver]
        for name, f in info.functions.items()
        if f.server is None
    }


def find_cycle(edges: dict[str, list[str]], start: str) -> list[str] | None:
    """A path `start -> ... -> start` if one exists (depth-first, deterministic order)."""
    path: list[str] = []
    on_path: set[str] = set()
    done: set[str] = set()

    def visit(node: str) -> list[str] | None:
        if node in on_path:
            return [*path[path.index(node) :], node]
        if node in done:
            return None
        path.append(node)
        on_path.add(node)
        for child in edges.get(node, []):
            if (cycle := visit(child)) is not None:
                return cycle
        path.pop()
        on_path.discard(node)
        done.add(node)
        return None

    return visit(start)


def check_no_cycle(info: ModuleInfo, new_resolver: str, depends_on: Iterable[str]) -> None:
    """Adding `new_resolver` with these dependencies must not close a loop (SDK rule R1)."""
    edges = dependency_edges(info)
    edges[new_resolver] = list(depends_on)
    cycle = find_cycle(edges, new_resolver)
    if cycle:
        raise UserError(
            f"resolver cycle: {' -> '.join(cycle)}. The SDK refuses a resolver that depends on itself; "
            "drop one of these dependencies. Nothing was written."
        )
