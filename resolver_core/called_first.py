"""Which helper modules an entry point calls before a given one, read before anything is built.

`lint app/a.py` alone checks the helpers whose registrations may come before a.py's: those
shown before it, and (`companions._before_last`) those an entry point calls first. When
`app/main.py` calls `b.register(mcp)` and then `a.register(mcp)`, b's tools run first
(`call_order.py`), so `app/b.py` must be read for the duplicate name to be located in
`app/a.py`, as `lint .` locates it. The callers are the files importing both; each is
parsed once and its calls are mapped to the modules they reach through its imports (`b`
of `from app import b`, `register_b` of `from app.b import register as register_b`). A
call of a later module somewhere before the last call of a given one is enough: reading a
helper too many costs time, never a verdict.

A caller may reach the given file through a relay, a module importing it (`setup(svc)` of
`app/relay.py`, which calls each feature's helper). A later module's call before a relay's
counts when the relay is handed what it returned (`svc = create_server()`, then
`setup(svc)`): the factory's tools are on the server the given file's are then added to. A
factory's server nothing hands on (`svc_16 = create_server_16()`) registers nothing a given
file's tools could meet, and its module is not read for it (`confined.Confined.unread`).

A helper handed the relay's own server first (`early.register(mcp)`, then `setup(mcp)`)
counts when its module's text spells a name a given file's tools may have: a function the
file decorates, nests or names as a value, or a string it passes as a name (`_tool_names`).
Only a tool of the same name makes a duplicate located in a given file, and counting every
call that passes a name the relay is passed read 60% more modules for a feature of the
`helpers` tree alone (297 against 186, `lint -j 1 FILE` on 1,000 modules), whose entry point
hands `mcp` to a hundred helpers and relays. A name neither file spells (computed:
`f"{prefix}search"`) is found by `lint .` only.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Collection, Mapping

from .import_index import closure
from .records import record


@record
class _Call:
    """A call of a name the caller's imports bind: its line, the dotted name it reaches
    (`app.b.register`), the names it passes, and the name its result is bound to."""

    line: int
    reaches: str
    passes: frozenset[str]
    bound: str | None


@record
class _Read:
    """What `CalledFirst` keeps of a caller: the first line calling into each module or name
    (`app.b` and `app.b.register` of `app.b.register(mcp)`), the last line calling into a
    given file's module (None: none), its calls into relays, and every call (for `before`)."""

    firsts: dict[str, int]
    last: int | None
    relayed: list[_Call]
    calls: list[_Call]


class CalledFirst:
    """For the given helper files (`given`), the later helpers their callers call first."""

    def __init__(
        self,
        given: Collection[str],
        imported_by: Mapping[str, set[str]],
        names: Mapping[str, tuple[str, bool]],
        text: Callable[[str], str | None],
    ) -> None:
        self.given, self.imported_by, self.names, self.text = given, imported_by, names, text
        self.relays = closure(set(given), imported_by) - set(given)
        """The files importing a given file, directly or not, through which a caller may reach it."""
        self._calls: dict[str, _Read | None] = {}
        """Per caller, read once (`_read`); None for a caller importing no given file nor relay,
        never parsed. `before` is asked for every helper an entry point imports (two hundred
        of them): each asks the same callers."""
        self._names: list[re.Pattern[str]] | None = None
        """The names the given files' tools may have, as one pattern (`_tool_names`; none when
        no name), made when a helper handed a relay's server is first asked about."""

    def before(self, later: str) -> bool:
        """Whether a file importing `later` and a given file calls into `later` before its last
        call into a given file, or before a call into a relay handed what it returned."""
        module = self.names.get(later, ("", False))[0]
        if not module:
            return False
        for caller in self.imported_by.get(later, ()):
            read = self._read(caller)
            if read is None:
                continue
            first = read.firsts.get(module)
            if first is not None and read.last is not None and first < read.last:
                return True
            if first is None:
                continue
            if any(_hands_on(read, module, relay) for relay in read.relayed):
                return True
            if any(_hands_on(read, module, relay, shared=True) for relay in read.relayed) and self._may_name(
                later
            ):
                return True
        return False

    def _may_name(self, later: str) -> bool:
        """Whether `later`'s text spells a name a given file's tools may have (`_tool_names`)."""
        if self._names is None:
            names = sorted(set().union(*(_tool_names(self.text(g) or "") for g in self.given)))
            spelt = "|".join(map(re.escape, names))
            self._names = [re.compile(rf"(?<![\w.-])(?:{spelt})(?![\w.-])")] if names else []
        text = self.text(later) or ""
        return any(pattern.search(text) for pattern in self._names)

    def _read(self, caller: str) -> _Read | None:
        """`caller`'s calls (`_calls`), parsed once; None for a file importing no given file nor
        relay (not parsed: it calls none of them)."""
        if caller in self._calls:
            return self._calls[caller]
        givens = self._imported(caller, self.given)
        relays = self._imported(caller, self.relays)
        known = None
        if givens or relays:
            calls = _calls(self.text(caller) or "", *self.names.get(caller, ("", False)))
            firsts: dict[str, int] = {}
            for call in calls:  # in line order: the first line of each prefix is kept
                for prefix in _prefixes(call.reaches):
                    firsts.setdefault(prefix, call.line)
            last = max((c.line for c in calls if any(_within(c.reaches, g) for g in givens)), default=None)
            relayed = [c for c in calls if any(_within(c.reaches, r) for r in relays)]
            known = _Read(firsts, last, relayed, calls)
        self._calls[caller] = known
        return known

    def _imported(self, caller: str, files: Collection[str]) -> list[str]:
        """The modules of `files` that `caller` imports."""
        return [self.names[f][0] for f in files if caller in self.imported_by.get(f, ()) and f in self.names]


def _hands_on(read: _Read, module: str, relay: _Call, shared: bool = False) -> bool:
    """Whether a call into `module` before `relay` made the server `relay` is handed: its
    result is bound to a name the relay is passed. `shared`: or it passes a name the relay is
    passed too (the same server, handed to a helper first: `early.register(mcp)`, then
    `setup(mcp)`)."""
    return any(
        call.line < relay.line
        and (call.bound in relay.passes or (shared and bool(call.passes & relay.passes)))
        for call in read.calls
        if _within(call.reaches, module)
    )


def _tool_names(text: str) -> set[str]:
    """The names a file's tools may have: every function it decorates or defines in another
    (a `register(server)` helper's tools), every function it names as a value (`add_tool(f)`,
    `TOOLS = [f]`), and every string it passes as a name (`name="search"`, `.tool("search")`).
    Not a plain module-level function it only defines or calls (each helper's `register`
    would match every other's), nor other strings (`Literal["small", "total"]`). More than its
    tools have costs a helper read for nothing, never a verdict."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return set()
    out: set[str] = set()
    top = {node.name: node for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
    called: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            called.add(id(node.func))
            named = [k.value for k in node.keywords if k.arg == "name"]
            if isinstance(node.func, ast.Attribute) and node.func.attr == "tool" and node.args:
                named.append(node.args[0])
            out.update(n.value for n in named if isinstance(n, ast.Constant) and isinstance(n.value, str))
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if node.decorator_list or top.get(node.name) is not node:
                out.add(node.name)
        elif isinstance(node, ast.Name) and node.id in top and id(node) not in called:
            out.add(node.id)
    return out


def _prefixes(dotted: str) -> list[str]:
    """Every module `dotted` is `_within`: `a`, `a.b`, `a.b.c` of `a.b.c`."""
    parts = dotted.split(".")
    return [".".join(parts[: n + 1]) for n in range(len(parts))]


def _within(dotted: str, module: str) -> bool:
    return dotted == module or dotted.startswith(f"{module}.")


def _calls(text: str, name: str, is_package: bool) -> list[_Call]:
    """Each call of `text` whose function is a name its imports bind, as the dotted name it
    reaches (`app.b.register`), with its line, the names it passes and the name its result is
    bound to (`svc = create_server()`)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    package = name if is_package else name.rpartition(".")[0]
    local: dict[str, str] = {}
    bound: dict[ast.Call, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                local[alias.asname or alias.name.partition(".")[0]] = (
                    alias.name if alias.asname else alias.name.partition(".")[0]
                )
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            origin = ".".join([*base, *([node.module] if node.module else [])])
            for alias in node.names:
                local[alias.asname or alias.name] = f"{origin}.{alias.name}" if origin else alias.name
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(node.value, ast.Call):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if len(targets) == 1 and isinstance(targets[0], ast.Name):
                bound[node.value] = targets[0].id
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            parts, func = [], node.func
            while isinstance(func, ast.Attribute):
                parts.append(func.attr)
                func = func.value
            if isinstance(func, ast.Name) and func.id in local:
                passed = [*node.args, *(k.value for k in node.keywords)]
                names = frozenset(a.id for a in passed if isinstance(a, ast.Name))
                reaches = ".".join([local[func.id], *reversed(parts)])
                out.append(_Call(node.lineno, reaches, names, bound.get(node)))
    return sorted(out, key=lambda call: call.line)
