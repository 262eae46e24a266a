"""Imports whose words a backslash spreads over lines, read by the import pattern as `ast` reads them.

`lint deps.py` alone (what pre-commit passes) checks the files importing it, found by a
pattern over every file's text (`import_scan`, kept by `import_index`), not by a parse. An
import written `from app.deps \\` then `import load_d` was read from its second line as
`import load_d`: the tool module was not found, and the resolver file alone passed while
`lint .` and the SDK refused it.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from mcpdeps.resolver_core import import_scan
from mcpdeps.resolver_core.import_scan import imported_modules, scan_imports
from published_shapes import CLEAN, check_both_ways

PATTERN = import_scan._IMPORT()

SPELLINGS = [
    "from app.deps \\\n    import load_d\n",
    "from app \\\n    .deps import load_d\n",
    "from \\\n    app.deps import load_d\n",
    "from app.deps import \\\n    load_d\n",
    "from app.deps \\\r\n    import load_d\r\n",
    "x = 1; from app.deps \\\n  import load_d\n",
    "import app . deps\n",
    "import \\\n  app.deps as d\n",
    "from . \\\n  . deps import load_d\n",
    "# a Windows path app\\deps\\\nfrom app.deps import load_d\n",
    "X = 1; \\\nfrom app.deps import load_d\n",
    "# a comment \\\nfrom app.deps \\\n    import load_d\n",
]
"""Continued imports, and a line ending in a backslash above an import it does not continue (a
comment's backslash continues nothing)."""


def _by_ast(text: str) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            out |= imported_modules([(0, a.name, []) for a in node.names], "app.sub.main", False)
        elif isinstance(node, ast.ImportFrom):
            imported = [(node.level, node.module or "", [a.name for a in node.names])]
            out |= imported_modules(imported, "app.sub.main", False)
    return out


@pytest.mark.parametrize("text", SPELLINGS)
def test_the_pattern_reads_a_continued_import_as_ast_does(text: str) -> None:
    assert _by_ast(text) <= imported_modules(scan_imports(text), "app.sub.main", False)


TOOL = (
    "from typing import Annotated\n\nfrom mcp.server import MCPServer\nfrom mcp.server.mcpserver import Resolve\n"
    '{statement}\nmcp = MCPServer("x")\n\n\n@mcp.tool()\n'
    "def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n    return d\n"
)


@pytest.mark.parametrize("statement", SPELLINGS[:3])
def test_the_resolver_file_alone_reports_what_the_sdk_refuses(tmp_path: Path, statement: str) -> None:
    """The SDK refuses `load_d(nope)`; `lint app/deps.py` alone finds the tool module importing
    it with a continued import, and reports MCPD002 as `lint .` does."""
    files = {"app/deps.py": CLEAN[0] + "\n", "app/main.py": TOOL.format(statement=statement)}
    check_both_ways(tmp_path, files, "import app.main", "app/deps.py")


def test_a_run_of_continued_lines_is_read_once() -> None:
    """Each place a statement may start is tried once, however many lines a backslash joins
    and however many of them spell `import` (`important_1 + \\`): no walk back over the run
    per occurrence."""
    tried = []

    class Counted:
        def match(self, text: str, place: int) -> re.Match[str] | None:
            tried.append(place)
            return PATTERN.match(text, place)

    lines = 2000
    text = (
        "x = (0 + \\\n"
        + "".join(f"    important_{i} + \\\n" for i in range(lines))
        + "    0)\nimport app.deps\n"
    )
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(import_scan, "_IMPORT", lambda: Counted())
        assert scan_imports(text) == [(0, "app.deps", [])]
    assert len(tried) == len(set(tried)) <= 2 * lines + 4
