"""The files a run must check beside the files it was given, chosen from the import index
(`import_index.py`).

`mcpdeps lint deps.py` on a module of resolvers reports what the SDK will refuse there, and
the SDK refuses a resolver only when a tool that runs it is registered, in another file. So
a run also checks the project's files that import a given file, directly or through other
modules (a package's `__init__` re-exporting it), and that may register tools: its
*importers*. They are checked as `lint .` would check them; what they find is reported only
where it is located in a given file (`per_file.combine`), so `lint deps.py` says about
`deps.py` exactly what `lint .` says about it. pre-commit passes only the changed files:
an edit to `deps.py` that breaks an unchanged tool file is caught this way. When nothing
given may register, only what registers the tools that may run a given file's resolvers is
checked (`_registering`): the importers that reach a file that may register or hand a
server on (a `register(server)` helper's caller included), and the decorators and helpers
registering what they are handed that those import.

A duplicate tool name is a property of a whole server: the run also checks every file that
registers on a server a given file may use (the importers of the modules that name
`MCPServer`, and the helpers those call; for a `register(server)` helper, also the servers'
modules its callers import and the other helpers they may hand them to), when a given file
or a module it imports may register or hand a server on (`may_serve`; a resolver module does
neither, and no duplicate can be located in it). A duplicate is reported at the second
registration, in the run's order of files, so of those only the files shown before the last
given file are needed (`_registering_first`): for one tool file of a project whose tools all
share one server, the tool files before it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from .called_first import CalledFirst
from .discovery import Discovered, Reach, SourceFile, discover
from .import_index import ImportIndex, closure
from .import_order import Modules, ordered_edges, project_modules, runs_before
from .import_scan import found_under
from .search_roots import ProjectRoots
from .spelling_search import SpellingSearch, text_of


def importers(
    given: Sequence[SourceFile],
    paths: Sequence[str | os.PathLike[str]],
    cwd: Path,
    search: SpellingSearch,
    exclude: Sequence[str] = (),
    cache_dir: Path | None = None,
) -> list[SourceFile]:
    """The project files outside `given` that import one of them, directly or through other
    project modules, and may register tools (in display order, as `lint .` lists them).

    None for files outside any project (`search_roots.project_root_of`: no marker above, not in
    `cwd`), nor when a given folder holds the whole project (every file is given already). `search`:
    the run's search of carriers, which keeps the trees it parses for the run's build."""
    given_paths = {f.path.absolute() for f in given}
    folders = [p.absolute() for p in ((cwd / raw) for raw in map(str, paths)) if p.is_dir()]
    roots: dict[Path, None] = {}
    of = ProjectRoots(cwd).of
    for parent in _folders_of(given_paths):  # each once (`lint .` gives thousands of files)
        root = of(Path(parent))
        if root is not None and not any(root.is_relative_to(folder) for folder in folders):
            roots.setdefault(root, None)
    out: dict[Path, SourceFile] = {}
    last = max((f.display for f in given), default="")
    for root in roots:
        for f in _importers_in(root, given_paths, last, cwd, exclude, cache_dir, search):
            # Of several projects, some may be checked only as far as their resolvers' importers
            # (`_registering`): the modules left unchecked there may import a given file.
            out.setdefault(f.path, replace(f, unclassified=False) if len(roots) > 1 else f)
    return sorted(out.values(), key=lambda f: f.display)


def _folders_of(paths: Iterable[Path]) -> set[str]:
    """The folders holding `paths`. Files are told apart by their text before the last
    separator, and one of each folder's files asked for it: a `Path`'s parent is made and
    hashed in Python, `os.path.dirname` is Python too, for thousands of files."""
    one_each = {text[: text.rfind(os.sep)]: text for text in map(str, paths)}
    return {os.path.dirname(text) for text in one_each.values()}


def _importers_in(
    root: Path,
    given: set[Path],
    last: str,
    cwd: Path,
    exclude: Sequence[str],
    cache_dir: Path | None,
    search: SpellingSearch,
) -> list[SourceFile]:
    files = [f.path.absolute() for f in discover([root], exclude, cwd)]
    index = ImportIndex.open(root, exclude, cache_dir)
    index.refresh(files)
    # Strings, not Paths, as keys: hashing a Path is Python code, a str's is cached.
    modules = project_modules(files, root)
    names, by_name = modules.names, modules.by_name
    index.retarget(sorted({n.partition(".")[0] for n in by_name}))
    tops = frozenset(index.tops)
    imported_by: dict[str, set[str]] = {}
    imports: dict[str, set[str]] = {}
    for key, (name, is_package) in names.items():
        entry = index.entries[key]
        before = entry.module
        for target in entry.imported(name, is_package, tops):
            for found in found_under(target, by_name):
                if found != key:
                    imported_by.setdefault(found, set()).add(key)
                    imports.setdefault(key, set()).add(found)
        index.changed = index.changed or (entry.module != before and bool(entry.stat))
    start = {str(p) for p in given if str(p) in names}
    reached = closure(start, imported_by)
    if not any(index.entries[p].serves for p in closure(start, imports)):
        # Nothing given registers a tool, hands a server on, or imports a helper that
        # registers what it is handed: no duplicate name can be located in a given file
        # (a duplicate tool name is reported at the second registration), so only what
        # registers the tools that may run a given file's resolvers matters.
        spelling = search.spelling(start, reached - start, imported_by, index)
        kept, callers = _registering(reached - start, imports, imported_by, index, spelling)
        index.store()  # with what `search` found (`ImportIndex.spelling`)
        return _companions(files, kept - start, cwd, callers)
    index.store()
    early = _before_last(start, reached, last, cwd, imported_by, index, modules)
    sharing = _sharing(start, reached, early, imports, imported_by, index)
    kept = _registering_first(sharing, reached, early, imports, _relays(index, imported_by), index)
    # Not those a given file reaches: their tools are the given file's (`Tool.origin`).
    registrars = _registrars(closure(kept - start, imports) - closure(start, imports), imports, index)
    # Checked for their registrations alone: importing no given file, they find nothing there.
    unclassified = kept - reached - registrars
    kept |= registrars
    handing = {p for p in kept - start if _may_hand(p, imports, index)}
    reach = _reach(kept | start, early, imported_by, index) if handing else None
    return _companions(
        files, kept - start, cwd, reach=reach, handing=handing if reach else (), unclassified=unclassified
    )


def _sharing(
    start: set[str],
    reached: set[str],
    early: Callable[[str], bool],
    imports: Mapping[str, set[str]],
    imported_by: Mapping[str, set[str]],
    index: ImportIndex,
) -> set[str]:
    """The files that may register on a server the given files (`start`, imported by
    `reached`) may register on.

    Those servers are created in a module the given files import, or in an importer that
    passes them to a helper: every file that imports such a module, and every helper such an
    importer calls, registers on the same servers, and a duplicate tool name is reported at
    whichever registration comes second. The helpers a given file calls stay unchecked: their
    tools are that file's (`Tool.origin`), reported whole as any given file's.

    A given `register(server)` helper (`nested`) registers on the servers its callers hand
    it, which they create (an importer naming `MCPServer`, as above) or import
    (`app/main.py` imports `app.server` and calls `alpha.register(mcp)`): the modules its
    importers take names from (`_named_from`) that name `MCPServer` are servers' modules too,
    and the helpers among them may be handed the same servers (`beta.register(mcp)`). Of
    those helpers, only the ones shown before the last given file: a later one's
    registrations come after every given file's, and it is read through the caller all the
    same. Not the whole of what the importers reach: an entry point reaches most of a project,
    and most modules of a typed project import `MCPServer` for their annotations."""
    entries = index.entries
    creators = {p for p in reached | closure(start, imports) if entries[p].creates}
    helpers: set[str] = set()
    if any(entries[p].nested and entries[p].contributes for p in start):
        handing = _named_from(reached - start, imports)
        creators |= {p for p in handing if entries[p].creates and not entries[p].nested}
        helpers = {p for p in handing if entries[p].nested and early(p)}
    sharing = reached | helpers
    sharing |= closure({i for c in creators for i in imported_by.get(c, ())}, imported_by)
    callers = {p for p in sharing - helpers if entries[p].creates} - start
    # The servers' modules are checked too (their own module-level tools share the names),
    # except a helper one of the given files calls: its tools are that file's (`Tool.origin`).
    return sharing | closure(callers, imports) | {p for p in creators if not entries[p].nested}


def _before_last(
    start: set[str],
    reached: set[str],
    last: str,
    cwd: Path,
    imported_by: Mapping[str, set[str]],
    index: ImportIndex,
    modules: Modules,
) -> Callable[[str], bool]:
    """Whether a file's registrations may come before the last given file's: it is shown
    before it (display order, `per_file.in_file_order`'s), or a program importing a given
    file runs it first (`import_order.runs_before`: `import app.b` before `import app.a`,
    whatever their paths). The programs are the files importing a given one that nothing
    imports; their imports are followed only when a file shown later is asked about, and only
    the order of registrations written at the top of both files is the imports' (`Entry.top`):
    for a given module registering only in functions (a factory), the order its callers call
    the helpers in decides (`called_first.py`), else display order."""
    ran: set[str] | None = None
    entries = index.entries
    top = any(entries[p].top for p in start)
    nested = [p for p in start if entries[p].nested]
    called = CalledFirst(nested, imported_by, modules.names, text_of) if nested else None

    def early(path: str) -> bool:
        nonlocal ran
        if companion_display(path, cwd) <= last:
            return True
        if called is not None and entries[path].nested and called.before(path):
            return True  # an entry point calls its helper first (`b.register(mcp)`, then a's)
        if not top or not entries[path].top:
            return False
        if ran is None:
            roots = sorted(p for p in reached if not imported_by.get(p))
            ran = runs_before(start, roots, ordered_edges(index, modules))
        return path in ran

    return early


def _named_from(importers: set[str], imports: Mapping[str, set[str]]) -> set[str]:
    """The modules `importers` may take a name from: those they import, and through the
    packages among them, what a package re-exports (`from app import mcp`, where
    `app/__init__.py` imports it from `app.server`)."""
    out: set[str] = set()
    todo = [q for p in importers for q in imports.get(p, ())]
    while todo:
        found = todo.pop()
        if found not in out:
            out.add(found)
            if found.endswith("__init__.py"):
                todo.extend(imports.get(found, ()))
    return out


def _registering(
    importers: set[str],
    imports: Mapping[str, set[str]],
    imported_by: Mapping[str, set[str]],
    index: ImportIndex,
    spelling: set[str] | None,
) -> tuple[set[str], set[str]]:
    """The files that register the tools which may run what the given files define, when
    nothing given may register: of the `importers`, those that import (directly or not) a
    file that may register or hand a server on (`serves`), and the files registering inside
    a function that those import.

    A tool runs a given file's resolver only if its function's module imports that file, so
    the function is an importer's; it is registered by a file that may register: that
    importer, or a file importing it (an importer too), or a decorator or helper it hands
    the function to, which it imports (`@h.deco` with `def deco(fn): return mcp.tool()(fn)`
    in `h.py`). An
    importer reaching no such file has no tool of its own, calls nothing that registers,
    and is read where a file kept uses it. A `register(server)` helper's tools land on the
    servers its callers pass, and the callers pass them on from modules naming a server
    (`mcp = MCPServer(...)`, which `serves`): each caller imports both, so it is kept though
    it registers nothing itself (`app/main.py` calling `notes.register(mcp)`). A decorator or
    helper registering what it is handed is built with them, as `lint .` builds it (its
    registrations are its own, `per_file.origin_of`), not only read, and so is a file giving
    such a registrar its server (`_wires`); a `register(server)` helper that does not import
    a given file is not: its tools' hints are its own module's.

    Of those importers, only the ones spelling a name that carries a given file's definitions
    (`spelling`: `carriers.reaching`, none when unknown) can have a tool running its resolvers;
    the others are kept only when they import one of those, as its callers (returned apart:
    `confined`)."""
    kept = importers & _relays(index, imported_by)
    callers: set[str] = set()
    if spelling is not None:
        spelling &= kept
        callers = (closure(spelling, imported_by) & kept) - spelling
        kept = spelling | callers
    registrars = _registrars(closure(kept - callers, imports), imports, index)
    return kept | registrars, callers - registrars


def _registrars(used: set[str], imports: Mapping[str, set[str]], index: ImportIndex) -> set[str]:
    """The files of `used` registering what they are handed (`handed`: `def expose(fn):
    mcp.add_tool(fn)`), whose registrations are their own (`per_file.origin_of`), and those
    giving such a registrar its server (`_wires`): a run checking the files that use them
    builds them too, as `lint .` does, or their tools would belong to no file of the run."""
    handed = {p for p in used if index.entries[p].handed}
    return handed | {p for p in used - handed if _wires(p, handed, imports, index)}


def _relays(index: ImportIndex, imported_by: Mapping[str, set[str]]) -> set[str]:
    """The files that may register or hand a server on (`serves`), and every file importing
    one of them, directly or not."""
    return closure({p for p, e in index.entries.items() if e.serves}, imported_by)


def _wires(path: str, handed: set[str], imports: Mapping[str, set[str]], index: ImportIndex) -> bool:
    """Whether `path` may give a server to a registrar it imports (`reg = Registry(mcp)`, where
    `Registry.add` registers what it is handed on `self.server`): it imports a file of `handed`
    and creates a server or imports a module naming one. Its call is what makes the
    registrar's tools land; read only, its calls would not be walked."""
    near = imports.get(path, set())
    return bool(near & handed) and (
        index.entries[path].creates or any(index.entries[q].creates for q in near)
    )


def _registering_first(
    sharing: set[str],
    reached: set[str],
    early: Callable[[str], bool],
    imports: Mapping[str, set[str]],
    relays: set[str],
    index: ImportIndex,
) -> set[str]:
    """`sharing` without the files checked only for duplicate names (not in `reached`) whose
    registrations all come after every given file's.

    Registrations are met in the run's order of files (by display, `per_file.combine`) and a
    duplicate name is reported at the second one: a file shown after the last given file can
    only make a duplicate located in itself. It is left out unless a file still checked
    imports it (directly or not) and it may register (`serves`): that file's analysis reads
    it, and would count its tools as its own once it is not one of the run's files
    (`Tool.origin`), the first to run the resolvers they run (`per_file.owners`). A file of
    `sharing` that neither may register nor reaches a file that may (`relays`: a module of
    resolvers the tool modules import) brings no registration to compare, wherever it is
    shown: only the importers of the given files are checked whatever they hold. One that
    reaches such a file may hand it a server (`alpha.register(mcp)`, which `may_serve` does
    not see)."""
    entries = index.entries
    late = {p for p in sharing - reached if not early(p)}
    kept = (sharing - late) & (reached | relays)
    return kept | {p for p in closure(kept, imports) & late if entries[p].serves}


def _reach(
    run: set[str], early: Callable[[str], bool], imported_by: Mapping[str, set[str]], index: ImportIndex
) -> Reach | None:
    """The files a companion's servers are followed into, when the run checks it for the
    registrations a given file's come after (duplicate names, reported at the second
    registration in the order of the files that write them: `per_file.in_file_order`): the
    run's files, the files that may register inside a function (`nested`: a `register(server)`
    helper) shown before the last given file, and every file importing one of those, through
    which a server may travel to them (`register_all(mcp)` calling `alpha.register(mcp)`).

    A helper shown after every given file makes no duplicate located in one, and reads no
    given file's resolvers (a file that imports one is one of the run's files): an entry point
    calling two hundred features' helpers is followed into the few shown before the file
    given, not parsed into all of them. None when that is every helper."""
    helpers = {p for p, e in index.entries.items() if e.nested and e.contributes}
    first = {p for p in helpers if early(p)}
    paths = run | closure(first | (helpers & run), imported_by)
    if helpers <= paths:
        return None  # every helper is followed into: no limit
    import hashlib  # OpenSSL's: loaded by the runs that hash (`cache.bytes_hash`)

    key = hashlib.sha256("\0".join(sorted(paths - run)).encode("utf-8", "surrogateescape")).hexdigest()[:16]
    return Reach(frozenset(Path(p) for p in paths), f"reach:{key}")


def _may_hand(path: str, imports: Mapping[str, set[str]], index: ImportIndex) -> bool:
    """Whether a file may hand a server to a `register(server)` helper of another module: it
    imports one (`nested`), or a package re-exporting one (`from features import alpha`,
    which `features/__init__.py` imports). Only such a companion is followed only so far
    (`_reach`): the others' records are the same in every run, and other lists lend them
    (`lint_rules.adoption`)."""
    near = _named_from({path}, imports)
    return any(index.entries[q].nested for q in near)


def _companions(
    files: Sequence[Path],
    reached: set[str],
    cwd: Path,
    callers: Collection[str] = (),
    reach: Reach | None = None,
    handing: Collection[str] = (),
    unclassified: Collection[str] = (),
) -> list[SourceFile]:
    """The files of `reached`, as companions, in the walk's order (`callers` marked so; the
    servers of those `handing` on are followed only as far as `reach`; the tools of those
    `unclassified` may be left so: `SourceFile.unclassified`). Those the prefilter
    turns away too: an entry module that only calls `notes.register(api)` declares nothing,
    and the build parses it when it spells a helper whose callers are wanted
    (`skipped_callers`)."""
    return [
        SourceFile(
            path,
            companion_display(path, cwd),
            companion=True,
            caller=str(path) in callers,
            reach=reach if str(path) in handing else None,
            unclassified=str(path) in unclassified,
        )
        for path in files
        if str(path) in reached
    ]


def companion_display(path: str | Path, cwd: Path) -> str:
    """How a run shows a file it was not given (`Project.display`).

    A run compares the display of most of the project's files with the last given file's
    (`_registering_first`, `_reach`): a path under `cwd` written without `..` is cut as a
    string, which is what `relpath` gives it."""
    text, base = os.fspath(path), os.fspath(cwd)
    if text.startswith(base) and text[len(base) : len(base) + 1] == os.sep and f"{os.sep}.." not in text:
        return text[len(base) + 1 :]
    try:
        return os.path.relpath(text, base) if Path(text).is_relative_to(cwd) else text
    except ValueError:
        return text


def run_files(
    paths: Sequence[str | os.PathLike[str]],
    exclude: Sequence[str],
    cwd: Path,
    cache_dir: Path | None = None,
    given: Sequence[SourceFile] | None = None,
) -> list[SourceFile]:
    """What a lint run checks: the given files (`discover`, or `given` when the caller has
    them) and their importers, in display order."""
    files = list(given) if given is not None else discover(paths, exclude, cwd)
    search = SpellingSearch()
    extra = importers(files, paths, cwd, search, exclude, cache_dir)
    if not extra:
        return files
    # The folders the walk could not read are still said (`discovery.unreadable_note`).
    out = Discovered(sorted([*files, *extra], key=lambda f: f.display), getattr(files, "unreadable", ()))
    out.parses = search.parses
    return out
