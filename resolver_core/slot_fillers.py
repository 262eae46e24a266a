"""What the calls of a `register(server)` helper pass for its server slot, beyond servers.

A slot opened by no annotation, `Any` or `object` (`server_annotations.Slot.OPEN`) is filled
by what its callers pass, and nothing else: pydantic-ai's `def register_agent(agent: Any)`
decorating `@agent.tool()` is handed an `Agent(...)` from an installed library, which the SDK
never sees. `reach.servers_of` lands each registration on the servers the calls pass; when
none does, this module says whether the calls pass something that may be a server mcpdeps
cannot follow (the registration is then reported as not analysed) or only values
known to be no server (nothing is said: nothing mcpdeps checks is registered), as a type
checker would read them:

- a literal (`"x"`, `[...]`, a lambda), a project function, class or module;
- an instance of a project class that does not derive from `MCPServer` (`Agent()`);
- an instance of a class of an installed library other than the SDK (`pydantic_ai.Agent(...)`,
  `MagicMock()`), or a name or module it exports: not the SDK's class, which is what
  `server.tool()` would have to be for the SDK to see the tools (what a library *function*
  returns is not known: `cast(Any, mcp)` is a server);
- a name bound to one of these (`agent = Agent(...)`), or a helper's own slot whose callers
  pass only these.

A loop's variable (`for host in (agent, mcp): register_agent(host)`) stands for each value
the loop takes (`caller_loops.CallerLoops.passed_values`): `mcp` gets the tools, `agent` nothing.
"""

from __future__ import annotations

import ast
import builtins
from typing import TYPE_CHECKING

from .registration_site import Unfollowed
from .servers import ParamServer
from .source import ParsedModule
from .symbols import Defined, External, ModuleRef, Names, Param, Scope, Value

if TYPE_CHECKING:
    from .reach import Reach

Filling = tuple[ParsedModule, ast.Call, Scope | None, ast.expr]
"""A call filling a slot: its module, the call, its scope and the argument it passes."""

Taken = tuple[ast.expr, ParsedModule, Scope | None]
"""A value a call passes (on one pass of the loops around it), where it is read."""

_LITERALS = (
    ast.Constant,
    ast.JoinedStr,
    ast.List,
    ast.Tuple,
    ast.Set,
    ast.Dict,
    ast.ListComp,
    ast.SetComp,
    ast.DictComp,
    ast.GeneratorExp,
    ast.Lambda,
)
_Key = tuple[int, int, str]
"""A slot already asked about: its function, index and name."""

_MAX_DEPTH = 16
"""Names bound to names (`a = b`), helpers passing their slot on: deeper is not followed."""


def passed_each(reach: Reach, passed: Filling) -> list[Taken] | None:
    """The values `passed`'s argument takes: itself, or each value of the loops around the
    call when it is a loop's variable (`for host in (agent, mcp)`); None when a loop's values
    are not listed in the source."""
    module, call, scope, arg = passed
    loops = reach.caller_loops
    # Each caller reads the server of what this returns: asked here only of a loop's name.
    if not (isinstance(arg, ast.Name) and loops.in_loop(module, scope, call)):
        return [(arg, module, scope)]
    if reach.servers.of(module, arg, scope) is not None:  # `mcp`, bound outside the loop
        return [(arg, module, scope)]
    # Said where the loop registers directly; here, the slot's verdict says it.
    unlisted: list[Unfollowed] = []
    values = loops.passed_values(module, scope, call, arg, None, module.span(call), unlisted)
    return None if unlisted else [(value, read_in, read_at) for value, read_in, read_at, _ in values]


def unfollowed_pass(reach: Reach, passed: list[Filling], done: set[_Key] | None = None) -> Filling | None:
    """The first call among `passed` (filling a slot no server reaches) passing something that
    may be a server mcpdeps cannot follow; None when each passes a value known to be none."""
    done = set() if done is None else done
    for each in passed:
        values = passed_each(reach, each)
        if values is None or not all(_no_server(reach, *value, done, 0) for value in values):
            return each
    return None


def _no_server(
    reach: Reach, expr: ast.expr, module: ParsedModule, scope: Scope | None, done: set[_Key], depth: int
) -> bool:
    """Whether `expr` (read in `module` at `scope`) is known to be no server (module doc)."""
    if depth > _MAX_DEPTH:
        return False
    if isinstance(expr, _LITERALS):
        return True
    names: Names = reach.names
    found = reach.servers.of(module, expr, scope)
    if isinstance(found, ParamServer):
        return _slot_gets_none(reach, found, done)
    if found is not None:
        return False
    if isinstance(expr, ast.Call):
        made = names.resolve(module, expr.func, scope)
        made = names.follow(made) if made is not None else None
        if isinstance(made, Defined) and isinstance(made.node, ast.ClassDef):
            return True  # an instance of a project class: `servers.of` knows its MCPServer subclasses
        return isinstance(made, External) and _foreign(made) and _a_class(made)
    if not isinstance(expr, ast.Name | ast.Attribute):
        return False
    symbol = names.resolve(module, expr, scope)
    symbol = names.follow(symbol) if symbol is not None else None
    if isinstance(symbol, Defined | ModuleRef):
        return True  # a function, class or module: never an instance of `MCPServer`
    if isinstance(symbol, External):
        return _foreign(symbol)
    if isinstance(symbol, Value) and symbol.node is not expr:
        return _no_server(reach, symbol.node, symbol.module, symbol.scope, done, depth + 1)
    return False


def _slot_gets_none(reach: Reach, ps: ParamServer, done: set[_Key]) -> bool:
    """A helper passing its own open slot on (`def outer(x): register(x)`): none when some call
    of it fills it and every call passes a value known to be no server (a slot reached again
    through its own callers adds nothing)."""
    key = (id(ps.function), ps.index, ps.name)
    if key in done:
        return True
    done.add(key)
    if ps.annotated:  # `MCPServer`: a server of its own when nothing passes one
        return False
    passed = reach.passed_for(ps)
    return bool(passed) and unfollowed_pass(reach, passed, done) is None


def _foreign(symbol: External) -> bool:
    """Something an installed library other than the SDK hands out (`builtins` included)."""
    return symbol.qualname.partition(".")[0] not in ("mcp", "mcp_types")


def _a_class(symbol: External) -> bool:
    """Whether an external callable is a class, so that its call makes an instance of it:
    a builtin type (`dict`), or a name spelled as PEP 8 spells classes (`Agent`, `MagicMock`).
    A function may return anything, a server too (`cast(Any, mcp)`, `getattr(app, "mcp")`,
    `copy.copy(mcp)`), and is not followed (mcpdeps imports no library to ask)."""
    head, _, last = symbol.qualname.rpartition(".")
    if head == "builtins":
        return isinstance(getattr(builtins, last, None), type)
    return last[:1].isupper()


def mcp1_server(
    names: Names, module: ParsedModule, expr: ast.expr, scope: Scope | None, depth: int = 0
) -> bool:
    """Whether `expr` is an instance of mcp 1.x's `FastMCP` (`mcp.server.fastmcp`), which mcp 2
    removed: no server of the SDK mcpdeps checks, and what `mcpdeps migrate` rewrites. So is an
    instance of a project subclass of it, and a parameter annotated with it
    (`def register_tools(mcp: FastMCP)`)."""
    if depth > _MAX_DEPTH:
        return False
    if isinstance(expr, ast.Call):
        return _mcp1_class(names, module, expr.func, scope, depth + 1)
    if not isinstance(expr, ast.Name | ast.Attribute):
        return False
    symbol = names.resolve(module, expr, scope)
    symbol = names.follow(symbol) if symbol is not None else None
    if isinstance(symbol, Param):
        written = symbol.node.annotation
        if isinstance(written, ast.BinOp) and isinstance(written.op, ast.BitOr):  # `FastMCP | None`
            written = written.left if not _none(written.left) else written.right
        return written is not None and _mcp1_class(names, symbol.module, written, None, depth + 1)
    return (
        isinstance(symbol, Value)
        and symbol.node is not expr
        and mcp1_server(names, symbol.module, symbol.node, symbol.scope, depth + 1)
    )


def _mcp1_class(names: Names, module: ParsedModule, expr: ast.expr, scope: Scope | None, depth: int) -> bool:
    """Whether `expr` names mcp 1.x's `FastMCP`, or a project class deriving from it."""
    if depth > _MAX_DEPTH or not isinstance(expr, ast.Name | ast.Attribute):
        return False
    if names.fallback(module, expr, scope) is not None:
        return False  # `except ImportError: from mcp.server.mcpserver import MCPServer as FastMCP`
    made = names.resolve(module, expr, scope)
    made = names.follow(made) if made is not None else None
    if isinstance(made, Defined) and isinstance(made.node, ast.ClassDef):
        return any(_mcp1_class(names, made.module, base, None, depth + 1) for base in made.node.bases)
    if not isinstance(made, External):
        return False
    home, _, name = made.qualname.rpartition(".")
    return name == "FastMCP" and (home in _MCP1_HOMES or home.startswith("mcp.server.fastmcp."))


_MCP1_HOMES = ("mcp.server.fastmcp", "mcp.server")
"""Where mcp 1.x exported `FastMCP` (`mcp.server` re-exported it); mcp 2 exports it from neither."""


def _none(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Constant) and expr.value is None
