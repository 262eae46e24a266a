"""MCPD001: resolvers that depend on themselves, with the whole path."""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from ...resolver_core.diagnostics import Diagnostic, Related
from ...resolver_core.model import Graph, Span, Tool
from ...resolver_core.plan import Step
from ..base import Invalid, Rule, related
from ..same_place import RUNS


class ResolverCycle(Rule):
    code = "MCPD001"
    name = "resolver-cycle"
    summary = "A resolver depends on itself, directly or through other resolvers."
    explanation = (
        "The SDK analyses the resolver graph when the tool is registered and raises "
        "`InvalidSignature: Resolver 'a' has a cyclic dependency` — naming one node, not the path. "
        "mcpdeps shows the whole path, in every file that holds one of its edges (at that file's "
        "edge), so the file you lint or edit shows it; once, naming every tool that runs it. Break the cycle: move the shared computation into a third "
        "resolver both can depend on, or pass the value as a tool argument."
    )
    INVALID = [
        Invalid(
            "from __future__ import annotations\n"
            "from typing import Annotated\n"
            "from mcp.server import MCPServer\n"
            "from mcp.server.mcpserver import Resolve\n\n"
            "mcp = MCPServer('s')\n\n"
            "def plan_of(quota: Annotated[int, Resolve(check_quota)]) -> str:\n    return 'free'\n\n"
            "def check_quota(plan: Annotated[str, Resolve(plan_of)]) -> int:\n    return 1\n\n"
            "@mcp.tool()\n"
            "def t(q: Annotated[int, Resolve(check_quota)]) -> str:\n    return str(q)\n",
            at=(8, 13, 8, 56),
        )
    ]
    VALID = [
        # The example above, fixed: the plan comes from the tool's argument, not from the quota.
        "from __future__ import annotations\n"
        "from typing import Annotated\n"
        "from mcp.server import MCPServer\n"
        "from mcp.server.mcpserver import Resolve\n\n"
        "mcp = MCPServer('s')\n\n"
        "def plan_of(user: str) -> str:\n    return 'free'\n\n"
        "def check_quota(plan: Annotated[str, Resolve(plan_of)]) -> int:\n    return 1\n\n"
        "@mcp.tool()\n"
        "def t(user: str, q: Annotated[int, Resolve(check_quota)]) -> str:\n    return str(q)\n",
        # A resolver shared by two consumers is no cycle (it runs once).
        "from typing import Annotated\n"
        "from mcp.server import MCPServer\n"
        "from mcp.server.mcpserver import Resolve\n\n"
        "mcp = MCPServer('s')\n\n"
        "def a(x: str) -> str:\n    return x\n\n"
        "def b(y: Annotated[str, Resolve(a)], z: Annotated[str, Resolve(a)]) -> str:\n    return y + z\n\n"
        "@mcp.tool()\n"
        "def t(x: str, v: Annotated[str, Resolve(b)]) -> str:\n    return v\n",
    ]

    def check(self, graph: Graph) -> Iterable[Diagnostic]:
        for _, tool in graph.tools():
            seen: set[frozenset[str]] = set()
            for cycle in graph.plan(tool).cycles:  # each back edge of the SDK's walk, in order
                key = frozenset(r.id for r, _ in cycle)
                if key in seen:
                    continue
                seen.add(key)
                yield from self._report(tool, cycle)

    def _report(self, tool: Tool, cycle: list[Step]) -> Iterable[Diagnostic]:
        """One diagnostic per file that holds an edge of the cycle, at that file's edge: the
        closing one where it is there, else its first in the cycle's order. So `lint deps.py`
        and an editor showing `deps.py` see the cycle at a line of their own file, whichever
        file the SDK's depth-first walk happens to close it in. Tools sharing the cycle find
        it alike: the run reports it once, naming each tool in `related` (`same_place`)."""
        names = [r.name for r, _ in cycle]
        edges = [
            Related(
                path=p.span.path,
                line=p.span.line,
                column=p.span.column,
                message=f"{owner.name} depends on {dep.name} here",
            )
            for (owner, _), (dep, p) in itertools.pairwise(cycle)
            if p.span is not None
        ]
        closing = cycle[-1][1].span or cycle[0][0].span or Span("?", 1, 1, 1, 1)
        at: dict[str, Span] = {closing.path: closing}
        for _, p in cycle[1:]:
            if p.span is not None:
                at.setdefault(p.span.path, p.span)
        for span in at.values():
            yield self.diagnostic(
                span,
                f"resolver cycle: {' -> '.join(names)}",
                tool=tool.name,
                related=[*edges, *related(tool.registration or tool.span, RUNS.format(tool.name))],
                help="break the cycle: depend on a shared third resolver, or take the value as a tool argument",
            )
