"""Registration shapes read in published servers (the s23 round), checked against the SDK.

- a namespace loop whose test reads a mark a project decorator sets on the function
  (`getattr(fn, "is_tool", False)`, `hasattr(fn, "_is_tool")`, `getattr(fn, "_tool", None) is
  not None`), or a decorator factory's call sets (`@register_tool(name="x")`): lint said the loop not analysed (MCPD113), the SDK registering (and refusing)
  the marked functions (`function_marks.py`);
- a namespace loop over the modules a helper is handed (`def register_tools(mcp, modules):
  for module in modules: for n, fn in getmembers(module, isfunction)`, or the one module):
  lint said it not analysed, the SDK registering the members the test keeps of the modules
  each call passes (`passed_members.py`);
- a decorator factory appending `(fn, name, description)` tuples a loop unpacks
  (`for fn, name, doc in TOOLS: mcp.add_tool(fn, name=name, ...)`): lint said it not
  analysed, the SDK registering each function under the name its call passes;
- a loop over the modules a function lists, adding what each one's getter returns (`for
  module in modules: for fn in module.export_tools():`): lint said it not analysed;
- a decorator handing back its `functools.wraps` wrapper after registering it, or appending it
  to a registry a loop registers: lint read the wrapper as written (`*args, **kwargs`, MCPD109)
  or said the loop not analysed, the SDK reading the def's signature through `__wrapped__`;
- OpenTelemetry's `tracer.start_as_current_span("x")` under `@mcp.tool()`: lint said it not
  analysed beside the refusal, the clean twin too (`library_decorators.span_decorator`).

Cases are built as `test_published_shapes_s22.py`'s are (our own code; above each, a comment
says where the shape was read), and each shape has silent twins where the SDK registers nothing.
"""

from __future__ import annotations

from pathlib import Path

import published_shapes
from conftest import write_files
from published_shapes import PROJECT, duplicates_logged, entry_point, found, stays_silent
from test_published_shapes_s20 import DEPS, Case, tools_module
from test_published_shapes_s22 import TOOLS, single_file

CASES: dict[str, Case] = {}


def marked(mark: str = "fn.is_tool = True", decorator_module: bool = False) -> dict[str, str]:
    """`app/tools.py` (and `app/registry.py` when `decorator_module`): a decorator `tool` whose
    body is `mark` then `return fn`, on the refused `solve`, beside an undecorated helper whose
    `_z` the SDK would refuse (T2) were it registered."""
    decorator = f'def tool(fn):\n    """Mark a tool."""\n    {mark}\n    return fn\n'
    tools = tools_module(
        ("from app.registry import tool\n" if decorator_module else "")
        + "from app.deps import load_d\n\n\n"
        + ("" if decorator_module else decorator + "\n\n")
        + "@tool\ndef solve(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n    return d\n\n\n"
        + "def helper(y: int, _z: int) -> int:\n    return y\n"
    )
    return {"app/tools.py": tools, **({"app/registry.py": decorator} if decorator_module else {})}


def walked(test: str, listing: str = "inspect.getmembers(tools, inspect.isfunction)") -> str:
    """`app/main.py` registering each member of `tools` for which `test` (on `fn`) holds."""
    return entry_point(
        "import inspect\n    from app import tools",
        f"for name, fn in {listing}:\n        if {test}:\n            mcp.add_tool(fn)",
    )


# A published NeuroML-style walk filtered by a mark: `hasattr(func, "_is_tool")` (code corpus).
CASES["getmembers filtered by a mark a decorator sets on the function"] = (
    {"app/deps.py": DEPS, **marked(), "app/main.py": walked('getattr(fn, "is_tool", False)')},
    "import app.main",
    "app/deps.py",
)

CASES["hasattr(fn, mark) as a continue guard, the marking decorator imported"] = (
    {
        "app/deps.py": DEPS,
        **marked("fn._is_tool = 1", decorator_module=True),
        "app/main.py": entry_point(
            "import inspect\n    from app import tools",
            "for name, fn in inspect.getmembers(tools, inspect.isfunction):\n"
            '        if not hasattr(fn, "_is_tool"):\n'
            "            continue\n"
            "        mcp.add_tool(fn, name=name)",
        ),
    },
    "import app.main",
    "app/deps.py",
)

CASES["vars(tools).items() filtered by getattr(fn, mark, None) is not None"] = (
    {
        "app/deps.py": DEPS,
        **marked('fn._mcp_tool = "solve"'),
        "app/main.py": walked('getattr(fn, "_mcp_tool", None) is not None', "vars(tools).items()"),
    },
    "import app.main",
    "app/deps.py",
)

FACTORY = """\
    def register_tool(name=None, schema=None):
        def decorator(func):
            func._mcp_tool_name = name
            setattr(func, "_mcp_schema", schema)
            return func

        return decorator
    """
"""`app/registry.py`: a decorator factory marking the function with what its call passes."""


def factory_marked(call: str, test: str) -> dict[str, str]:
    """`app/registry.py` (`FACTORY`), `app/tools.py` with the refused `solve` under `@call`
    (and the helper `marked` writes), and `app/main.py` registering the members `test` keeps,
    each under the name the factory marked it with."""
    tools = marked(decorator_module=True)["app/tools.py"]
    return {
        "app/registry.py": FACTORY,
        "app/tools.py": tools.replace("import tool", "import register_tool").replace("@tool", f"@{call}"),
        "app/main.py": entry_point(
            "import inspect\n    from app import tools",
            "for name, fn in inspect.getmembers(tools, inspect.isfunction):\n"
            f"        if {test}:\n"
            "            mcp.add_tool(fn, name=fn._mcp_tool_name)",
        ),
    }


# Published registries mark each function with a factory's arguments, `@register_tool(name=...)`.
CASES["hasattr of a mark a decorator factory sets, @register_tool(name=...)"] = (
    {"app/deps.py": DEPS, **factory_marked('register_tool(name="solve")', 'hasattr(fn, "_mcp_tool_name")')},
    "import app.main",
    "app/deps.py",
)

REGISTER_TOOLS = """\
    import inspect


    def register_tools(mcp, modules) -> None:
        for module in modules:
            for fname, fn in inspect.getmembers(module, inspect.isfunction):
                if {test}:
                    mcp.add_tool(fn)
    """
"""`app/util.py`: a helper registering the members of each module it is handed that `test` keeps."""

MORE = "def ping_tool(x: int) -> int:\n    return x\n"
"""`app/more.py`: a module of one tool the SDK accepts."""


def handed(passed: str, test: str = 'fname.endswith("_tool")') -> dict[str, str]:
    """A project whose entry point hands `register_tools` (`REGISTER_TOOLS` keeping what
    `test` keeps) the modules `passed` writes (of `tools`, `more`)."""
    return {
        "app/deps.py": DEPS,
        "app/tools.py": TOOLS,
        "app/more.py": MORE,
        "app/util.py": REGISTER_TOOLS.format(test=test),
        "app/main.py": entry_point(
            "from app import more, tools\n    from app.util import register_tools",
            f"register_tools(mcp, {passed})",
        ),
    }


# A published NeuroML server's `register_tools(mcp, modules)` (code corpus) is handed a list of
# its tool modules by the entry point.
CASES["getmembers over a list of modules handed to a helper"] = (
    handed("modules=[more, tools]"),
    "import app.main",
    "app/deps.py",
)

CASES["vars(module).items() of the one module a helper is handed, named by the member's name"] = (
    {
        "app/deps.py": DEPS,
        "app/tools.py": TOOLS,
        "app/util.py": """\
            def register_module(mcp, module) -> None:
                for fname, fn in vars(module).items():
                    if fname.endswith("_tool"):
                        mcp.add_tool(fn, name=fname.removesuffix("_tool"))
            """,
        "app/main.py": entry_point(
            "import app.tools\n    from app.util import register_module", "register_module(mcp, app.tools)"
        ),
    },
    "import app.main",
    "app/deps.py",
)

# Published decorators log each call in a `functools.wraps` wrapper they register and return.
WRAPPING_TOOL = """\
    import functools

    from app.server import mcp


    def tool(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            return fn(*args, **kwargs)

        {stores}
        return wrapper
    """

SOLVE = tools_module(
    """\
    from app.deps import load_d
    from app.registry import tool


    @tool
    def solve(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
        return d
    """
)
"""`app/tools.py`: the refused tool under the project's `@tool`."""

SERVER = 'from mcp.server import MCPServer\n\nmcp = MCPServer("x")\n'

CASES["a decorator registering its functools.wraps wrapper and returning it"] = (
    {
        "app/deps.py": DEPS,
        "app/server.py": SERVER,
        "app/registry.py": WRAPPING_TOOL.format(stores="mcp.add_tool(wrapper)"),
        "app/tools.py": SOLVE,
    },
    "import app.tools",
    "app/deps.py",
)

# A collecting decorator of a published server appends its logging wrapper, not the function.
CASES["a collecting decorator appending a functools.wraps wrapper, added in a loop"] = (
    {
        "app/deps.py": DEPS,
        "app/registry.py": WRAPPING_TOOL.replace("from app.server import mcp", "TOOLS = []").format(
            stores="TOOLS.append(wrapper)"
        ),
        "app/tools.py": SOLVE,
        "app/main.py": entry_point(
            "import app.tools\n    from app.registry import TOOLS",
            "for fn in TOOLS:\n        mcp.add_tool(fn)",
        ),
    },
    "import app.main",
    "app/deps.py",
)

TUPLES = """\
    TOOLS = []


    def mcp_tool(name, description):
        def decorator(func):
            TOOLS.append((func, name, description))
            return func

        return decorator
    """
"""`app/registry.py`: a decorator factory appending `(function, name, description)` to a list."""


def tuple_tools(*applied: tuple[str, str]) -> str:
    """`app/tools.py`: the refused `solve` and more defs (name, decorator call) under `@call`."""
    defs = "".join(
        f"\n\n@{call}\ndef {name}(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n    return d\n"
        if name == "solve"
        else f"\n\n@{call}\ndef {name}(x: int) -> str:\n    return str(x)\n"
        for name, call in applied
    )
    return tools_module("from app.deps import load_d\nfrom app.registry import mcp_tool\n" + defs)


TUPLE_LOOP = entry_point(
    "import app.tools\n    from app.registry import TOOLS",
    "for func, name, description in TOOLS:\n        mcp.add_tool(func, name=name, description=description)",
)

# A published registry's factory appends `(func, name, description)`; the entry point unpacks them.
CASES["a decorator factory appending (function, name, description) tuples the loop unpacks"] = (
    {
        "app/deps.py": DEPS,
        "app/registry.py": TUPLES,
        "app/tools.py": tuple_tools(("solve", 'mcp_tool("solve", "Solve it.")')),
        "app/main.py": TUPLE_LOOP,
    },
    "import app.main",
    "app/deps.py",
)


def exporting(*tools: str) -> str:
    """A tools module whose `export_tools()` returns `tools` (`solve` refused, the others not)."""
    defs = "".join(
        "\n\ndef solve(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n    return d\n"
        if name == "solve"
        else f"\n\ndef {name}(x: int) -> int:\n    return x\n"
        for name in ("solve", "echo")
    )
    return tools_module(
        "from app.deps import load_d\n" + defs + f"\n\ndef export_tools():\n    return [{', '.join(tools)}]\n"
    )


ATTACH = {
    "app/tools/__init__.py": """\
        import app.tools.events
        import app.tools.jobs


        def attach_tools(server) -> None:
            modules = [app.tools.jobs, app.tools.events]
            for module in modules:
                for tool_fn in module.export_tools():
                    server.add_tool(tool_fn)
        """,
    "app/main.py": entry_point("from app.tools import attach_tools", "attach_tools(mcp)"),
}
"""A package whose `attach_tools(server)` adds what each module listed in it exports."""

# A published server's `attach_tools` loops over its tool modules, adding what each one's
# `export_tools()` getter returns.
CASES["each listed module's export_tools() getter, added in a nested loop"] = (
    {
        "app/deps.py": DEPS,
        "app/tools/jobs.py": exporting("solve", "echo"),
        "app/tools/events.py": "def ping(x: int) -> int:\n    return x\n\n\ndef export_tools():\n    return [ping]\n",
        **ATTACH,
    },
    "import app.main",
    "app/deps.py",
)

# Published servers trace each tool with OpenTelemetry's span decorator under `@mcp.tool()`.
CASES["an OpenTelemetry span decorator under @mcp.tool()"] = single_file(
    imports="from opentelemetry import trace\n",
    decorators='@mcp.tool()\n@trace.get_tracer(__name__).start_as_current_span("solve")\n',
)

CASES["a module's tracer's span decorator under @mcp.tool() of an async def"] = single_file(
    body="""\
        @mcp.tool()
        @tracer.start_as_current_span("again")
        async def again(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
            return d
        """,
    imports="from opentelemetry import trace\n\ntracer = trace.get_tracer(__name__)\n",
)

(
    test_sdk_refuses_and_lint_reports_alike,
    test_each_file_alone_reports_what_lint_dot_reports,
    test_the_editor_reports_what_lint_dot_reports,
) = published_shapes.survey_tests(CASES, {})


SILENT: dict[str, dict[str, str]] = {
    # The decorator sets another mark: no member has the one tested.
    "a mark set on a different attribute": {
        "app/deps.py": DEPS,
        **marked("fn.is_hidden = True"),
        "app/main.py": walked('getattr(fn, "is_tool", False)'),
    },
    # The mark is set false: `getattr` finds it, and the test leaves the function out.
    "a mark set false": {
        "app/deps.py": DEPS,
        **marked("fn.is_tool = False"),
        "app/main.py": walked('getattr(fn, "is_tool", False)'),
    },
    # The decorator sets the mark only in a branch (not on solve): not told, the loop not
    # followed (said at info severity), and the SDK registers nothing.
    "a decorator setting the mark on some paths only": {
        "app/deps.py": DEPS,
        **marked('if fn.__name__.startswith("x"):\n        fn.is_tool = True'),
        "app/main.py": walked('hasattr(fn, "is_tool")'),
    },
    # The factory's default marks the function with None: `getattr` finds a false value.
    "a factory's mark left to its None default, tested by getattr": {
        "app/deps.py": DEPS,
        **factory_marked("register_tool()", 'getattr(fn, "_mcp_tool_name", None)'),
    },
    # The helper's name test leaves the refused function out.
    "a helper's namespace loop whose test leaves the refused function out": handed(
        "[tools]", 'fname.startswith("echo")'
    ),
    # The helper is handed another module only: the refused function is never listed.
    "a helper handed a module without the refused function": handed("[more]"),
    # The factory's tuples hold only a tool the SDK accepts; the refused def is not decorated.
    "a tuple registry holding no refused function": {
        "app/deps.py": DEPS,
        "app/registry.py": TUPLES,
        "app/tools.py": tuple_tools(("echo", 'mcp_tool("echo", "Echo.")')).replace(
            "\n\n@mcp_tool",
            "\n\ndef solve(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n    return d\n\n\n@mcp_tool",
        ),
        "app/main.py": TUPLE_LOOP,
    },
    # Each module's getter leaves the refused function out.
    "export_tools() getters leaving the refused function out": {
        "app/deps.py": DEPS,
        "app/tools/jobs.py": exporting("echo"),
        "app/tools/events.py": exporting(),
        **ATTACH,
    },
    # The wrapper a collecting decorator appends is not made with `functools.wraps`: the SDK
    # registers the wrapper's own signature, which runs no resolver.
    "a collecting decorator appending a wrapper of its own signature": {
        "app/deps.py": DEPS,
        "app/registry.py": """\
            TOOLS = []


            def tool(fn):
                def wrapper(x: int) -> str:
                    return fn(x, "d")

                TOOLS.append(wrapper)
                return wrapper
            """,
        "app/tools.py": SOLVE,
        "app/main.py": entry_point(
            "import app.tools\n    from app.registry import TOOLS",
            "for fn in TOOLS:\n        mcp.add_tool(fn)",
        ),
    },
}


def test_marks_and_wrappers_the_sdk_never_registers_stay_silent(tmp_path: Path) -> None:
    """A mark set on another attribute or set false (or None by a factory's default), a
    decorator setting it on some paths only, a helper's loop whose test or modules leave the
    refused function out, a tuple registry or getters without it, a collecting decorator appending a
    wrapper of its own signature: the SDK starts the server and lint, `lint .` and each file
    alone, reports nothing at error or warning severity."""
    stays_silent(tmp_path, SILENT)


def test_two_tuples_stored_under_one_name_are_a_duplicate(tmp_path: Path) -> None:
    """Two defs a factory appends as `(fn, "solve", ...)`, the loop adding each under its name:
    the SDK logs the duplicate and keeps the first; lint reports MCPD110 at the loop's
    registration, `lint .` and the loop's file alone alike."""
    files = {
        "app/deps.py": "def load_d(x: int) -> str:\n    return str(x)\n",
        "app/registry.py": TUPLES,
        "app/tools.py": tuple_tools(
            ("solve", 'mcp_tool("solve", "One.")'), ("other", 'mcp_tool("solve", "Two.")')
        ),
        "app/main.py": TUPLE_LOOP,
    }
    write_files(tmp_path, {**PROJECT, **files})
    assert duplicates_logged(tmp_path, {}) == ["Tool already exists: solve"]
    whole = [(d["code"], d["path"]) for d in found(tmp_path, ["."])]
    assert whole == [("MCPD110", "app/main.py")]
    assert [(d["code"], d["path"]) for d in found(tmp_path, ["app/main.py"])] == whole
