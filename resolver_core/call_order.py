"""The order in which helpers' registrations run: the order of the calls reaching them.

`b.register(mcp)` then `a.register(mcp)` in an entry point registers b's tools first, whatever
the files' paths: when both register one tool name, the SDK keeps b's and drops a's (the duplicate
is a's). Each way a registration runs (`arms.Way`) is a chain of calls from module-level code;
two chains are ordered where they part, when both calls there are statements of one body,
written one after the other at its top (`b.register(mcp)`, `x = a.register(mcp)`), not in a
loop, a branch or a `try`: then the first written runs first. Anything else (calls in an `if`,
a loop over registrars, two bodies) tells no order: the display order of the files stands
(`lint_rules.per_file.by_import_order`).
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Sequence

from .arms import Way, call_site
from .model import CallChain
from .source import ParsedModule
from .symbols import Scope


class CallOrder:
    """The sites of the calls a build's ways go through, and the body each is a plain
    statement of (a body's key: its file and qualified name), when it is one."""

    def __init__(self) -> None:
        self._bodies: dict[str, tuple[str, int, int, str]] = {}
        self._plain: dict[int, tuple[list[ast.stmt], set[int]]] = {}
        """Per body (by id, with the body itself, which keeps the id its own): the ids of the
        calls that are its plain statements."""

    def site(self, module: ParsedModule, call: ast.Call, scope: Scope | None) -> str:
        """`arms.call_site`, the call's place kept with the body it is a statement of."""
        site = call_site(module, call)
        if site not in self._bodies and hasattr(call, "lineno"):
            body: list[ast.stmt] = []
            if scope is None:
                body = module.tree.body if module.tree is not None else []
            elif not isinstance(scope.function, ast.Lambda):
                body = scope.function.body
            plain = id(call) in self._plain_calls(body)
            key = f"{module.display}:{scope.qualname if scope is not None else ''}" if plain else ""
            self._bodies[site] = (module.display, call.lineno, call.col_offset, key)
        return site

    def _plain_calls(self, body: list[ast.stmt]) -> set[int]:
        kept = self._plain.get(id(body))
        if kept is None or kept[0] is not body:
            calls = {
                id(stmt.value)
                for stmt in body
                if isinstance(stmt, ast.Expr | ast.Assign | ast.AnnAssign)
                and isinstance(stmt.value, ast.Call)
            }
            kept = self._plain[id(body)] = (body, calls)
        return kept[1]

    def chain(self, way: Way) -> CallChain:
        """The calls `way` goes through, outermost first: (file, line, column, body key; ""
        when the call is no plain statement of its body)."""
        invocation = way[1]
        return (
            tuple(self._bodies.get(site, ("", 0, 0, "")) for site in invocation.split(" > "))
            if invocation
            else ()
        )


def runs_before(one: CallChain, other: CallChain) -> bool | None:
    """Whether the registration reached through `one` runs before the one reached through
    `other`: told where the chains part, by two plain statements of one body; None otherwise."""
    for mine, theirs in zip(one, other, strict=False):
        if mine == theirs:
            continue
        if not mine[3] or mine[3] != theirs[3] or mine[1:3] == theirs[1:3]:
            return None
        return mine[1:3] < theirs[1:3]
    return None


def by_calls(chains: Sequence[CallChain]) -> list[int] | None:
    """The indexes of `chains` in the order their registrations run, when every two of them
    are told apart (`runs_before`); None when one pair is not."""
    if any(runs_before(a, b) is None for i, a in enumerate(chains) for b in chains[i + 1 :]):
        return None

    def compare(i: int, j: int) -> int:
        return -1 if runs_before(chains[i], chains[j]) else 1

    return sorted(range(len(chains)), key=functools.cmp_to_key(compare))
