"""The imports a module's text can make, read with a pattern instead of a parse.

Finding the files that import a given one (`companions`) and grouping the files a
`register(server)` function couples (`lint_rules.coupling`) read the imports of every file of
a project, and a parse of each would cost most of a one-file lint. The pattern may list too
much (an `import` line inside a string), which only costs a check, never too little.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping

from .patterns import compiled_when_used

_GAP = r"(?:[ \t]|\\\r?\n)"
"""Blanks between a statement's words, a backslash continuing the line among them."""
_IMPORT = compiled_when_used(
    rf"(?:^|[;:])[ \t]*(?:"
    rf"from(?=[ \t.\\]){_GAP}*((?:\.{_GAP}*)*)(\w+(?:{_GAP}*\.{_GAP}*\w+)*)?{_GAP}+"
    rf"import\b[ \t]*(\([^)]*\)|(?:[^\n;#\\]|\\\r?\n)*)"
    rf"|import(?=[ \t\\]){_GAP}+((?:[^\n;#\\]|\\\r?\n)*))",
    re.M,
)
"""An `import` or `from ... import` statement: at a line's start, or after `;` or `:` (one-line
blocks); its words may be spread over lines a backslash continues (`from app.deps \\` then
`import x`). Also matches such lines inside strings: more importers, never fewer."""
_BLANKS = compiled_when_used(r"[ \t\\\r\n]")
_DOTTED = compiled_when_used(r"\s*\.\s*")
_COMMENT = compiled_when_used(r"#[^\n]*")
_DOTTED_NAME = compiled_when_used(r"[\w.]+")

Import = tuple[int, str, list[str]]  # a list of three in the index's JSON
"""(relative level, module as written, names imported from it); `import a.b` is (0, "a.b", [])."""


EVERY = "**"
"""In an `Import`'s names: every module of the package, imported by a name built at run time."""
LAZY = "?"
"""In an `Import`'s names: the module is one a PEP 562 `__getattr__` may import when a name is
first asked of it (a string spelling it, `_spelled_modules`), not when the importing module runs."""

_BUILT = compiled_when_used(
    r"""(?:import_module|__import__)\(\s*f?(?:"|')(?:\{([\w.]*?)\.?__(?:name|package)__\})?([\w.]*)(\{|"|')"""
)
"""`importlib.import_module(f"app.tools.{name}")`, `("app.tools." + name)`, `(f".{name}", ...)`,
`(f"{__name__}.{name}")`, `__import__("app.deps", fromlist=[...])`: the text the name starts
with, and what comes after it."""
_LISTED = compiled_when_used(
    r"(?:iter_modules|walk_packages)\(\s*(?:path\s*=\s*)?(?:([\w.]*?)\.?__path__\b"
    r"|\[\s*(?:os\.path\.dirname|str)\((?:[\w.]*Path\()?__file__\b)"
)
"""`pkgutil.iter_modules(__path__)`, `walk_packages(pkg.__path__)`, `iter_modules([os.path.dirname(__file__)])`:
every module of a package (the module's own, for `__file__`)."""
_MODULE_STRING = compiled_when_used(r"""(["'])(\.*[A-Za-z_]\w*(?:\.\w+)*|\.+)\1""")
"""A string spelling a module (`".users"`, `'app.deps.users'`): in a module whose PEP 562
`__getattr__` imports by a name looked up at run time (`import_module(_LAZY[name], __name__)`
with `_LAZY = {"load_d": ".users"}`), any may be one it imports (`lazy_attributes.py`)."""


def scan_imports(text: str) -> list[Import]:
    """The imports a module's text can make, read without parsing it: its import statements,
    and the modules `dynamic_imports.py` follows (each module of a package, for a name built
    at run time)."""
    out: list[Import] = []
    for m in _import_matches(text):
        if m.group(4) is not None:
            out.extend((0, name, []) for name in _names(m.group(4)))
        else:
            level, module = _BLANKS().sub("", m.group(1)), _BLANKS().sub("", m.group(2) or "")
            out.append((len(level), module, _names(m.group(3))))
    if "import_module" in text or "__import__" in text or "iter_modules" in text or "walk_packages" in text:
        out += _built(text, out)
    if "__getattr__" in text and "import_module" in text:
        out += _spelled_modules(text)
    return out


def _spelled_modules(text: str) -> list[Import]:
    """Every string of the text that spells a module name, once, as a lazy import of it (`LAZY`:
    most name no project module, and the index keeps only those that do)."""
    out: list[Import] = []
    for name in dict.fromkeys(m.group(2) for m in _MODULE_STRING().finditer(text)):
        level = len(name) - len(name.lstrip("."))
        out.append((level, name[level:], [LAZY]))
    return out


def _built(text: str, imports: list[Import]) -> list[Import]:
    """The modules imported by a name built at run time, as every module of a package."""
    out: list[Import] = []
    for m in _BUILT().finditer(text):
        owner, name, after = m.groups()
        built = after == "{" or not text[m.end() :].lstrip().startswith((")", ","))
        if owner and name.startswith("."):  # `f"{pkg.__name__}.{name}"`: pkg's modules
            out += _every(owner, imports)
            continue
        level = len(name) - len(name.lstrip("."))
        name = name.lstrip(".")
        if owner is not None and not name:  # `f"{__name__}.{name}"`: the package's modules
            out.append((1, "", [EVERY]))
        elif not built:
            out.append(
                (level, name.rpartition(".")[0], [name.rpartition(".")[2]]) if level else (0, name, [])
            )
        elif not name or name.endswith("."):
            out.append((level, name.rstrip("."), [EVERY]))
    for m in _LISTED().finditer(text):
        out += _every(m.group(1) or "", imports)
    return out


def _every(package: str, imports: list[Import]) -> list[Import]:
    """Every module of `package` as written beside `__path__` or `__name__`: the module's own
    (nothing written), a dotted name, or a name one of its imports binds (`from app import tools`)."""
    if not package:
        return [(1, "", [EVERY])]
    found = [
        (level, f"{mod}.{package}".strip("."), [EVERY]) for level, mod, names in imports if package in names
    ]
    return [(0, package, [EVERY]), *found]


def _import_matches(text: str) -> Iterator[re.Match[str]]:
    """`_IMPORT().finditer(text)`, trying only the lines that hold `import`.

    A match starts at the start of the line that holds its `import` keyword, of a line a
    backslash continues into it (`from app.deps \\` then `import x`), or at a `;` or `:`
    between, so those places are tried in order, skipping what a match took, as `finditer`
    would. Each line start is tried: a backslash ending a comment continues nothing. No place
    is tried twice (`tried`), so a long run of continued lines is walked once, not once per
    `import` in it. Typed code has a `:` on most lines, and the search at
    every position of a cold project's text was most of a one-file lint's importer lookup."""
    end = 0
    tried = 0
    at = text.find("import")
    while at >= 0:
        starts = [text.rfind("\n", 0, at) + 1]
        while starts[-1] > tried and _continued(text, starts[-1]):
            starts.append(text.rfind("\n", 0, starts[-1] - 1) + 1)
        stop = text.find("\n", at)
        stop = len(text) if stop < 0 else stop
        first = max(starts[-1], tried)
        places = sorted({*starts, *_separators(text, first, stop)})
        for place in places:
            if place < end or place < tried:
                continue
            m = _IMPORT().match(text, place)
            if m is not None:
                end = m.end()
                yield m
        tried = stop
        at = text.find("import", max(end, stop))


def _separators(text: str, start: int, stop: int) -> Iterator[int]:
    """Where a `;` or `:` stands in `text[start:stop]` (found in C: an import line seldom has one)."""
    for separator in ";:":
        at = text.find(separator, start, stop)
        while at >= 0:
            yield at
            at = text.find(separator, at + 1, stop)


def _continued(text: str, start: int) -> bool:
    """Whether the line starting at `start` follows one a backslash ends."""
    return text.endswith("\\\n", 0, start) or text.endswith("\\\r\n", 0, start)


def may_import_name(text: str, name: str) -> bool:
    """Whether an import statement of `text` may bind `name` (`from x import name`, `... as
    name`, `import name`), or binds every name of a module (`from x import *`). Read from the
    statements' text: says yes too often (the word in a comment of one), never no for one
    that does."""
    word = re.compile(rf"(?<![\w.]){re.escape(name)}(?!\w)|\*")
    return any(word.search(m.group(0)) is not None for m in _import_matches(text))


def _names(raw: str) -> list[str]:
    """`a.b as c, d` (parentheses, continuations, comments inside parentheses) -> [a.b, d];
    `*` for a star import (`imported_modules`)."""
    if "#" in raw:
        raw = _COMMENT().sub("", raw)
    raw = raw.replace("\\\n", " ").replace("(", " ").replace(")", " ")
    if " ." in raw or ". " in raw:  # `import a . b`: Python reads `a.b`
        raw = _DOTTED().sub(".", raw)
    out = []
    for part in raw.split(","):
        words = part.split()
        if words and (words[0] == "*" or _DOTTED_NAME().fullmatch(words[0])):
            out.append(words[0])
    return out


def imported_modules(imports: Iterable[Import], module: str, is_package: bool) -> set[str]:
    """Every module name an import of a module (named `module`) can load: each dotted prefix
    (`import a.b.c` runs `a` and `a.b` too), `from p import x`'s `p.x` (a submodule), and
    `from p import *`'s every module of `p` (`p.**`, `EVERY`).

    Python's star import of a package imports each submodule its `__all__` names (`__all__ =
    ["users"]` binds the module `users`), which only the package's text says: reading `p`'s
    `__all__` here would make each file's imports depend on another file's. Every module of
    `p` is more, never fewer, and nothing for a module that is no package. Not in
    `loaded_modules`: the order `__all__` runs them in is not the text's (`import_order`)."""
    out: set[str] = set()
    for imported in imports:
        found = loaded_modules(imported, module, is_package)
        out.update(found)
        if found and "*" in imported[2]:
            out.add(f"{found[-1]}.{EVERY}")
    return out


def loaded_modules(imported: Import, module: str, is_package: bool) -> list[str]:
    """The module names one import of a module (named `module`) can load, in the order Python
    runs them: `import a.b.c` runs `a`, `a.b`, `a.b.c`; `from p import x, y` runs `p`, then
    `p.x` and `p.y` when they are submodules (`import_order` follows them in this order)."""
    level, name, names = imported
    if level:
        package = module if is_package else module.rpartition(".")[0]
        parts = package.split(".") if package else []
        if level - 1 > len(parts):
            return []
        base = ".".join(parts[: len(parts) - (level - 1)])
        name = f"{base}.{name}".strip(".") if name else base
    if not name:
        return []
    pieces = name.split(".")
    return [".".join(pieces[: i + 1]) for i in range(len(pieces))] + [
        f"{name}.{n}" for n in names if n not in ("*", LAZY)
    ]


def found_under(target: str, by_name: Mapping[str, list[str]]) -> Iterator[str]:
    """The files `by_name` holds for a module name `imported_modules` gave: those under the
    package for `pkg.**` (`EVERY`: a name built at run time), else the name's own."""
    if not target.endswith(f".{EVERY}"):
        yield from by_name.get(target, ())
        return
    prefix = target[: -len(EVERY)]
    for name, files in by_name.items():
        if name.startswith(prefix):
            yield from files
