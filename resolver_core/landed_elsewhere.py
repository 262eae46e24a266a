"""A tool whose file is not the one that registers it, and whose file does not import that one.

A decorator of a registry package appending to a list (`@tool` doing `REGISTERED.append(fn)`)
and an entry point adding what the list holds (`for fn in REGISTERED: mcp.add_tool(fn)`): the
tool is the file applying the decorator's (`Tool.origin`, as for any helper registering what it
is handed), but only a build holding the entry point finds it, and the entry point's own
imports (`import app.tools` for its side effect) are not followed. Without more, an
incremental run re-checking the tools file after an edit of its resolvers (pre-commit's
`lint deps.py`, the editor) built it without the entry point and lost the tool, and with it
every verdict about those resolvers.

So the registering file's analysis is recorded as having read the tools file (an edge of
`Project.edges`: an edit of the tools file or of what it imports re-checks the registering
file), and the tools file's record is coupled (`Graph.coupled`): it is checked
again with every file whose closure holds it, the registering file among them.

The other way round, a build of the registering file without the tools file (`lint main.py`
alone, pre-commit's commit of the entry point) must find those tools too: a duplicate of a
name the loop registers is located in the loop's file. Python runs the tools file because
the loop's file imports it (`import app.tools` for its side effect, a package `__init__`
importing its tools), so the modules its imports reach that spell the collector's name are
scanned with it (`applying_modules`), their applications found where they are.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Collection, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from .bindings import absolute_module

if TYPE_CHECKING:
    from .project import Project
    from .registration_site import Registration
    from .registrations import Scanner
    from .source import ParsedModule
    from .symbols import Scope


def read_by_its_site(project: Project, reg: Registration, through: str | None = None) -> bool:
    """Whether `reg`, read in its function's module, lands through a file (`reg.span`, or
    `through`: the loop over the registry a called function fills, `register_tool("x", t)`) that
    module's imports do not reach; then that file's analysis is recorded as reading it."""
    site = project.by_display(through or reg.span.path)
    if site is None or site is reg.module:
        return False
    seen = {reg.module.path}
    todo = [reg.module.path]
    while todo:
        for nxt in project.edges.get(todo.pop(), ()):
            if nxt == site.path:
                return False
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    project.followed(site, reg.module)
    return True


def _imported(module: ParsedModule) -> Iterator[str]:
    """The dotted names a module's imports may load, anywhere in it, each package on the way
    (`import app.tools.users` runs `app/__init__.py` and `app/tools/__init__.py` first) and a
    name `from pkg import x` takes as a submodule."""
    if module.tree is None:
        return
    for node in ast.walk(module.tree):
        if isinstance(node, ast.Import):
            named = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level > 1 and node.level - 1 > len(module.package.split(".") if module.package else []):
                continue  # more dots than packages: Python refuses the import
            base = absolute_module(module, node.level, node.module)
            named = [f"{base}.{alias.name}" if base else alias.name for alias in node.names]
        else:
            continue
        for name in named:
            pieces = name.split(".")
            yield from (".".join(pieces[: i + 1]) for i in range(len(pieces)))


def applying_modules(
    project: Project, regs: Collection[Registration], scanned: Collection[Path], withheld: Collection[Path]
) -> list[ParsedModule]:
    """The modules not scanned yet that the files of loops over a registry a decorator fills
    (`Registration.collector`) import, directly or through others, and that spell the
    decorator's name (or its factory's): where it may be applied (`@tool`, `@registry.tool()`).
    A file of another slice of the run (`withheld`) is left to that slice, which holds its record."""
    out: list[ParsedModule] = []
    seen: set[Path] = set()
    for reg in regs:
        loop = project.by_display(reg.span.path) if reg.collector is not None else None
        if loop is None or reg.collector is None:
            continue
        scope: Scope | None = reg.collector.scope
        spelled = set()
        while scope is not None:
            spelled.add(scope.function.name)  # type: ignore[union-attr]
            scope = scope.parent
        word = re.compile(rf"\b(?:{'|'.join(map(re.escape, sorted(spelled)))})\b")
        todo = [loop, *(m for m in (project.find(p, loop) for p in _packages(loop)) if m is not None)]
        while todo:
            module = todo.pop()
            for name in _imported(module):
                found = project.find(name, module)
                if found is None or found.path in seen or found.path == loop.path:
                    continue
                seen.add(found.path)
                if found.path in withheld:
                    project.withhold(loop.path, found.path)
                    continue
                todo.append(found)
                if found.path not in scanned and word.search(found.text or ""):
                    out.append(found)
    return out


def _packages(module: ParsedModule) -> list[str]:
    """The packages Python imports before `module` (`app` for `app.main`)."""
    parts = module.name.split(".")[:-1]
    return [".".join(parts[: i + 1]) for i in range(len(parts))]


def scan_applying(project: Project, scanner: Scanner) -> None:
    """Scan the modules where the decorators filling the registries of the loops found so far
    may be applied (`applying_modules`), but another slice's files (`Confined.withheld`)."""
    withheld = scanner.confined.withheld if scanner.confined is not None else ()
    for module in applying_modules(project, scanner.found, scanner.scanned_paths, withheld):
        scanner.scan(module)
