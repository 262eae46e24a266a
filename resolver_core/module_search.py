"""Which file `import a.b.c` loads, decided the way Python's import system decides it.

Python resolves a dotted name one part at a time: `a` on the search path (the roots, in
`sys.path` order), then `b` only inside `a`'s `__path__`, and so on. In each folder of a
search path, `importlib.machinery.FileFinder` looks for, in this order:

1. a regular package, `name/__init__` with a loader suffix (extension, `.py`, `.pyc`);
2. a module, `name` + loader suffix (`name.cpython-311-x86_64-linux-gnu.so` before
   `name.py` before `name.pyc`);
3. and remembers a folder `name/` without `__init__` as a namespace *portion*.

The first folder holding 1 or 2 wins; only when none does do the portions (of every folder,
in order) form a namespace package. So `deps/__init__.py` beats `deps.py` beside it, and a
`deps.py` in a later root beats a namespace folder `deps/` in an earlier one.
`tests/test_module_search.py` checks this against `importlib` on random trees.

Every `folder/part` looked up on the way to the winner is a *probe*: creating or deleting a
candidate there would change the answer, so the lint cache keeps each probe's `state` as a
dependency (a missing module is a dependency too). Folder listings are read once per run,
as `FileFinder` caches them.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import field
from importlib.machinery import BYTECODE_SUFFIXES, EXTENSION_SUFFIXES, SOURCE_SUFFIXES, all_suffixes
from pathlib import Path

from .records import slotted

_SUFFIXES: tuple[tuple[str, bool], ...] = (
    *((s, False) for s in EXTENSION_SUFFIXES),
    *((s, True) for s in SOURCE_SUFFIXES if s == ".py"),
    *((s, False) for s in BYTECODE_SUFFIXES),
)
"""Loader suffixes in FileFinder's order; True for source we can read (the rest is opaque)."""


@slotted
class Spec:
    """What a name resolved to: a source file, an opaque module, or a namespace package."""

    origin: Path | None
    """The file Python would load (None for a namespace package)."""
    locations: list[Path] = field(default_factory=list)
    """Where its submodules are searched (empty for a plain module)."""
    source: bool = True
    """False for an extension module or bytecode without source: nothing to analyse."""

    @property
    def is_namespace(self) -> bool:
        return self.origin is None


class ModuleSearch:
    """Resolves dotted names over folders, reading each folder's listing once.

    A run's builds share one (`discovery.GivenFiles.search`): the slices of a large run look
    up the same imports, and the folders do not change while it runs."""

    def __init__(self) -> None:
        self._listings: dict[str, frozenset[str]] = {}
        self._packages: dict[str, tuple[tuple[str, ...], Path]] = {}
        self._states: dict[str, str | None] = {}

    def packages_of(self, folder: str | Path) -> tuple[tuple[str, ...], Path]:
        """The packages `folder` is inside, outermost first, itself included (its chain of
        `__init__` files), and the first folder up that is not one: its files' source root.

        Keyed by the folder as a string: every file of a project asks once (`module_name_for`),
        and hashing a `Path` for each was most of naming a thousand modules."""
        key = os.fspath(folder)
        found = self._packages.get(key)
        if found is None:
            if not (
                os.path.isfile(os.path.join(key, "__init__.py"))
                or os.path.isfile(os.path.join(key, "__init__.pyi"))
            ):
                found = ((), Path(key))
            elif os.path.dirname(key) == key:
                found = ((os.path.basename(key),), Path(key))
            else:
                outer, root = self.packages_of(os.path.dirname(key))
                found = ((*outer, os.path.basename(key)), root)
            self._packages[key] = found
        return found

    def _listing(self, folder: str) -> frozenset[str]:
        names = self._listings.get(folder)
        if names is None:
            try:
                names = frozenset(os.listdir(folder))
            except OSError:
                names = frozenset()
            self._listings[folder] = names
        return names

    # Strings, not `Path`s: a warm lint run asks for the state of every probe it kept, and
    # building a `Path` per question cost more than the questions.
    def _is_file(self, folder: str | Path, name: str) -> bool:
        folder = os.fspath(folder)
        return name in self._listing(folder) and os.path.isfile(os.path.join(folder, name))

    def _is_dir(self, folder: str | Path, name: str) -> bool:
        folder = os.fspath(folder)
        return name in self._listing(folder) and os.path.isdir(os.path.join(folder, name))

    def state(self, base: str | Path) -> str | None:
        """What decides a lookup of `base.name` in `base.parent`: which candidates exist.

        The lint cache keeps this for every probe; creating or deleting a candidate (a
        missing module appearing, `deps/__init__.py` added beside `deps.py`) changes it. A
        file's package marker is probed as `folder/__init__` (`Project.load_path`).
        None when no candidate exists.
        """
        base = os.fspath(base)
        try:
            return self._states[base]
        except KeyError:
            found = self._states[base] = self._state(base)
            return found

    def _state(self, base: str) -> str | None:
        folder, part = os.path.split(base)
        if part == LISTING:  # what `pkgutil.iter_modules` lists there (`modules_in`)
            return ",".join(
                f"{name}/" if is_package else name for name, is_package in self.modules_in(Path(folder))
            )
        found: list[str] = []
        if self._is_dir(folder, part):
            found.append("/")
            found += [f"/__init__{s}" for s, _ in _SUFFIXES if self._is_file(base, f"__init__{s}")]
        # `.pyi` too: an `__init__.pyi` makes a package of its folder (`packages_of`).
        found += [s for s in (*(s for s, _ in _SUFFIXES), ".pyi") if self._is_file(folder, f"{part}{s}")]
        return ",".join(found) or None

    def modules_in(self, folder: Path) -> list[tuple[str, bool]]:
        """What `pkgutil.iter_modules([folder])` yields (name, is a package), in its order
        (`pkgutil._iter_file_finder_modules`): the listing sorted, a name per loader suffix
        (`inspect.getmodulename`), a folder only when it holds an `__init__` module, no name
        with a dot, each name once."""
        out: dict[str, bool] = {}
        base = os.fspath(folder)
        for entry in sorted(self._listing(base)):
            name = _module_name(entry)
            if name == "__init__" or name in out:
                continue
            is_package = False
            if name is None and "." not in entry and self._is_dir(base, entry):
                inside = os.path.join(base, entry)
                if not any(_module_name(e) == "__init__" for e in self._listing(inside)):
                    continue
                name, is_package = entry, True
            if name and "." not in name:
                out[name] = is_package
        return list(out.items())

    def find(self, name: str, search: Sequence[Path], probes: list[Path]) -> Spec | None:
        """The spec of `name` over the roots `search`; each `folder/part` looked up is added to
        `probes` (see `state`)."""
        spec: Spec | None = None
        for part in name.split("."):
            if spec is not None:
                if not spec.locations:
                    return None  # a plain module (source or compiled) has no submodules
                search = spec.locations
            spec = self._find_part(part, search, probes)
            if spec is None:
                return None
        return spec

    def _find_part(self, part: str, search: Sequence[Path], probes: list[Path]) -> Spec | None:
        portions: list[Path] = []
        for folder in search:
            base = folder / part
            probes.append(base)
            if self._is_dir(folder, part):
                for suffix, source in _SUFFIXES:
                    if self._is_file(base, f"__init__{suffix}"):
                        return Spec(base / f"__init__{suffix}", [base], source)
                portions.append(base)
            for suffix, source in _SUFFIXES:
                if self._is_file(folder, f"{part}{suffix}"):
                    return Spec(folder / f"{part}{suffix}", [], source)
        return Spec(None, portions) if portions else None


LISTING = "*"
"""The probe `folder/*`: the modules `pkgutil.iter_modules` finds in `folder` (a module
added or removed there changes what a loop over them registers)."""
_ALL_SUFFIXES = sorted(all_suffixes(), key=len, reverse=True)


def _module_name(filename: str) -> str | None:
    """`inspect.getmodulename`: the file's name without the longest loader suffix it ends with."""
    return next((filename[: -len(s)] for s in _ALL_SUFFIXES if filename.endswith(s)), None)


def module_name_for(path: Path, search: ModuleSearch | None = None) -> tuple[str, Path, bool]:
    """(dotted module name, source root, is_package) for a Python file.

    `search`: the run's `ModuleSearch`, which answers each folder once (a run's files share
    a few folders). Read from the path as a string, as `Path.absolute` and `Path.stem` read it
    (a project's thousand files are named on every run that looks for importers)."""
    text = os.fspath(path)
    if not os.path.isabs(text):
        text = os.fspath(path.absolute())
    folder, name = os.path.split(text)
    dot = name.rfind(".")
    stem = name[:dot] if 0 < dot < len(name) - 1 else name
    is_package = stem == "__init__"
    packages, root = (search or ModuleSearch()).packages_of(folder)
    parts = [*packages] if is_package else [*packages, stem]
    return ".".join(parts) or stem, root, is_package


def module_names(root: Path) -> set[str]:
    """What `import name` could mean in a source root: its `.py` files and its folders."""
    try:
        entries = list(os.scandir(root))
    except OSError:
        return set()
    names = set()
    for entry in entries:
        stem, dot, suffix = entry.name.partition(".")
        module = suffix == "py" if dot else entry.is_dir(follow_symlinks=False)
        if module and stem.isidentifier():
            names.add(stem)
    return names
