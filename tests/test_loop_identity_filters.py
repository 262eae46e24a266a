"""Loops that skip a function by identity or stop at one, in the registering loop or in a
helper's caller, checked against the SDK itself.

`for fn in ALL: if fn is not t: mcp.add_tool(fn)` never registers `t`; nor does `for fn in
(u, t): if fn is t: break` then `add(mcp, fn)`. Every value of the loop was analysed: a
resolver of `t` the SDK never runs was reported (a false error on a server the SDK starts).
`loop_filters.narrowed` reads the body's tests of the loop's variable against project defs
(`is`, `is not`, `==`, `in` a collection written out) and its `break`: the values reaching
each registration are the SDK's, in the direct loop and in a helper's caller alike.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import lint_diagnostics, run_mcpdeps, write_files
from published_shapes import PROJECT, check_both_ways, entry_point, resolver_module, sdk
from sdk_tools import tool_names

TOOLS = resolver_module(
    "def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n    return d\n\n\n"
    "def u(x: int) -> str:\n    return str(x)\n\n\n"
    "def v(x: int) -> str:\n    return str(x)\n\n\nALL = [u, t, v]\nSKIP = (t,)\n"
)
"""`app/tools.py`: the refused tool `t` between the clean `u` and `v`."""

IMPORTS = "from app.tools import ALL, SKIP, t, u, v\n\n\n    def add(server, fn) -> None:\n        server.add_tool(fn)\n"

SKIPPED = {
    "is not, registered in the loop": "for fn in ALL:\n        if fn is not t:\n            mcp.add_tool(fn)",
    "is not, through a helper": "for fn in ALL:\n        if fn is not t:\n            add(mcp, fn)",
    "is, continue, through a helper": "for fn in ALL:\n        if fn is t:\n            continue\n        add(mcp, fn)",
    "!=, in a loop over a tuple written in place": "for fn in (u, t):\n        if fn != t:\n            add(mcp, fn)",
    "in a tuple another module writes, continue": "for fn in ALL:\n        if fn in SKIP:\n            continue\n        mcp.add_tool(fn)",
    "not in a tuple written in place": "for fn in ALL:\n        if fn not in (t, v):\n            add(mcp, fn)",
    "break at the function, registered in the loop": "for fn in ALL:\n        if fn is t:\n            break\n        mcp.add_tool(fn)",
    "break at the function, through a helper": "for fn in (u, t):\n        if fn is t:\n            break\n        add(mcp, fn)",
    "break after the first, through a helper": "for fn in (u, v, t):\n        add(mcp, fn)\n        if fn is v:\n            break",
    "a row's function skipped by identity": (
        "for n, fn in (('a', u), ('b', t)):\n        if fn is t:\n            continue\n        mcp.add_tool(fn, name=n)"
    ),
}
"""Entry points the SDK starts: `t` is never registered."""


def _graph_tools(root: Path) -> list[str]:
    done = run_mcpdeps("graph", "--format", "json", "app/main.py", cwd=root)
    assert done.returncode == 0, done.stderr
    (server,) = json.loads(done.stdout)["servers"]
    return sorted(tool["name"] for tool in server["tools"])


@pytest.mark.parametrize("case", sorted(SKIPPED))
def test_a_function_the_loop_skips_is_not_analysed(tmp_path: Path, case: str) -> None:
    write_files(
        tmp_path, {**PROJECT, "app/tools.py": TOOLS, "app/main.py": entry_point(IMPORTS, SKIPPED[case])}
    )
    started = sdk(tmp_path, "import app.main")
    assert started.returncode == 0, started.stderr
    for given in (".", "app/tools.py", "app/main.py"):
        assert lint_diagnostics(tmp_path, "--no-cache", given) == [], given
    assert _graph_tools(tmp_path) == tool_names(tmp_path)


KEPT = {
    "is not another, through a helper": "for fn in ALL:\n        if fn is not u:\n            add(mcp, fn)",
    "break after the function, registered in the loop": (
        "for fn in ALL:\n        mcp.add_tool(fn)\n        if fn is t:\n            break"
    ),
    "is not a function the loop does not hold": (
        "for fn in ALL:\n        if fn is not add:\n            add(mcp, fn)"
    ),
    "a test not read (undecided: every value runs it)": (
        "for fn in ALL:\n        if fn is not globals().get('skip'):\n            add(mcp, fn)"
    ),
}
"""Entry points the SDK refuses: the filter keeps `t`."""


@pytest.mark.parametrize("case", sorted(KEPT))
def test_a_function_the_loop_keeps_is_analysed(tmp_path: Path, case: str) -> None:
    files = {"app/tools.py": TOOLS, "app/main.py": entry_point(IMPORTS, KEPT[case])}
    check_both_ways(tmp_path, files, "import app.main", "app/tools.py")
    assert _graph_tools(tmp_path) == tool_names(tmp_path)
