"""The graph a front end draws: the static graph of its paths, narrowed to what was asked for.

`mcpdeps graph` (without `--live`), the agent's `graph` tool and the editor's code lens
draw from here: the files given and every local module they import
(`resolver_core.import_closure`), refused when nothing parsed, narrowed to the servers a
`FILE.py:NAME` spec names (`graph_specs`) and to the chosen servers and tools
(`graph_selection`). The problems drawn on the nodes are the lint rules' verdicts on that
graph (`graph_problems`), computed only when a front end draws them.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING

from . import GraphRequest, RequestError
from .graph_specs import narrow, split_specs

if TYPE_CHECKING:
    from ...resolver_core.model import Graph
    from .graph_problems import Problems


class GraphResult:
    """The graph drawn (servers and tools chosen), and the problems on its nodes when asked for."""

    def __init__(self, graph: Graph) -> None:
        self.graph = graph

    @cached_property
    def problems(self) -> Problems:
        """Every lint rule run on the graph, indexed by line (what the tree, Mermaid and dot mark)."""
        from .graph_problems import find_problems

        return find_problems(self.graph)


def draw(request: GraphRequest, progress: Callable[[int, int], None] | None = None) -> GraphResult:
    """The static graph of the request, narrowed; refused when nothing parsed or a name matches nothing."""
    from ...resolver_core.import_closure import static_graph
    from .graph_selection import select

    specs = split_specs(request.paths, request.cwd)
    full = static_graph([s.path for s in specs], request.cwd, progress)
    refuse_unparsable(full)
    full = narrow(full, specs, request.cwd)
    return GraphResult(select(full, request.servers, request.tools))


def refuse_unparsable(graph: Graph) -> None:
    """No server to draw because the files did not parse: say so, not "No MCPServer found"."""
    if graph.servers:
        return
    broken = [f for f in graph.findings if f.kind == "unreadable"]
    if broken:
        where = "; ".join(f"{f.span.path}:{f.span.line}:{f.span.column}: {f.message}" for f in broken[:3])
        more = f" (and {len(broken) - 3} more)" if len(broken) > 3 else ""
        if all(f.message.startswith("file is too large") for f in broken):  # Python imports it
            raise RequestError(f"Nothing to draw: {where}{more}; `mcpdeps graph --live` imports it instead.")
        raise RequestError(
            f"Nothing to draw: {where}{more}. Python cannot import such a file either; "
            "`mcpdeps lint` shows each problem at its line."
        )
