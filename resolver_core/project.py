"""Module names, source roots and lazy loading of the modules a run needs.

A file's module name comes from its `__init__.py` chain (the first folder
without one is its source root, as for a script run by Python). Imports are
looked up in the importing file's root first, then in the other roots: the
folders given on the command line, the project root (found from
`pyproject.toml` or `.git`), its `src/`, and configured `src` entries, in that
order, with Python's own rules for which file a name means
(`module_search`). Modules are parsed only when a name is followed into them.

The SDK's own packages (`mcp`, `mcp_types`) are never the user's code: a tree
that holds them (the SDK's repository, a vendored copy) still has its names
recognised as the SDK's.

Every file a run reads is hashed from the very bytes it parses, and every
import lookup leaves the state of what it probed (`digests`): the lint cache
compares those, so an edit during a run, or a module created after it, is
never hidden behind a kept verdict.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path

from .cache import bytes_hash, probe_key, text_hash
from .lent_parses import LentParses
from .module_search import LISTING, ModuleSearch, Spec, module_name_for
from .search_roots import find_project_root as find_project_root
from .source import ParsedModule, decode, parse

SDK_PACKAGES = frozenset({"mcp", "mcp_types"})
"""Top-level packages that are the SDK: external wherever they are found."""


def is_sdk_module(name: str) -> bool:
    return name.partition(".")[0] in SDK_PACKAGES


Found = tuple[Spec | None, list[Path]]
"""What an import lookup found, and the `folder/part` probes it made (`Project.spec`)."""


class Project:
    """All modules a run may look at, parsed on first use and cached."""

    def __init__(
        self,
        roots: Sequence[Path] = (),
        overrides: Mapping[Path, str] | None = None,
        cwd: Path | None = None,
        scoped: Collection[Path] = (),
        hashing: bool = True,
    ) -> None:
        self.cwd = cwd or Path.cwd()
        self.hashing = hashing
        """False: files read are not hashed (`digests` holds probes only; nothing compares them)."""
        self.roots: list[Path] = []
        self._roots_seen: dict[Path, Path] = {}
        for root in roots:
            self.add_root(root)
        self.scoped = {Path(r).absolute() for r in scoped}
        """Roots searched only by the files inside them (`builder.new_project`)."""
        self._outside_of: dict[Path | None, frozenset[Path]] = {}
        self.overrides = {Path(p).absolute(): t for p, t in (overrides or {}).items()}
        self._by_name: dict[tuple[Path | None, frozenset[Path], str], tuple[Spec | None, list[Path]]] = {}
        self.search = ModuleSearch()
        self._by_path: dict[Path, ParsedModule] = {}
        self._found: dict[int, dict[str, ParsedModule | None]] = {}
        """`find`'s answers per importer (by identity: every module is `_by_path`'s, for good).
        A repeated lookup skips `spec` and `load_path`, whose `Path` hashing and comparisons (in
        Python, not C) were most of a run's name resolution; its probes are recorded already."""
        self._by_display: dict[str, ParsedModule] = {}
        self._displays: dict[Path, str] = {}
        self.edges: dict[Path, set[Path]] = {}
        """Module -> modules an import in it was followed to (by any analysis, once or more):
        what a file's verdicts can depend on is its closure over these edges."""
        self.probes: dict[Path, set[Path]] = {}
        """Module -> every `folder/name` an import lookup in it probed (`ModuleSearch.state`)."""
        self.digests: dict[str, str | None] = {}
        """What the run's verdicts were computed from: the content hash of the bytes each file
        was parsed from (by path), and the state of every probe (by `probe_key`)."""
        self.limited: dict[Path, dict[Path, bool]] = {}
        """Per companion whose servers are followed only so far (`confined.Confined`), each file
        its limit was asked about and whether it is in it: what its verdicts were computed
        from beside `digests` (`lint_rules.adoption`)."""
        self.withheld: dict[Path, set[Path]] = {}
        """Per module, the given files a server it passes was not followed into because
        another build checks them (`confined.Confined.withheld`): what a build of every file
        would have followed, and a record's dependencies add (`lint_rules.incremental`)."""
        self._inserted: dict[Path, tuple[list[Path], dict[tuple[frozenset[Path], str], Found]]] = {}
        """Per module, the folders it puts on `sys.path` itself and the lookups made there
        (`_inserted_lookup`): both dropped with its text (`set_text`)."""
        self._as_package: dict[Path, bool] = {}
        """Per module, whether its text imports as a package started with `-m` does (`_imports_as_a_package`)."""
        self._markers: dict[Path, list[Path]] = {}
        """A folder's package markers (`_note_markers`), shared by the modules in it."""
        self.lent: LentParses | None = None
        """Trees earlier builds of the run parsed, and where this one's are kept for later ones."""

    def add_root(self, root: Path) -> None:
        root = root.absolute()
        if root not in self.roots:
            self.roots.append(self._roots_seen.setdefault(root, root))

    def set_display(self, path: Path, display: str) -> None:
        """Remember how the user named a file (relative paths stay relative)."""
        self._displays[path.absolute()] = display

    def set_displays(self, displays: Mapping[Path, str]) -> None:
        """`set_display` for many files at once (`displays`: by absolute path)."""
        self._displays.update(displays)

    def display(self, path: Path) -> str:
        path = path.absolute()
        if path in self._displays:
            return self._displays[path]
        try:
            return os.path.relpath(path, self.cwd) if path.is_relative_to(self.cwd) else str(path)
        except ValueError:
            return str(path)

    def load_path(self, path: Path, data: bytes | None = None, imported: bool = False) -> ParsedModule:
        """Parse a file (once) and register it under its module name (`data`: bytes already read).

        `imported`: an import led to it, so later builds of the run may read it too (`lent`)."""
        path = path.absolute()
        if path in self._by_path:
            return self._by_path[path]
        name, root, is_package = module_name_for(path, self.search)
        self._note_markers(path, root)
        # One Path object per root: `find` keys its cache by the importer's root, and equal
        # but distinct Paths compare in Python (hundreds of thousands of times per run).
        root = self._roots_seen.setdefault(root, root)
        module = ParsedModule(name, path, self.display(path), root, is_package)
        override = self.overrides.get(path)
        if override is None and data is not None:
            try:
                override = decode(data)
                module.digest = bytes_hash(data) if self.hashing else None
            except (SyntaxError, UnicodeDecodeError, LookupError):
                override = None  # re-read: the loader reports why it cannot be decoded
        parse(module, override, self.lent, keep=imported, hashing=self.hashing)
        self._note_parsed(module)
        self._by_path[path] = module
        return module

    def _note_markers(self, path: Path, root: Path) -> None:
        """Keep the package markers that made `path`'s module name and source root as probes
        of it: an `__init__.py` created or deleted in its folder (or in one above, up to its
        root) renames the module and moves where its imports are looked for."""
        markers = self._markers.get(path.parent)
        if markers is None:  # once per folder (its root is the folder's too)
            folder = path.parent
            markers = [folder / "__init__"]
            while folder != root and folder.parent != folder:
                folder = folder.parent
                markers.append(folder / "__init__")
            for base in markers:
                self.digests.setdefault(probe_key(base), self.search.state(base))
            self._markers[path.parent] = markers
        self.probes.setdefault(path, set()).update(markers)

    def _note_parsed(self, module: ParsedModule) -> None:
        """Keep the digest of what `module` was parsed from (an unsaved text: its `text_hash`)."""
        override = self.overrides.get(module.path)
        if override is not None:
            module.digest = text_hash(override)
        self.digests[str(module.path)] = module.digest

    def set_text(self, path: Path, text: str | None) -> None:
        """Read `path` as `text` from now on (an editor's unsaved buffer), or from disk again (None).

        A module already parsed is parsed again in place: importers found it by name and keep
        the same object. The imports followed from its old text are forgotten (the next
        analysis of it follows them again).
        """
        path = path.absolute()
        if text is None:
            self.overrides.pop(path, None)
        else:
            self.overrides[path] = text
        self.edges.pop(path, None)
        self.probes.pop(path, None)
        self._as_package.pop(path, None)
        self._inserted.pop(path, None)
        module = self._by_path.get(path)
        if module is not None:
            self._found.pop(id(module), None)  # its probes were forgotten: the next lookup records them
        if text is None:  # the disk again: files may have been created or deleted meanwhile
            self._by_name.clear()
            self._found.clear()
            self.search = ModuleSearch()
            self._markers.clear()
        if module is not None:
            module.forget()
            parse(module, self.overrides.get(path), hashing=self.hashing)
            self._note_parsed(module)

    def module_at(self, path: Path) -> ParsedModule | None:
        """The module parsed from `path`, if some analysis read it (nothing is read here)."""
        return self._by_path.get(path.absolute())

    def note_read(self, path: Path, data: bytes) -> None:
        """Remember the hash of bytes read from a file that is then not parsed (prefiltered)."""
        if self.hashing:
            self.digests.setdefault(str(path.absolute()), bytes_hash(data))

    def find(self, name: str, near: ParsedModule | None = None, record: bool = True) -> ParsedModule | None:
        """The project module called `name`, looked up from `near`'s root first; None if external.

        `record=False` when `near` is not the module that will read the result (a package
        asked for its submodule on behalf of an importer, which `followed` records instead).
        The lookup's probes are `near`'s dependencies either way (its readers' closures hold it).
        """
        answers = self._found.setdefault(id(near), {})
        if name in answers:
            found = answers[name]
        else:
            spec = self.spec(name, near)
            found = (
                None
                if spec is None or spec.origin is None or not spec.source
                else self.load_path(spec.origin, imported=True)
            )
            answers[name] = found
        if found is None:
            return None
        if found.name != name and name.endswith(f".{found.name}"):
            found.name = name  # in a namespace package (no __init__.py): Python's name wins
        if record and near is not None:
            self.followed(near, found)
        return found

    def spec(self, name: str, near: ParsedModule | None = None) -> Spec | None:
        """What `import name` finds in the project (None: not in it, or the SDK's own package)."""
        if is_sdk_module(name):
            return None
        first = near.root if near is not None else None
        outside = self._outside(near)
        key = (first, outside, name)
        cached = self._by_name.get(key)
        if cached is None:
            roots = ([first] if first is not None else []) + [
                r for r in self.roots if r != first and r not in outside
            ]
            probes: list[Path] = []
            found = self.search.find(name, roots, probes)
            if found is None:  # only what no root holds: a guess of the script's folder
                later = [r for r in self._script_folders(first) if r not in roots and r not in outside]
                found = self.search.find(name, later, probes) if later else None
            cached = (found, probes)
            for base in probes:
                self.digests.setdefault(probe_key(base), self.search.state(base))
            self._by_name[key] = cached
        if cached[0] is None and near is not None and near.tree is not None:
            cached = self._inserted_lookup(name, near, outside, cached[1])
        if (
            cached[0] is None
            and near is not None
            and near.path.parent != first
            and name.partition(".")[0] not in sys.stdlib_module_names
        ):
            cached = self._in_packages(name, near, outside, cached[1])
        if near is not None and cached[1]:
            self.probes.setdefault(near.path, set()).update(cached[1])
        return cached[0]

    def _inserted_lookup(
        self, name: str, near: ParsedModule, outside: frozenset[Path], probes: list[Path]
    ) -> Found:
        """A name nothing else holds, looked up in the folders `near` puts on `sys.path` itself
        (`path_inserts`: `sys.path.insert(0, str(Path(__file__).parents[2] / "common"))`)."""
        read = self._inserted.get(near.path)
        if read is None:
            from .path_inserts import inserted_folders

            assert near.tree is not None
            found_folders = inserted_folders(near.tree, near.path) if "sys.path" in (near.text or "") else []
            read = self._inserted[near.path] = ([f for f in found_folders if f not in self.roots], {})
        folders, lookups = read
        if not folders:
            return None, probes
        cached = lookups.get((outside, name))
        if cached is None:
            cached = lookups[outside, name] = self._found_in(name, folders, outside, probes)
        return cached

    def _in_packages(
        self, name: str, near: ParsedModule, outside: frozenset[Path], probes: list[Path]
    ) -> Found:
        """A name nothing else holds, looked up in the packages `near` is in, nearest first
        (`probes`: those of the lookups that failed). `python app/server.py` (or `mcp run
        app/server.py`) puts `app/` first on `sys.path` though it holds an `__init__.py`, and so
        does a module appending its own folder (`sys.path.append(os.path.dirname(__file__))`):
        `from tools import register` in `app/server.py` then means `app/tools.py`. Started as
        `python -m app.server` instead, the import fails and the server does not start, so this
        is the only reading under which it registers anything. Not for a name of the standard
        library: started with `-m` its module is the standard library's, and as a script too
        for those the interpreter imports before any user code (`types`, `os`). Nor from a
        module importing its package's modules as `-m` allows (`from .deps`, `from app.deps`):
        its package is started as one, and a bare name is an installed library's, however a
        module beside it is named (`app/httpx.py` wrapping `httpx`, which is never itself)."""
        key = (near.path.parent, outside, name)
        cached = self._by_name.get(key)
        if cached is None:
            folders: list[Path] = []
            folder = near.path.parent
            while folder != near.root and folder.parent != folder:
                folders.append(folder)
                folder = folder.parent
            cached = self._by_name[key] = self._found_in(name, folders, outside, probes)
        if cached[0] is not None and (cached[0].origin == near.path or self._imports_as_a_package(near)):
            return None, cached[1]  # its text read only when a module beside it has the name
        return cached

    def _found_in(
        self, name: str, folders: list[Path], outside: frozenset[Path], probes: list[Path]
    ) -> Found:
        """`name` looked up in `folders` (but those `outside`) after the lookups whose `probes`
        failed, the probes made here kept with their states (`digests`), as `spec` keeps its own."""
        more: list[Path] = []
        found = self.search.find(name, [f for f in folders if f not in outside], more)
        for base in more:
            self.digests.setdefault(probe_key(base), self.search.state(base))
        return found, [*probes, *more]

    def _imports_as_a_package(self, near: ParsedModule) -> bool:
        """Whether `near`'s text imports a module relatively or under its top-level package's
        name (`_in_packages`), read once per text."""
        found = self._as_package.get(near.path)
        if found is None:
            top = re.escape(near.name.partition(".")[0])
            way = re.compile(rf"^[ \t]*(?:from[ \t]+\.|(?:from|import)[ \t]+{top}\b)", re.MULTILINE)
            found = self._as_package[near.path] = way.search(near.text or "") is not None
        return found

    def _script_folders(self, first: Path | None) -> list[Path]:
        """The folders between a module's source root and the project (or `cwd`) that Python
        may have run it from, nearest first: `python server.py` in `servers/b/` imports
        `tools.weather` (a folder without `__init__.py`) with `servers/b` on `sys.path`, so
        `from deps import load_d` in `tools/weather.py` means `servers/b/deps.py`, though the
        file's own root is `tools/`. Searched only for a name no root holds (`spec`), and only
        up through folders a dotted name can pass (`my-server` cannot)."""
        if first is None:
            return []
        bounds = (*self.roots, self.cwd.absolute())
        found: list[Path] = []
        folder = first
        while folder.name.isidentifier() and folder.parent != folder:
            folder = folder.parent
            if folder in bounds or not any(folder.is_relative_to(b) for b in bounds):
                break  # a root (searched already), or out of the project
            found.append(folder)
        return found

    def _outside(self, near: ParsedModule | None) -> frozenset[Path]:
        """The scoped roots `near` is not inside (not searched by its imports)."""
        if not self.scoped:
            return frozenset()
        where = near.path if near is not None else None
        found = self._outside_of.get(where)
        if found is None:
            found = frozenset(r for r in self.scoped if where is None or not where.is_relative_to(r))
            self._outside_of[where] = found
        return found

    def modules_in(self, package: ParsedModule, near: ParsedModule) -> list[tuple[str, bool]]:
        """What `pkgutil.iter_modules(package.__path__)` yields (`ModuleSearch.modules_in`),
        kept as a probe of `near` (`folder/*`): a module added to the folder re-checks what
        a loop in `near` registers."""
        base = package.path.parent / LISTING
        self.digests.setdefault(probe_key(base), self.search.state(base))
        self.probes.setdefault(near.path, set()).add(base)
        return self.search.modules_in(package.path.parent)

    def followed(self, near: ParsedModule, target: ParsedModule) -> None:
        """Remember that an analysis of `near` read `target` (an edge of `edges`)."""
        if target is not near:
            self.edges.setdefault(near.path, set()).add(target.path)

    def withhold(self, caller: Path, callee: Path) -> None:
        """Remember that a server `caller` passes was not followed into `callee` (`withheld`)."""
        self.withheld.setdefault(caller, set()).add(callee)

    def is_package_prefix(self, name: str, near: ParsedModule | None = None) -> bool:
        """True when `import name` finds a package (regular or namespace) in the project."""
        spec = self.spec(name, near)
        return spec is not None and bool(spec.locations)

    def by_display(self, display: str) -> ParsedModule | None:
        """The loaded module shown to the user under this path, if any."""
        if len(self._by_display) != len(self._by_path):
            self._by_display = {m.display: m for m in self._by_path.values()}
        return self._by_display.get(display)

    @property
    def modules(self) -> list[ParsedModule]:
        return list(self._by_path.values())
