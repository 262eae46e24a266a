"""MCPD110: two tools with the same name on one server; the SDK keeps one (the first registered,
the later entry of a constructor's list) and drops the other."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from ...resolver_core.arms import exclusive
from ...resolver_core.diagnostics import Diagnostic
from ...resolver_core.model import Graph, Span
from ..base import Invalid, Rule, related

if TYPE_CHECKING:
    from ..per_file import ToolRegistration

_HEADER = "from mcp.server import MCPServer\n\nmcp = MCPServer('s')\n\n"


class DuplicateToolName(Rule):
    code = "MCPD110"
    name = "duplicate-tool-name"
    severity = "warning"
    summary = "A second tool with the same name on one server is ignored (the SDK only logs a warning)."
    explanation = (
        "Tool names are unique per server. When a second function is registered under a name "
        "that is already taken (the same function name, or the same `name=`), the SDK logs "
        "`Tool already exists` and keeps the *first* registration: the second function is never "
        "listed and never called, whatever its docstring and code say. The tools listed in "
        "`MCPServer(tools=[...])` are the exception: the constructor keeps the *later* of two "
        "entries of one name (with the same warning), so the earlier entry is the one never called. Registrations that no run "
        "makes both are not duplicates: names not written out (`name=f'{prefix}_search'`), on a server some code removes tools from (`mcp.remove_tool(name)`: "
        "the first may be gone when the second is registered), in different arms of one `if`/`elif`/`else` or `match`, "
        "or of a `try` body and its `except ImportError` fallback, also when the arms hold the "
        "calls of the helpers registering them (`if fast: a.register(mcp)` / `else: "
        "b.register(mcp)`) or of a function registering on a module-level server (`if fast: "
        "setup_fast()` / `else: setup_full()`); an `if` in a loop may take both arms, but one per "
        "turn: a loop over listed rows calling each row's class (`for cls, key in ROWS: if key: "
        "cls(key).register(mcp)` / `else: cls().register(mcp)`) registers each class once, "
        "unless two rows list it. A function "
        "called twice on one server registers its tools twice, and its own `if` may take one arm "
        "in each call (`install(mcp, fast=True)` then `install(mcp, fast=False)`). Functions "
        "nothing calls (the commands of a command line) are each a program of their own for the "
        "helpers they call (`def stdio(): install(mcp)` and `def http(): install(mcp)` register "
        "once per process), but what they register themselves on one server counts as "
        "registered together, as hooks a framework runs in turn would. The "
        "second is the one the program imports second when both are registered at module level "
        "(`import app.b` then `import app.a` reports `app/a.py`), as the entry point's imports run; "
        "otherwise (registrations in functions, no program importing both, programs disagreeing) "
        "the one whose path sorts second.\n\n"
        "Fix: give each tool its own name (`@mcp.tool(name='search_v2')`), or delete the stale one."
    )
    INVALID = [
        Invalid(
            _HEADER + "@mcp.tool()\ndef search(q: str) -> str:\n    return 'old'\n\n"
            "@mcp.tool(name='search')\ndef search_v2(q: str) -> str:\n    return 'new'\n",
            at=(9, 2, 9, 25),
        )
    ]
    VALID = [
        _HEADER + "@mcp.tool()\ndef search(q: str) -> str:\n    return 'old'\n\n"
        "@mcp.tool(name='search_v2')\ndef search_v2(q: str) -> str:\n    return 'new'\n"
    ]

    def check(self, graph: Graph) -> Iterable[Diagnostic]:
        from ..per_file import registrations

        return duplicates(registrations(graph))


def duplicates(tools: Iterable[ToolRegistration]) -> Iterator[Diagnostic]:
    """MCPD110 over registrations in registration order (of one graph, or of every file's record).

    Tools are compared per server and per source root: servers are keyed by file and variable,
    and two projects linted together never share a server even if their modules share names.
    A registration is a duplicate when some run makes it after an earlier one of its name: one
    whose arms it does not exclude (each earlier one, not only the first: `if fast: search`
    `else: search; search` registers twice when `fast` is false). A registration its function
    makes twice (`install(mcp)` called twice) is listed once per way (`per_file.registrations`).
    """
    rule = DuplicateToolName()
    earlier: dict[tuple[str, str | None, str], list[ToolRegistration]] = {}
    reported: set[tuple[str, str | None, str, Span | None]] = set()
    for tool in tools:
        if tool.lambda_without_name or tool.bare_decorator:
            continue
        key = (tool.server, tool.root, tool.name)
        known = earlier.setdefault(key, [])
        span = tool.registration or tool.span
        kept = next((k for k in known if not _alternatives(k, tool, span)), None)
        if tool.unjudged or (kept is not None and kept.unjudged):
            kept = None  # a name not written out, or the first may be removed by then
        known.append(tool)
        if kept is None or span is None or (*key, span) in reported:
            continue
        reported.add((*key, span))
        first = kept.registration or kept.span
        if kept.listed and tool.listed and first != span:
            yield _listed_twice(rule, tool, span, first)
            continue
        yield rule.diagnostic(
            span,
            f"tool name {tool.name!r} is already registered on server {tool.server_variable!r}: the SDK "
            f"keeps the first registration, logs 'Tool already exists: {tool.name}' and ignores this one "
            + (
                "(the function around it registers on that server more than once)"
                if first == span
                else f"({tool.function!r} is never called)"
            ),
            tool=tool.name,
            related=related(first, f"{tool.name!r} is first registered here"),
            help=f"give this tool its own name (`@{tool.server_variable}.tool(name=...)`) or remove the stale one"
            if first != span
            else "register its tools once per server (call the function registering them once)",
        )


def _listed_twice(rule: Rule, tool: ToolRegistration, span: Span, kept: Span | None) -> Diagnostic:
    """A name listed twice in `MCPServer(tools=[...])`: the constructor fills its table in list
    order, so the later entry replaces the earlier one (`tool`, at `span`), which is never called."""
    return rule.diagnostic(
        span,
        f"tool name {tool.name!r} is listed twice for server {tool.server_variable!r}: the SDK logs "
        f"'Tool already exists: {tool.name}' and keeps the later entry ({tool.function!r} is never called)",
        tool=tool.name,
        related=related(kept, f"{tool.name!r} is listed again here (the entry the SDK keeps)"),
        help="give this tool its own name (`Tool.from_function(..., name=...)`) or remove the stale entry",
    )


def _alternatives(one: ToolRegistration, other: ToolRegistration, span: Span | None) -> bool:
    """Registered in different arms of one `if`/`match`/`ImportError` fallback (`if fast: ...
    else: ...`), or by helpers called in such arms, in any file: never both (`arms.py`); of
    one registration (at `span`), also by two modules' code (`arms.module`)."""
    return exclusive(one.arms, other.arms, same=(one.registration or one.span) == span)
