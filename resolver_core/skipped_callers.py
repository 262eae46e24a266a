"""Callers the byte prefilter turned away: the files it skipped that spell a wanted name.

The prefilter (`prefilter.might_contribute`) does not parse a file that declares no server,
tool or resolver, yet such a file can be where a helper's tools get their server: an entry
module `from app.server import api` / `notes.register(api)` lands `notes`' tools on `api`.
Python calls `register` only through a name bound to it, and a call spells that name: the
function's own (`register(...)`, `notes.register(...)`, `module.register(...)` in a loop over
modules), or one an import or an assignment binds to it (`from notes import register as
install_notes`, a package `__init__` re-exporting it, `install = notes.register`, a list
of such functions a loop calls each of: `REGISTRARS = [notes.register]`). So when
the call sites of some functions are asked for (`CallSites.want`), the skipped files whose
bytes hold one of those names, or a name the parsed modules bind to one of them, are parsed
and scanned like any file the prefilter lets through; the names they bind in turn are
looked for too. The others stay unparsed, as before: a tree with no such call costs one
`bytes.find` per wanted name and skipped file.
"""

from __future__ import annotations

import ast
import re
import unicodedata
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from .bindings import Binding
from .source import ParsedModule
from .symbols import Names

if TYPE_CHECKING:
    from .project import Project
    from .registrations import Scanner

_WORD_BYTE = re.compile(rb"[A-Za-z0-9_\x80-\xff]")
"""A byte of an identifier (non-ASCII bytes too: UTF-8 names)."""


class SkippedFiles:
    """The files a build's prefilter skipped, until a wanted name is found in one."""

    def __init__(self, load: Callable[[Path, bytes], object]) -> None:
        self._load = load
        """Parse and scan a file (`StaticBuilder`): it joins the modules call sites are walked in."""
        self._files: dict[Path, bytes] = {}

    def add(self, path: Path, data: bytes) -> None:
        self._files[path] = data

    def load_spelling(self, names: Iterable[str]) -> bool:
        """Load every skipped file that spells one of `names` as a whole word; whether any was."""
        words = [name.encode() for name in names]
        if not words or not self._files:
            return False
        found = [path for path, data in self._files.items() if any(_spells(data, w) for w in words)]
        for path in found:
            self._load(path, self._files.pop(path))
        return bool(found)


def load_skipped(project: Project, scanner: Scanner, path: Path, data: bytes) -> None:
    """A file the prefilter skipped that may call a helper: parsed and scanned as if it had
    been let through (a syntax error in it is not reported, as before). A function of what it
    uses, not a method: the builder's bound method, kept by its own `call_sites`, would be a
    reference cycle holding every tree of the build."""
    scanner.scan(project.load_path(path, data))


def _spells(data: bytes, word: bytes) -> bool:
    """Whether `word` is in `data` as a whole identifier. Text whose names Python would
    normalise (NFKC: `ｒegister` is `register`) is compared normalised."""
    if not data.isascii():
        text = data.decode("utf-8", "replace")
        if not unicodedata.is_normalized("NFKC", text):
            data = unicodedata.normalize("NFKC", text).encode("utf-8", "replace")
    at = data.find(word)
    while at >= 0:
        end = at + len(word)
        if (at == 0 or _WORD_BYTE.match(data, at - 1) is None) and _WORD_BYTE.match(data, end) is None:
            return True
        at = data.find(word, end)
    return False


class Aliases:
    """The names modules bind to other names at their top level: `from m import f as g`
    (`g` for `f`), `g = m.f` or `g = f`. A call through `g` calls what `f` names."""

    def __init__(self, names: Names) -> None:
        self.names = names
        self._by_name: dict[str, set[str]] = {}
        self._indexed = 0

    def index(self, modules: list[ParsedModule]) -> None:
        """Read the bindings of the modules not read yet (`modules` only grows)."""
        for module in modules[self._indexed :]:
            for local, binding in self.names.table(module).items():
                for bound in _bound_names(binding):
                    if bound != local:
                        self._by_name.setdefault(bound, set()).add(local)
        self._indexed = len(modules)

    def of(self, names: Iterable[str]) -> set[str]:
        """The names bound to one of `names`, directly or through other aliases."""
        out: set[str] = set()
        todo = list(names)
        while todo:
            for local in self._by_name.get(todo.pop(), ()):
                if local not in out:
                    out.add(local)
                    todo.append(local)
        return out


def _bound_names(binding: Binding) -> list[str]:
    """The names an import or a plain assignment binds its variable to (`f` of `m.f`), or
    each name a collection written out lists (`REGISTRARS = [alpha.register, beta.register]`:
    a loop over it calls each, `for install in REGISTRARS: install(mcp)`, spelling neither)."""
    if binding.kind == "import":
        return [binding.target[1]] if binding.target is not None and binding.target[1] else []
    if binding.kind != "value":
        return []
    node = binding.node
    if isinstance(node, ast.Call) and _spells_partial(node.func) and node.args:
        node = node.args[0]  # `setup = functools.partial(register, mcp)`: `setup()` calls `register`
    values = node.elts if isinstance(node, ast.Tuple | ast.List | ast.Set) else [node]
    return [
        v.attr if isinstance(v, ast.Attribute) else v.id
        for v in values
        if isinstance(v, ast.Name | ast.Attribute)
    ]


def _spells_partial(func: ast.expr) -> bool:
    """`partial` or `functools.partial` as written (what it names is read where it is called)."""
    return (
        func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
    ) == "partial"
