"""The order in which helpers' registrations run: the order of the calls reaching them.

`b.register(mcp)` then `a.register(mcp)` in an entry point registers b's tools first, whatever
the files' paths: when both register one tool name, the SDK keeps b's and drops a's (the duplicate
is a's). Each way a registration runs (`arms.Way`) is a chain of calls from module-level code;
two chains are ordered where they part, when both calls there are in one body, each in a
statement of its own at its top (`b.register(mcp)`, `x = a.register(mcp)`, or `if "b" in
enabled: b.register(mcp)` then `if "a" in enabled: a.register(mcp)`): the statement written
first runs first, whatever branch or loop inside it holds the call. Anything else (two calls
in one `if` or loop, two bodies) tells no order: the display order of the files stands
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
        self._plain: dict[int, tuple[list[ast.stmt], dict[int, int]]] = {}
        """Per body (by id, with the body itself, which keeps the id its own): the ids of the
        calls its statements run, each with its statement's index."""

    def site(self, module: ParsedModule, call: ast.Call, scope: Scope | None) -> str:
        """`arms.call_site`, the call's place kept with the body it is a statement of."""
        site = call_site(module, call)
        if site not in self._bodies and hasattr(call, "lineno"):
            body: list[ast.stmt] = []
            if scope is None:
                body = module.tree.body if module.tree is not None else []
            elif not isinstance(scope.function, ast.Lambda):
                body = scope.function.body
            at = self._statements(body).get(id(call))
            key = (
                f"{module.display}:{scope.qualname if scope is not None else ''}#{at}"
                if at is not None
                else ""
            )
            self._bodies[site] = (module.display, call.lineno, call.col_offset, key)
        return site

    def element(self, module: ParsedModule, call: ast.Call, index: int, passed: ast.expr) -> str:
        """The place of the `index`-th value a call passes in a list (`load_all(mcp, [a.register,
        b.register])`), as a site of a way: a loop over the list calls them in its order, so two
        places of one call are told apart by their indexes, as two statements of one body."""
        site = f"{call_site(module, call)}[{index}]"
        if site not in self._bodies:
            line, column = getattr(passed, "lineno", 0), getattr(passed, "col_offset", 0)
            self._bodies[site] = (module.display, line, column, f"{call_site(module, call)}[]#{index}")
        return site

    def _statements(self, body: list[ast.stmt]) -> dict[int, int]:
        """The calls of `body`'s statements (by id; not those of a def or class written in
        it, which run when that is called), each with the index of its top-level statement."""
        kept = self._plain.get(id(body))
        if kept is None or kept[0] is not body:
            calls = {id(call): index for index, stmt in enumerate(body) for call in _calls_run(stmt)}
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
    `other`: told where the chains part, by two calls in two statements of one body; None
    otherwise."""
    for mine, theirs in zip(one, other, strict=False):
        if mine == theirs:
            continue
        body, _, at = mine[3].rpartition("#")
        other_body, _, other_at = theirs[3].rpartition("#")
        if not body or body != other_body or at == other_at:
            return None
        return int(at) < int(other_at)
    return None


def _calls_run(stmt: ast.stmt) -> list[ast.Call]:
    """The calls a statement runs where it is written: not those of the defs, classes and
    lambdas it holds."""
    found: list[ast.Call] = []
    todo: list[ast.AST] = [stmt]
    if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
        todo = [*stmt.decorator_list]  # (its defaults too, which register nothing)
    elif isinstance(stmt, ast.ClassDef):
        todo = [*stmt.decorator_list, *stmt.bases, *stmt.keywords]  # its body runs, but is its own scope
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Call):
            found.append(node)
        todo.extend(
            child
            for child in ast.iter_child_nodes(node)
            if not isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda)
        )
    return found


def by_calls(chains: Sequence[CallChain]) -> list[int] | None:
    """The indexes of `chains` in the order their registrations run, when every two of them
    are told apart (`runs_before`); None when one pair is not."""
    if any(runs_before(a, b) is None for i, a in enumerate(chains) for b in chains[i + 1 :]):
        return None

    def compare(i: int, j: int) -> int:
        return -1 if runs_before(chains[i], chains[j]) else 1

    return sorted(range(len(chains)), key=functools.cmp_to_key(compare))
