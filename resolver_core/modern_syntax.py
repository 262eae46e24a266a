"""Reading syntax newer than the Python that runs mcpdeps (PEP 695, PEP 701 f-strings).

A project on Python 3.12 writes `def first[T](items: list[T]) -> T`, `class Box[T]: ...`,
`type UserDep = Annotated[str, Resolve(current_user)]` and `f"{row["name"]}"`: valid code
that the SDK registers without complaint, but that Python 3.10 and 3.11's `ast` refuse. A
syntax error there would be a false alarm, and every tool of the file would go
unchecked. So when `ast.parse` refuses a text, it is rewritten to source the older parser
reads, **keeping every line and UTF-8 column** (diagnostics point at the user's text, which
stays the one shown): type parameter lists become spaces, `type X[T] = v` becomes
`X          = v` (its `Assign` then replaced by a `TypeAlias` node, the shape Python 3.12's
parser gives, which the analyzer already treats as `get_origin` does: opaque), and a string
nested in an f-string with the f-string's own quote takes the other quote. What is blanked
is kept: each definition's type parameters go back on its node (`type_params`, as 3.12
has them) and their names on the module (`type_parameter_names`), so an annotation naming
`T` is a type variable, not an undefined name.

What cannot be rewritten this way (an f-string nesting both quotes, a backslash or a
comment inside its braces, syntax of 3.13 and later other than type parameter defaults)
stays a syntax error, whose message then says which Python reads the file and how to run
mcpdeps under it.
"""

from __future__ import annotations

import ast
import contextlib
import io
import re
import sys
import tokenize
from dataclasses import field

from .patterns import compiled_when_used
from .records import slotted

TYPE_PARAMETERS = re.compile(r"\b(?:def|class)\s+\w+\s*\[|^[ \t]*type\s+\w+\s*[\[=]", re.M)
"""What a text that declares type parameters or a `type` alias contains."""
NEWER_HINT = compiled_when_used(rf"{TYPE_PARAMETERS.pattern}|\b[rR]?[fF][rR]?['\"]", re.M)
"""What a text that may use newer syntax contains (checked before any rewrite is tried)."""

_STARTS = frozenset({tokenize.NEWLINE, tokenize.NL, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING})


# The nodes a restored tree gets: Python 3.12's own where the running `ast` has them, else
# stand-ins of the same name and fields. mypy checks for Python 3.10 and so skips the first
# branch (whose `ast.TypeVar`, `ast.TypeAlias` and `type_params` its 3.10 stubs lack).
if sys.version_info >= (3, 12):

    def _type_var(name: str) -> ast.type_param:
        return ast.TypeVar(name=name, bound=None)

    def _type_alias(name: ast.Name, type_params: list[ast.type_param], value: ast.expr) -> ast.stmt:
        return ast.TypeAlias(name=name, type_params=type_params, value=value)

    def _set_type_params(
        node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef, params: list[ast.type_param]
    ) -> None:
        node.type_params = params

else:

    class TypeAlias(ast.stmt):
        """Python 3.12's `ast.TypeAlias` (`type X[T] = v`), for older parsers' trees."""

        _fields = ("name", "type_params", "value")

        def __init__(self, name: ast.Name, type_params: list[ast.AST], value: ast.expr) -> None:
            super().__init__()
            self.name = name
            self.type_params = type_params
            self.value = value

    class TypeVar(ast.AST):
        """Python 3.12's `ast.TypeVar` (a type parameter: `T`, `*Ts` and `**P` alike here)."""

        _fields = ("name", "bound")

        def __init__(self, name: str, bound: ast.expr | None) -> None:
            super().__init__()
            self.name = name
            self.bound = bound

    def _type_var(name: str) -> ast.AST:
        return TypeVar(name=name, bound=None)

    def _type_alias(name: ast.Name, type_params: list[ast.AST], value: ast.expr) -> ast.stmt:
        return TypeAlias(name=name, type_params=type_params, value=value)

    def _set_type_params(
        node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef, params: list[ast.AST]
    ) -> None:
        # Python 3.10 and 3.11's definitions have no `type_params` field (nor do their stubs):
        # set as a plain attribute, where readers look for it (`getattr(node, "type_params", ())`).
        setattr(node, "type_params", params)  # noqa: B010 - a literal name the stubs do not declare


@slotted
class _Rewrite:
    """A text being rewritten, with what the rewrite took out."""

    text: str
    chars: list[str]
    line_starts: list[int]
    params: dict[tuple[int, int], list[str]] = field(default_factory=dict)
    """(line, UTF-8 column) of a `def`/`class` keyword -> its type parameter names."""
    aliases: dict[tuple[int, int], tuple[str, int, list[str]]] = field(default_factory=dict)
    """(line, UTF-8 column) of a `type` statement -> (name, the name's column, parameters)."""

    def offset(self, line: int, column: int) -> int:
        return self.line_starts[line - 1] + column

    def blank(self, start: int, end: int) -> None:
        """Spaces for `text[start:end]`, as many as its UTF-8 bytes; line breaks kept."""
        for i in range(start, end):
            c = self.text[i]
            self.chars[i] = c if c in "\r\n" else " " * len(c.encode())

    def byte_column(self, line: int, column: int) -> int:
        start = self.line_starts[line - 1]
        return len(self.text[start : start + column].encode())


def parse_newer(text: str, filename: str) -> tuple[ast.Module, frozenset[str]] | SyntaxError | None:
    """The tree of a text the running `ast` refused, read as Python 3.12 reads it, and the
    names of its type parameters. A `SyntaxError` when the newer syntax was read but something
    else is wrong (the error Python 3.12 reports, at the same place); None when the text
    holds no newer syntax this module reads (the running parser's error stands)."""
    if not NEWER_HINT().search(text):
        return None
    try:
        rewrite = _rewrite(text)
    except (SyntaxError, tokenize.TokenError, ValueError, RecursionError, MemoryError):
        return None
    source = "".join(rewrite.chars)
    try:
        tree = ast.parse(source, filename=filename)
    except SyntaxError as exc:
        return exc if source != text else None
    except (ValueError, RecursionError, MemoryError):
        return None
    names = {n for ps in rewrite.params.values() for n in ps}
    names.update(n for _, _, ps in rewrite.aliases.values() for n in ps)
    _restore(tree, rewrite)
    return tree, frozenset(names)


class _Newer(SyntaxError):
    """A construct of Python 3.12 that has no same-length spelling older parsers read."""


def hint(text: str) -> str:
    """What a syntax error's message adds when the file may be newer Python than this one: which
    Python read it, and how to run mcpdeps under the project's own."""
    if sys.version_info >= (3, 12):
        return ""
    try:
        _swap_nested_quotes(_Rewrite(text, list(text), [0]))
    except _Newer:
        running = f"{sys.version_info[0]}.{sys.version_info[1]}"
        return (
            f" (read by Python {running}, which mcpdeps runs on; if the project targets Python 3.12"
            " or later, run mcpdeps under that Python: `uvx --python 3.12 mcpdeps lint`)"
        )
    except (SyntaxError, RecursionError):
        pass
    return ""


_NATIVE = sys.version_info >= (3, 12)
"""Whether the running `ast` reads type parameters itself (a name, so mypy checks both ways)."""
_GENERIC_DEF = compiled_when_used(r"(?:def|class)\s+\w+\s*\[")
_ALIAS = compiled_when_used(r"^[ \t]*type\s+\w+\s*[\[=]", re.M)


def type_parameter_names(tree: ast.Module, text: str) -> frozenset[str]:
    """The type parameter names a tree parsed natively (Python 3.12+) declares.

    Older parsers read no type parameters (their nodes have no `type_params`), so there is
    nothing to look for. Newer ones walk the tree only when the text may declare some, asked
    with `str` searches and two patterns that match a superset of `TYPE_PARAMETERS`'s texts:
    its leading `\\b` alternation made the engine try every position of every file (a
    twentieth of a cold lint of 1,000 modules; these take a seventh of that).
    """
    if not _NATIVE or "[" not in text:
        return frozenset()
    if not _GENERIC_DEF().search(text) and not ("type" in text and _ALIAS().search(text)):
        return frozenset()
    return frozenset(
        p.name
        for node in ast.walk(tree)
        for p in getattr(node, "type_params", ())
        if isinstance(getattr(p, "name", None), str)
    )


def _rewrite(text: str) -> _Rewrite:
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    rewrite = _Rewrite(text, list(text), starts)
    tokens: list[tokenize.TokenInfo] = []
    with contextlib.suppress(tokenize.TokenError, SyntaxError):
        # An unclosed bracket ends the tokens at the end of the text: what came before is read,
        # and the parser then reports the bracket, as Python 3.12 does.
        tokens.extend(tokenize.generate_tokens(io.StringIO(text).readline))
    for i, tok in enumerate(tokens):
        if tok.type != tokenize.NAME or i + 2 >= len(tokens):
            continue
        name, after = tokens[i + 1], tokens[i + 2]
        if name.type != tokenize.NAME:
            continue
        where = (tok.start[0], rewrite.byte_column(*tok.start))
        if tok.string in ("def", "class") and after.string == "[":
            end, params = _bracket(tokens, i + 2)
            rewrite.blank(rewrite.offset(*after.start), rewrite.offset(*tokens[end].end))
            rewrite.params[where] = params
        elif tok.string == "type" and (
            i == 0 or tokens[i - 1].type in _STARTS or tokens[i - 1].string == ";"
        ):
            params = []
            end = i + 1
            if after.string == "[":
                end, params = _bracket(tokens, i + 2)
            last = tokens[end]
            if end + 1 >= len(tokens) or tokens[end + 1].string != "=":
                continue  # `type(x)`, `type = 3`: the builtin or a name, not a statement
            name_column = rewrite.byte_column(*name.start)
            start = rewrite.offset(*tok.start)
            rewrite.blank(start, rewrite.offset(*last.end))
            rewrite.chars[start : start + len(name.string)] = list(name.string)
            rewrite.aliases[where] = (name.string, name_column, params)
    _swap_nested_quotes(rewrite)
    return rewrite


def _bracket(tokens: list[tokenize.TokenInfo], at: int) -> tuple[int, list[str]]:
    """The index of the `]` closing the `[` at `at`, and the parameter names inside."""
    depth, expect = 0, True
    names: list[str] = []
    for j in range(at, len(tokens)):
        s = tokens[j].string
        if s in "([{" and tokens[j].type == tokenize.OP:
            depth += 1
        elif s in ")]}" and tokens[j].type == tokenize.OP:
            depth -= 1
            if depth == 0:
                return j, names
        elif depth == 1 and s == ",":
            expect = True
        elif depth == 1 and expect and tokens[j].type == tokenize.NAME:
            names.append(s)
            expect = False
    raise SyntaxError("unclosed type parameter list")


_STRING = compiled_when_used(r"(?<![\w.])([rRbBuUfF]{0,2})('''|\"\"\"|'|\")")


def _swap_nested_quotes(rewrite: _Rewrite) -> None:
    """Give each string nested in an f-string's braces with that f-string's quote the other
    quote (PEP 701 allows the same; earlier parsers end the f-string there). Raises
    SyntaxError where no same-length rewrite exists."""
    text = rewrite.text
    i = 0
    while i < len(text):
        c = text[i]
        if c == "#":
            i = text.find("\n", i)
            i = len(text) if i < 0 else i
            continue
        m = _STRING().match(text, i) if c in "rRbBuUfF'\"" else None
        if m is None or (i > 0 and (text[i - 1].isalnum() or text[i - 1] == "_")):
            i += 1
            continue
        i = _string_end(rewrite, m.start(2), m.group(2), m.group(1).lower(), frozenset())


def _string_end(rewrite: _Rewrite, at: int, quote: str, prefix: str, outer: frozenset[str]) -> int:
    """Scan the string whose quote starts at `at`; returns the index after its end."""
    text, raw, f = rewrite.text, "r" in prefix, "f" in prefix
    i = at + len(quote)
    while i < len(text):
        if text.startswith(quote, i):
            return i + len(quote)
        c = text[i]
        if c == "\\" and outer:
            raise _Newer("a backslash in an f-string's braces")
        if (c == "\\" and not raw) or (f and text.startswith("{{", i)):
            i += 2
        elif f and c == "{":
            i = _braces(rewrite, i + 1, outer | {quote})
        else:
            i += 1
    raise SyntaxError("unterminated string")


def _braces(rewrite: _Rewrite, i: int, enclosing: frozenset[str]) -> int:
    """Scan an f-string replacement field from `i` (after `{`) to after its `}`."""
    text, depth = rewrite.text, 0
    while i < len(text):
        c = text[i]
        if c in "([{":
            depth += 1
        elif c in ")]" or (c == "}" and depth > 0):
            depth -= 1
        elif c == "}":
            return i + 1
        elif c == ":" and depth == 0 and not text.startswith(":=", i):
            return _format_spec(rewrite, i + 1, enclosing)
        elif c in "\\#":
            raise _Newer("a backslash or comment in an f-string's braces")
        elif c in "'\"":
            quote = _quote_at(text, i)
            prefix = _prefix_before(text, i).lower()
            if quote[0] in {q[0] for q in enclosing}:
                other = "'" if quote[0] == '"' else '"'
                if any(q[0] == other for q in enclosing):
                    raise _Newer("an f-string nesting both quotes")
                end = _string_end(rewrite, i, quote, prefix, enclosing)
                for k in (*range(i, i + len(quote)), *range(end - len(quote), end)):
                    rewrite.chars[k] = other
                i = end
                continue
            i = _string_end(rewrite, i, quote, prefix, enclosing)
            continue
        i += 1
    raise SyntaxError("unterminated f-string field")


def _format_spec(rewrite: _Rewrite, i: int, enclosing: frozenset[str]) -> int:
    """Scan a format spec (`{x:>{width}}`) to after its field's `}`."""
    text = rewrite.text
    while i < len(text):
        if text[i] == "{":
            i = _braces(rewrite, i + 1, enclosing)
        elif text[i] == "}":
            return i + 1
        else:
            i += 1
    raise SyntaxError("unterminated f-string format spec")


def _quote_at(text: str, i: int) -> str:
    for quote in ("'''", '"""', text[i]):
        if text.startswith(quote, i):
            return quote
    return text[i]


def _prefix_before(text: str, i: int) -> str:
    j = i
    while j > 0 and text[j - 1] in "rRbBuUfF" and i - j < 2:
        j -= 1
    return text[j:i] if j == 0 or not (text[j - 1].isalnum() or text[j - 1] == "_") else ""


def _restore(tree: ast.Module, rewrite: _Rewrite) -> None:
    """Put back what the rewrite blanked: type parameters on their definitions, and each
    `type` statement as the `TypeAlias` node Python 3.12's parser makes."""
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            keyword = _keyword_position(node, rewrite)
            params = rewrite.params.get(keyword)
            if params:
                _set_type_params(node, [_type_var(p) for p in params])
        body = getattr(node, "body", None)
        if not rewrite.aliases or not isinstance(body, list):
            continue
        for lst in (body, getattr(node, "orelse", []), getattr(node, "finalbody", [])):
            for k, stmt in enumerate(lst):
                alias = rewrite.aliases.get((getattr(stmt, "lineno", 0), getattr(stmt, "col_offset", -1)))
                if alias is not None and isinstance(stmt, ast.Assign):
                    lst[k] = _alias_node(stmt, *alias)


def _keyword_position(node: ast.stmt, rewrite: _Rewrite) -> tuple[int, int]:
    """Where the `def`/`class` keyword of a definition is (after its decorators, `async`)."""
    line, column = node.lineno, node.col_offset
    if isinstance(node, ast.AsyncFunctionDef):
        start = rewrite.line_starts[line - 1]
        raw = rewrite.text[start:].encode()[column:]
        column += len(raw) - len(raw[len(b"async") :].lstrip())
    return line, column


def _alias_node(stmt: ast.Assign, name: str, column: int, params: list[str]) -> ast.stmt:
    target = ast.Name(id=name, ctx=ast.Store())
    ast.copy_location(target, stmt.targets[0])
    target.col_offset = column
    target.end_col_offset = column + len(name.encode())
    node = _type_alias(target, [_type_var(p) for p in params], stmt.value)
    return ast.copy_location(node, stmt)
