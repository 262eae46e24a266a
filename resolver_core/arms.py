"""Which arms of exclusive statements a statement is written in: what never runs together.

Two registrations of one tool name meet (a duplicate name) unless no run of the program
makes both. The source says so when they are written in different arms of one statement
that takes one arm per run: `if`/`elif`/`else`, the cases of a `match`, and an optional dependency's
fallback (`try: import fast; fast.register(mcp)` / `except ImportError: slow.register(mcp)`).
The same holds for the calls that reach a registration: a helper's tools land when the call
of the helper runs, so the arms around that call count as the tool's (`reach.py`).

An arm is keyed by the file and line of its statement, `(display path, line, arm)`, so that
arms written in different files (a helper's own `if`, its caller's) stay comparable.

What is left out, so that no duplicate the SDK logs goes unreported:
- the arms inside a loop body: the loop may take both (`for flag in (True, False): if flag:`).
  One turn of it takes one, though: a call of the value a listed row gives the loop variable
  (`for cls, key in ROWS: if key: cls(key).register(mcp) else: cls().register(mcp)`) is made
  in that row's turn only, and takes the arms inside the body as that turn does
  (`ArmStack.turn`);
- a `try` body's statements followed in it by an import: when that import fails, what ran
  before it ran too, and so does the handler; only what follows the last import is the
  body's arm, and handlers that do not catch `ImportError` take no arm;
- `finally` and `for`/`while` `else` blocks, which run along with the others, and the
  handlers of `except*`, several of which may run.

The arm of `if sys.version_info >= (3, 10):` no supported Python takes is no block at all
(`version_tests.py`): what is written there never runs.

A statement of a function called twice may take both arms (`install(mcp, fast=True)` then
`install(mcp, fast=False)`): a function body's arms exclude each other only within one call
of it. Each way a body comes to run (`Way`: the calls on the way there, from module-level
code or a function nothing calls) takes its arms *qualified* by that way's calls, so that the
arms one call takes never exclude those another call takes; and a registration reached by two
ways that do not exclude each other runs twice (`install(mcp)` twice: the SDK logs the second).
What a loop calls is one way, however many times it runs. A function nothing in the project
calls is an entry point (`entry`): the helpers two of them call (`def stdio(): install(mcp)`,
`def http(): install(mcp)`) run in two programs, while what such functions register
themselves still counts as run together, as before.
"""

from __future__ import annotations

import ast
import zlib
from collections.abc import Iterator
from contextlib import contextmanager

from .model import Arm
from .source import ParsedModule
from .version_tests import version_test

Way = tuple[tuple[Arm, ...], str]
"""How a function body comes to run: the arms of the calls on the way there (each qualified by
the calls before it), and which invocation of the body it is (those calls, outermost first;
"" for module-level code, a function nothing calls, or the factory making the server)."""

ENTRY: Way = ((), "")
"""The one run of module-level code (a module runs once), or of a function no call reaches."""

_ENTRIES = "<entry point>"
"""The statement every function nothing calls is an arm of (`entry`)."""

_MODULES = "<module>"
"""The statement the module-level code of every module is an arm of, for one registration's
ways only (`module`)."""

MAX_WAYS = 16
"""Ways to one body kept: two that do not exclude each other already register twice."""

_LOOPS = (ast.For, ast.AsyncFor, ast.While)
_TRIES = tuple(getattr(ast, name) for name in ("Try", "TryStar") if hasattr(ast, name))
_IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError"})


class _Loop:
    """Pushed for a loop body: the arms written inside it are not exclusive, but in one turn
    of the loop (`ArmStack.turn`)."""

    __slots__ = ("stmt",)

    def __init__(self, stmt: ast.stmt) -> None:
        self.stmt = stmt


def arm_blocks(stmt: ast.stmt) -> Iterator[tuple[list[ast.stmt], int | None]]:
    """The statement blocks nested in `stmt` (bodies, branches, handlers, cases; a `try` body
    possibly in two parts), in the order they are written but for `try` handlers, which come
    last; each with its arm of `stmt`, or None when it takes none. Arms of one statement
    exclude each other when their numbers differ."""
    if isinstance(stmt, ast.If):
        runs = version_test(stmt.test)  # `if sys.version_info >= (3, 10):` one arm, everywhere
        if runs is not False:
            yield stmt.body, 0
        if stmt.orelse and runs is not True:
            yield stmt.orelse, 1
    elif isinstance(stmt, _TRIES):
        last = max((i for i, s in enumerate(stmt.body) if _imports(s)), default=-1)
        if last >= 0:
            yield stmt.body[: last + 1], None
        if stmt.body[last + 1 :]:
            yield stmt.body[last + 1 :], 0
        if stmt.orelse:
            yield stmt.orelse, 0  # runs only when the body raised nothing
        if stmt.finalbody:
            yield stmt.finalbody, None
        # `except*` handlers may each run for one exception group: no arms of their own.
        star = not isinstance(stmt, ast.Try)
        for number, handler in enumerate(stmt.handlers, start=1):
            yield handler.body, None if star or not _catches_import_error(handler.type) else number
    elif hasattr(ast, "Match") and isinstance(stmt, ast.Match):
        for number, case in enumerate(stmt.cases):
            yield case.body, number
    else:
        for name in ("body", "orelse", "finalbody"):
            block = getattr(stmt, name, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                yield block, None
        for handler in getattr(stmt, "handlers", []) or []:
            yield handler.body, None


def is_main_test(test: ast.expr) -> bool:
    """`__name__ == "__main__"` (either way round): true only where the file is the program."""
    return (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.Eq)
        and "__main__" in {c.value for c in (test.left, *test.comparators) if isinstance(c, ast.Constant)}
    )


def _imports(stmt: ast.stmt) -> bool:
    """Whether running `stmt` may import a module (and raise `ImportError`)."""
    return any(isinstance(node, ast.Import | ast.ImportFrom) for node in ast.walk(stmt))


def _catches_import_error(caught: ast.expr | None) -> bool:
    """`except ImportError:`, `except (ImportError, OSError):`, `except ModuleNotFoundError as e:`."""
    names = caught.elts if isinstance(caught, ast.Tuple) else [caught] if caught is not None else []
    return any(
        (n.id if isinstance(n, ast.Name) else n.attr if isinstance(n, ast.Attribute) else None)
        in _IMPORT_ERRORS
        for n in names
    )


class ArmStack:
    """The arms around the statement a walk is at, entered and left with the walk."""

    def __init__(self) -> None:
        self._stack: list[Arm | _Loop] = []
        self._turn: tuple[ast.stmt, str] | None = None

    def blocks(self, module: ParsedModule, stmt: ast.stmt) -> Iterator[list[ast.stmt]]:
        """`stmt`'s nested blocks, the stack holding each one's arm while it is walked. The body
        of `if __name__ == "__main__":` is also an arm of the choice of entry point (`entry`):
        it runs when its file is the program, and in no other (a test calling the `main()` it
        calls is a program of its own)."""
        barrier = isinstance(stmt, _LOOPS)
        for block, number in arm_blocks(stmt):
            pushed = barrier or number is not None
            if pushed:
                self._stack.append(_Loop(stmt) if barrier else (module.display, stmt.lineno, number or 0))
            program = number == 0 and isinstance(stmt, ast.If) and is_main_test(stmt.test)
            if program:
                self._stack.append((_ENTRIES, 0, zlib.crc32(f"{module.display}:__main__".encode())))
            try:
                yield block
            finally:
                if program:
                    self._stack.pop()
                if pushed:
                    self._stack.pop()

    @contextmanager
    def taking(self, arm: Arm) -> Iterator[None]:
        """The walk in `arm` of a choice no statement spells (which import of a name runs):
        made where the import is, so it counts inside a loop too (`for f in (register,):`)."""
        at = next((i for i, a in enumerate(self._stack) if isinstance(a, _Loop)), len(self._stack))
        self._stack.insert(at, arm)
        try:
            yield
        finally:
            del self._stack[at]

    @contextmanager
    def turn(self, loop: ast.stmt, label: str) -> Iterator[None]:
        """The walk in one turn of `loop` (`label`: which), the innermost loop around it: the
        arms written in the loop's body count, each keyed by that turn, so that they exclude
        each other within the turn only (`current`)."""
        outer, self._turn = self._turn, (loop, label)
        try:
            yield
        finally:
            self._turn = outer

    def loop(self) -> ast.stmt | None:
        """The innermost loop around the walk, if any."""
        return next((a.stmt for a in reversed(self._stack) if isinstance(a, _Loop)), None)

    def current(self) -> tuple[Arm, ...]:
        """The arms the walk is in, outermost first: none inside a loop counts, but those in
        the innermost loop's body during one of its turns (`turn`)."""
        outside = _until_loop(self._stack)
        if self._turn is None or self.loop() is not self._turn[0]:
            return outside
        loop, label = self._turn
        where = f" in turn {label} of line {loop.lineno}"
        inside = _until_loop(self._stack[::-1])[::-1]
        return (*outside, *((f"{path}{where}", line, number) for path, line, number in inside))


def _until_loop(stack: list[Arm | _Loop]) -> tuple[Arm, ...]:
    """The arms of `stack` before its first loop."""
    out: list[Arm] = []
    for arm in stack:
        if isinstance(arm, _Loop):
            break
        out.append(arm)
    return tuple(out)


def exclusive(one: tuple[Arm, ...], other: tuple[Arm, ...], *, same: bool = False) -> bool:
    """Whether two sets of arms take different arms of one statement: never in one run.
    `same`: they are two ways of one registration, and the modules whose code calls them
    count (`module`)."""
    arms = {(path, line): number for path, line, number in one if same or path != _MODULES}
    return any(
        arms.get((path, line), number) != number for path, line, number in other if same or path != _MODULES
    )


def qualified(arms: tuple[Arm, ...], invocation: str) -> tuple[Arm, ...]:
    """A function body's arms as one invocation of it takes them: keyed by that invocation too,
    so that two calls of the body (`install(mcp, fast=True)`, `install(mcp, fast=False)`) take
    its `if` independently, while two registrations of one call still exclude each other."""
    if not invocation:
        return arms
    return tuple((f"{path} via {invocation}", line, number) for path, line, number in arms)


def called(way: Way, arms: tuple[Arm, ...], site: str) -> Way:
    """The way to a callee's body: `way` to its caller's body, then the call at `site` (a
    `path:line:column`) written in `arms` of that body."""
    outer, invocation = way
    return (*outer, *qualified(arms, invocation)), f"{invocation} > {site}" if invocation else site


def landed(way: Way, arms: tuple[Arm, ...]) -> tuple[Arm, ...]:
    """The arms a registration written in `arms` of a body takes when `way` runs that body."""
    return (*way[0], *qualified(arms, way[1]))


def call_site(module: ParsedModule, call: ast.Call) -> str:
    """A call's key in an invocation (`called`). A loop's call of each value it lists (`for
    install in (a, b): install(mcp)`) is made up, with no place of its own: the value it calls
    tells them apart."""
    if hasattr(call, "lineno"):
        return f"{module.display}:{call.lineno}:{call.col_offset}"
    return f"{module.display}:{ast.unparse(call.func)}"


def entry(display: str, fn: ast.FunctionDef | ast.AsyncFunctionDef) -> Way:
    """The way a function nothing in the project calls runs: as an entry point (a command of a
    CLI, a `[project.scripts]` function), one arm of a choice made outside the code, so that
    `install(mcp)` in `def stdio():` and in `def http():` is one registration per process."""
    return (((_ENTRIES, 0, zlib.crc32(f"{display}:{fn.lineno}".encode())),), "")


def module(display: str) -> Way:
    """The way module-level code runs when it calls a helper. Two modules calling one helper
    on one server (`install(mcp)` in `server_stdio.py` and in `server_sse.py`) may be two
    programs or one importing the other: that registration is counted once (`exclusive`
    with `same`), as when both call different helpers registering one name it is counted twice."""
    return (((_MODULES, 0, zlib.crc32(display.encode())),), "")
