"""`graph FILE.py:NAME` without `--live`: the server NAME is, or the one it builds.

`serve`, `call` and `graph --live` take a spec and import it; a static `graph` takes the
same spec and reads it: NAME bound to a server at module level selects that server (also
when the file imports it: `from app.server import mcp` in an entry point), a
function (a factory such as `def build_server(*, store: Store) -> MCPServer`) selects
the servers created inside it, with every tool registered on them, whether or not the
factory's parameters have defaults (nothing is called). Only file specs are read: a
module spec (`pkg.app:NAME`) would need the import system to find its file, and finding
it can run the package's `__init__`.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from ...resolver_core.bounded_read import Unreadable, read_bytes
from ...resolver_core.cache import MAX_BYTES
from ...resolver_core.model import Graph, Server
from ...resolver_core.parse_budget import over_budget
from ...resolver_core.records import record
from ...resolver_core.suggest import did_you_mean
from . import RequestError


@record
class StaticSpec:
    """A path given to `graph`, and the object after its colon, if any."""

    text: str
    path: str
    name: str | None


def split_specs(paths: Sequence[str], cwd: Path) -> list[StaticSpec]:
    """Each argument as a path and a NAME: `app.py:build_server` names an object of an existing
    file; anything else (a folder, `C:\\x.py`, a file whose name has a colon) is a path."""
    out = []
    for text in paths:
        head, sep, tail = text.rpartition(":")
        if sep and head and tail.isidentifier() and not os.path.lexists(cwd / text):
            out.append(StaticSpec(text, head, tail))
        else:
            out.append(StaticSpec(text, text, None))
    return out


def narrow(graph: Graph, specs: Sequence[StaticSpec], cwd: Path) -> Graph:
    """The servers the named objects are or build; the graph as is when no spec names one."""
    named = [s for s in specs if s.name is not None]
    if not named:
        return graph
    kept: list[Server] = []
    for spec in named:
        for server in _servers_of(graph, spec, cwd):
            if all(server is not k for k in kept):
                kept.append(server)
    order = {id(s): i for i, s in enumerate(graph.servers)}
    return replace(graph, servers=sorted(kept, key=lambda s: order[id(s)]))


def _servers_of(graph: Graph, spec: StaticSpec, cwd: Path) -> list[Server]:
    path = (cwd / spec.path).resolve()
    if path.is_dir() or path.suffix != ".py":
        raise RequestError(
            f"{spec.text}: {spec.path} is not a Python file; name an object of one, e.g. app.py:mcp."
        )
    tree = _tree(graph, path, cwd, spec)
    imported = _imported(graph, tree, spec, path, cwd)
    if imported:  # `from app.server import mcp` in the entry point: the server it imports
        return imported
    lines = _lines_of(tree, spec)
    # A server a factory's call makes is shown where the factory makes it, and made at the call.
    found = [
        s
        for s in graph.servers
        if any(
            at is not None
            and (cwd / at.path).resolve() == path
            and any(first <= at.line <= last for first, last in lines)
            for at in (s.span, s.made_at)
        )
    ]
    if not found:
        raise RequestError(
            f"{spec.text} builds no MCPServer that can be read from the source; "
            f"`mcpdeps graph --live {spec.text}` imports it and draws the server the SDK builds."
        )
    return found


def _tree(graph: Graph, path: Path, cwd: Path, spec: StaticSpec) -> ast.Module:
    """The file's syntax tree, from the text the build read (every given file is read)."""
    text = next(
        (
            info.text
            for info in graph.sources.values()
            if info.text is not None and (cwd / info.path).resolve() == path
        ),
        None,
    )
    try:
        if text is None:
            text = read_bytes(path, str(path), MAX_BYTES).decode("utf-8")
        if over_budget(text):  # the build reported it too large; its tree would take gigabytes
            raise ValueError("too large")
        return ast.parse(text, filename=str(path))
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        why = str(exc) if isinstance(exc, Unreadable) or str(exc) == "too large" else type(exc).__name__
        raise RequestError(
            f"{spec.text}: {spec.path} cannot be read to find {spec.name!r} ({why}); "
            f"`mcpdeps graph --live {spec.text}` imports it instead."
        ) from exc


def _imported(graph: Graph, tree: ast.Module, spec: StaticSpec, path: Path, cwd: Path) -> list[Server]:
    """The module-level server NAME is when the file binds it only by importing it (`from
    prof.app import mcp`, an entry point importing the server and then its tool modules, where
    `graph --live` finds it): the server that module binds to that name. None found: the file
    is read as `_lines_of` reads it."""
    module = next((i.module for i in graph.sources.values() if (cwd / i.path).resolve() == path), None)
    imports = [
        (node, alias)
        for node in tree.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
        if (alias.asname or alias.name) == spec.name
    ]
    if module is None or len(imports) != 1 or spec.name in _bound(tree):
        return []
    node, alias = imports[0]
    package = (module if path.name == "__init__.py" else module.rpartition(".")[0]).split(".")
    base = package[: len(package) - node.level + 1] if node.level else []
    source = ".".join([*base, *([node.module] if node.module else [])])
    return [s for s in graph.servers if s.module == source and s.variable == alias.name and not s.local]


def _bound(tree: ast.Module) -> set[str]:
    """The names the module's own statements bind at top level (assignments, defs)."""
    out = {n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)}
    out |= {
        t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)
    }
    return out | {
        n.target.id for n in tree.body if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)
    }


def _lines_of(tree: ast.Module, spec: StaticSpec) -> list[tuple[int, int]]:
    """The line ranges where the servers NAME stands for are created: a function's body, or the
    statement that binds NAME at module level (and the body of the local factory it calls)."""
    functions = {
        node.name: node for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
    }
    if spec.name in functions:
        return [_span(functions[spec.name]), *_made_in(tree, functions[spec.name])]
    ranges: list[tuple[int, int]] = []
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == spec.name for t in node.targets
        ):
            value: ast.expr | None = node.value
        elif (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and node.target.id == spec.name
        ):
            value = node.value
        else:
            continue
        ranges.append(_span(node))
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in functions:
            ranges.append(_span(functions[value.func.id]))
    if ranges:
        return ranges
    if any(isinstance(n, ast.ClassDef) and n.name == spec.name for n in tree.body):
        raise RequestError(
            f"{spec.text} is a class; name the module-level server or the function that builds it."
        )
    names = [
        *functions,
        *(t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)),
    ]
    raise RequestError(
        f"{spec.path} has no module-level function or server named {spec.name!r}"
        f"{did_you_mean(spec.name or '', names)}."
    )


def _made_in(tree: ast.Module, factory: ast.FunctionDef | ast.AsyncFunctionDef) -> list[tuple[int, int]]:
    """The `__init__` bodies of the file's classes the factory makes (`return FalconServer().server`,
    a class holding the server it makes in `__init__`): where the server it returns is created."""
    classes = {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}
    made = {
        call.func.id
        for call in ast.walk(factory)
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in classes
    }
    return [
        _span(member)
        for name in sorted(made)
        for member in classes[name].body
        if isinstance(member, ast.FunctionDef) and member.name == "__init__"
    ]


def _span(node: ast.stmt) -> tuple[int, int]:
    return node.lineno, node.end_lineno or node.lineno
