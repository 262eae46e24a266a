"""Registration shapes read in published servers (the s14 round), checked against the SDK.

Each case is written in the shape a published server uses (named in the case's comment), in
my own words, with the 2.3 API. The tool runs `load_d(nope)`, which the SDK refuses;
`published_shapes.check_both_ways` runs the server as it starts, then `lint .` and
`lint <resolver file>`, refused and clean.
"""

from __future__ import annotations

from pathlib import Path

import published_shapes
import pytest
from conftest import lint_diagnostics, write_files
from published_shapes import PROJECT, REFUSED, check_both_ways, entry_point, resolver_module, sdk
from test_factory_result_servers import ONE_FILE

Case = tuple[dict[str, str], str, str]

RUN_PATCHED = "import app.main\napp.main.MCPServer.run = lambda self, *a, **k: None\n"
"""The entry point imported with `MCPServer.run` made a no-op, so a `serve()` returns."""

BAD_TOOL = "def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n    return d\n"
GOOD_TOOL = "def u(x: int) -> str:\n    return str(x)\n"

CASES: dict[str, Case] = {}

# PagerDuty/pagerduty-mcp-server pagerduty_mcp/server.py: a typer command builds the server,
# loops over imported lists of functions, handing each to a helper `add_x_tool(mcp, tool)`
# calling `mcp.add_tool(tool, annotations=...)`; the write loop is under `if enable_write_tools:`.
_PD_MAIN = """\
    from mcp.server import MCPServer
    from mcp.types import ToolAnnotations

    from app.tools import READERS, WRITERS


    def add_reader(server: MCPServer, fn) -> None:
        server.add_tool(fn, annotations=ToolAnnotations(readOnlyHint=True))


    def add_writer(server: MCPServer, fn) -> None:
        server.add_tool(fn, annotations=ToolAnnotations(destructiveHint=True))


    def serve(*, writes: bool = False) -> None:
        mcp = MCPServer("x")
        for fn in READERS:
            add_reader(mcp, fn)
        if writes:
            for fn in WRITERS:
                add_writer(mcp, fn)
        mcp.run()
"""
CASES["pagerduty: command-built server, helper(mcp, fn) in a loop over an imported list, under a flag"] = (
    {
        "app/tools.py": resolver_module(GOOD_TOOL + "\n\n" + BAD_TOOL + "\n\nREADERS = [u]\nWRITERS = [t]\n"),
        "app/main.py": _PD_MAIN,
    },
    RUN_PATCHED + "app.main.serve(writes=True)",
    "app/tools.py",
)
CASES["pagerduty: the refused tool among the always-registered readers"] = (
    {
        "app/tools.py": resolver_module(GOOD_TOOL + "\n\n" + BAD_TOOL + "\n\nREADERS = [t]\nWRITERS = [u]\n"),
        "app/main.py": _PD_MAIN,
    },
    RUN_PATCHED + "app.main.serve()",
    "app/tools.py",
)

# jkoelker/schwab-mcp src/schwab_mcp/tools/__init__.py: a tuple of tool modules, extended by
# concatenation under a flag, each module's `register` fetched by `getattr(module, "register",
# None)` and called with the server; the modules call `register_tool(server, fn, write=...)`
# (src/schwab_mcp/tools/_registration.py) which runs `server.tool(name=fn.__name__, ...)(fn)`.
_SCHWAB_REG = """\
    def register_tool(server, func, *, write: bool = False) -> None:
        server.tool(name=func.__name__, description=func.__doc__)(func)
"""
_SCHWAB_PKG = """\
    from app.tools import alpha as _alpha
    from app.tools import beta as _beta
    from app.tools import extra as _extra

    _MODULES = (_alpha, _beta)


    def register_tools(server, client=None, *, allow_write: bool, extras: bool = True) -> None:
        modules = _MODULES
        if extras:
            modules = modules + (_extra,)
        for module in modules:
            hook = getattr(module, "register", None)
            if hook is None:
                raise AttributeError(module.__name__)
            hook(server, allow_write=allow_write)
"""


def _schwab_module(name: str, bad: bool) -> str:
    body = (
        (BAD_TOOL if bad else GOOD_TOOL).replace("def t(", f"def {name}(").replace("def u(", f"def {name}(")
    )
    return resolver_module(
        body
        + f"\n\ndef register(server, *, allow_write: bool) -> None:\n    register_tool(server, {name}, write=allow_write)\n",
        imports="from app.tools._registration import register_tool\n",
    )


SCHWAB: dict[str, tuple[dict[str, str], str]] = {}
"""Not followed (lint says MCPD113, checked by `test_introspected_registration_is_said_not_silent`):
`getattr(module, "register", None)` on the loop variable, and a loop over `modules + (extra,)`."""
for _where in ("alpha", "extra"):
    SCHWAB[
        f"schwab: getattr(module, 'register') over a tuple of modules grown by concatenation ({_where} refused)"
    ] = (
        {
            "app/tools/__init__.py": _SCHWAB_PKG,
            "app/tools/_registration.py": _SCHWAB_REG,
            "app/tools/alpha.py": _schwab_module("t_alpha", _where == "alpha"),
            "app/tools/beta.py": _schwab_module("t_beta", False),
            "app/tools/extra.py": _schwab_module("t_extra", _where == "extra"),
            "app/main.py": entry_point(
                "from app.tools import register_tools", "register_tools(mcp, allow_write=False)"
            ),
        },
        f"app/tools/{_where}.py",
    )

# jkoelker/schwab-mcp src/schwab_mcp/tools/_registration.py: the helper rebinds `func` to a
# functools.wraps async wrapper when `write` is set, then registers what it holds.
CASES[
    "schwab: register_tool rebinding func to a wraps wrapper under a flag, then tool(name=func.__name__)"
] = (
    {
        "app/registration.py": """\
            import functools


            def _approved(func):
                @functools.wraps(func)
                async def wrapper(*args, **kwargs):
                    return await func(*args, **kwargs)

                return wrapper


            def register_tool(server, func, *, write: bool = False) -> None:
                if write:
                    func = _approved(func)
                server.tool(name=func.__name__, description=func.__doc__)(func)
        """,
        "app/orders.py": resolver_module(
            "async def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n    return d\n\n\n"
            "def register(server) -> None:\n    register_tool(server, t, write=True)\n",
            imports="from app.registration import register_tool\n",
        ),
        "app/main.py": entry_point("from app import orders", "orders.register(mcp)"),
    },
    "import app.main",
    "app/orders.py",
)

# singlestore-labs/mcp-server-singlestore new_src/api/tools/registery.py: a wrapper factory
# (`@wraps(func) async def wrapper(*args, **kwargs)`, `wrapper.__name__ = name`) applied to
# each function of an imported list, registered with `mcp.tool(name=..., description=...)`.
CASES["singlestore: wraps-wrapper factory per function of an imported list, tool(name=...)(wrapper)"] = (
    {
        "app/tools.py": resolver_module(GOOD_TOOL + "\n\n" + BAD_TOOL + "\n\ntool_list = [u, t]\n"),
        "app/registry.py": """\
            from functools import wraps
            from typing import Callable

            from app.tools import tool_list as listed


            def make_wrapper(func: Callable, name: str, description: str):
                @wraps(func)
                async def wrapper(*args, **kwargs):
                    return func(*args, **kwargs)

                wrapper.__name__ = name
                wrapper.__doc__ = description
                return wrapper


            def register_tools(mcp) -> None:
                for func in listed:
                    wrapper = make_wrapper(func, func.__name__, func.__doc__ or "")
                    mcp.tool(name=func.__name__, description=func.__doc__ or "")(wrapper)
        """,
        "app/main.py": entry_point("from app.registry import register_tools", "register_tools(mcp)"),
    },
    "import app.main",
    "app/tools.py",
)

# uukuguy/regreader src/regreader/mcp/server.py: a factory with keyword settings defines its
# tools inside, `@mcp.tool(meta=METADATA[...].to_dict())` over the project's `@log_tool_call`
# (functools.wraps, sync wrapper), the advanced ones under `if enable_advanced_tools:`.
CASES["regreader: factory tools under tool(meta=...) over a wraps logging decorator, behind a flag"] = (
    {
        "app/server.py": resolver_module(
            """\
            def log_call(func):
                @wraps(func)
                def wrapper(*args, **kwargs):
                    return func(*args, **kwargs)

                return wrapper


            def create_server(name: str = "x", advanced: bool | None = None) -> MCPServer:
                if advanced is None:
                    advanced = False
                mcp = MCPServer(name)
                helpers = object()

                @mcp.tool(meta=META["u"])
                @log_call
                def u(x: int) -> str:
                    return str(x)

                if advanced:

                    @mcp.tool(meta=META["t"])
                    @log_call
                    def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                        return d

                return mcp
            """,
            imports='from functools import wraps\n\nfrom mcp.server import MCPServer\n\nMETA = {"t": {"k": 1}, "u": {"k": 2}}\n',
        ),
    },
    "import app.server\napp.server.create_server(advanced=True)",
    "app/server.py",
)

# Zxilly/cangjie-mcp src/cangjie_mcp/server/factory.py: the factory imports the shared server
# from the tools module in its body and, when an environment variable is set, imports another
# module whose module-level `@mcp.tool` registrations are the point of the import.
CASES["cangjie: factory importing a registering module in its body when an env var is set"] = (
    {
        "app/server.py": 'from mcp.server import MCPServer\n\nmcp = MCPServer("x")\n',
        "app/base_tools.py": "from app.server import mcp\n\n\n@mcp.tool()\n" + GOOD_TOOL,
        "app/lsp_tools.py": resolver_module(
            "@mcp.tool()\n" + BAD_TOOL, imports="from app.server import mcp\n"
        ),
        "app/factory.py": """\
            import os


            def create_server(settings=None):
                from app.base_tools import mcp

                if os.environ.get("LSP_HOME"):
                    import app.lsp_tools  # noqa: F401

                return mcp
        """,
    },
    "import os\nos.environ['LSP_HOME'] = '/x'\nimport app.factory\napp.factory.create_server()",
    "app/lsp_tools.py",
)

# 3D-Tech/code-scalpel-like (code_scalpel/mcp/tools/__init__.py, seen in the code corpus):
# `register_tools()` runs `import_module("pkg.tools.x")` with literal names, each module
# registering at module level on a shared server.
CASES["code_scalpel: register_tools() calling import_module with literal module names"] = (
    {
        "app/server.py": 'from mcp.server import MCPServer\n\nmcp = MCPServer("x")\n',
        "app/tools/__init__.py": """\
            from importlib import import_module


            def register_tools() -> None:
                import_module("app.tools.analyze")
                import_module("app.tools.security")
        """,
        "app/tools/analyze.py": "from app.server import mcp\n\n\n@mcp.tool()\n" + GOOD_TOOL,
        "app/tools/security.py": resolver_module(
            "@mcp.tool()\n" + BAD_TOOL, imports="from app.server import mcp\n"
        ),
        "app/main.py": "from app.server import mcp\nfrom app.tools import register_tools\n\nregister_tools()\n",
    },
    "import app.main",
    "app/tools/security.py",
)

# A registration pipeline typed `Final[list[tuple[str, Callable[[FastMCP, Manager], None]]]]`
# of (name, package.module.register_tools) pairs, looped as `for name, registrar in PIPELINE`
# (seen in the code corpus: a "Register MCP tool modules with FastMCP" module, src/... with
# `from . import tools` and `tools.retrieval.register_tools`).
CASES["pipeline: Final list of (name, pkg.mod.register_tools) pairs, unpacked in a loop"] = (
    {
        "app/tools/__init__.py": "from app.tools import docs, search\n",
        "app/tools/docs.py": "def register_tools(mcp, manager) -> None:\n    @mcp.tool()\n    "
        + GOOD_TOOL.replace("\n", "\n    ").rstrip()
        + "\n",
        "app/tools/search.py": resolver_module(
            "def register_tools(mcp, manager) -> None:\n    @mcp.tool()\n    "
            + BAD_TOOL.replace("\n", "\n    ").rstrip()
            + "\n"
        ),
        "app/pipeline.py": """\
            from collections.abc import Callable
            from typing import Final

            from mcp.server import MCPServer

            from app import tools

            PIPELINE: Final[list[tuple[str, Callable[[MCPServer, object], None]]]] = [
                ("docs", tools.docs.register_tools),
                ("search", tools.search.register_tools),
            ]


            def register_all(mcp: MCPServer, manager: object) -> None:
                for name, registrar in PIPELINE:
                    registrar(mcp, manager)
        """,
        "app/main.py": entry_point("from app.pipeline import register_all", "register_all(mcp, object())"),
    },
    "import app.main",
    "app/tools/search.py",
)

# A jac-compiled RAG server (code corpus, file id 8525986817; repository not named by the
# index): `FastMCP(name=..., tools=[Tool.from_function(fn, name=..., description=...), ...])`.
CASES["constructor tools=[Tool.from_function(...)]"] = (
    {
        "app/main.py": resolver_module(
            BAD_TOOL
            + "\n\n"
            + GOOD_TOOL
            + '\n\nmcp = MCPServer("x", tools=[Tool.from_function(t, name="t"), Tool.from_function(u, description="u")])\n',
            imports="from mcp.server import MCPServer\nfrom mcp.server.mcpserver.tools import Tool\n",
        ),
    },
    "import app.main",
    "app/main.py",
)

# Classes holding the server as a class attribute and stacking `@staticmethod` over
# `@mcp.tool()` (code corpus: a CurrencyConverterMcpService, a BigQueryPlugin, memov's
# MemMCPTools, a ParquetViewer).
CASES["class attribute server, @staticmethod over @mcp.tool() in the class body"] = (
    {
        "app/main.py": resolver_module(
            """\
            class Plugin:
                mcp = MCPServer("x")

                @staticmethod
                @mcp.tool()
                def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                    return d

                @staticmethod
                @mcp.tool()
                def u(x: int) -> str:
                    return str(x)


            mcp = Plugin.mcp
            """,
            imports="from mcp.server import MCPServer\n",
        ),
    },
    "import app.main",
    "app/main.py",
)

# devopness/devopness mcp-server (devopness_mcp_server/main.py, code corpus):
# `def get_mcp_server(**settings) -> FastMCP: server = FastMCP("...", **settings);
# register_tools(server); return server`.
CASES["devopness: factory forwarding **settings to the server, then a helper"] = (
    {
        "app/tools.py": resolver_module(
            "def register_tools(server) -> None:\n    server.add_tool(t)\n\n\n" + BAD_TOOL
        ),
        "app/main.py": """\
            from typing import Any

            from mcp.server import MCPServer

            from app.tools import register_tools


            def get_mcp_server(**settings: Any) -> MCPServer:
                server = MCPServer("x", **settings)
                register_tools(server)
                return server


            mcp = get_mcp_server(debug=True)
        """,
    },
    "import app.main",
    "app/tools.py",
)

# pimemento examples/embedded_in_mcp.py (code corpus): `tools = register_tools(mcp)` keeps
# what the library's helper returns, then module-level tools follow on the same server.
CASES["pimemento: helper's result bound, module-level tools after it"] = (
    {
        "app/memory.py": resolver_module(
            "def register_tools(mcp) -> list[str]:\n    mcp.add_tool(t, name='remember')\n    return ['remember']\n\n\n"
            + BAD_TOOL
        ),
        "app/main.py": entry_point(
            "from app.memory import register_tools",
            "tools = register_tools(mcp)\n\n\n    @mcp.tool()\n    def run_tests(x: int) -> str:\n        return str(x)\n",
        ),
    },
    "import app.main",
    "app/memory.py",
)


# Discovery by introspection: lint cannot list what these register; it must say so (MCPD113)
# rather than stay silent while the SDK refuses.
SAID: dict[str, tuple[dict[str, str], str]] = {
    # SabarishG18/neuroml-ai mcp_pkg/mcp/utils.py: `for fname, fn in inspect.getmembers(module,
    # inspect.isfunction): if fname.endswith("_tool"): mcp.tool(fn)` (2.3 needs `tool()(fn)`).
    "neuroml: inspect.getmembers over listed modules, name-suffix filter": (
        {
            "app/calc.py": resolver_module(BAD_TOOL.replace("def t(", "def t_tool(")),
            "app/utils.py": """\
                import inspect


                def register_tools(mcp, modules: list) -> None:
                    for module in modules:
                        for fname, fn in inspect.getmembers(module, inspect.isfunction):
                            if fname.endswith("_tool"):
                                mcp.tool()(fn)
            """,
            "app/main.py": entry_point(
                "from app import calc\n    from app.utils import register_tools",
                "register_tools(mcp, [calc])",
            ),
        },
        "app/calc.py",
    ),
    # Published "_is_mcp_tool" marker servers (code corpus, several): a marker decorator sets
    # an attribute, then `for attr_name in dir(module): attr = getattr(module, attr_name);
    # if callable(attr) and getattr(attr, "_is_mcp_tool", False): mcp.tool()(attr)`.
    "marker attribute, dir(module) and getattr": (
        {
            "app/marks.py": "def mcp_tool(fn):\n    fn._is_mcp_tool = True\n    return fn\n",
            "app/calc.py": resolver_module(
                "@mcp_tool\n" + BAD_TOOL, imports="from app.marks import mcp_tool\n"
            ),
            "app/main.py": entry_point(
                "from app import calc",
                "for attr_name in dir(calc):\n        attr = getattr(calc, attr_name)\n"
                '        if callable(attr) and getattr(attr, "_is_mcp_tool", False):\n            mcp.tool()(attr)',
            ),
        },
        "app/calc.py",
    ),
    # LLNL ServerToolkit (code corpus, "A class that provides a toolkit for registering
    # methods as MCP tools"): methods marked by a decorator, `_register_methods` walks
    # `dir(self)` and registers each marked bound method on `self.mcp`.
    "LLNL toolkit: marked methods found by dir(self)": (
        {
            "app/kit.py": resolver_module(
                """\
                def exposed(fn):
                    fn._exposed = True
                    return fn


                class Toolkit:
                    def __init__(self, mcp) -> None:
                        self.mcp = mcp
                        self._register_methods()

                    def _register_methods(self) -> None:
                        for name in dir(self):
                            method = getattr(self, name)
                            if getattr(method, "_exposed", False):
                                self.mcp.tool()(method)

                    @exposed
                    def t(self, x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                        return d
                """
            ),
            "app/main.py": entry_point("from app.kit import Toolkit", "Toolkit(mcp)"),
        },
        "app/kit.py",
    ),
}


SAID.update(SCHWAB)


@pytest.mark.parametrize("case", sorted(SAID))
def test_introspected_registration_is_said_not_silent(tmp_path: Path, case: str) -> None:
    files, _bad = SAID[case]
    write_files(tmp_path, {**PROJECT, **files})
    ran = sdk(tmp_path, "import app.main")
    assert REFUSED in ran.stderr, ran.stderr
    found = [(d["code"], d["path"]) for d in lint_diagnostics(tmp_path, "--no-cache", ".")]
    assert any(code in ("MCPD113", "MCPD002") for code, _ in found), found


def test_dmcp_bound_method_passed_to_tool_is_the_bare_decorator(tmp_path: Path) -> None:
    """leaninnovationlabs/dmcp app/mcp/server.py: `self.mcp.tool(self.add)` in a class that
    builds its server in `__init__` (a FastMCP 2 spelling): mcp 2.3 raises TypeError (T9)."""
    files = {
        "app/main.py": """\
            from mcp.server import MCPServer


            class Server:
                def __init__(self) -> None:
                    self.mcp = MCPServer("x")
                    self._register_tools()

                def _register_tools(self) -> None:
                    self.mcp.tool(self.add)

                def add(self, a: int, b: int) -> int:
                    return a + b


            server = Server()
        """,
    }
    write_files(tmp_path, {**PROJECT, **files})
    ran = sdk(tmp_path, "import app.main")
    assert "Did you forget to call it?" in ran.stderr, ran.stderr
    found = [(d["code"], d["path"]) for d in lint_diagnostics(tmp_path, "--no-cache", ".")]
    assert found == [("MCPD008", "app/main.py")], found


# Minimal forms of the shapes above that lint did not follow before this round.

_RESOLVER = resolver_module(BAD_TOOL)
"""`app/tools.py`: the refused resolver and the tool `t` running it."""

for _loop, _over in (("tuple written in place", "(t,)"), ("list named in another module", "READERS")):
    CASES[f"minimal: helper(server, fn) called in a module-level loop over a {_loop}"] = (
        {
            "app/tools.py": _RESOLVER + "\n\nREADERS = [t]\n",
            "app/main.py": entry_point(
                "from app.tools import READERS, t\n\n\n    def add(server, fn) -> None:\n        server.add_tool(fn)\n",
                f"for fn in {_over}:\n        add(mcp, fn)",
            ),
        },
        "import app.main",
        "app/tools.py",
    )


def test_a_tool_bound_to_a_name_from_getattr_is_said_not_silent(tmp_path: Path) -> None:
    """`w = getattr(tools, "t"); mcp.add_tool(w)`: the SDK refuses; `mcp.add_tool(getattr(tools,
    "t"))` written inline is said (MCPD113), bound to a name first it is dropped without a word
    (as `w = func` in a loop, `w = random.choice(TOOLS)`, `w = make_wrapper(func)` in a loop)."""
    files = {
        "app/tools.py": _RESOLVER,
        "app/main.py": entry_point("from app import tools", 'w = getattr(tools, "t")\n    mcp.add_tool(w)'),
    }
    write_files(tmp_path, {**PROJECT, **files})
    assert REFUSED in sdk(tmp_path, "import app.main").stderr
    found = [d["code"] for d in lint_diagnostics(tmp_path, "--no-cache", ".")]
    assert found and set(found) <= {"MCPD113", "MCPD002"}, found


def test_a_factory_result_is_the_server_the_factory_registered_on(tmp_path: Path) -> None:
    """`mcp = build()` where `build` registers `t` on its local server and returns it, then
    `@mcp.tool() def t` at module level: one server, the SDK logs the duplicate and drops the
    second `t`, reported MCPD110 (`test_factory_result_servers.py` holds the project)."""
    write_files(tmp_path, {**PROJECT, "app/main.py": ONE_FILE})
    ran = sdk(tmp_path, "import logging\nlogging.basicConfig()\nimport app.main")
    assert "Tool already exists: t" in ran.stderr, ran.stderr
    found = [(d["code"], d["path"]) for d in lint_diagnostics(tmp_path, "--no-cache", ".")]
    assert found == [("MCPD110", "app/main.py")], found


@pytest.mark.parametrize("case", sorted(CASES))
def test_published_shape(tmp_path: Path, case: str) -> None:
    check_both_ways(tmp_path, *CASES[case])


test_the_editor_reports_what_lint_dot_reports = published_shapes.editor_test(
    CASES, more={name: (files, bad, published_shapes.CLEAN) for name, (files, bad) in SAID.items()}
)
