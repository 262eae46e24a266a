"""The order a program runs a project's modules in, read from the import index: which of two
files registering the same tool name registers first.

The SDK keeps the first registration of a name and drops the second (the duplicate is the
second). Files are met in display order unless the program says otherwise: `app/main.py`
doing `import app.b` then `import app.a` runs `b` before `a`, whatever their paths. Python
runs a module's imports as it meets them, depth first (`import a.b` runs `a`, then `a.b`;
`from app import b, a` runs `app`, then `app.b` and `app.a`), and a module imported twice
runs once; a module's own registrations usually follow its imports, so a module counts as
run once its imports have (post-order).

The imports are the pattern's (`import_scan`, kept by `import_index`): in text order, those
inside functions too (a factory's `import app.tools`, called when it is). Where that order
cannot be told apart from the paths' (no file runs both, two entry points run them in
different orders, a name built at run time imports one of them, a PEP 562 `__getattr__`
may, the orders make a cycle),
the display order stands: `decided` says None.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import field
from pathlib import Path

from .import_index import ImportIndex
from .import_scan import EVERY, LAZY, found_under, loaded_modules
from .module_search import ModuleSearch, module_name_for
from .records import slotted


@slotted
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
    `ns.sub.deps`; the builder names it as the first import reaching it does), the longest last.
    And first, the names under each package it is in, as if that package's folder were a
    script's (`app/deps.py` is `deps` to `app/server.py` started as `python app/server.py`,
    `project.Project._in_packages`; not under a standard-library name, which that never reads
    so): a name too many only costs a file checked."""
    parts = name.split(".")
    out = [
        ".".join(parts[i:]) for i in range(len(parts) - 1, 0, -1) if parts[i] not in sys.stdlib_module_names
    ]
    out.append(name)
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
                lazy = LAZY in imported[2]  # run when a `__getattr__` is asked, not in text order
                for target in loaded_modules(imported, name, is_package):
                    found = [f for f in found_under(target, modules.by_name) if f != path]
                    dynamic = dynamic or (bool(found) and (lazy or target.endswith(f".{EVERY}")))
                    out += found
            known[path] = (out, dynamic)
        return known[path]

    return edges


def run(root: str, edges: Edges, until: Collection[str] = ()) -> tuple[list[str], bool]:
    """The files importing `root` runs, each once, in the order they finish (post-order), and
    whether a name built at run time imports some (their order is the run's, not the text's);
    with `until`, only so far as every file of it has run."""
    order: list[str] = []
    left = set(until)
    seen = {root}
    first, dynamic = edges(root)
    stack = [(root, iter(first))]
    while stack:
        node, todo = stack[-1]
        found = next(todo, None)
        if found is None:
            stack.pop()
            order.append(node)
            left.discard(node)
            if until and not left:
                break
        elif found not in seen:  # imported already, or being imported (a cycle): runs once
            seen.add(found)
            targets, built = edges(found)
            dynamic = dynamic or built
            stack.append((found, iter(targets)))
    return order, dynamic


Run = tuple[list[str], bool]
"""`run`'s answer: the files a root runs, in order, and whether a name built at run time imports some."""


def decided(candidates: Collection[str], runs: Iterable[Run]) -> dict[str, int] | None:
    """Each candidate's place in the order the programs (`runs`) run them, when every program
    running two or more of them runs them in one order; None when none does, two disagree, a
    name built at run time imports some, or the orders make a cycle (display order stands)."""
    after: dict[str, set[str]] = {c: set() for c in candidates}
    ordered = False
    for order, dynamic in runs:
        ran = [p for p in order if p in after]
        if len(ran) < 2:
            continue
        if dynamic:
            return None
        ordered = True
        for i, earlier in enumerate(ran):
            after[earlier].update(ran[i + 1 :])
    if not ordered or any(p in after[q] for p, later in after.items() for q in later):
        return None
    return _sorted(after)


def _sorted(after: Mapping[str, set[str]]) -> dict[str, int] | None:
    """A place for each file after the files it must follow, in display order otherwise: each
    file in turn, the files it must follow placed first (pulled forward, in display order),
    so a file no program orders keeps its place among the others. None on a cycle."""
    before: dict[str, list[str]] = {p: [] for p in after}
    for p in sorted(after):
        for q in after[p]:
            before[q].append(p)
    out: dict[str, int] = {}
    for start in sorted(after):
        placing = {start}
        stack = [(start, iter(before[start]))]
        while stack:
            node, todo = stack[-1]
            first = next((q for q in todo if q not in out), None)
            if first is None:
                stack.pop()
                placing.discard(node)
                out.setdefault(node, len(out))
            elif first in placing:
                return None  # a cycle: each must follow the other
            else:
                placing.add(first)
                stack.append((first, iter(before[first])))
    return out


def runs_before(given: Collection[str], roots: Iterable[str], edges: Edges) -> set[str]:
    """The files some root runs before the last of `given` it runs: registrations a given
    file's may come after, whatever their paths (`companions` checks those files too)."""
    out: set[str] = set()
    for root in roots:
        order, _ = run(root, edges, given)
        last = max((i for i, p in enumerate(order) if p in given), default=-1)
        out.update(order[:last])
    return out


class DisplayRanks:
    """`decided` for files shown as displays (one project's), every file of the project that
    nothing imports a program: what `per_file.by_import_order` orders the files registering
    one tool name by. The project's imports are read (from the index) when first asked, only
    when two files register one name, and each program followed once."""

    def __init__(self, cwd: Path, exclude: Sequence[str], cache_dir: Path | None) -> None:
        self.cwd, self.exclude, self.cache_dir = cwd, exclude, cache_dir
        self.project: Path | None = None
        self.files: set[str] = set()
        self.runs: list[Run] = []

    def __call__(self, displays: Collection[str]) -> dict[str, int] | None:
        from .search_roots import find_project_root

        absolute = {str((self.cwd / d).absolute()): d for d in displays}
        roots = {find_project_root(Path(os.path.dirname(p))) for p in absolute}
        if len(roots) != 1 or None in roots:
            return None
        (project,) = roots
        if project is not None and project != self.project:
            self._read(project)
        if not set(absolute) <= self.files:
            return None
        ranks = decided(set(absolute), self.runs)
        # Ties go by absolute path: displays of one project's files sort the same way.
        return {absolute[p]: rank for p, rank in ranks.items()} if ranks is not None else None

    def _read(self, project: Path) -> None:
        from .discovery import discover

        files = [f.path.absolute() for f in discover([project], self.exclude, self.cwd)]
        index = ImportIndex.open(project, self.exclude, self.cache_dir)
        index.refresh(files)
        index.store()
        modules = project_modules(files, project)
        edges = ordered_edges(index, modules)
        imported = {q for p in modules.names for q in edges(p)[0]}
        self.project, self.files = project, set(modules.names)
        self.runs = [run(root, edges) for root in sorted(self.files - imported)]
