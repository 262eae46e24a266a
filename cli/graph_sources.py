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
from collections.abc import Iterator, Sequence
from pathlib import Path

from resolver_core.builder import default_roots
from resolver_core.discovery import discover
from resolver_core.project import Project
from resolver_core.source import ParsedModule


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


def import_closure(paths: Sequence[str], cwd: Path) -> list[str]:
    """`paths` plus the local modules they import, transitively, as display paths."""
    files = discover(paths, (), cwd)
    project = Project(default_roots(files, paths, cwd), None, cwd)
    todo = [project.load_path(f.path) for f in files]
    seen = {m.path for m in todo}
    extra: list[Path] = []
    while todo:
        module = todo.pop()
        for name in _imported_names(module):
            found = project.find(name, near=module)
            if found is not None and found.path not in seen:
                seen.add(found.path)
                extra.append(found.path)
                todo.append(found)
    shown = [os.path.relpath(p, cwd) if p.is_relative_to(cwd) else str(p) for p in sorted(extra)]
    return [*paths, *shown]
