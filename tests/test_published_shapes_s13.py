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

import textwrap
from pathlib import Path

import published_shapes
import pytest
from conftest import lint_diagnostics, write_files
from published_shapes import CLEAN, PROJECT, REFUSED, check_both_ways, entry_point, resolver_module, sdk

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


def test_a_helper_handed_a_computed_list_is_said_not_followed(tmp_path: Path) -> None:
    """`register(mcp, entries())`: the helper's loop takes values no module writes out (the
    getter builds them: a getter whose body is one `return` is read, `returned_collections.py`);
    lint says so at the loop's registration (MCPD113), as before, and guesses no tool."""
    files = record_case(
        "dataclass",
        HELPER,
        entry_point(
            "from app.registry import register\n    from app.tools import TOOLS\n\n\n"
            "    def entries():\n        picked = list(TOOLS)\n        return picked\n",
            "register(mcp, entries())",
        ),
    )[0]
    write_files(tmp_path, {**PROJECT, **files})
    found = [(d["code"], d["path"], d["line"]) for d in lint_diagnostics(tmp_path, "--no-cache", ".")]
    assert found == [("MCPD113", "app/registry.py", 6)]
    assert lint_diagnostics(tmp_path, "--no-cache", "app/deps.py") == []


SERVER = 'from mcp.server import MCPServer\n\nmcp = MCPServer("x")\n'
REGISTRAR = (
    "class Reg:\n    def __init__(self, mcp) -> None:\n        self.mcp = mcp\n\n"
    "    def __call__(self, fn, name: str) -> None:\n        self.mcp.add_tool(fn, name=name)\n"
)
"""A registrar class whose instances add the function they are called with."""

CASES["a registrar instance imported from the module binding it"] = (
    {
        "app/deps.py": BAD,
        "app/server.py": SERVER,
        "app/reg.py": "from app.server import mcp\n\n\n" + REGISTRAR + "\n\nr = Reg(mcp)\n",
        "app/tools.py": TOOL.format(imports="from app.reg import r", after='\n\nr(t, "x")\n'),
        "app/main.py": "from app.server import mcp  # noqa: F401\nimport app.tools  # noqa: F401\n",
    },
    "import app.main",
    "app/deps.py",
    REFUSED,
    CLEAN,
)
CASES["the server's add_tool bound to a name, imported under another"] = (
    {
        "app/deps.py": BAD,
        "app/server.py": SERVER + "register = mcp.add_tool\n",
        "app/tools.py": TOOL.format(imports="from app.server import register as add", after="\n\nadd(t)\n"),
        "app/main.py": "from app.server import mcp  # noqa: F401\nimport app.tools  # noqa: F401\n",
    },
    "import app.main",
    "app/deps.py",
    REFUSED,
    CLEAN,
)

FALLBACK_HELPER = (
    "def register(mcp) -> None:\n    @mcp.tool()\n"
    "    def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n        return d\n"
)
CHOICE = "try:\n    from app.fast import register\nexcept ImportError:\n    from app.slow import register\n"
FALLBACKS = {
    "inside the factory": "from app.server import mcp\n\n\ndef build() -> None:\n"
    + textwrap.indent(CHOICE, "    ")
    + "    register(mcp)\n\n\nbuild()\n",
    "importing a module alias": "from app.server import mcp\n\ntry:\n    import app.fast as impl\n"
    "except ImportError:\n    import app.slow as impl\n\nimpl.register(mcp)\n",
    "called in a loop over registrars": "from app.server import mcp\n\n"
    + CHOICE
    + "\nfor install in (register,):\n    install(mcp)\n",
}
"""An entry point choosing `app.fast`'s helper, or `app.slow`'s where that import fails."""


@pytest.mark.parametrize("shape", sorted(FALLBACKS))
@pytest.mark.parametrize("bad", ["fast", "slow"])
def test_an_import_error_fallback_is_judged_as_the_arm_it_is(tmp_path: Path, shape: str, bad: str) -> None:
    """The helper of the import that succeeds runs (`fast`); the fallback's (`slow`) runs where
    `app.fast` is missing: the SDK refuses each one's resolver in its own run, and lint reports
    it in that file (`lint .` and the file alone), the other file clean."""
    good = "slow" if bad == "fast" else "fast"
    files = {
        "app/server.py": SERVER,
        f"app/{bad}.py": resolver_module(FALLBACK_HELPER),
        f"app/{good}.py": resolver_module(FALLBACK_HELPER).replace(*CLEAN),
        "app/main.py": FALLBACKS[shape],
    }
    write_files(tmp_path, {**PROJECT, **files})
    if bad == "slow":
        assert sdk(tmp_path, "import app.main").returncode == 0
        (tmp_path / "app/fast.py").rename(tmp_path / "fast.py.bak")
    refused = sdk(tmp_path, "import app.main")
    assert REFUSED in refused.stderr, refused.stderr
    if bad == "slow":
        (tmp_path / "fast.py.bak").rename(tmp_path / "app/fast.py")

    def found(*args: str) -> list[tuple[str, str]]:
        return [(d["code"], d["path"]) for d in lint_diagnostics(tmp_path, "--no-cache", *args)]

    assert found(".") == found(f"app/{bad}.py") == [("MCPD002", f"app/{bad}.py")]
    assert found(f"app/{good}.py") == []
    path = tmp_path / f"app/{bad}.py"
    path.write_text(path.read_text().replace(*CLEAN))
    assert found(".") == found(f"app/{bad}.py") == []


LISTED = TOOL.format(imports="", after="\n\nTOOLS = [t, u]\n")
"""The tools listed in `TOOLS`."""

for _shape, _loop in {
    "a list comprehension": "[mcp.add_tool(fn) for fn in TOOLS]",
    "a dict comprehension naming each tool": "{fn.__name__: mcp.tool(name=fn.__name__)(fn) for fn in TOOLS}",
    "a loop over enumerate()": "for i, fn in enumerate(TOOLS):\n        mcp.add_tool(fn)",
    "a loop over list() of the list": "for fn in list(TOOLS):\n        mcp.add_tool(fn)",
}.items():
    CASES[f"tools listed in another module, registered in {_shape}"] = (
        {
            "app/deps.py": BAD,
            "app/tools.py": LISTED,
            "app/main.py": entry_point("from app.tools import TOOLS", _loop),
        },
        "import app.main",
        "app/deps.py",
        REFUSED,
        CLEAN,
    )


def test_a_comprehension_over_computed_values_is_said_not_followed(tmp_path: Path) -> None:
    """`[mcp.add_tool(fn) for fn in load_tools()]`: values no module writes out (the getter
    builds them); lint says so (MCPD113) where it said nothing, and guesses no tool."""
    main = entry_point(
        "from app.tools import TOOLS\n\n\n    def load_tools():\n        picked = list(TOOLS)\n        return picked\n",
        "[mcp.add_tool(fn) for fn in load_tools()]",
    )
    write_files(tmp_path, {**PROJECT, "app/deps.py": BAD, "app/tools.py": LISTED, "app/main.py": main})
    found = [(d["code"], d["path"]) for d in lint_diagnostics(tmp_path, "--no-cache", ".")]
    assert found == [("MCPD113", "app/main.py")]


@pytest.mark.parametrize("case", sorted(CASES))
def test_lint_reports_what_the_sdk_refuses_and_accepts_what_it_accepts(tmp_path: Path, case: str) -> None:
    check_both_ways(tmp_path, *CASES[case])


test_the_editor_reports_what_lint_dot_reports = published_shapes.editor_test(CASES)
