"""Still more shapes published servers register tools in, checked against the SDK itself.

Each case is a small project in a shape read in published servers and not in the s9/s10
surveys (a registry decorator collecting tools that a `register_all(mcp)` adds later, a list
of tool functions added in a loop, `functools.partial` registrars, the server's `tool`
decorator bound to a module name, ...), whose tool runs `load_d(nope)`, a resolver the SDK
refuses. `published_shapes.check_both_ways` says what each must do: the SDK (run as the
server starts) refuses it and lint reports MCPD002 in the resolver's file, `lint .` and
`lint FILE` alike; with the clean resolver both accept it.
"""

from __future__ import annotations

import json
from pathlib import Path

import published_shapes
import pytest
from conftest import lint_diagnostics, write_files
from published_shapes import DUPLICATES_LOGGED, PROJECT, check_both_ways, entry_point, resolver_module, sdk

TOOL = """\
def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
    return d
"""
"""A module-level tool whose resolved parameter runs `load_d`."""

CASES: dict[str, tuple[dict[str, str], str, str]] = {
    "a class holding a tools object whose methods are added": (
        {
            "app/tools.py": resolver_module(
                """\
                class WeatherTools:
                    def forecast(self, x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                        return d
                """
            ),
            "app/server.py": """\
                from mcp.server import MCPServer

                from app.tools import WeatherTools


                class Server:
                    def __init__(self) -> None:
                        self.mcp = MCPServer("x")
                        self.tools = WeatherTools()
                        self.mcp.add_tool(self.tools.forecast)
            """,
            "app/main.py": "from app.server import Server\n\nserver = Server()\n",
        },
        "import app.main",
        "app/tools.py",
    ),
    "a registry decorator collecting tools, register_all(mcp) adding each": (
        {
            "app/registry.py": """\
                _TOOLS = []


                def mcp_tool(fn):
                    _TOOLS.append(fn)
                    return fn


                def register_all(mcp) -> None:
                    for fn in _TOOLS:
                        mcp.tool()(fn)
            """,
            "app/tools.py": resolver_module(
                "@mcp_tool\n" + TOOL, imports="from app.registry import mcp_tool\n"
            ),
            "app/main.py": entry_point(
                "from app import tools  # noqa: F401\n    from app.registry import register_all",
                "register_all(mcp)",
            ),
        },
        "import app.main",
        "app/tools.py",
    ),
    "a module's list of tool functions added in a loop": (
        {
            "app/tools.py": resolver_module(TOOL + "\n\nTOOLS = [t]\n"),
            "app/main.py": entry_point(
                "from app.tools import TOOLS", "for fn in TOOLS:\n        mcp.add_tool(fn)"
            ),
        },
        "import app.main",
        "app/tools.py",
    ),
    "a dict of names to tool functions added by name": (
        {
            "app/tools.py": resolver_module(TOOL + '\n\nTOOLS = {"weather": t}\n'),
            "app/main.py": entry_point(
                "from app.tools import TOOLS",
                "for name, fn in TOOLS.items():\n        mcp.add_tool(fn, name=name)",
            ),
        },
        "import app.main",
        "app/tools.py",
    ),
    "an imported function added under another name": (
        {
            "app/tools.py": resolver_module(TOOL),
            "app/main.py": entry_point("from app.tools import t", 'mcp.add_tool(t, name="weather")'),
        },
        "import app.main",
        "app/tools.py",
    ),
    "an imported function decorated by the server's tool() call": (
        {
            "app/tools.py": resolver_module(TOOL),
            "app/main.py": entry_point("from app import tools", 'mcp.tool(name="weather")(tools.t)'),
        },
        "import app.main",
        "app/tools.py",
    ),
    "a create_server() factory calling helpers, its result bound in the entry point": (
        {
            "app/tools.py": resolver_module("def register(mcp) -> None:\n    mcp.add_tool(t)\n\n\n" + TOOL),
            "app/server.py": """\
                from mcp.server import MCPServer

                from app.tools import register


                def create_server() -> MCPServer:
                    server = MCPServer("x")
                    register(server)
                    return server
            """,
            "app/main.py": "from app.server import create_server\n\nmcp = create_server()\n",
        },
        "import app.main",
        "app/tools.py",
    ),
    "a tuple of tool functions each decorated by tool() in a loop": (
        {
            "app/tools.py": resolver_module(TOOL),
            "app/main.py": entry_point("from app.tools import t", "for fn in (t,):\n        mcp.tool()(fn)"),
        },
        "import app.main",
        "app/tools.py",
    ),
    "a nested package's register re-exported by its parent __init__": (
        {
            "app/tools/__init__.py": 'from app.tools.weather import register\n\n__all__ = ["register"]\n',
            "app/tools/weather/__init__.py": "from .forecast import register\n",
            "app/tools/weather/forecast.py": resolver_module(
                "def register(mcp) -> None:\n    mcp.add_tool(t)\n\n\n" + TOOL
            ),
            "app/main.py": entry_point("from app.tools import register", "register(mcp)"),
        },
        "import app.main",
        "app/tools/weather/forecast.py",
    ),
    "the server's tool method bound to a name, called as the decorator": (
        {
            "app/tools.py": resolver_module(
                'mcp = MCPServer("x")\ntool = mcp.tool\n\n\n@tool(name="weather")\n' + TOOL,
                imports="from mcp.server import MCPServer\n",
            ),
        },
        "import app.tools",
        "app/tools.py",
    ),
    "a package __init__ making the server and importing its tools module at the bottom": (
        {
            "app/__init__.py": 'from mcp.server import MCPServer\n\nmcp = MCPServer("x")\n\nfrom app import tools  # noqa: E402, F401\n',
            "app/tools.py": resolver_module("@mcp.tool()\n" + TOOL, imports="from app import mcp\n"),
        },
        "import app",
        "app/tools.py",
    ),
    "a tools package star-importing a module that imports the server relatively": (
        {
            "app/server.py": 'from mcp.server import MCPServer\n\nmcp = MCPServer("x")\n',
            "app/tools/__init__.py": "from .weather import *  # noqa: F403\n",
            "app/tools/weather.py": resolver_module(
                "@mcp.tool()\n" + TOOL, imports="from ..server import mcp\n"
            ),
            "app/main.py": "import app.tools  # noqa: F401\n",
        },
        "import app.main",
        "app/tools/weather.py",
    ),
    "the server reached as an attribute of its module": (
        {
            "app/server.py": 'from mcp.server import MCPServer\n\nmcp = MCPServer("x")\n',
            "app/tools.py": resolver_module(
                "@server.mcp.tool()\n" + TOOL, imports="from app import server\n"
            ),
            "app/main.py": "import app.tools  # noqa: F401\n",
        },
        "import app.main",
        "app/tools.py",
    ),
    "the server imported under another name": (
        {
            "app/server.py": 'from mcp.server import MCPServer\n\nmcp = MCPServer("x")\n',
            "app/tools.py": resolver_module(
                "@srv.tool()\n" + TOOL, imports="from app.server import mcp as srv\n"
            ),
            "app/main.py": "import app.tools  # noqa: F401\n",
        },
        "import app.main",
        "app/tools.py",
    ),
    "a server alias used as the decorator": (
        {
            "app/tools.py": resolver_module(
                'server = MCPServer("x")\napp = server\n\n\n@app.tool()\n' + TOOL,
                imports="from mcp.server import MCPServer\n",
            ),
        },
        "import app.tools",
        "app/tools.py",
    ),
    "the server's tool method bound in a helper, applied by a call": (
        {
            "app/tools.py": resolver_module(
                "def register(mcp) -> None:\n    tool = mcp.tool\n    tool()(t)\n\n\n" + TOOL
            ),
            "app/main.py": entry_point("from app.tools import register", "register(mcp)"),
        },
        "import app.main",
        "app/tools.py",
    ),
    "a functools.partial of a helper given the server, called later": (
        {
            "app/tools.py": resolver_module("def register(mcp) -> None:\n    mcp.add_tool(t)\n\n\n" + TOOL),
            "app/main.py": entry_point(
                "import functools\n\n    from app.tools import register",
                "setup = functools.partial(register, mcp)\n    setup()",
            ),
        },
        "import app.main",
        "app/tools.py",
    ),
    "the server's tool decorator bound to a module-level name": (
        {
            "app/server.py": 'from mcp.server import MCPServer\n\nmcp = MCPServer("x")\ntool = mcp.tool\n',
            "app/tools.py": resolver_module("@tool()\n" + TOOL, imports="from app.server import tool\n"),
            "app/main.py": "import app.tools  # noqa: F401\n",
        },
        "import app.main",
        "app/tools.py",
    ),
    "a registry object listing tools in __init__, its apply(mcp) adding each": (
        {
            "app/tools.py": resolver_module(
                "class Registry:\n    def __init__(self) -> None:\n        self.tools = [t]\n\n"
                "    def apply(self, mcp) -> None:\n        for fn in self.tools:\n            mcp.add_tool(fn)\n\n\n"
                + TOOL
            ),
            "app/main.py": entry_point("from app.tools import Registry", "Registry().apply(mcp)"),
        },
        "import app.main",
        "app/tools.py",
    ),
    "tools named in __all__ added by getattr": (
        {
            "app/tools.py": resolver_module(TOOL + '\n\n__all__ = ["t"]\n'),
            "app/main.py": entry_point(
                "from app import tools",
                "for name in tools.__all__:\n        mcp.add_tool(getattr(tools, name))",
            ),
        },
        "import app.main",
        "app/tools.py",
    ),
    "a registrar class whose __call__ registers on the server it is given": (
        {
            "app/tools.py": resolver_module(
                "class Register:\n    def __call__(self, mcp) -> None:\n        mcp.add_tool(t)\n\n\n" + TOOL
            ),
            "app/main.py": entry_point("from app.tools import Register", "Register()(mcp)"),
        },
        "import app.main",
        "app/tools.py",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_lint_reports_what_the_sdk_refuses_and_accepts_what_it_accepts(tmp_path: Path, case: str) -> None:
    check_both_ways(tmp_path, *CASES[case])


REPLACED = {
    "app/server.py": 'from mcp.server import MCPServer\n\nmcp = MCPServer("x")\n',
    "app/first.py": '"""The first t."""\n\nfrom app.server import mcp\n\n\n@mcp.tool()\ndef t(x: int) -> str:\n    return "old"\n',
    "app/second.py": '"""The second t."""\n\nfrom app.server import mcp\n\n\n@mcp.tool()\ndef t(x: int) -> str:\n    return "new"\n',
    "app/main.py": """\
        import os

        import app.first  # noqa: F401
        from app.server import mcp

        for name in os.environ.get("DISABLED_TOOLS", "t").split(","):
            mcp.remove_tool(name)

        import app.second  # noqa: E402, F401
    """,
}
"""A server whose settings remove a tool by name (`remove_tool`) before another module
registers a tool of that name: the SDK keeps the second, no duplicate."""


@pytest.mark.parametrize("removed", [True, False])
def test_a_name_registered_again_after_remove_tool_is_no_duplicate(tmp_path: Path, removed: bool) -> None:
    """With the removal the SDK logs nothing and lint reports nothing, `lint .` and each file
    alone; without it the SDK logs the duplicate and lint reports MCPD110 on the second."""
    files = dict(REPLACED)
    if not removed:
        files["app/main.py"] = "import app.first  # noqa: F401\nimport app.second  # noqa: F401\n"
    write_files(tmp_path, {**PROJECT, **files})
    ran = sdk(tmp_path, DUPLICATES_LOGGED)
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout.splitlines()[-1]) == ([] if removed else ["Tool already exists: t"])
    expected = [] if removed else [("MCPD110", "app/second.py")]
    assert [(d["code"], d["path"]) for d in lint_diagnostics(tmp_path, "--no-cache", ".")] == expected
    for path in files:
        alone = [(d["code"], d["path"]) for d in lint_diagnostics(tmp_path, "--no-cache", path)]
        assert alone == [e for e in expected if e[1] == path], path


GETTER = {
    "cached": "import functools\n\nfrom mcp.server import MCPServer\n\n\n@functools.lru_cache\n"
    'def get_server() -> MCPServer:\n    return MCPServer("x")\n',
    "singleton": "from mcp.server import MCPServer\n\n_server = None\n\n\ndef get_server() -> MCPServer:\n"
    '    global _server\n    if _server is None:\n        _server = MCPServer("x")\n    return _server\n',
    "fresh": 'from mcp.server import MCPServer\n\n\ndef get_server() -> MCPServer:\n    return MCPServer("x")\n',
}
"""`get_server()` getters: cached and singleton ones hand every caller one server, a fresh one
a new server each call."""


@pytest.mark.parametrize("getter", sorted(GETTER))
def test_modules_registering_on_what_a_getter_returns(tmp_path: Path, getter: str) -> None:
    """Two modules each binding `mcp = get_server()` and registering `t`: one server (the SDK
    logs the duplicate, lint reports MCPD110 on the second) unless the getter makes a new one."""
    kit = 'from app.server import get_server\n\nmcp = get_server()\n\n\n@mcp.tool()\ndef t(x: int) -> str:\n    return "{0}"\n'
    files = {
        "app/server.py": GETTER[getter],
        "app/a.py": kit.format("a"),
        "app/b.py": kit.format("b"),
        "app/main.py": "import app.a  # noqa: F401\nimport app.b  # noqa: F401\n",
    }
    write_files(tmp_path, {**PROJECT, **files})
    ran = sdk(tmp_path, DUPLICATES_LOGGED)
    shared = getter != "fresh"
    assert json.loads(ran.stdout.splitlines()[-1]) == (["Tool already exists: t"] if shared else []), (
        ran.stderr
    )
    found = [(d["code"], d["path"]) for d in lint_diagnostics(tmp_path, "--no-cache", ".")]
    assert found == ([("MCPD110", "app/b.py")] if shared else [])


def test_the_duplicate_is_the_module_imported_second(tmp_path: Path) -> None:
    """`import app.b` before `import app.a`, both registering `t`: the SDK drops a's."""
    kit = 'from app.server import mcp\n\n\n@mcp.tool()\ndef t(x: int) -> str:\n    return "{0}"\n'
    files = {
        "app/server.py": 'from mcp.server import MCPServer\n\nmcp = MCPServer("x")\n',
        "app/a.py": kit.format("a"),
        "app/b.py": kit.format("b"),
        "app/main.py": "import app.b  # noqa: F401\nimport app.a  # noqa: F401\n",
    }
    write_files(tmp_path, {**PROJECT, **files})
    ran = sdk(tmp_path, DUPLICATES_LOGGED)
    assert json.loads(ran.stdout.splitlines()[-1]) == ["Tool already exists: t"], ran.stderr
    found = [(d["code"], d["path"]) for d in lint_diagnostics(tmp_path, "--no-cache", ".")]
    assert found == [("MCPD110", "app/a.py")]


@pytest.mark.parametrize("name", ['f"{prefix}_t"', '"t"'])
def test_a_helper_naming_its_tools_after_a_prefix_called_twice(tmp_path: Path, name: str) -> None:
    """`register(mcp, "a")` then `register(mcp, "b")` with `@mcp.tool(name=f"{prefix}_t")`:
    two tools, no duplicate (a computed name is not judged); with `name="t"` the SDK logs the
    duplicate and lint reports MCPD110."""
    files = {
        "app/tools.py": f"def register(mcp, prefix: str) -> None:\n    @mcp.tool(name={name})\n"
        "    def t(x: int) -> str:\n        return prefix\n",
        "app/main.py": entry_point(
            "from app.tools import register", 'register(mcp, "a")\n    register(mcp, "b")'
        ),
    }
    write_files(tmp_path, {**PROJECT, **files})
    ran = sdk(tmp_path, DUPLICATES_LOGGED)
    computed = name.startswith("f")
    assert json.loads(ran.stdout.splitlines()[-1]) == ([] if computed else ["Tool already exists: t"]), (
        ran.stderr
    )
    expected = [] if computed else [("MCPD110", "app/tools.py")]
    assert [(d["code"], d["path"]) for d in lint_diagnostics(tmp_path, "--no-cache", ".")] == expected
    alone = [(d["code"], d["path"]) for d in lint_diagnostics(tmp_path, "--no-cache", "app/tools.py")]
    assert alone == expected


test_the_editor_reports_what_lint_dot_reports = published_shapes.editor_test(CASES)
