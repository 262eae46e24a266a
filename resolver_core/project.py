"""Module names, source roots and lazy loading of the modules a run needs.

A file's module name comes from its `__init__.py` chain (the first folder
without one is its source root, as for a script run by Python). Imports are
looked up in the importing file's root first, then in the other roots: the
folders given on the command line, the project root (found from
`pyproject.toml` or `.git`), its `src/`, and configured `src` entries. Modules
are parsed only when a name is followed into them.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path

from mcpdeps.resolver_core.source import ParsedModule, decode, parse


def module_name_for(path: Path) -> tuple[str, Path, bool]:
    """(dotted module name, source root, is_package) for a Python file."""
    path = path.absolute()
    is_package = path.stem == "__init__"
    parts: list[str] = [] if is_package else [path.stem]
    directory = path.parent
    while (directory / "__init__.py").is_file() or (directory / "__init__.pyi").is_file():
        parts.insert(0, directory.name)
        if directory.parent == directory:
            break
        directory = directory.parent
    return ".".join(parts) or path.stem, directory, is_package


def find_project_root(start: Path) -> Path | None:
    """The nearest folder at or above `start` holding pyproject.toml or .git."""
    for directory in (start, *start.parents):
        if (directory / "pyproject.toml").is_file() or (directory / ".git").exists():
            return directory
    return None


class Project:
    """All modules a run may look at, parsed on first use and cached."""

    def __init__(
        self,
        roots: Sequence[Path] = (),
        overrides: Mapping[Path, str] | None = None,
        cwd: Path | None = None,
    ) -> None:
        self.cwd = cwd or Path.cwd()
        self.roots: list[Path] = []
        self._roots_seen: dict[Path, Path] = {}
        for root in roots:
            self.add_root(root)
        self.overrides = {Path(p).absolute(): t for p, t in (overrides or {}).items()}
        self._by_name: dict[tuple[Path | None, str], ParsedModule | None] = {}
        self._by_path: dict[Path, ParsedModule] = {}
        self._by_display: dict[str, ParsedModule] = {}
        self._displays: dict[Path, str] = {}
        self.edges: dict[Path, set[Path]] = {}
        """Module -> modules an import in it was followed to (by any analysis, once or more):
        what a file's verdicts can depend on is its closure over these edges."""

    def add_root(self, root: Path) -> None:
        root = root.absolute()
        if root not in self.roots:
            self.roots.append(self._roots_seen.setdefault(root, root))

    def set_display(self, path: Path, display: str) -> None:
        """Remember how the user named a file (relative paths stay relative)."""
        self._displays[path.absolute()] = display

    def display(self, path: Path) -> str:
        path = path.absolute()
        if path in self._displays:
            return self._displays[path]
        try:
            return os.path.relpath(path, self.cwd) if path.is_relative_to(self.cwd) else str(path)
        except ValueError:
            return str(path)

    def load_path(self, path: Path, data: bytes | None = None) -> ParsedModule:
        """Parse a file (once) and register it under its module name (`data`: bytes already read)."""
        path = path.absolute()
        if path in self._by_path:
            return self._by_path[path]
        name, root, is_package = module_name_for(path)
        # One Path object per root: `find` keys its cache by the importer's root, and equal
        # but distinct Paths compare in Python (hundreds of thousands of times per run).
        root = self._roots_seen.setdefault(root, root)
        module = ParsedModule(name, path, self.display(path), root, is_package)
        override = self.overrides.get(path)
        if override is None and data is not None:
            try:
                override = decode(data)
            except (SyntaxError, UnicodeDecodeError, LookupError):
                override = None  # re-read: the loader reports why it cannot be decoded
        parse(module, override)
        self._by_path[path] = module
        return module

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
        module = self._by_path.get(path)
        if module is not None:
            module.text, module.tree, module.error, module.lines = None, None, None, []
            module.future_annotations = False
            parse(module, self.overrides.get(path))

    def module_at(self, path: Path) -> ParsedModule | None:
        """The module parsed from `path`, if some analysis read it (nothing is read here)."""
        return self._by_path.get(path.absolute())

    def _candidates(self, name: str, root: Path) -> list[Path]:
        base = root.joinpath(*name.split("."))
        return [
            base.with_suffix(".py"),
            base / "__init__.py",
            base.with_suffix(".pyi"),
            base / "__init__.pyi",
        ]

    def find(self, name: str, near: ParsedModule | None = None, record: bool = True) -> ParsedModule | None:
        """The project module called `name`, looked up from `near`'s root first; None if external.

        `record=False` when `near` is not the module that will read the result (a package
        asked for its submodule on behalf of an importer, which `followed` records instead).
        """
        first = near.root if near is not None else None
        key = (first, name)
        try:
            found = self._by_name[key]
        except KeyError:
            found = self._by_name[key] = self._find(name, first)
        if record and near is not None and found is not None:
            self.followed(near, found)
        return found

    def followed(self, near: ParsedModule, target: ParsedModule) -> None:
        """Remember that an analysis of `near` read `target` (an edge of `edges`)."""
        if target is not near:
            self.edges.setdefault(near.path, set()).add(target.path)

    def _find(self, name: str, first: Path | None) -> ParsedModule | None:
        found: ParsedModule | None = None
        roots = ([first] if first is not None else []) + [r for r in self.roots if r != first]
        for root in roots:
            for candidate in self._candidates(name, root):
                if candidate.is_file():
                    found = self.load_path(candidate)
                    if found.name != name and name.endswith(f".{found.name}"):
                        found.name = name  # in a namespace package (no __init__.py): Python's name wins
                    break
            if found is not None:
                break
        return found

    def is_package_prefix(self, name: str, near: ParsedModule | None = None) -> bool:
        """True when `name` is a namespace/regular package folder in some root."""
        roots = ([near.root] if near is not None else []) + self.roots
        return any(root.joinpath(*name.split(".")).is_dir() for root in roots)

    def by_display(self, display: str) -> ParsedModule | None:
        """The loaded module shown to the user under this path, if any."""
        if len(self._by_display) != len(self._by_path):
            self._by_display = {m.display: m for m in self._by_path.values()}
        return self._by_display.get(display)

    @property
    def modules(self) -> list[ParsedModule]:
        return list(self._by_path.values())
