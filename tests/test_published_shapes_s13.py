"""Registration shapes the s12 round left unfollowed, checked against the SDK itself.

Tools listed as records and registered in a loop (`TOOLS = [ToolEntry(search, "search")]`,
`for entry in TOOLS: mcp.add_tool(entry.function, name=entry.name)`, over a module's list or
a list a helper is handed), registrars imported from other modules under other names, and
an `ImportError` fallback between two registering modules read where published servers
write it. Each project's tool runs `load_d(nope)`, which the SDK refuses;
`published_shapes.check_both_ways` runs the server under the SDK, then lint (`lint .` and
the resolver's file alone), refused and clean.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import lint_diagnostics, write_files
from published_shapes import CLEAN, PROJECT, REFUSED, check_both_ways, entry_point

Case = tuple[dict[str, str], str, str, str, tuple[str, str]]

BAD = CLEAN[0] + "\n"
"""The refused resolver, a plain function at module level."""

TOOL = (
    "from typing import Annotated\n\nfrom mcp.server.mcpserver import Resolve\n\nfrom app.deps import load_d\n"
    "{imports}\n\ndef t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n    return d\n\n\n"
    "def u(x: int) -> str:\n    return str(x)\n{after}"
)
"""A module defining the tool `t` running the refused resolver, a clean tool `u` beside it,
then `after` (a list of them)."""

RECORDS = {
    "dataclass": "from collections.abc import Callable\nfrom dataclasses import dataclass\n\n\n"
    "@dataclass(frozen=True)\nclass ToolEntry:\n    function: Callable[..., object]\n"
    "    name: str\n    read_only: bool = True\n",
    "NamedTuple": "from collections.abc import Callable\nfrom typing import NamedTuple\n\n\n"
    "class ToolEntry(NamedTuple):\n    function: Callable[..., object]\n    name: str\n",
    "class storing its parameters": "class ToolEntry:\n"
    "    def __init__(self, function, name, read_only=True) -> None:\n"
    "        self.function = function\n        self.name = name\n        self.read_only = read_only\n",
}
"""A record class holding a tool's function and name, three ways."""

ENTRIES = '\n\nTOOLS = [ToolEntry(t, "t"), ToolEntry(name="u", function=u)]\n'


def record_case(record: str, registry: str, main: str) -> Case:
    """`app/records.py` holding the record class `record`, `app/tools.py` the tools listed in
    `TOOLS`, `app/registry.py` `registry` and `app/main.py` the entry point `main`."""
    files = {
        "app/deps.py": BAD,
        "app/records.py": RECORDS[record],
        "app/tools.py": TOOL.format(imports="from app.records import ToolEntry", after=ENTRIES),
        "app/main.py": main,
    }
    if registry:
        files["app/registry.py"] = registry
    return files, "import app.main", "app/deps.py", REFUSED, CLEAN


LOOP = "for entry in TOOLS:\n    mcp.add_tool(entry.function, name=entry.name)\n"

CASES: dict[str, Case] = {
    f"tool entries of a {record}, registered in a loop at the top level": record_case(
        record,
        "",
        entry_point("from app.tools import TOOLS", LOOP.replace("\n    ", "\n        ")),
    )
    for record in RECORDS
}

HELPER = (
    "from mcp.server import MCPServer\n\n\ndef register(server: MCPServer, entries) -> None:\n"
    "    for entry in entries:\n        server.tool(name=entry.name)(entry.function)\n"
)
"""A helper registering each entry of the list it is handed."""

CASES["tool entries of a dataclass, handed to a helper registering each entry's function"] = record_case(
    "dataclass",
    HELPER,
    entry_point("from app.registry import register\n    from app.tools import TOOLS", "register(mcp, TOOLS)"),
)
CASES["tool pairs handed to a helper unpacking them in its loop"] = (
    {
        "app/deps.py": BAD,
        "app/tools.py": TOOL.format(imports="", after='\n\nPAIRS = [("t", t), ("u", u)]\n'),
        "app/registry.py": "def register(server, pairs) -> None:\n    for name, fn in pairs:\n"
        "        server.add_tool(fn, name=name)\n",
        "app/main.py": entry_point(
            "from app.registry import register\n    from app.tools import PAIRS", "register(mcp, PAIRS)"
        ),
    },
    "import app.main",
    "app/deps.py",
    REFUSED,
    CLEAN,
)
CASES["a dict of tools handed to a helper looping over its items"] = (
    {
        "app/deps.py": BAD,
        "app/tools.py": TOOL.format(imports="", after='\n\nTOOLS = {"t": t, "u": u}\n'),
        "app/registry.py": "def register(server, tools) -> None:\n    for name, fn in tools.items():\n"
        "        server.add_tool(fn, name=name)\n",
        "app/main.py": entry_point(
            "from app.registry import register\n    from app.tools import TOOLS", "register(mcp, TOOLS)"
        ),
    },
    "import app.main",
    "app/deps.py",
    REFUSED,
    CLEAN,
)


@pytest.mark.parametrize("case", sorted(CASES))
def test_lint_reports_what_the_sdk_refuses_and_accepts_what_it_accepts(tmp_path: Path, case: str) -> None:
    check_both_ways(tmp_path, *CASES[case])


def test_a_helper_handed_a_computed_list_is_said_not_followed(tmp_path: Path) -> None:
    """`register(mcp, load_entries())`: the helper's loop takes values no module writes out;
    lint says so at the loop's registration (MCPD113), as before, and guesses no tool."""
    files = record_case(
        "dataclass",
        HELPER,
        entry_point(
            "from app.registry import register\n    from app.tools import TOOLS", "register(mcp, list(TOOLS))"
        ),
    )[0]
    write_files(tmp_path, {**PROJECT, **files})
    found = [(d["code"], d["path"], d["line"]) for d in lint_diagnostics(tmp_path, "--no-cache", ".")]
    assert found == [("MCPD113", "app/registry.py", 6)]
    assert lint_diagnostics(tmp_path, "--no-cache", "app/deps.py") == []
