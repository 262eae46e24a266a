"""One resolver plan per tool (`resolver_core/plan.py`), held to the SDK's own walk.

The static plan must list a tool's resolvers in the order `build_resolver_plans` analyses
them (its plans, in insertion order), give the order a real call runs them in (each
resolver records itself, the SDK's in-memory Client calls the tool), and find the cycle the
SDK refuses, starting at the resolver the SDK names. Every reader takes its facts from that
one plan: the walk is made once per tool however many rules, pictures and hovers ask.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from mcpdeps.resolver_core import build_graph
from mcpdeps.resolver_core.model import Graph, Tool
from trap_helpers import call, load_server

HEAD = """\
from typing import Annotated
from mcp.server import MCPServer
from mcp.server.mcpserver import Context, Resolve

RAN: list[str] = []
mcp = MCPServer("plans")
"""

# A diamond under a chain, a resolver shared by the tool and by a resolver, an async one,
# a Context parameter, a bound method, and two tools sharing resolvers: the orders differ
# between the analysis (a resolver before its dependencies) and the run (dependencies first).
SHAPES = (
    HEAD
    + """
def region(city: str) -> str:
    RAN.append("region")
    return city[:2]

async def tax(r: Annotated[str, Resolve(region)], ctx: Context) -> float:
    RAN.append("tax")
    return 0.2

def shipping(r: Annotated[str, Resolve(region)]) -> float:
    RAN.append("shipping")
    return 5.0

def total(
    t: Annotated[float, Resolve(tax)], s: Annotated[float, Resolve(shipping)], price: float
) -> float:
    RAN.append("total")
    return price * (1 + t) + s

class Ledger:
    def entry(self, total: Annotated[float, Resolve(total)], city: str) -> str:
        RAN.append("Ledger.entry")
        return f"{city}:{total}"

ledger = Ledger()

@mcp.tool()
def checkout(
    city: str,
    price: float,
    line: Annotated[str, Resolve(ledger.entry)],
    s: Annotated[float, Resolve(shipping)],
    r: Annotated[str, Resolve(region)],
) -> str:
    return line

@mcp.tool()
def quote(city: str, s: Annotated[float, Resolve(shipping)], t: Annotated[float, Resolve(tax)]) -> str:
    return str(s + t)
"""
)

CYCLE = (
    "from __future__ import annotations\n"
    + HEAD
    + """
def plan_of(quota: Annotated[int, Resolve(check_quota)], user: str) -> str:
    return "free"

def check_quota(plan: Annotated[str, Resolve(plan_of)]) -> int:
    return 1

def account(q: Annotated[int, Resolve(check_quota)]) -> str:
    return "a"

@mcp.tool()
def upgrade(user: str, who: Annotated[str, Resolve(account)]) -> str:
    return who
"""
)


def _graph(path: Path) -> Graph:
    return build_graph([path])


def _tool(graph: Graph, name: str) -> Tool:
    return next(t for _, t in graph.tools() if t.name == name)


def _sdk_plans(module: Any, name: str) -> list[str]:
    """The SDK's plans for a registered tool, in the order it analysed the resolvers."""
    tool = module.mcp._tool_manager.get_tool(name)
    return [plan.fn.__qualname__ for plan in tool.resolver_plans.values()]


def test_the_plan_lists_resolvers_in_the_sdks_analysis_order(tmp_path: Path) -> None:
    module, path = load_server(tmp_path, SHAPES)
    graph = _graph(path)
    for name in ("checkout", "quote"):
        plan = graph.plan(_tool(graph, name))
        assert [r.qualname for r in plan.reached] == _sdk_plans(module, name)
        assert graph.reachable(_tool(graph, name)) is plan.reached


@pytest.mark.parametrize(
    ("name", "arguments"),
    [("checkout", {"city": "Paris", "price": 10.0}), ("quote", {"city": "Lyon"})],
)
def test_the_run_order_is_the_order_a_call_runs_them(
    tmp_path: Path, name: str, arguments: dict[str, Any]
) -> None:
    module, path = load_server(tmp_path, SHAPES)
    graph = _graph(path)
    plan = graph.plan(_tool(graph, name))
    is_error, text = call(module, name, arguments)
    assert not is_error, text
    assert [graph.resolvers[rid].qualname for rid in plan.order] == module.RAN
    # Each runs once per call, however many parameters it fills.
    region = next(rid for rid in plan.order if graph.resolvers[rid].name == "region")
    assert plan.shared(region) and len(module.RAN) == len(set(module.RAN))


def test_consumers_are_every_parameter_a_resolver_fills(tmp_path: Path) -> None:
    path = tmp_path / "server.py"
    path.write_text(SHAPES, encoding="utf-8")
    graph = _graph(path)
    plan = graph.plan(_tool(graph, "checkout"))
    by_name = {graph.resolvers[rid].name: rid for rid in plan.order}
    fills = [
        (graph.resolvers[c.resolver].name if c.resolver else "checkout", c.parameter.name)
        for c in plan.consumers[by_name["region"]]
    ]
    assert fills == [("tax", "r"), ("shipping", "r"), ("checkout", "r")]
    assert [s for s in (plan.step(by_name[n]) for n in ("region", "entry")) if s] == [1, 5]


def test_the_cycle_starts_where_the_sdk_says(tmp_path: Path) -> None:
    from mcp.server.mcpserver.exceptions import InvalidSignature

    with pytest.raises(InvalidSignature) as refused:
        load_server(tmp_path, CYCLE)
    path = tmp_path / "server.py"
    graph = _graph(path)
    plan = graph.plan(_tool(graph, "upgrade"))
    assert plan.order == []  # refused before anything runs
    [cycle] = plan.cycles
    assert [r.name for r, _ in cycle] == ["check_quota", "plan_of", "check_quota"]
    assert f"Resolver {cycle[0][0].qualname!r} has a cyclic dependency" in str(refused.value)
    assert {graph.resolvers[rid].name for rid in plan.in_cycle} == {"check_quota", "plan_of"}
    # `account` runs nothing: it is analysed before the cycle is met.
    assert [r.name for r in plan.reached] == ["account", "check_quota", "plan_of"]


def test_every_reader_takes_the_one_plan(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rules, the tree, the JSON document, the hover and the serve banner read one walk a tool."""
    from mcpdeps.cli.graph.render import print_graph
    from mcpdeps.cli.lsp.hover import tool_markdown
    from mcpdeps.cli.serve.render_banner import _tool_row
    from mcpdeps.lint_rules import run_rules
    from mcpdeps.resolver_core import graph_json, plan

    walked: list[str] = []
    real = plan.plan_tool

    def counted(resolvers: Any, tool: Tool) -> Any:
        walked.append(tool.name)
        return real(resolvers, tool)

    monkeypatch.setattr(plan, "plan_tool", counted)
    path = tmp_path / "server.py"
    path.write_text(SHAPES, encoding="utf-8")
    graph = _graph(path)
    run_rules(graph)
    print_graph(graph, capture=True)
    graph_json.graph_document(graph)
    for _, tool in graph.tools():
        tool_markdown(graph, tool, [])
        _tool_row(graph, tool)
    assert sorted(walked) == ["checkout", "quote"]
