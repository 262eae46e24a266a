"""A loop over listed rows calling each row's class in exclusive arms: one arm per turn.

Published servers register groups of tools from a table, each row a class and what it needs:

    for name, cls, client_factory in groups:
        if client_factory is not None:
            cls(client_factory).register(mcp)
        else:
            cls().register(mcp)

Each row's class is called in its own turn of the loop, where the `if` takes one arm, so its
tools land once. lint counted both arms of every row (arms inside a loop body never exclude
each other: `for flag in (True, False): if flag: register(mcp)` does run both) and reported
every tool of every class as registered twice (MCPD110): 162 false alarms on one server of
awslabs/mcp. The arms written in the body now count within the turn of the row whose value a
call reads (`arms.ArmStack.turn`), and only there: a class listed in two rows, called in one
arm for each, registers twice, as the SDK logs.

Each case is imported under the real `mcp` with registrations recorded
(`oracle/sdk_verdicts.judge_case`); `lint .` and `lint server.py` (as pre-commit passes it)
must report a duplicate exactly where the SDK logs one.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import write_files
from mcpdeps.lint_rules import lint
from oracle.sdk_verdicts import judge_case
from published_shapes import the_editor_reports_what_lint_dot_reports

HEAD = 'from mcp.server.mcpserver import MCPServer\n\nmcp = MCPServer("s")\n\n\ndef make_client():\n    return object()\n\n'

GROUP = """
class {cls}:
    def __init__(self, client_factory=None):
        self.client_factory = client_factory

    def register(self, server):
        server.tool(name="{tool}")(self.run)

    async def run(self, x: str) -> str:
        return x
"""

TWO_GROUPS = GROUP.format(cls="Gateways", tool="gateway_get") + GROUP.format(cls="Guide", tool="guide")

IF_ELSE = """
    if client_factory is not None:
        cls(client_factory).register({server})
    else:
        cls().register({server})
"""


def rows_loop(rows: str, server: str = "mcp", indent: str = "") -> str:
    body = IF_ELSE.format(server=server).replace("\n    ", "\n    " + indent)
    return f"{indent}for cls, client_factory in {rows}:{body}"


CASES: dict[str, tuple[str, list[str]]] = {
    "a class per row, each in one arm": (
        HEAD + TWO_GROUPS + "\n" + rows_loop("[(Gateways, make_client), (Guide, None)]"),
        [],
    ),
    "a class per row, neither value known": (
        HEAD + TWO_GROUPS + "\n" + rows_loop("[(Gateways, make_client), (Guide, make_client)]"),
        [],
    ),
    "one row": (
        HEAD
        + GROUP.format(cls="Gateways", tool="gateway_get")
        + "\n"
        + rows_loop("[(Gateways, make_client)]"),
        [],
    ),
    "in a helper, under try": (
        HEAD
        + TWO_GROUPS
        + "\n\ndef register_all(server):\n"
        + "    groups = [('gateways', Gateways, make_client), ('guide', Guide, None)]\n"
        + "    for name, cls, client_factory in groups:\n        try:\n"
        + IF_ELSE.format(server="server").replace("\n    ", "\n            ")
        + "        except Exception as e:\n            raise RuntimeError(name) from e\n\n\nregister_all(mcp)\n",
        [],
    ),
    "one class in two rows, one arm each": (
        HEAD + TWO_GROUPS + "\n" + rows_loop("[(Gateways, make_client), (Gateways, None)]"),
        ["gateway_get"],
    ),
    "one class in two rows, the same arm": (
        HEAD + TWO_GROUPS + "\nfor cls in (Guide, Guide):\n    cls().register(mcp)\n",
        ["guide"],
    ),
    "one helper called in both arms of every turn": (
        HEAD
        + "\ndef register(server):\n    @server.tool()\n    def ping(x: str) -> str:\n        return x\n\n\n"
        + "for flag in (True, False):\n    if flag:\n        register(mcp)\n    else:\n        register(mcp)\n",
        ["ping"],
    ),
    "the arms of an inner loop over flags": (
        HEAD
        + TWO_GROUPS
        + "\nfor cls in (Guide,):\n    for flag in (True, False):\n        if flag:\n"
        + "            cls().register(mcp)\n        else:\n            cls(make_client).register(mcp)\n",
        ["guide"],
    ),
}


@pytest.mark.parametrize("case", CASES)
def test_lint_reports_the_duplicates_the_sdk_logs(case: str, tmp_path: Path) -> None:
    text, expected = CASES[case]
    write_files(tmp_path, {"server.py": text})
    verdict = judge_case(tmp_path)
    assert verdict["import_error"] is None
    assert [t["tool"] for t in verdict["tools"] if t["duplicate"]] == expected
    for target in (tmp_path, tmp_path / "server.py"):
        found = [d.tool for d in lint([target], cwd=tmp_path).diagnostics if d.code == "MCPD110"]
        assert found == expected


PACKAGE = {
    "server.py": (
        'from mcp.server.mcpserver import MCPServer\n\nmcp = MCPServer("agentcore")\n\n'
        "try:\n    from tools import register_tools\n\n    register_tools(mcp)\n"
        "except ImportError:\n    pass\n"
    ),
    "tools/__init__.py": (
        "from .client import make_client\nfrom .gateways import Gateways\nfrom .guide import Guide\n\n\n"
        "def register_tools(mcp):\n"
        "    groups = [('gateways', Gateways, make_client), ('guide', Guide, None)]\n"
        "    for name, cls, client_factory in groups:\n"
        + IF_ELSE.format(server="mcp").replace("\n    ", "\n        ")
    ),
    "tools/client.py": "def make_client():\n    return object()\n",
    "tools/gateways.py": GROUP.format(cls="Gateways", tool="gateway_get"),
    "tools/guide.py": GROUP.format(cls="Guide", tool="guide"),
}


@pytest.mark.parametrize("given", [".", "server.py", "tools/__init__.py", "tools/gateways.py"])
def test_groups_registered_from_a_package_table(given: str, tmp_path: Path) -> None:
    write_files(tmp_path, PACKAGE)
    verdict = judge_case(tmp_path)
    assert verdict["import_error"] is None
    assert sorted(t["tool"] for t in verdict["tools"]) == ["gateway_get", "guide"]
    assert not any(t["duplicate"] for t in verdict["tools"])
    result = lint([tmp_path / given], cwd=tmp_path)
    assert result.diagnostics == []


def test_the_editor_reports_what_lint_reports(tmp_path: Path) -> None:
    """`mcpdeps lsp`'s model, the table's second row changed to a second class in unsaved text and back."""
    write_files(tmp_path, {"server.py": CASES["one class in two rows, one arm each"][0]})
    the_editor_reports_what_lint_dot_reports(tmp_path, "server.py", ("(Gateways, None)", "(Guide, None)"))
