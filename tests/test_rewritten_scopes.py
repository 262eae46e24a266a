"""An annotation written at run time belongs to the function its name is bound to there.

`tool.__annotations__["x"] = str` makes what the SDK reads differ from what the `def`
declares, so mcpdeps says such a tool not analysed (MCPD113) rather than judge it. It matched
the written name across the whole module: a helper rewriting its own local `tool` hid every
other function named `tool`, a factory's registered tool included, whose errors then went
unreported (a published server's tests patch a local `tool` this way). The write now names the
function bound where it is written (`rewritten.rewritten_functions`): a function's own local,
or the module's function when the writing function binds no such name.

Each case is imported under the real `mcp`, its factory called (`oracle/sdk_verdicts`);
`lint .` and `lint server.py` must say the same.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import write_files
from mcpdeps.lint_rules import lint
from oracle.sdk_verdicts import judge_case

HEAD = "# start: build()\nfrom mcp.server.mcpserver import MCPServer\n\n\n"

FACTORY = """def build():
    mcp = MCPServer("b")
{before}
    @mcp.tool()
    def tool(_x: int) -> int:
        return _x

    return mcp
"""

PATCHED = """

def patched():
    def tool(x: int) -> int:
        return x

    tool.__annotations__["x"] = str
    return tool
"""

CASES: dict[str, tuple[str, str | None, list[str]]] = {
    "another function rewrites its own local of that name": (
        HEAD + FACTORY.format(before="") + PATCHED,
        "MCPD006",
        ["MCPD006"],
    ),
    # (The SDK judged the tool when it was registered, before `patch()` ran; mcpdeps does not
    # order the write against the registration and says the tool not analysed, as before.)
    "a function rewrites the module's function of that name": (
        HEAD
        + 'mcp = MCPServer("m")\n\n\n@mcp.tool()\ndef tool(_x: int) -> int:\n    return _x\n\n\n'
        + 'def patch():\n    tool.__annotations__["_x"] = str\n\n\npatch()\n\n\ndef build():\n    return mcp\n',
        "MCPD006",
        ["MCPD113"],
    ),
    "a nested function rewrites its enclosing function's tool (nonlocal)": (
        HEAD
        + 'def build():\n    mcp = MCPServer("b")\n\n    def tool(x: int) -> str:\n        return str(x)\n\n'
        + '    def fix():\n        nonlocal tool\n        tool.__annotations__["x"] = str\n\n'
        + "    fix()\n    mcp.add_tool(tool)\n    return mcp\n",
        None,
        ["MCPD113"],
    ),
}


@pytest.mark.parametrize("case", CASES)
def test_a_rewrite_hides_only_its_own_function(case: str, tmp_path: Path) -> None:
    text, refused, expected = CASES[case]
    write_files(tmp_path, {"server.py": text})
    verdict = judge_case(tmp_path)
    assert verdict["import_error"] is None
    assert [t["code"] for t in verdict["tools"] if t["verdict"] != "ok"] == ([refused] if refused else [])
    for target in (tmp_path, tmp_path / "server.py"):
        assert [d.code for d in lint([target], cwd=tmp_path).diagnostics] == expected
