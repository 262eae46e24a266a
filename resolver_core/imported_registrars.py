"""The helpers a module imports that register what they are handed, scanned with it.

`def expose(fn): mcp.add_tool(fn)` in `app/deco.py`, `tool = mcp.tool()` in `app/kit.py`:
`@expose` and `@tool` over a def in `app/notes.py` register that def, and its verdicts are
`notes.py`'s (`Tool.origin`). They are found from the helper's registration site
(`reach.Reach.through_parameter`), so the helper must be scanned wherever `notes.py` is
built: in a slice or a worker holding `notes.py` but not `deco.py`, in `lint notes.py`. A
module that is imported is otherwise only read for the names it binds; this reads the text
of each project module a built file's top-level imports name (its bindings) and scans those
that may register a function they are handed (`prefilter.may_register_handed`, which says yes too
often: a scan that finds nothing). The helper's own record depends on no caller then, and
no build needs a helper and all of its callers together.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterable, Iterator, Mapping
from pathlib import Path

from .bindings import Binding
from .prefilter import registers_for_importers
from .source import ParsedModule, regular_bytes
from .symbols import Names


class ImportedRegistrars:
    """`registrars` of a build's modules, each imported module's text judged once."""

    def __init__(self, names: Names, scanned: Collection[Path] = ()) -> None:
        self.names = names
        self._judged: dict[Path, bool] = dict.fromkeys(scanned, False)
        """Per module, whether to scan it: not those the build scans anyway."""

    def registrars(
        self, modules: Iterable[ParsedModule], within: Collection[Path] | None = None
    ) -> Iterator[ParsedModule]:
        """The project modules `modules` import that may register a handed function, each
        once, loaded (an import edge of the importer, as following the import would be);
        with `within`, only those among these paths."""
        project = self.names.project
        seen: set[Path] = set()
        for module in modules:
            if module.tree is None:
                continue
            for name in _imported(self.names.table(module)):
                spec = project.spec(name, module)
                if spec is None or spec.origin is None or not spec.source:
                    continue
                path = spec.origin.absolute()
                if path == module.path or path in seen or (within is not None and path not in within):
                    continue
                if not self._registers_handed(path):
                    continue
                found = project.find(name, module)
                if found is not None:
                    seen.add(found.path)
                    yield found

    def _registers_handed(self, path: Path) -> bool:
        judged = self._judged.get(path)
        if judged is None:
            judged = self._judged[path] = _judged(path)
        return judged


_JUDGED: dict[Path, tuple[tuple[int, int], bool]] = {}
"""Each file's judgement by its size and modification time: the slices of one run, and the
language server's passes, judge each imported module once."""


def _judged(path: Path) -> bool:
    try:
        stat = os.stat(path)
    except OSError:
        return False
    key = (stat.st_size, stat.st_mtime_ns)
    kept = _JUDGED.get(path)
    if kept is not None and kept[0] == key:
        return kept[1]
    data = regular_bytes(path)
    judged = registers_for_importers(data)
    _JUDGED[path] = (key, judged)
    return judged


def _imported(table: Mapping[str, Binding]) -> dict[str, None]:
    """The modules a module's top-level imports name (`from app import deco` may name the
    module `app.deco`), in order, each once."""
    out: dict[str, None] = {}
    for first in table.values():
        binding: Binding | None = first
        while binding is not None:
            if binding.kind == "import" and binding.target is not None:
                module, attribute = binding.target
                out[module] = None
                if attribute:
                    out[f"{module}.{attribute}"] = None
            binding = binding.fallback
    return out
