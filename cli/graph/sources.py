"""Which files a static `graph FILE` must read: the files given and every local module they import.

The SDK sees every tool registered while the server module is imported,
including tools that `register(mcp)` adds from another module. The static
builder only scans the files it is given, so `graph server.py` widens the list
to the import closure of those files within the project (modules found in the
project's source roots; installed packages are never followed).
"""

from __future__ import annotations

import ast
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from ...resolver_core.builder import build_graph, new_project
from ...resolver_core.discovery import SourceFile, discover
from ...resolver_core.model import Graph
from ...resolver_core.source import ParsedModule
from ..errors import UserError


def _imported_names(module: ParsedModule) -> Iterator[str]:
    """Absolute dotted names a module may import (anywhere in it: `register()` bodies run too)."""
    if module.tree is None:
        return
    for node in ast.walk(module.tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = module.package.split(".") if module.package else []
                keep = len(parts) - (node.level - 1)
                if keep < 0:
                    continue
                base = ".".join([*parts[:keep], *([node.module] if node.module else [])])
            if base:
                yield base
            yield from (f"{base}.{alias.name}" if base else alias.name for alias in node.names)


def static_graph(
    paths: Sequence[str], cwd: Path, progress: Callable[[int, int], None] | None = None
) -> Graph:
    """The static graph of `paths` and their import closure; every module is parsed once
    (the builder reuses the modules the closure walk parsed). `progress(done, total)` as the
    given files are parsed, then as they are scanned (for a progress bar)."""
    closure = _Closure(paths, cwd, progress)
    files = [*closure.files, *(SourceFile(p, d, explicit=True) for p, d in closure.extra)]
    return build_graph(closure.paths, cwd=cwd, files=files, project=closure.project, progress=progress)


def external_imports(paths: Sequence[str], cwd: Path) -> set[str]:
    """Top-level names of the modules the closure imports from outside the project and the stdlib.

    What an interpreter must be able to import to run the server (`serve` decides with it
    which interpreter runs the server); found from source, nothing imported.
    """
    closure = _Closure(paths, cwd)
    tops = {name.partition(".")[0] for name in closure.unresolved}
    roots = closure.project.roots
    local = {
        top
        for top in tops
        if closure.project.find(top) is not None or any((root / top).is_dir() for root in roots)
    }
    return {top for top in tops - local if top and top not in sys.stdlib_module_names}


class _Closure:
    """The walk over imports: the project it parsed into, the modules it added, the names it did not find."""

    def __init__(
        self, paths: Sequence[str], cwd: Path, progress: Callable[[int, int], None] | None = None
    ) -> None:
        self.files = discover(paths, (), cwd)
        self.project = new_project(self.files, paths, cwd)
        for f in self.files:
            self.project.set_display(f.path, f.display)
        todo = []
        for done, f in enumerate(self.files, 1):
            todo.append(self.project.load_path(f.path))
            if progress is not None and done % 64 == 0:
                progress(done, len(self.files))
        seen = {m.path for m in todo}
        found_paths: list[Path] = []
        self.unresolved: set[str] = set()
        while todo:
            module = todo.pop()
            for name in _imported_names(module):
                found = self.project.find(name, near=module)
                if found is None:
                    self.unresolved.add(name)
                elif found.path not in seen:
                    seen.add(found.path)
                    found_paths.append(found.path)
                    todo.append(found)
        self.extra = [
            (p, os.path.relpath(p, cwd) if p.is_relative_to(cwd) else str(p)) for p in sorted(found_paths)
        ]
        self.paths = [*paths, *(display for _, display in self.extra)]


def refuse_unparsable(graph: Graph) -> None:
    """No server to draw because the files did not parse: say so (exit 2), not "No MCPServer found"."""
    if graph.servers:
        return
    broken = [f for f in graph.findings if f.kind == "unreadable"]
    if broken:
        where = "; ".join(f"{f.span.path}:{f.span.line}:{f.span.column}: {f.message}" for f in broken[:3])
        more = f" (and {len(broken) - 3} more)" if len(broken) > 3 else ""
        if all(f.message.startswith("file is too large") for f in broken):  # Python imports it
            raise UserError(f"Nothing to draw: {where}{more}; `mcpdeps graph --live` imports it instead.")
        raise UserError(
            f"Nothing to draw: {where}{more}. Python cannot import such a file either; "
            "`mcpdeps lint` shows each problem at its line."
        )
