"""Tools handed to the server's constructor: `MCPServer("x", tools=[Tool.from_function(fn, name="t")])`.

`MCPServer.__init__` takes `tools: list[Tool]` (keyword only). `Tool.from_function(fn, name=,
title=, description=, ...)` is what `add_tool` builds (`ToolManager.add_tool` calls it with the
same arguments) and raises the same registration errors, where the list is written, before the
server exists: each one is read as `server.add_tool(fn, name=...)` on the server that call makes
(`Scanner._added`), so its checks are `add_tool`'s. What cannot be read so is said, never
guessed (said as not analysed): a list not written out (`tools=TOOLS`), a `Tool` made some
other way, a `from_function` given `context_kwarg=` (the SDK then skips looking for the Context
parameter) or `**kwargs` (its name may be in them). A plain function returning such a server
(`def build(): return MCPServer("x", tools=[...])`) is a factory whose own server it is: its
tools land on the server each call of it makes (`called_servers`, `factory_results.py`).
A comprehension (`tools=[Tool.from_function(f) for f in ALL_TOOLS]`, a published factory's
shape), or a list the factory maps out of one (`tools = list(map(tool_of, TOOLS))`, `tool_of` a
project helper returning `Tool.from_function(served)` or a `model_copy` of it), registers its element for each value, as the `for` loops it runs like
(`statement_calls.comprehension_loops`): the scan enters them around the element, so a loop
over a list written out is read as `for f in ALL_TOOLS: server.add_tool(f)` is.

The constructor fills the server's tools in list order, a later tool of a name replacing an
earlier one where it was (`Tool already exists` logged), where `add_tool` keeps the first: the
list is read in the order that makes `add_tool` keep what the constructor keeps
(`as_kept`).
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import TypeVar

from .registration_arguments import name_argument
from .registration_site import Unfollowed
from .signatures import own_nodes
from .source import ParsedModule
from .statement_calls import comprehension_loops, consumed_map
from .symbols import Defined, Names, Scope, Value

Listed = tuple[ast.Call, ast.expr, ast.expr | None]
"""A `Tool.from_function(...)` call of the list, with the function and the name it passes."""
Kept = TypeVar("Kept")


def constructor_tools(
    names: Names, module: ParsedModule, call: ast.Call, scope: Scope | None
) -> tuple[list[Listed], list[Unfollowed], tuple[ast.For, ...]]:
    """The tools `MCPServer(..., tools=[...])` lists, what it lists that cannot be read, and the
    loops a comprehension runs its element in (each value of theirs registers it)."""
    value = next((k.value for k in call.keywords if k.arg == "tools"), None)
    if value is None or (isinstance(value, ast.Constant) and value.value is None):
        return [], [], ()
    value = _bound_here(names, module, value, scope)
    loops: tuple[ast.For, ...] = ()
    mapped = consumed_map(value)
    elements: list[ast.expr]
    if mapped is not None:  # `list(map(tool_of, TOOLS))`: `tool_of(each)` in a loop over TOOLS
        elements, loops = [mapped[0]], (mapped[1],)
    elif isinstance(value, ast.ListComp):  # `[Tool.from_function(f) for f in ALL_TOOLS]`
        elements, loops = [value.elt], comprehension_loops(value)
    elif isinstance(value, ast.List | ast.Tuple):
        elements = value.elts
    else:
        return [], [unread(module, value, "the list is not written out in the call")], ()
    listed: list[Listed] = []
    notes: list[Unfollowed] = []
    for element in elements:
        made = _from_function(names, module, element, scope)
        if made is None:
            notes.append(unread(module, element, "it is not a `Tool.from_function(fn, ...)` call"))
        elif any(k.arg in (None, "context_kwarg") for k in made.keywords):
            notes.append(unread(module, element, "its arguments are not all written out"))
        else:
            fn = made.args[0] if made.args else next((k.value for k in made.keywords if k.arg == "fn"), None)
            name = name_argument(made, 1)
            if fn is None:
                notes.append(unread(module, element, "it names no function"))
            else:
                listed.append((made, fn, name))
    return as_kept(listed, lambda each: written_name(each[2])), notes, loops


def as_kept(listed: list[Kept], name_of: Callable[[Kept], str | None]) -> list[Kept]:
    """`listed` in an order `add_tool` calls keep what the constructor keeps: the last tool of
    each name (`name_of`) at the place of the first, the ones it replaces after it (reported
    there as dropped). A name not known (the function's own, or computed) stays in place.
    Read of the `Tool.from_function` calls written out, and of the tools a comprehension lists
    once its loops are read (`Scanner._constructed`: `for f in (a, b)` with `name="same"`
    keeps `b`)."""
    last: dict[str, Kept] = {}
    for each in listed:
        written = name_of(each)
        if written is not None:
            last[written] = each
    kept: list[Kept] = []
    dropped: list[Kept] = []
    placed: set[int] = set()
    for each in listed:
        written = name_of(each)
        keeper = last[written] if written is not None else each
        if keeper is not each:
            dropped.append(each)
        if id(keeper) not in placed:
            placed.add(id(keeper))
            kept.append(keeper)
    return kept + dropped


def written_name(name: ast.expr | None) -> str | None:
    """The tool name a `name=` expression writes out (a string constant), else None."""
    return name.value if isinstance(name, ast.Constant) and isinstance(name.value, str) else None


def _from_function(
    names: Names, module: ParsedModule, node: ast.expr, scope: Scope | None
) -> ast.Call | None:
    """`node` when it is a call of the SDK's `Tool.from_function` (under any import alias), or
    of a project function making its tool of what it is given (`_made_by_helper`)."""
    if not isinstance(node, ast.Call) or any(isinstance(a, ast.Starred) for a in node.args):
        return None
    found = names.canonical(module, node.func, scope)
    if found is not None and found.startswith("mcp.") and found.endswith(".Tool.from_function"):
        return node
    return _made_by_helper(names, module, node, scope)


def _made_by_helper(
    names: Names, module: ParsedModule, call: ast.Call, scope: Scope | None
) -> ast.Call | None:
    """`tool_of(fn)` where the project's `def tool_of(served): tool = Tool.from_function(served);
    return tool.model_copy(update=...)` (a published server closing each tool's argument model):
    read as `Tool.from_function(fn)`, written where the call is. Only a helper given one
    argument, whose every `return` hands back that tool (or a `model_copy` of it: the same name
    and function), made of its first parameter alone with constant options."""
    if len(call.args) != 1 or call.keywords:
        return None
    helper = names.resolve(module, call.func, scope)
    helper = names.follow(helper) if helper is not None else None
    if (
        not isinstance(helper, Defined)
        or not isinstance(helper.node, ast.FunctionDef)
        or helper.node.decorator_list
    ):
        return None
    fn = helper.node
    params = [*fn.args.posonlyargs, *fn.args.args]
    made = _made_in(fn)
    if not params or made is None or len(made.args) != 1:
        return None
    passed = made.args[0]
    if not (isinstance(passed, ast.Name) and passed.id == params[0].arg):
        return None
    if any(k.arg is None or not isinstance(k.value, ast.Constant) for k in made.keywords):
        return None
    found = names.canonical(helper.module, made.func, helper.scope)
    if found is None or not found.startswith("mcp.") or not found.endswith(".Tool.from_function"):
        return None
    return ast.copy_location(ast.Call(made.func, [call.args[0]], list(made.keywords)), call)


def _made_in(fn: ast.FunctionDef) -> ast.Call | None:
    """The one `Tool.from_function(...)`-shaped call every `return` of `fn` hands back: returned
    itself, or bound once to a name returned as is or through `.model_copy(...)`."""
    body = [s for s in fn.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    bound: dict[str, ast.Call] = {}
    for stmt in body[:-1]:
        if not (
            isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
            and isinstance(stmt.value, ast.Call)
        ):
            return None  # a helper doing more than making its tool: not read
        bound[stmt.targets[0].id] = stmt.value
    last = body[-1] if body else None
    returned = last.value if isinstance(last, ast.Return) else None
    if (
        isinstance(returned, ast.Call)
        and isinstance(returned.func, ast.Attribute)
        and returned.func.attr == "model_copy"
        and not returned.args
    ):
        returned = returned.func.value
    if isinstance(returned, ast.Name):
        returned = bound.get(returned.id)
    return returned if isinstance(returned, ast.Call) and len(bound) <= 1 else None


def _bound_here(names: Names, module: ParsedModule, value: ast.expr, scope: Scope | None) -> ast.expr:
    """`tools=tools`: what the name is bound to in the function making the call (`tools =
    list(map(tool_of, TOOLS))` in the factory), when that function binds it once and reads it
    only there (nothing appended to it); else `value` itself (a module's list may be changed
    from anywhere: said, as before)."""
    if (
        not isinstance(value, ast.Name)
        or scope is None
        or not isinstance(scope.function, ast.FunctionDef | ast.AsyncFunctionDef)
    ):
        return value
    symbol = names.lookup(module, value.id, scope)
    if not (isinstance(symbol, Value) and symbol.module is module and symbol.scope is scope):
        return value
    uses = [n for n in own_nodes(scope.function) if isinstance(n, ast.Name) and n.id == value.id]
    return symbol.node if len(uses) == 2 else value


def unread(module: ParsedModule, node: ast.expr, why: str) -> Unfollowed:
    written = ast.get_source_segment(module.text or "", node) or "a computed value"
    if len(written) > 60:
        written = written[:57] + "..."
    return Unfollowed(
        module.span(node),
        f"the tools passed to the server as `tools=` ({written}) are not analysed: {why}; mcpdeps "
        "reads a list of `Tool.from_function(fn, name=...)` calls written out, or a comprehension of one",
    )


def assigned(stmt: ast.stmt) -> tuple[ast.expr, str] | None:
    """`name = value` (annotated or not): the value and the name, where a server the value makes
    is bound (`mcp = MCPServer("x", tools=[...])`)."""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        target, value = stmt.targets[0], stmt.value
    elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
        target, value = stmt.target, stmt.value
    else:
        return None
    return (value, target.id) if isinstance(target, ast.Name) else None
