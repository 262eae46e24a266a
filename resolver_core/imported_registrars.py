"""The helpers a module imports that register what they are handed, scanned with it.

`def expose(fn): mcp.add_tool(fn)` in `app/deco.py`, `tool = mcp.tool()` in `app/kit.py`:
`@expose` and `@tool` over a def in `app/notes.py` register that def, and its verdicts are
`notes.py`'s (`Tool.origin`). They are found from the helper's registration site
(`reach.Reach.through_parameter`), so the helper must be scanned wherever `notes.py` is
built: in a slice or a worker holding `notes.py` but not `deco.py`, in `lint notes.py`. A
module that is imported is otherwise only read for the names it binds; this reads the text
of each project module a built file imports (`import_scan`, no parse) and scans those that
may register a function they are handed (`prefilter.may_register_handed`, which says yes too
often: a scan that finds nothing). The helper's own record depends on no caller then, and
no build needs a helper and all of its callers together.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from .import_scan import imported_modules, scan_imports
from .prefilter import may_register_handed, might_contribute
from .project import Project
from .source import ParsedModule, regular_bytes


class ImportedRegistrars:
    """`registrars` of a build's modules, each imported module's text judged once."""

    def __init__(self, project: Project) -> None:
        self.project = project
        self._judged: dict[Path, bool] = {}

    def registrars(self, modules: Iterable[ParsedModule]) -> Iterator[ParsedModule]:
        """The project modules `modules` import that may register a handed function, each
        once, loaded (an import edge of the importer, as following the import would be)."""
        seen: set[Path] = set()
        for module in modules:
            text = module.text
            if module.tree is None or text is None or "import" not in text:
                continue
            for name in sorted(imported_modules(scan_imports(text), module.name, module.is_package)):
                spec = self.project.spec(name, module)
                if spec is None or spec.origin is None or not spec.source:
                    continue
                path = Path(spec.origin).absolute()
                if path == module.path or not self._registers_handed(path):
                    continue
                found = self.project.find(name, module)
                if found is not None and found.path not in seen:
                    seen.add(found.path)
                    yield found

    def _registers_handed(self, path: Path) -> bool:
        judged = self._judged.get(path)
        if judged is None:
            data = regular_bytes(path)
            judged = data is not None and might_contribute(data) and may_register_handed(data)
            self._judged[path] = judged
        return judged
