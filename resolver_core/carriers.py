"""Which importers can reach what a module defines: the names that carry its definitions.

`lint deps.py` on a module that registers nothing reports what the tools running its
resolvers find there. What a run can locate in such a module, and what it depends on:

- what reading the module alone finds: its syntax, and its own suppression comments (judged
  on what is located in it);
- what a tool finds on a definition of the module, which the tool reaches only by evaluating
  a name bound to it: a resolver, a `Resolve(...)` alias, a class whose members resolve, a
  decorator (cycles, parameters and annotations, questions and awaits, resolver targets; the
  tool's own findings too when the registered function itself is defined there). Which tool
  reports one first (`lint_rules.per_file.owners`) is decided among those tools alone;
- never a duplicate tool name (it is located at a registration, and the module has none).

The analysis follows a definition only through names (`symbols.Names`: an import binding, a
module attribute, a name a statement binds to an expression naming it), never through a
value computed at run time. So a file's tools can reach a definition of the given module only
if its text spells a *carrier*: a name the given module binds at its top level, or one that
a top-level statement of an importer binds while spelling a carrier (`UserDep = d0.UserDep`,
`from deps import get_user as current`, `class Repo(d0.Base)`), to a fixpoint. A file that
imports the given module, directly or not, but spells no carrier, has no tool that can run
its resolvers, and its verdicts cannot change the given module's.

Read with a tokenizer of words, not parsed, but for the files that spell a carrier (their
statements say which names they bind). Over-counting costs a file checked, never a verdict:
every word of a file counts (comments, strings: a string annotation is evaluated), and a
top-level statement binds everything it assigns outside function and class bodies.
"""

from __future__ import annotations

import ast
import os
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator

from .lines import split_lines
from .prefilter import extent
from .source import tree_of
from .written_decorators import REGISTRARS, is_registration

_WORD = re.compile(r"\w+")

Reader = Callable[[str], "str | None"]
"""A file's text by its path (None: unreadable or undecodable)."""
Parser = Callable[[str, str], "tuple[ast.Module, frozenset[str]] | None"]
"""A file's tree and type parameters by its path and text (`parsed`, or a caller's that keeps
what it parses for the run's build: `SpellingSearch.parse`)."""


def parsed(path: str, text: str) -> tuple[ast.Module, frozenset[str]] | None:
    """What the builder reads from `text` (`source.tree_of`); None where it reads no tree."""
    read = tree_of(text, "")
    return read if isinstance(read, tuple) else None


def normalised(text: str) -> str:
    """A text as Python reads its names (NFKC: `ｒegister` is `register`)."""
    if not text.isascii() and not unicodedata.is_normalized("NFKC", text):
        return unicodedata.normalize("NFKC", text)
    return text


def words(text: str) -> frozenset[str]:
    """Every identifier-like word of a text, as Python normalises names."""
    return frozenset(_WORD.findall(normalised(text)))


def spells(text: str, word: str) -> bool:
    """Whether a (normalised) text holds `word` as a whole word: neither side touching a word
    character (`re`'s `\\w`: `_` or `str.isalnum`).

    Each occurrence is found with `str.find` and its neighbours looked at. A pattern opening
    with a look-behind has no literal prefix for `re` to search by, so it tried every position
    of the text, and most words tested occur only inside longer ones (`Repo1` in `Repo10`)."""
    at = text.find(word)
    while at >= 0:
        end = at + len(word)
        if (at == 0 or not _is_word(text[at - 1])) and (end == len(text) or not _is_word(text[end])):
            return True
        at = text.find(word, at + 1)
    return False


def _is_word(char: str) -> bool:
    """Whether `re` reads a character as `\\w`."""
    return char.isalnum() or char == "_"


def defined(given: Iterable[str], read: Reader, parse: Parser = parsed) -> set[str] | None:
    """The names the `given` files bind at their top level, but by importing: the first carriers.

    None when a given file cannot be read or parsed, or defines a module `__getattr__`
    (any attribute of it may be a definition): every importer may reach it."""
    carriers: set[str] = set()
    for path in given:
        text = read(path)
        parse_ = parse(path, text) if text is not None else None
        if parse_ is None or text is None:
            return None
        for stmt in parse_[0].body:
            carriers.update(_bound(stmt, imports=False, globals_="global" in text))
    return None if "__getattr__" in carriers else carriers


def reaching(
    carriers: set[str],
    importers: Iterable[str],
    read: Reader,
    readers: Callable[[str], set[str]],
    parse: Parser = parsed,
    given: Iterable[str] = (),
) -> set[str]:
    """The `importers` that spell a carrier, starting from `carriers` (`defined`).

    A module's namespace listed (`inspect.getmembers(tools, ...)`, `vars(tools)`,
    `module_members.py`) reaches every function it binds without spelling one: an importer
    spelling a listing and the name of a module binding carriers (one of the `given` files, or
    an importer that does) is kept too.

    `readers(path)`: the files importing `path`, directly or not. A name an importer binds can
    only be spelt by those: each file is compared with the names of the files it imports."""
    carriers = set(carriers)
    texts = {path: normalised(text) for path in importers if (text := read(path)) is not None}
    units: dict[str, list[tuple[set[str], frozenset[str]]]] = {}
    carried: dict[str, set[str]] = {}
    read_with: dict[str, int] = {}  # how many carriers each unit was last read with
    pending = [(set(carriers), set(texts))]
    listing = {p for p, text in texts.items() if any(spells(text, w) for w in _LISTING)}

    def listers(path: str) -> tuple[set[str], set[str]]:
        """`path`'s module name, and its importers that may list its namespace: spelling a
        listing, or passing the module on as a value (`register_tools(mcp, [tools])`, a
        helper's namespace loop: `passed_members.py`)."""
        word = _module_words(path)
        importers = readers(path) - {path}
        return word, {p for p in importers & texts.keys() if p in listing or _passes(texts[p], word)}

    pending += [listers(path) for path in given]  # `inspect.getmembers(deps, ...)`: its name carries
    while pending:
        new, candidates = pending.pop()
        for path in sorted(candidates & texts.keys()):
            if path not in units and any(spells(texts[path], w) for w in new):
                parse_ = parse(path, texts[path])
                units[path] = _units(texts[path], parse_[0] if parse_ is not None else None)
        for path, unit in units.items():
            if read_with.get(path) == len(carriers):
                continue  # read with these carriers already (they only grow): nothing more
            read_with[path] = len(carriers)
            more = _carried(unit, carriers) - carried.get(path, set())
            if more:
                carried.setdefault(path, set()).update(more)
                pending.append((more - carriers, readers(path) - {path}))
                pending.append(listers(path))
                carriers |= more
    return set(units)


_LISTING = ("getmembers", "vars", "__dict__")
"""The words of the listings of a module's namespace `module_members.py` follows."""


def _passes(text: str, names: set[str]) -> bool:
    """Whether a text spells one of `names` as a value handed on: an item of a collection or an
    argument (`[tools]`, `(mcp, app.tools)`, `modules=[tools, more]`). More, never fewer.

    What `[\\[(,=]\\s*(?:\\w+\\.)*NAME\\s*[\\]),]` finds, read from each occurrence of the name
    (as `spells`): the closing side matched there, the opening side walked back."""
    for name in names:
        at = text.find(name)
        while at >= 0:
            if _CLOSES.match(text, at + len(name)) is not None and _opens_before(text, at):
                return True
            at = text.find(name, at + 1)
    return False


_CLOSES = re.compile(r"\s*[\]),]")


def _opens_before(text: str, at: int) -> bool:
    """Whether the text before `at` ends with `[\\[(,=]\\s*(?:\\w+\\.)*`: an opening bracket, comma
    or `=`, blanks, then dotted names. Each dotted name is walked back whole: a shorter one would
    leave a word character before it, which none of the openings is."""
    while at > 0 and text[at - 1] == ".":
        start = at - 1
        while start > 0 and _is_word(text[start - 1]):
            start -= 1
        if start == at - 1:
            return False
        at = start
    while at > 0 and text[at - 1].isspace():
        at -= 1
    return at > 0 and text[at - 1] in "[(,="


def _module_words(path: str) -> set[str]:
    """The name a module is imported by: its file's stem, or its package's folder name."""
    stem = os.path.splitext(os.path.basename(path))[0]
    return {os.path.basename(os.path.dirname(path)) if stem == "__init__" else stem}


def _units(text: str, tree: ast.Module | None) -> list[tuple[set[str], frozenset[str]]]:
    """Each top-level statement of a module (`tree`, parsed from `text`): the names it binds
    and the words it spells. A module that cannot be parsed binds nothing its importers can read."""
    if tree is None:
        return []
    lines = split_lines(text)
    globals_ = "global" in text
    return [(_bound(stmt, imports=True, globals_=globals_), _spelled(stmt, lines)) for stmt in tree.body]


def _carried(units: list[tuple[set[str], frozenset[str]]], carriers: set[str]) -> set[str]:
    """The names a module's top-level statements bind while spelling a carrier (or one of the
    names such a statement binds), to a fixpoint."""
    out: set[str] = set()
    grew = True
    while grew:
        grew = False
        for bound, spelt in units:
            if not bound <= out and not (spelt.isdisjoint(carriers) and spelt.isdisjoint(out)):
                out |= bound
                grew = True
    return out


def _spelled(stmt: ast.stmt, lines: list[str]) -> frozenset[str]:
    """The words of a statement's lines, its decorators included (more, never fewer), but for
    the functions a function or class body registers where it defines them (`@server.tool()`
    inside `def register(server)`) and names nowhere else: their tools are that module's
    wherever the function is called (`Tool.origin`), and nothing else can reach them."""
    first, last = extent(stmt)
    spelt = words("\n".join(lines[first - 1 : last]))
    if not isinstance(stmt, _DEFINITIONS) or spelt.isdisjoint(REGISTRARS):
        return spelt
    inner = [n for n in ast.walk(stmt) if n is not stmt and isinstance(n, _FUNCTIONS) and _registered(n)]
    skipped: set[int] = set()
    for node in inner:
        start, end = extent(node)
        skipped.update(range(start, end + 1))
    rest = words("\n".join(line for n, line in enumerate(lines[first - 1 : last], first) if n not in skipped))
    for node in inner:
        if node.name in rest:  # named elsewhere (`return tool`): it may be reached through the function
            start, end = extent(node)
            rest |= words("\n".join(lines[start - 1 : end]))
    return rest


_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _registered(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether a decorator of the function registers it (`@x.tool()`, `@x.prompt`, `@x.resource(...)`)."""
    return any(is_registration(deco) for deco in node.decorator_list)


def _bound(stmt: ast.stmt, *, imports: bool, globals_: bool) -> set[str]:
    """The module-level names a top-level statement may bind: its targets outside function and
    class bodies (blocks of `if`, `try`, `with`, loops included), the functions and classes it
    defines, what it imports (`imports`), and names declared `global` anywhere in it (looked
    for when the module spells `global`)."""
    out: set[str] = set()
    for node in _outside_bodies(stmt, globals_):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            out.add(node.name)
        elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            out.add(node.id)
        elif isinstance(node, ast.Global):
            out.update(node.names)
        elif isinstance(node, ast.MatchAs | ast.MatchStar) and node.name:
            out.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            out.add(node.rest)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            out.add(node.name)
        elif imports and isinstance(node, ast.Import | ast.ImportFrom):
            out.update(a.asname or a.name.partition(".")[0] for a in node.names if a.name != "*")
    return out


def _outside_bodies(stmt: ast.stmt, globals_: bool) -> Iterator[ast.AST]:
    """The nodes of a statement, not descending into function, lambda or class bodies but for
    their `global` statements (which bind module names when the function runs)."""
    todo: list[ast.AST] = [stmt]
    while todo:
        node = todo.pop()
        yield node
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            if globals_:
                todo.extend(n for n in ast.walk(node) if isinstance(n, ast.Global))
            continue
        todo.extend(ast.iter_child_nodes(node))
