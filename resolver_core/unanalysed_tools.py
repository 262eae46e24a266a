"""Registrations whose tool mcpdeps says it does not analyse, rather than guess: a tool given
as an expression it cannot name, one whose annotations are assigned at run time, and one
registered on mcp 1.x's `FastMCP`.

Each is noted on the scanner (`Scanner.unfollowed`), which the builder reports at the
registration (`Finding("unfollowed")`) while it builds the tools it can read.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from .registration_arguments import name_argument
from .registration_site import Unfollowed
from .slot_fillers import mcp1_server
from .symbols import Defined, External, Param, Value

if TYPE_CHECKING:
    from .model import Span
    from .registration_site import Registration
    from .registrations import Scanner
    from .source import ParsedModule
    from .symbols import Names, Scope
    from .tool_function import ToolFunction


def note_unnamed(names: Names, scanner: Scanner, reg: Registration, expanded: bool) -> None:
    """A tool given as an expression mcpdeps cannot name (`self.price`, `handlers[0]`, a name
    bound to `getattr(tools, "t")` or `random.choice(TOOLS)`, a loop variable of a loop it
    cannot read): said, not guessed. A name that is a parameter of the site's function
    registers what the callers pass (`reach.py`, and `handed_on.py` when a helper hands it on
    to another), unless the site is already what a caller passed (`expanded`) and was not
    followed further (a chain deeper than `handed_on` follows); a library's function is
    not this project's to check."""
    if reg.kind != "tool" or not isinstance(reg.fn, ast.Attribute | ast.Subscript | ast.Call | ast.Name):
        return
    written = f"`{ast.unparse(reg.fn)}`"
    if isinstance(reg.fn, ast.Name) and reg.form == "uncalled_decorator":
        return  # `mcp.tool(name)`: a name the SDK is given, unless it is a function (the bare-decorator error)
    if isinstance(reg.fn, ast.Name):
        symbol = names.lookup(reg.module, reg.fn.id, reg.scope)
        followed = names.follow(symbol) if symbol is not None else None
        own = isinstance(symbol, Param) and reg.scope is not None and symbol.function is reg.scope.function
        if isinstance(followed, External | Defined) or (own and not expanded):
            return
        scoped = reg.scope.function if reg.scope is not None else None
        if own and isinstance(scoped, ast.FunctionDef | ast.AsyncFunctionDef):
            written += f" (a parameter of {scoped.name}(), handed on to another helper)"
        if isinstance(symbol, Value) and symbol.module.text is not None:
            bound = ast.get_source_segment(symbol.module.text, symbol.node)
            written += f" (bound to `{bound}`, line {symbol.node.lineno})" if bound else ""
    scanner.unfollowed.append(
        Unfollowed(
            reg.span,
            f"the tool registered as {written} is not analysed: mcpdeps cannot tell "
            "which function it is without running the code",
        )
    )


def note_rewritten(scanner: Scanner, reg: Registration, target: ToolFunction) -> bool:
    """A tool whose annotations are assigned at run time: noted as not analysed, not guessed."""
    fn = target.node
    if isinstance(fn, ast.Lambda) or target.qualname not in scanner.rewritten(target.module):
        return False
    scanner.unfollowed.append(
        Unfollowed(
            reg.span,
            f"tool {reg.name or fn.name!r} not analysed: the annotations of {fn.name}() are assigned at "
            f"run time (`{fn.name}.__annotations__[...] = ...`); mcpdeps reads only what the source declares",
            reg.name or fn.name,
        )
    )
    return True


def on_mcp1(
    names: Names, module: ParsedModule, receiver: ast.expr, scope: Scope | None, span: Span, written: Written
) -> list[Unfollowed]:
    """A tool registered on mcp 1.x's `FastMCP` (`mcp = FastMCP("x")` imported from
    `mcp.server.fastmcp`), which mcp 2 removed: the module does not import under the SDK
    mcpdeps checks, and no tool of that server is analysed. Said at each registration, with the
    way on, rather than "All checks passed" on a server that cannot start; as a helper given
    such a server is (`reach.py`)."""
    if not mcp1_server(names, module, receiver, scope):
        return []
    tool = shown_name(*written)
    return [
        Unfollowed(
            span,
            f"tool {tool!r} not analysed: `{ast.unparse(receiver)}` is mcp 1.x's `FastMCP`, which "
            "mcp 2 removed (`mcpdeps migrate` moves it to `MCPServer`)",
            tool,
        )
    ]


Written = tuple[ast.Call | None, ast.expr | ast.FunctionDef | ast.AsyncFunctionDef]
"""A registration as written: the registering call, if any (`mcp.tool(name="x")`), and the
function it registers."""


def shown_name(registrar: ast.Call | None, fn: ast.expr | ast.FunctionDef | ast.AsyncFunctionDef) -> str:
    """The name a registration gives its tool as written: `name=` when a text, else the function's."""
    given = name_argument(registrar) if registrar is not None else None
    if isinstance(given, ast.Constant) and isinstance(given.value, str):
        return given.value
    if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
        return fn.name
    return ast.unparse(fn).rpartition(".")[2]
