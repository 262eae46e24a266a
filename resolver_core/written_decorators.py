"""Decorators as written on a def: those that register it, those that only say how a method
binds, and the chain the pictures show (`via @retry(times=3)`).

What a stack of decorators *makes* is `decorators.py`'s job; these read the text alone, so
the live builder, which holds the objects the SDK made, shows the same chain from the same
source without evaluating anything.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence

REGISTRARS = frozenset({"tool", "prompt", "resource"})
"""`@server.tool()`, `@server.prompt()`, `@server.resource(...)`: they return the function itself."""
BINDING_MARKERS = frozenset({"staticmethod", "classmethod"})
"""Decorators that only change how a method binds (handled where methods are looked up)."""


def is_registration(node: ast.expr) -> bool:
    """`@x.tool()`, `@x.tool`, `@x.prompt(...)`, `@x.resource(...)` (as written)."""
    target = node.func if isinstance(node, ast.Call) else node
    return isinstance(target, ast.Attribute) and target.attr in REGISTRARS


def binding_marker(node: ast.expr) -> str | None:
    """`staticmethod` or `classmethod` when the decorator is one of them (written plainly or
    as an attribute, called or not)."""
    target = node.func if isinstance(node, ast.Call) else node
    name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", None)
    return name if name in BINDING_MARKERS else None


def written_chain(
    segment: Callable[[ast.expr], str | None],
    node: ast.AST,
    *,
    for_tool: bool,
    registrar: Callable[[ast.expr], bool] = is_registration,
) -> list[str]:
    """The decorators written on a def, as `@text`, outermost first, for display.

    `segment`: a decorator's source text, whitespace-folded (`ParsedModule.segment`, whose
    lines are split once per file: `ast.get_source_segment` splits the whole text per call).
    Registration decorators (`registrar`: `@x.tool()` as written, or what a front end knows
    is one, like `deco = mcp.tool()`) and `staticmethod`/`classmethod` are left out; for a
    tool, so are the decorators above its registration (they wrap what `server.tool()`
    returns, which is not what was registered). Static and live graphs both call this on the
    same source, so they show the same chain.
    """
    decorators: Sequence[ast.expr] = getattr(node, "decorator_list", ())
    if for_tool:
        last = max((i for i, d in enumerate(decorators) if registrar(d)), default=-1)
        decorators = decorators[last + 1 :]
    out = []
    for d in decorators:
        if registrar(d) or binding_marker(d):
            continue
        out.append("@" + (segment(d) or " ".join(ast.unparse(d).split())))
    return out
