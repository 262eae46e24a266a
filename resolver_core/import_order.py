"""The order a program runs a project's modules in, read from the import index: which of two
files registering the same tool name registers first.

The SDK keeps the first registration of a name and drops the second (MCPD110 is reported at
the second). Files are met in display order unless the program says otherwise: `app/main.py`
doing `import app.b` then `import app.a` runs `b` before `a`, whatever their paths. Python
runs a module's imports as it meets them, depth first (`import a.b` runs `a`, then `a.b`;
`from app import b, a` runs `app`, then `app.b` and `app.a`), and a module imported twice
runs once; a module's own registrations usually follow its imports, so a module counts as
run once its imports have (post-order).

The imports are the pattern's (`import_scan`, kept by `import_index`): in text order, those
inside functions too (a factory's `import app.tools`, called when it is). Where that order
cannot be told apart from the paths' (no file runs both, two entry points run them in
different orders, a name built at run time imports one of them, the orders make a cycle),
the display order stands: `decided` says None.
"""

from __future__ import annotations

import heapq
import os
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .import_index import ImportIndex
from .import_scan import EVERY, found_under, loaded_modules
from .module_search import ModuleSearch, module_name_for


@dataclass(slots=True)
class Modules:
    """The project's files by module name, and the name each file's relative imports are read under."""

    names: dict[str, tuple[str, bool]] = field(default_factory=dict)
    """Each file's module name (as seen from the project root) and whether it is a package."""
    by_name: dict[str, list[str]] = field(default_factory=dict)
    """The files each module name can mean (`import_scan.found_under`)."""


def project_modules(files: Iterable[Path], root: Path) -> Modules:
    """The module names of a project's files, from the folders' `__init__.py`."""
    search = ModuleSearch()
    out = Modules()
    for path in files:
        name, source_root, is_package = module_name_for(path, search)
        aliases = _names_under(name, source_root, root)
        # Relative imports read under the name seen from the project root: `from . import
        # alpha` in `features/every.py` (no `__init__.py`) means `features.alpha` once
        # `features.every` is imported, and nothing under its own top-level name `every`.
        out.names[str(path)] = (aliases[-1], is_package)
        for alias in aliases:
            out.by_name.setdefault(alias, []).append(str(path))
    return out


def _names_under(name: str, source_root: Path, root: Path) -> list[str]:
    """Every name a file can be imported under from a folder of its project: its own, and for
    each folder without `__init__.py` between the project root and its source root, the
    namespace package name seen from above it (`ns/sub/deps.py` is `deps`, `sub.deps` and
    `ns.sub.deps`; the builder names it as the first import reaching it does)."""
    out = [name]
    folder = source_root
    while folder != root and folder.is_relative_to(root):
        name = f"{folder.name}.{name}"
        out.append(name)
        folder = folder.parent
    return out


Edges = Callable[[str], tuple[list[str], bool]]
"""A file's imports, as the files they run in order, and whether a name built at run time
imports some of them (whose order the text does not tell)."""


def ordered_edges(index: ImportIndex, modules: Modules) -> Edges:
    """`Edges` read from the index's imports (each file's worked out once, when first asked)."""
    known: dict[str, tuple[list[str], bool]] = {}

    def edges(path: str) -> tuple[list[str], bool]:
        if path not in known:
            name, is_package = modules.names[path]
            out: list[str] = []
            dynamic = False
            entry = index.entries.get(path)
            for imported in entry.imports if entry is not None else ():
                for target in loaded_modules(imported, name, is_package):
                    found = [f for f in found_under(target, modules.by_name) if f != path]
                    dynamic = dynamic or (bool(found) and target.endswith(f".{EVERY}"))
                    out += found
            known[path] = (out, dynamic)
        return known[path]

    return edges


def run(root: str, edges: Edges) -> tuple[list[str], bool]:
    """The files importing `root` runs, each once, in the order they finish (post-order), and
    whether a name built at run time imports some (their order is the run's, not the text's)."""
    order: list[str] = []
    seen = {root}
    first, dynamic = edges(root)
    stack = [(root, iter(first))]
    while stack:
        node, todo = stack[-1]
        found = next(todo, None)
        if found is None:
            stack.pop()
            order.append(node)
        elif found not in seen:  # imported already, or being imported (a cycle): runs once
            seen.add(found)
            targets, built = edges(found)
            dynamic = dynamic or built
            stack.append((found, iter(targets)))
    return order, dynamic


def decided(candidates: Collection[str], roots: Iterable[str], edges: Edges) -> dict[str, int] | None:
    """Each candidate's place in the order the program runs them, when every root running two
    or more of them runs them in one order; None when none does, two disagree, a name built
    at run time imports some, or the orders make a cycle (display order stands then)."""
    after: dict[str, set[str]] = {c: set() for c in candidates}
    runs = False
    for root in roots:
        order, dynamic = run(root, edges)
        ran = [p for p in order if p in after]
        if len(ran) < 2:
            continue
        if dynamic:
            return None
        runs = True
        for i, earlier in enumerate(ran):
            after[earlier].update(ran[i + 1 :])
    if not runs or any(p in after[q] for p, later in after.items() for q in later):
        return None
    return _sorted(after)


def _sorted(after: Mapping[str, set[str]]) -> dict[str, int] | None:
    """A place for each file, `after`'s files after it, ties in display order; None on a cycle."""
    waiting = {p: 0 for p in after}
    for later in after.values():
        for q in later:
            waiting[q] += 1
    ready = [p for p, n in waiting.items() if n == 0]
    heapq.heapify(ready)
    out: dict[str, int] = {}
    while ready:
        p = heapq.heappop(ready)
        out[p] = len(out)
        for q in after[p]:
            waiting[q] -= 1
            if waiting[q] == 0:
                heapq.heappush(ready, q)
    return out if len(out) == len(after) else None


def runs_before(given: Collection[str], roots: Iterable[str], edges: Edges) -> set[str]:
    """The files some root runs before the last of `given` it runs: registrations a given
    file's may come after, whatever their paths (`companions` checks those files too)."""
    out: set[str] = set()
    for root in roots:
        order, _ = run(root, edges)
        last = max((i for i, p in enumerate(order) if p in given), default=-1)
        out.update(order[:last])
    return out


def display_ranks(
    displays: Collection[str], cwd: Path, exclude: Sequence[str], cache_dir: Path | None
) -> dict[str, int] | None:
    """`decided` for files shown as `displays` (one project's), every file of the project a
    root: what `per_file.in_file_order` sorts the files registering one tool name by. Read
    only when two files register one name (the project's imports read then, from the index)."""
    from .discovery import discover
    from .search_roots import find_project_root

    absolute = {str((cwd / d).absolute()): d for d in displays}
    folders = {os.path.dirname(p) for p in absolute}
    roots = {find_project_root(Path(f)) for f in folders}
    if len(roots) != 1 or None in roots:
        return None
    (project,) = roots
    assert project is not None
    files = [f.path.absolute() for f in discover([project], exclude, cwd)]
    index = ImportIndex.open(project, exclude, cache_dir)
    index.refresh(files)
    index.store()
    modules = project_modules(files, project)
    if not set(absolute) <= set(modules.names):
        return None
    edges = ordered_edges(index, modules)
    imported = {q for p in modules.names for q in edges(p)[0]}
    ranks = decided(set(absolute), sorted(set(modules.names) - imported), edges)
    if ranks is None:
        return None
    # The heap's ties are broken by absolute path: displays sort the same way under one root.
    return {absolute[p]: rank for p, rank in ranks.items()}
