"""A helper handing the function it is given on to another helper, followed to its callers.

`def add(mcp, fn): _really_add(mcp, fn)` with `def _really_add(mcp, fn): mcp.add_tool(fn)`,
called `add(mcp, my_tool)`, registers `my_tool`: `reach.through_parameter` lands
`_really_add`'s registration on what `add` passes, `fn`, itself a parameter of `add`; that
landing is landed again on what each call of `add` passes (through the loops around it, its
name too when the helpers hand a `name` on), a level of helpers at a time. The server goes
along: the landing of `_really_add(mcp, fn)` is on the server that call passes, `add`'s own
parameter, so a tool `add(other, u)` hands in lands on `other` alone. Before, the landing was
only said not analysed (the tool was never checked).
"""

from __future__ import annotations

import ast
from dataclasses import replace
from typing import TYPE_CHECKING

from .model import Server
from .registration_site import Registration
from .servers import ParamServer
from .symbols import Param

if TYPE_CHECKING:
    from .reach import Reach

_MAX_HOPS = 32
"""Helpers handing a function on to helpers: deeper chains than this are not followed."""


def handed_on(reach: Reach, through: list[Registration], stood_for: set[int]) -> list[Registration]:
    """The landings of `through` (a registration's, `reach.through_parameter`) whose function is
    a parameter of the helper making the call, landed on what that helper's callers pass, and
    theirs again: each landing so replaced is added to `stood_for` (its expansions are the tools)."""
    out: list[Registration] = []
    level = through
    seen: set[int] = set()
    for _ in range(_MAX_HOPS):
        following = []
        for reg in level:
            if id(reg) in seen or not _hands_on(reach, reg):
                continue
            seen.add(id(reg))
            stood_for.add(id(reg))
            following += reach.through_parameter(replace(reg, server=_server_passed(reach, reg)))
        out += following
        level = following
        if not level:
            break
    return out


def _hands_on(reach: Reach, reg: Registration) -> bool:
    """Whether `reg`, a landing on a call, registers a parameter of the function making that call."""
    if reg.landed_at is None or reg.scope is None or not isinstance(reg.fn, ast.Name):
        return False
    symbol = reach.names.lookup(reg.module, reg.fn.id, reg.scope)
    return isinstance(symbol, Param) and symbol.function is reg.scope.function


def _server_passed(reach: Reach, reg: Registration) -> Server | ParamServer:
    """The server `reg`'s call passes for the helper's server parameter, when it is a server or
    a parameter of the caller (`_really_add(mcp, fn)` in `add(mcp, fn)`: `add`'s `mcp`); else
    the helper's parameter, which then takes what every call of the helper passes."""
    ps = reg.server
    if not isinstance(ps, ParamServer):
        return ps
    for module, call, scope, arg in reach.passed_for(ps):
        if call is reg.landed_at:
            return reach.servers.of(module, arg, scope) or ps
    return ps
