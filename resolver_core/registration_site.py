"""What a registration site is: the facts the scan (`registrations.py`) finds, which `reach.py`
expands over call sites and the builder turns into tools."""

from __future__ import annotations

import ast

from .loop_collectors import Collector
from .loop_entries import Passed
from .model import Arm, RegistrationForm, Server, Span
from .records import slotted
from .servers import ParamServer
from .source import ParsedModule
from .symbols import Scope


@slotted
class Registration:
    """One registration site: what is registered, on which server (or server parameter), where."""

    server: Server | ParamServer
    kind: str
    fn: ast.expr | ast.FunctionDef | ast.AsyncFunctionDef
    module: ParsedModule
    scope: Scope | None
    name: str | None
    span: Span
    form: RegistrationForm = "decorator"
    decorator: ast.expr | None = None
    """The `@server.tool()` decorator itself, when the registration is one."""
    name_node: ast.expr | None = None
    """The `name=` expression of `add_tool`, when it is not a literal the scan could read."""
    arms: tuple[Arm, ...] = ()
    """The arms of exclusive statements the site is written in (`Tool.arms`)."""
    returned: bool = False
    """`return server.tool(...)` in a decorator factory: `fn` is that call, which registers
    nothing itself; the defs each `@factory(...)` decorates are what lands (`reach.py`)."""
    returns: bool = False
    """The site is what its function returns (`return mcp.tool()(wrapper)`): a decorator
    registering a wrapper it made of the def it is applied to (`reach.py`)."""
    through_decorator: bool = False
    """What `decorator` returns for `fn` is what the SDK registers (a wrapper of `fn`), not `fn`
    as the decorators below it leave it."""
    registrar: ast.Call | None = None
    """The `server.tool(...)` call the site applies or hands out: what it passes on of its
    function's own arguments (`self._mcp.tool(*args, **kwargs)`) names the tool."""
    bound: str | None = None
    """`tool = server.tool(...)`: the name the SDK's decorator is bound to. `fn` is that call,
    which registers nothing itself; what lands is each def `@tool` decorates and each
    `tool(fn)` call's function (`reach.py`), wherever the name is imported."""
    passed: Passed | None = None
    """`fn` (and its name) read from a loop over a parameter of the site's function (`for
    entry in entries:`): what lands is each value its calls pass (`passed_loops.py`)."""
    qualname: str | None = None
    """The `__qualname__` Python gives `fn` when it is a def the scan met (`Calculator.add` for
    a method decorated in its class body, `build.<locals>.t` in a function)."""
    collector: Collector | None = None
    """`fn` is what a registry this decorator fills holds (`for fn in TOOLS:`,
    `loop_collectors.py`): each def it is applied to lands in the file applying it (a
    factory's `@tool("x")` too, whose call hands it no server), and, for an instance's
    registry (`registry.tools`), only the applications on that instance."""
    landed_at: ast.Call | None = None
    """The call of the site's function this registration of what it is passed stands for
    (`reach.through_parameter`): when that function is also handed the server, the server is
    what this call passes, not what every call does (`add(mcp, t)`, `add(other, u)`)."""

    @property
    def shown_name(self) -> str:
        """The tool's name as far as the site tells (`name=`, the def's name, the expression)."""
        if self.name is not None:
            return self.name
        if isinstance(self.fn, ast.FunctionDef | ast.AsyncFunctionDef):
            return self.fn.name
        return ast.unparse(self.fn)


def landed(
    reg: Registration,
    fn: ast.expr,
    where: tuple[ParsedModule, Scope | None],
    name: str | None,
    span: Span,
    call: ast.Call,
    arms: tuple[Arm, ...],
    name_node: ast.expr | None = None,
) -> Registration:
    """A helper's registration of what it is handed (`reg`), as the `call` handing it `fn`
    (read in `where`) makes it: on the helper's server, located at the call (`span`), in the
    arms of both."""
    return Registration(
        reg.server,
        reg.kind,
        fn,
        *where,
        name,
        span,
        reg.form,
        name_node=name_node,
        arms=arms,
        landed_at=call,
        collector=reg.collector,  # `register_tool("x", t)` filling a registry a loop adds from
    )


@slotted
class Unfollowed:
    """A registration whose functions cannot be listed statically (`for fn in TOOLS:`)."""

    span: Span
    message: str
    tool: str | None = None
    """The tool's name when one is known (a loop's tools have none)."""


def unlisted_loop(
    module: ParsedModule, span: Span, registered: str, loop: ast.For | ast.AsyncFor
) -> Unfollowed:
    """A registration of `registered`, a variable of `loop` (of `module`) over values the
    source does not list (`for fn in inspect.getmembers(...)`): said, not guessed."""
    written = ast.get_source_segment(module.text or "", loop.iter) or "a computed value"
    return Unfollowed(
        span,
        f"the tools registered as {registered!r} in the loop over {written} (line {loop.lineno}) "
        "are not analysed: mcpdeps cannot list its values without running the code",
    )
