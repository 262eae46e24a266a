"""Registration shapes read in published servers (the s22 round), checked against the SDK.

- loops over a module's namespace, filtered by name before registering each function:
  `inspect.getmembers(tools, inspect.isfunction)` (in the server module, a factory, over the
  modules an outer loop lists), `vars(tools).items()` / `tools.__dict__.items()`, and
  `globals().items()` of the server module, `getmembers(sys.modules[__name__], ...)`, a
  `callable(fn)` test beside the name's: lint said them not analysed (MCPD113), the SDK
  registering (and refusing) the functions the names select; a function the listed module
  imports is one of its members too (`lint deps.py` alone must then check the listing file);
- `@deprecated("...")` (typing_extensions, PEP 702) stacked under `@mcp.tool()`: a
  `functools.wraps` wrapper, which lint said not analysed beside the refusal it reported;
- the shapes of this round lint does not follow yet are in `test_published_shapes_s22_unfollowed.py`.

A case is our own small project (2.3 API) with a tool running `load_d(nope)`, refused by the
SDK: `published_shapes.survey_tests` checks it under the SDK, with `lint .`, the resolver's file
alone (refused and clean twin), every file alone cold and cached, and the editor (saved and
unsaved). Above each case, a comment names where the shape was read; none of that code is here.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import published_shapes
from conftest import write_files
from published_shapes import PROJECT, duplicates_logged, entry_point, found, stays_silent
from test_published_shapes_s20 import DEPS, Case, tools_module

CASES: dict[str, Case] = {}

TOOLS = tools_module(
    """\
    from app.deps import load_d


    def solve_tool(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
        return d


    def echo_tool(x: int) -> int:
        return x


    def _private_helper(_y: int) -> int:
        return _y
    """
)
"""`app/tools.py`: two tools named `*_tool` (the refused one first), the resolver it imports and a
helper whose parameter the SDK would refuse (T2) were it registered."""


def server_module(body: str = "", imports: str = "", decorators: str = "") -> str:
    """`app/main.py` of a single-file server: `imports` beside the server's, the server `mcp`,
    the refused tool `tool_solve` under `decorators` (one a line), then `body` dedented."""
    return tools_module(
        "from mcp.server import MCPServer\n"
        + imports
        + '\nfrom app.deps import load_d\n\nmcp = MCPServer("x")\n\n\n'
        + decorators
        + "def tool_solve(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n    return d\n\n\n"
        + textwrap.dedent(body)
    )


def single_file(body: str = "", imports: str = "", decorators: str = "") -> Case:
    """The case of a single-file server (`server_module`) importing the refused resolver."""
    return (
        {"app/deps.py": DEPS, "app/main.py": server_module(body, imports, decorators)},
        "import app.main",
        "app/deps.py",
    )


# A published NeuroML server's `register_tools(mcp, modules)` (code corpus) walks
# `inspect.getmembers(module, inspect.isfunction)` and registers the names ending in `_tool`.
CASES["getmembers(tools, isfunction) filtered by a name suffix"] = (
    {
        "app/deps.py": DEPS,
        "app/tools.py": TOOLS,
        "app/main.py": entry_point(
            "import inspect\n    from app import tools",
            "for fname, fn in inspect.getmembers(tools, inspect.isfunction):\n"
            '        if fname.endswith("_tool"):\n'
            "            mcp.add_tool(fn)",
        ),
    },
    "import app.main",
    "app/deps.py",
)

# The same walk in a factory, the test written as a `continue` guard and the name trimmed.
CASES["getmembers(predicate=isfunction) in a factory, a continue guard on the name"] = (
    {
        "app/deps.py": DEPS,
        "app/tools.py": TOOLS,
        "app/main.py": """\
            import inspect

            from mcp.server import MCPServer

            import app.tools


            def create_server() -> MCPServer:
                mcp = MCPServer("x")
                for name, fn in inspect.getmembers(app.tools, predicate=inspect.isfunction):
                    if name.startswith("_") or not name.endswith("_tool"):
                        continue
                    mcp.add_tool(fn, name=name.removesuffix("_tool"))
                return mcp
            """,
    },
    "from app.main import create_server; create_server()",
    "app/deps.py",
)

# The modules listed by an outer loop, as the published helper takes them (here written out).
CASES["getmembers over each module an outer loop lists"] = (
    {
        "app/deps.py": DEPS,
        "app/tools.py": TOOLS,
        "app/more.py": "def ping_tool(x: int) -> int:\n    return x\n",
        "app/main.py": entry_point(
            "import inspect\n    from app import more, tools",
            "for module in (more, tools):\n"
            "        for fname, fn in inspect.getmembers(module, inspect.isfunction):\n"
            '            if fname.endswith("_tool"):\n'
            "                mcp.add_tool(fn)",
        ),
    },
    "import app.main",
    "app/deps.py",
)

# getmembers lists what the module imports too: a tools module re-exporting its implementation.
CASES["getmembers without a test, the refused tool a function the module imports"] = (
    {
        "app/deps.py": DEPS,
        "app/impl.py": tools_module(
            "from app.deps import load_d\n\n\ndef solve(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n"
            "    return d\n"
        ),
        "app/tools.py": "from app.impl import solve\n\n\ndef echo(x: int) -> int:\n    return x\n",
        "app/main.py": entry_point(
            "import inspect\n    from app import tools",
            "for fname, fn in inspect.getmembers(tools, inspect.isfunction):\n        mcp.add_tool(fn, name=fname)",
        ),
    },
    "import app.main",
    "app/deps.py",
)

# Published single-file servers register every `tool_*` global once their functions are defined.
CASES["globals() of the server module filtered by a prefix, a def after the loop left out"] = single_file(
    """\
        def tool_echo(x: int) -> int:
            return x


        for _name, _fn in list(globals().items()):
            if _name.startswith("tool_"):
                mcp.add_tool(_fn, name=_name.removeprefix("tool_"))


        def tool_late(_bad: int) -> int:
            return _bad
        """
)

CASES["tools.__dict__.items() filtered by a prefix"] = (
    {
        "app/deps.py": DEPS,
        "app/tools.py": TOOLS,
        "app/main.py": entry_point(
            "from app import tools",
            'for n, fn in tools.__dict__.items():\n        if n.endswith("_tool"):\n            mcp.add_tool(fn)',
        ),
    },
    "import app.main",
    "app/deps.py",
)

# A test of the value by `callable()` (true of every function listed) beside the name's.
CASES["globals() filtered by callable() and a prefix"] = single_file(
    """\
        for _name, _obj in list(globals().items()):
            if _name.startswith("tool_") and callable(_obj):
                mcp.add_tool(_obj)
        """
)

# Single-file servers list their own module from a register helper: `sys.modules[__name__]`.
CASES["getmembers(sys.modules[__name__]) in a register helper of the server module"] = single_file(
    """\
        def register(mcp: MCPServer) -> None:
            for name, fn in inspect.getmembers(sys.modules[__name__], inspect.isfunction):
                if name.startswith("tool_"):
                    mcp.add_tool(fn, name=name[5:])


        register(mcp)
        """,
    "import inspect\nimport sys\n",
)

# Published servers mark retired tools with PEP 702's `@deprecated` under `@mcp.tool()`.
CASES["@deprecated(...) of typing_extensions under @mcp.tool()"] = single_file(
    imports="from typing_extensions import deprecated\n",
    decorators='@mcp.tool()\n@deprecated("use solve2")\n',
)

(
    test_sdk_refuses_and_lint_reports_alike,
    test_each_file_alone_reports_what_lint_dot_reports,
    test_the_editor_reports_what_lint_dot_reports,
) = published_shapes.survey_tests(CASES, {})


def test_getmembers_over_two_modules_defining_one_name_is_a_duplicate(tmp_path: Path) -> None:
    """`getmembers` over two modules that both define `echo_tool`: the SDK logs the duplicate
    and keeps the first module's; lint reports MCPD110 at the registration, `lint .` and the
    file alone alike."""
    files = {
        "app/tools.py": "def echo_tool(x: int) -> int:\n    return x\n",
        "app/more.py": "def echo_tool(y: int) -> int:\n    return y\n",
        "app/main.py": entry_point(
            "import inspect\n    from app import more, tools",
            "for module in (tools, more):\n"
            "        for fname, fn in inspect.getmembers(module, inspect.isfunction):\n"
            "            mcp.add_tool(fn)",
        ),
    }
    write_files(tmp_path, {**PROJECT, **files})
    assert duplicates_logged(tmp_path, {}) == ["Tool already exists: echo_tool"]
    whole = [(d["code"], d["path"]) for d in found(tmp_path, ["."])]
    assert whole == [("MCPD110", "app/main.py")]
    assert [(d["code"], d["path"]) for d in found(tmp_path, ["app/main.py"])] == whole


SILENT: dict[str, dict[str, str]] = {
    # The test leaves the refused function out: it is never registered.
    "a name test leaving the refused function out": {
        "app/deps.py": DEPS,
        "app/tools.py": TOOLS.replace("solve_tool", "solve"),
        "app/main.py": entry_point(
            "import inspect\n    from app import tools",
            "for fname, fn in inspect.getmembers(tools, inspect.isfunction):\n"
            '        if not fname.endswith("_tool"):\n'
            "            continue\n"
            "        mcp.add_tool(fn)",
        ),
    },
    # The names allowed are written out: the refused function is not one of them.
    "names allowed by a tuple written out, the refused function not among them": {
        "app/deps.py": DEPS,
        "app/tools.py": TOOLS,
        "app/main.py": entry_point(
            "import inspect\n    from app import tools",
            "for name, fn in vars(tools).items():\n"
            '        if name in ("echo_tool",):\n'
            "            mcp.add_tool(fn, name=name)",
        ),
    },
    # `functools.lru_cache` hands back a cache object, which `inspect.isfunction` leaves out: the
    # cached function (whose `_x` parameter the SDK would refuse) is never registered.
    "a cached function, no function to getmembers(isfunction)": {
        "app/tools.py": """\
            import functools


            def echo_tool(x: int) -> int:
                return x


            @functools.lru_cache(maxsize=None)
            def settings_tool(_x: int) -> int:
                return _x
            """,
        "app/main.py": entry_point(
            "import inspect\n    from app import tools",
            "for fname, fn in inspect.getmembers(tools, inspect.isfunction):\n        mcp.add_tool(fn)",
        ),
    },
}


def test_namespace_loops_leaving_the_refused_function_out_stay_silent(tmp_path: Path) -> None:
    """A namespace loop whose members never include the refused function (a name test leaving
    it out, the names allowed written out, a cached function `isfunction` leaves out): the SDK starts the server and lint, `lint .`
    and each file alone, reports nothing at error or warning severity."""
    stays_silent(tmp_path, SILENT)
