"""The imports a module's text can make, read with a pattern instead of a parse.

Finding the files that import a given one (`companions`) and grouping the files a
`register(server)` function couples (`lint_rules.coupling`) read the imports of every file of
a project, and a parse of each would cost most of a one-file lint. The pattern may list too
much (an `import` line inside a string), which only costs a check, never too little.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

_IMPORT = re.compile(
    r"(?:^|[;:])[ \t]*(?:"
    r"from(?=[ \t.])[ \t]*(\.*)[ \t]*([\w.]*)[ \t]+import\b[ \t]*(\([^)]*\)|(?:[^\n;#\\]|\\\r?\n)*)"
    r"|import[ \t]+((?:[^\n;#\\]|\\\r?\n)*))",
    re.M,
)
"""An `import` or `from ... import` statement: at a line's start, or after `;` or `:` (one-line
blocks). Also matches such lines inside strings: more importers, never fewer."""

Import = tuple[int, str, list[str]]  # a list of three in the index's JSON
"""(relative level, module as written, names imported from it); `import a.b` is (0, "a.b", [])."""


def scan_imports(text: str) -> list[Import]:
    """The imports a module's text can make, read without parsing it."""
    out: list[Import] = []
    for m in _import_matches(text):
        if m.group(4) is not None:
            out.extend((0, name, []) for name in _names(m.group(4)))
        else:
            out.append((len(m.group(1)), m.group(2), _names(m.group(3))))
    return out


def _import_matches(text: str) -> Iterator[re.Match[str]]:
    """`_IMPORT.finditer(text)`, trying only the lines that hold `import`.

    A match starts at a line's start or at a `;` or `:` of the line that holds its `import`
    keyword (nothing between can cross a line), so those places are tried in order, skipping
    what a match took, as `finditer` would. Typed code has a `:` on most lines, and the search
    at every position of a cold project's text was most of a one-file lint's importer lookup."""
    end = 0
    at = text.find("import")
    while at >= 0:
        start = text.rfind("\n", 0, at) + 1
        stop = text.find("\n", at)
        stop = len(text) if stop < 0 else stop
        places = [start, *(i for i in range(start, stop) if text[i] in ";:")]
        for place in places:
            if place < end:
                continue
            m = _IMPORT.match(text, place)
            if m is not None:
                end = m.end()
                yield m
        at = text.find("import", max(end, stop))


def _names(raw: str) -> list[str]:
    """`a.b as c, d` (parentheses, continuations, comments inside parentheses) -> [a.b, d]."""
    raw = re.sub(r"#[^\n]*", "", raw).replace("\\\n", " ").replace("(", " ").replace(")", " ")
    out = []
    for part in raw.split(","):
        words = part.split()
        if words and re.fullmatch(r"[\w.]+", words[0]):
            out.append(words[0])
    return out


def imported_modules(imports: Iterable[Import], module: str, is_package: bool) -> set[str]:
    """Every module name an import of a module (named `module`) can load: each dotted prefix
    (`import a.b.c` runs `a` and `a.b` too), and `from p import x`'s `p.x` (a submodule)."""
    package = module if is_package else module.rpartition(".")[0]
    out: set[str] = set()
    for level, name, names in imports:
        if level:
            parts = package.split(".") if package else []
            if level - 1 > len(parts):
                continue
            base = ".".join(parts[: len(parts) - (level - 1)])
            name = f"{base}.{name}".strip(".") if name else base
        if not name:
            continue
        pieces = name.split(".")
        out.update(".".join(pieces[: i + 1]) for i in range(len(pieces)))
        out.update(f"{name}.{n}" for n in names if n != "*")
    return out
