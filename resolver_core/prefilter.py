"""What a module's text tells before its tree is walked: cheap tests that spare the walks.

- `might_contribute`: can a walked file declare anything the analysis reads? Files that
  cannot are not parsed (the byte prefilter).
- `passed_lines`: the lines where a call can pass one of some names as a whole argument
  (or a call of one: `register(MCPServer("x"))`), so `builder` walks only the statements
  holding them (`literal_loops.calls_on_lines`).
- `lines_in` / `lines_with`: the lines mentioning some names (the registration scan's
  tokens, the functions whose call sites are asked for), and `holds`: whether a statement
  has one of them.

Each test may say yes too often (the walk then looks and finds nothing), never no where
the walk would find something: verdicts do not depend on them.
"""

from __future__ import annotations

import ast
import bisect
import functools
import itertools
import operator
import re
import unicodedata
from collections.abc import Collection, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from .lines import split_lines
from .patterns import compiled_when_used

if TYPE_CHECKING:
    from .source import ParsedModule

_WORD = rb"[A-Za-z0-9_\x80-\xff]"
"""A byte of an identifier (non-ASCII bytes too: UTF-8 names)."""
_MARKERS = (
    re.compile(rb"MCPServer"),
    # `import mcp`, `# mcpdeps: ignore`, `mcp = ...`, `my_mcp`: not inside a word (`ibmcp1133`).
    re.compile(rb"mcp(?<![A-Za-z0-9\x80-\xff]mcp)"),
    # The name itself, not `Resolved`, `EntityResolver` or prose ("Resolve a path"): in code a
    # word can follow it on the same line only as `import Resolve as R`.
    re.compile(rb"Resolve(?<!" + _WORD + rb"Resolve)(?!" + _WORD + rb")(?![ \t]+(?!as[ \t])" + _WORD + rb")"),
    # `add_tool`, or the attribute `.tool` (`@mcp.tool`, `mcp.tool(`, `= mcp.tool`), not
    # `.tooltip`, `'json.tool'` or "json.tool from the shell": no word or quote can follow it in code.
    re.compile(rb"tool(?:(?<=add_tool)|(?<=\.tool)(?![A-Za-z0-9_\x80-\xff'\"])(?![ \t]+" + _WORD + rb"))"),
)
"""What a file must contain to declare a server, a resolver, a registration function, a tool
or a suppression. Each pattern starts with its bytes, which `re` looks for first: one pass
over the file per pattern (`.tool` and `add_tool` share one), faster than `in` for these."""
_SEARCHES = tuple(pattern.search for pattern in _MARKERS)


def might_contribute(data: bytes) -> bool:
    """Cheap byte-level prefilter: can this file declare servers, tools or resolvers at all?

    Files that cannot are not parsed (modules they could matter to still are, when an import
    is followed into them). Bytes with a NUL (UTF-16 or UTF-32 text) hide every marker, and
    Python refuses to import them: they are parsed, so the parser reports them."""
    return b"\0" in data or any(search(data) is not None for search in _SEARCHES)


_REGISTRATION_TOKENS = ((b".tool", True), (b".prompt", True), (b".resource", True), (b"add_tool", False))
"""Registration tokens, and whether one must end a word (`.tool`, never `.tools`). Found with
`bytes.find`: a regular expression alternating them was tried at every position of every file
(`may_register_in_functions` was a twentieth of a cold lint of 1,000 flat modules)."""
_WORD_CHARACTER = compiled_when_used(rb"\w")  # as `\b` reads bytes: ASCII letters, digits, `_`
_NESTED_LINE = compiled_when_used(rb"[ \t]|(?:async[ \t]+)?def[ \t]")
"""How a line holding a registration inside a function starts: indented, or a one-line `def`."""


def may_register_in_functions(data: bytes) -> bool:
    """Whether a file may register tools inside a function (`def register(server): @server.tool()`):
    a registration token on an indented line or on a `def` line.

    Such a registration couples files (which servers it lands on depends on callers anywhere),
    and a run that has one builds every file at once: knowing it before the first slice spares
    building that slice twice. Says yes too often (an indented module-level `if`); a no where
    the build finds one costs only that second build, never a different verdict."""
    return b"\0" in data or next(_nested_registrations(data), None) is not None


def may_register_for_callers(data: bytes) -> bool:
    """Whether a registration inside a function may land where its callers decide: on a server
    they pass (`def register(mcp: MCPServer)`, `self.server.tool()`), or, for a `@mcp.tool()`
    written in a function, in the arms of the calls reaching it, or on the server a factory
    makes and returns (each call's), or a registration its function returns (`return
    mcp.tool()(fn)` in a decorator: the builder couples the decorator's file and the files
    applying it, `Registration.returns`). Says no for a registration on a server its function
    makes and keeps (`server = MCPServer(...)`, not returned) and for a call registering on a
    module's own server (`mcp.add_tool(fn)` in a decorator: what it registers is its callers'
    tools, found where they are built). A wrong no costs a second build of the coupled files
    (on `helpers` 1,000 modules, every file again), never a verdict (`incremental._recoupled`)."""
    if b"\0" in data:
        return True
    for start in _nested_registrations(data):
        end = data.find(b"\n", start)
        line = data[start : len(data) if end < 0 else end]
        if _RETURN_LINE().match(line) is not None:
            return True
        receiver = _RECEIVER().search(line)
        if receiver is None:
            return True  # `add_tool(fn)`: an alias of a server's method, bound anywhere
        root = receiver.group(1)
        if re.search(rb"^[ \t]+" + re.escape(root) + rb"[ \t]*(?::[^=\n]*)?=(?!=)", data, re.M):
            if re.search(rb"^[ \t]+return[ \t]+" + re.escape(root) + rb"[ \t]*(?:#|$)", data, re.M):
                return True  # a factory's server, returned: its tools are each call's (`factory_results`)
            continue  # a server made in the function
        if root in (b"self", b"cls") or _DECORATOR_LINE().match(line) is not None:
            return True
        name = re.escape(root)
        bound = (
            rb"^(?:"
            + name
            + rb"[ \t]*(?::[^=\n]*)?=(?!=)|(?:from[ \t]+\S+[ \t]+)?import[ \t][^\n]*\b"
            + name
            + rb"\b)"
        )
        if re.search(bound, data, re.M) is None:
            return True  # a parameter, or a name bound elsewhere
    return False


_RETURN_LINE = compiled_when_used(rb"[ \t]+return[ \t(]")
"""A `return` statement's line (`return mcp.tool()(fn)`)."""
_RECEIVER = compiled_when_used(
    rb"([A-Za-z_\x80-\xff][\w\x80-\xff]*)(?:\.[\w\x80-\xff]+)*\.(?:tool|prompt|resource|add_tool)\b"
)
"""A registration's receiver, by the first name of its dotted spelling (`self` of
`self.server.tool()`)."""


_TOP_LINE = compiled_when_used(rb"^(?:@|[A-Za-z_\x80-\xff][\w.\x80-\xff]*[ \t]*\()", re.M)
"""A decorator or a call written at a line's start (`@mcp.tool()`, `mcp.add_tool(t)`,
`tool()(t)` with `tool = mcp.tool`)."""


def may_register_at_top(data: bytes) -> bool:
    """Whether a file may register a tool at its top level (not indented, so as it is imported):
    a decorator or a call statement at a line's start. Says yes too often (any top-level call);
    a no is sure: a registration in a function or a block is indented."""
    return b"\0" in data or _TOP_LINE().search(data) is not None


def _nested_registrations(data: bytes) -> Iterator[int]:
    """Where each line holding a registration inside a function starts."""
    return _registration_lines(data, _NESTED_LINE())


def _registration_lines(data: bytes, line: re.Pattern[bytes] | None) -> Iterator[int]:
    """Where each line holding a registration token and starting as `line` says (any way: None) starts."""
    for token, whole_word in _REGISTRATION_TOKENS:
        at = data.find(token)
        while at >= 0:
            end = at + len(token)
            if not whole_word or _WORD_CHARACTER().match(data, end) is None:
                start = data.rfind(b"\n", 0, at) + 1
                if line is None or line.match(data, start) is not None:
                    yield start
            at = data.find(token, end)


_BINDING_LINE = compiled_when_used(rb"[A-Za-z_\x80-\xff]" + _WORD + rb"*[ \t]*(?::[^=\n]*)?=(?!=)")
"""A module-level line binding a name (`tool = mcp.tool()`, `tool: Deco = ...`)."""
_COPIED_SIGNATURE = (b"wraps", b"update_wrapper", b"__wrapped__", b"__signature__", b"__annotations__")
"""What makes a function defined in a module take another's hints (`@functools.wraps(fn)`)."""
_DECORATOR_LINE = compiled_when_used(rb"[ \t]*@")


def may_register_handed(data: bytes) -> bool:
    """Whether a file may register a function it is handed (`def deco(fn): return
    mcp.tool()(fn)`, `mcp.add_tool(fn)` in a helper, a factory returning `mcp.tool()`, the
    SDK's decorator bound to a module-level name others import: `tool = mcp.tool()`): a
    registration inside a function written other than as a decorator line, one beside a
    wrapper copying another function's hints, or one a module-level name is bound to. A `register(server)` helper declaring its
    own tools (`@server.tool()` over each `def`) says no: their hints are its own module's.
    Says yes too often, never no for a file that does either."""
    if b"\0" in data:
        return True
    nested = False  # the registration lines are found once, for both kinds, until one says yes
    for start in _registration_lines(data, None):
        if _NESTED_LINE().match(data, start) is not None:
            if _DECORATOR_LINE().match(data, start) is None:
                return True
            nested = True
        if _BINDING_LINE().match(data, start) is not None:
            return True
    return nested and any(word in data for word in _COPIED_SIGNATURE)


def registers_for_importers(data: bytes | None) -> bool:
    """Whether a file may be a helper registering what its importers hand it: it passes the
    prefilter (`might_contribute`) and may register a handed function (`may_register_handed`).
    Asked of a run's given files (`lint_rules.coupling.registering_helpers`) and of the modules a
    build's files import (`imported_registrars`), alike."""
    return data is not None and might_contribute(data) and may_register_handed(data)


_ARGUMENT_END = re.compile(r"(?:\s|\\\r?\n|#[^\n]*\n)*[,)]")
"""What follows a name passed as a whole argument: blanks, comments and line continuations,
then `,` or `)` (tuples and parameter lists match too: that only costs a look). A comment
runs to its line's end, so there is one way to match a line of `#####`: no backtracking
through every way of splitting it."""
_PLAIN_END = re.compile(r"\s*[,)]")


def passed_lines(text: str, names: Sequence[str], called: Collection[str] = ()) -> list[int] | None:
    """The lines (sorted) where one of `names` may be a call's whole argument (`f(mcp)`,
    `f(x, server=mcp)`, `f(**mcp)`, across lines and comments); or a call of one of `called`
    (`register(MCPServer("x"))`, `f(server=get_mcp())`: a server made or handed out there),
    which are looked for in the same pass.

    Empty when no name is written plainly as `(name)`, `, name,` or `=name)` anywhere, and no
    call of one as an argument: the builder looks at calls only then. None when the text
    cannot be matched to the tree's names and lines (identifiers Python normalises, line
    breaks other than `\\n`/`\\r\\n`): the caller walks everything.
    """
    if not text.isascii() and not unicodedata.is_normalized("NFKC", text):
        return None
    if "\r" in text and text.count("\r") != text.count("\r\n"):
        return None
    offsets: list[int] = []
    plain = False
    calls: list[int] = []
    for name in [*names, *(n for n in called if n not in names)]:
        calling = name in called
        at = text.find(name)
        while at >= 0:
            end = at + len(name)
            # Not the tail of a longer name, nor an attribute (`x.mcp` is no plain name), nor
            # after `:` or `[` (`ctx: Context)`, `list[Item]`): an argument follows `(`, `,`, `=`.
            if at > 0 and not (text[at - 1].isalnum() or text[at - 1] in "_."):
                if _may_open_argument(text, at) and _ARGUMENT_END.match(text, end):
                    offsets.append(at)
                    plain = plain or (_PLAIN_END.match(text, end) is not None and _after_opener(text, at))
                elif calling and _CALL_OPENS.match(text, end) and _opens_argument(text, at):
                    calls.append(at)
            at = text.find(name, end)
    if not plain:
        offsets = []
    if not offsets and not calls:
        return []
    lines: list[int] = []
    line, last = 1, 0
    for at in sorted([*offsets, *calls]):
        line += text.count("\n", last, at)
        last = at
        lines.append(line)
    return lines


_CALL_OPENS = re.compile(r"\s*\(")


def _opens_argument(text: str, at: int) -> bool:
    """Whether a call's argument can start at `at`: `(` or `,` before it, or a keyword's `=`
    (`f(server=...)`), past blanks and line breaks (`register(\n    MCPServer("x"),\n)`);
    yes too when a comment may hide what is before it. Unlike `_may_open_argument`, a
    statement starting a line (`main()`) or an assignment (`mcp = MCPServer("x")`, `x: T =
    Field()`) is no argument: most calls are those, and each would be walked for nothing."""
    before, i, hidden = _before(text, at)
    if before in "(,\\" and before:
        return True
    if before == "=" and i > 0 and text[i - 1] not in "=<>!:":
        word, k, hidden_word = _before(text, i)
        if word.isidentifier() or word.isdigit():
            while k > 0 and (text[k - 1].isalnum() or text[k - 1] == "_"):
                k -= 1
            opener, _, hidden_opener = _before(text, k)
            return opener in ("(", ",") or hidden_opener
        return hidden_word
    return hidden


def _before(text: str, at: int) -> tuple[str, int, bool]:
    """The first character before `at` past blanks and line breaks ("" at the start), its
    index, and whether a comment may stand between (a line passed holds a `#`)."""
    i = at - 1
    while i >= 0 and text[i] in " \t\r\n\f":
        i -= 1
    if i < 0:
        return "", i, False
    crossed = text.rfind("\n", i, at) >= 0
    return text[i], i, crossed and "#" in text[text.rfind("\n", 0, i) + 1 : i + 1]


def _may_open_argument(text: str, at: int) -> bool:
    """Whether a call's argument can start at `at`: `(`, `,`, `=` or `**` before it on its
    line, past blanks; or only blanks back to the line's start (the line before may end in a
    comment or a `\\` continuation, which a look back cannot tell from a string)."""
    i = at - 1
    while i >= 0 and text[i].isspace():
        if text[i] == "\n":
            return True
        i -= 1
    return i >= 0 and text[i] in "(,=*"


def _after_opener(text: str, at: int) -> bool:
    """Whether `(`, `,` or `=` comes before `at`, past blanks."""
    i = at - 1
    while i >= 0 and text[i].isspace():
        i -= 1
    return i >= 0 and text[i] in "(,="


def holds(stmt: ast.stmt, lines: list[int], *, decorators: bool = True) -> bool:
    """Whether one of the sorted `lines` is in the statement: its decorators included, or (not
    `decorators`) from its own first line (a def's `def` line) on."""
    first, last = extent(stmt)
    at = bisect.bisect_left(lines, first if decorators else stmt.lineno)
    return at < len(lines) and lines[at] <= last


def holding(body: Sequence[ast.stmt], lines: list[int]) -> Iterator[ast.stmt]:
    """The statements of `body` (in order) holding one of the sorted `lines`: each line's
    statement found by bisection over the body (a module walked for a name or two has
    hundreds of statements and a handful of such lines)."""
    at = 0
    for line in lines:
        at = bisect.bisect_left(body, line, at, key=_last_line)
        while at < len(body) and extent(body[at])[0] <= line:  # (`a = 1; f()`: one line, two)
            yield body[at]
            at += 1


def _last_line(stmt: ast.stmt) -> int:
    return stmt.end_lineno or stmt.lineno


def extent(stmt: ast.stmt) -> tuple[int, int]:
    """A statement's first line (its first decorator's: decorators are written above the
    `def` or `class`, in order) and last line."""
    decorators = getattr(stmt, "decorator_list", None)
    first = decorators[0].lineno if decorators else stmt.lineno
    return first, stmt.end_lineno or stmt.lineno


def lines_in(module: ParsedModule, tokens: Sequence[str]) -> list[int]:
    """The numbers of the module's lines (as the tokenizer counts them) holding one of `tokens`."""
    text = module.text or ""
    if "\r" not in text and not module.other_breaks():
        # Lines end at "\n" only: one pass of one pattern over the text, lines counted between
        # matches (no list of lines, no Python loop over every line for every token).
        pattern = any_of(tokens)
        found: list[int] = []
        line, last = 1, 0
        for match in pattern.finditer(text):
            line += text.count("\n", last, match.start())
            last = match.start()
            if not found or found[-1] != line:
                found.append(line)
        return found
    if not module.lines and module.text is not None:
        module.lines = split_lines(module.text)
    lines = module.lines
    if len(tokens) == 1:
        token = tokens[0]
        return [n for n, line in enumerate(lines, 1) if token in line]
    return sorted({n for token in tokens for n, line in enumerate(lines, 1) if token in line})


def any_of(tokens: Iterable[str]) -> re.Pattern[str]:
    """One pattern matching any of `tokens` (`_alternatives`)."""
    return _alternatives(tuple(sorted(set(tokens))))


@functools.lru_cache(maxsize=32)
def _alternatives(tokens: tuple[str, ...]) -> re.Pattern[str]:
    """One pattern matching any of the sorted, distinct `tokens` (the same names are looked
    for in every module).

    Written as a tree of their common prefixes (`setup_(?:1(?:2|7)|3)`), not as one
    alternative per name: `re` tries every alternative at every position of the text, and a
    helper chain's modules look for a hundred names and more that mostly share a prefix; the
    tree tries each character once. It matches what a plain alternation, longest name first,
    matches, at the same places (`tests/test_lines_in.py`)."""
    return re.compile(_prefix_tree(list(tokens)))


_MAX_NESTING = 32
"""How deep prefix groups nest before the rest of a branch is a plain alternation: `re`
parses each group with a recursive call, and a few hundred levels exhaust the stack."""


def _prefix_tree(words: list[str], depth: int = 0) -> str:
    """A pattern for the sorted, distinct `words` that, at a position, matches the longest of
    them starting there: the branches of a level start with distinct characters, so at most
    one can match, and a word ending where a branch starts is its last, empty alternative."""
    if depth == _MAX_NESTING:
        return "|".join(map(re.escape, sorted(words, key=len, reverse=True)))
    ends_here = words[:1] == [""]
    branches = []
    for _, group in itertools.groupby(words[1:] if ends_here else words, key=operator.itemgetter(0)):
        same = list(group)
        prefix = _common_prefix(same[0], same[-1])  # sorted: the first and last differ soonest
        rest = [word[len(prefix) :] for word in same]
        branches.append(re.escape(prefix) + ("" if rest == [""] else f"(?:{_prefix_tree(rest, depth + 1)})"))
    return "|".join([*branches, ""] if ends_here else branches)


def _common_prefix(first: str, last: str) -> str:
    size = 0
    for a, b in zip(first, last, strict=False):
        if a != b:
            break
        size += 1
    return first[:size]


def lines_with(module: ParsedModule, tokens: Iterable[str]) -> list[int] | None:
    """`lines_in`, or None when the text's lines cannot be told from the tree's (a separator
    only `splitlines` knows, such as a form feed): then every statement holds one."""
    if module.other_breaks():
        return None
    return lines_in(module, sorted(tokens))
