"""Registration shapes read in published servers (the s20 round), checked against the SDK.

- tools added through the server's own tool manager (`mcp._tool_manager.add_tool(fn, ...)`,
  the call `MCPServer.add_tool` makes, which published servers write to pass `meta=`, from an
  `MCPServer` subclass, a helper handed the server, or a class holding it);
- a registrar object a factory function makes around the server (`registrar =
  make_registrar(mcp)`, then `registrar.add(t)`);
- a registry class delegating `tool()` to the server it holds; the server handed by keyword
  down a chain of helpers; a tool resolving a bound method of `self` inside `__init__`; a
  helpers module's `functools.wraps` decorator stacked under `tool()` in a register helper,
  under postponed annotations;
- a dependency alias built by the project's own function (`D = injected(load_d)`, the helper
  returning `Annotated[kind, Resolve(fn)]`): the SDK reads the `Annotated` the call returns.

Each case is a small project of our own in the 2.3 API whose tool runs `load_d(nope)`, which
the SDK refuses; `published_shapes.survey_tests` starts the server under the SDK, then runs
`lint .`, `lint <resolver file>` (refused and clean), each file alone cold and cached, and the
editor's model, saved and unsaved. The comment above a case says where its shape was read;
no code of theirs is here.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import published_shapes
from conftest import lint_diagnostics, write_files
from published_shapes import PROJECT, entry_point, sdk
from test_published_shapes_s12 import METHOD

Case = tuple[Any, ...]
"""`files, entry, bad[, refused_with, clean]`, as `published_shapes.check_both_ways` takes them."""

RESOLVE = "from typing import Annotated\n\nfrom mcp.server.mcpserver import Resolve\n"
DEPS = "def load_d(nope: str) -> str:\n    return nope\n"
"""`app/deps.py`: the refused resolver alone, for projects whose tools import it."""

CASES: dict[str, Case] = {}


def tools_module(body: str) -> str:
    """A module importing `Annotated` and `Resolve`, then `body` dedented."""
    return RESOLVE + textwrap.dedent(body)


TOOL = tools_module(
    """\
    from app.deps import load_d


    def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
        return d
    """
)
"""`app/tools.py`: the tool `t` running the refused resolver of `app/deps.py`."""


# A published server's `Registry` (code corpus; the index does not name the repository) owns its
# server in `__init__`, exposes it through a `server` property and delegates `tool(name,
# description)` to the server's, positionally; a module-level `mcp = Registry()` is what every
# tool module decorates with (`@mcp.tool()`).
CASES["registry class delegating tool() to the server it holds, a module-level instance"] = (
    {
        "app/deps.py": DEPS,
        "app/registry.py": """\
            from mcp.server import MCPServer


            class Registry:
                def __init__(self) -> None:
                    self._server = MCPServer("x")

                @property
                def server(self) -> MCPServer:
                    return self._server

                def tool(self, name=None, description=None):
                    return self._server.tool(name, description=description)


            mcp = Registry()
            """,
        "app/tools.py": tools_module("""\
            from app.deps import load_d
            from app.registry import mcp


            @mcp.tool()
            def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                return d
            """),
        "app/main.py": "import app.tools\n",
    },
    "import app.main",
    "app/deps.py",
)

# Published `register_*(mcp)` chains (s10 held one level by keyword): here every link passes the
# server by keyword-only parameter, `register(server=mcp)` -> `_reads(server=server)`.
CASES["the server handed by keyword down a chain of two helpers"] = (
    {
        "app/deps.py": DEPS,
        "app/tools.py": tools_module("""\
            from app.deps import load_d


            def _reads(*, server) -> None:
                @server.tool()
                def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                    return d


            def register(*, server) -> None:
                _reads(server=server)
            """),
        "app/main.py": entry_point("from app.tools import register", "register(server=mcp)"),
    },
    "import app.main",
    "app/deps.py",
)

# Published servers calling the server's tool manager directly (code corpus, several: a ROS2
# node registering action groups with `_mcp._tool_manager.add_tool(fn, name=slug, description=...)`,
# a device gateway's `server._tool_manager.add_tool(handler, name=...)`, a transport's
# `transport._tool_manager.add_tool(...)`): `MCPServer.add_tool` makes that very call, so the
# SDK checks and keeps the tool alike. lint read only `<server>.add_tool`: silent, the SDK refusing.
CASES["a tool registered through the server's private tool manager"] = (
    {
        "app/deps.py": DEPS,
        "app/tools.py": TOOL,
        "app/main.py": entry_point("from app.tools import t", "mcp._tool_manager.add_tool(t)"),
    },
    "import app.main",
    "app/deps.py",
)

# The gateway's shape: a helper handed the server adds through its manager, with `meta=`.
CASES["helper adding through the private tool manager of the server it is handed, with meta"] = (
    {
        "app/deps.py": DEPS,
        "app/tools.py": TOOL
        + textwrap.dedent("""\


            def register(server) -> None:
                server._tool_manager.add_tool(t, name="t", meta={"scope": "read"})
            """),
        "app/main.py": entry_point("from app.tools import register", "register(mcp)"),
    },
    "import app.main",
    "app/deps.py",
)

# A published registry server (code corpus, "lkap/scopes" meta): an `MCPServer` subclass whose
# `_sync_tools` loops over its registry's specs calling `self._tool_manager.add_tool(spec.fn,
# name=spec.name, ..., structured_output=True)`.
CASES["MCPServer subclass syncing a spec list through self._tool_manager.add_tool"] = (
    {
        "app/deps.py": DEPS,
        "app/specs.py": tools_module("""\
            from dataclasses import dataclass
            from typing import Callable

            from app.deps import load_d


            @dataclass
            class Spec:
                fn: Callable[..., object]
                name: str


            def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                return d


            SPECS = [Spec(t, "t")]
            """),
        "app/server.py": """\
            from mcp.server import MCPServer

            from app.specs import SPECS


            class Server(MCPServer):
                def sync_tools(self) -> None:
                    for spec in SPECS:
                        self._tool_manager.add_tool(spec.fn, name=spec.name, structured_output=True)


            mcp = Server("x")
            mcp.sync_tools()
            """,
        "app/main.py": "import app.server\n",
    },
    "import app.main",
    "app/deps.py",
)

# The same call from a class holding the server it is given (`self.mcp._tool_manager`).
CASES["class holding the server, adding its bound method through self.mcp._tool_manager"] = (
    {
        "app/deps.py": DEPS,
        "app/kit.py": tools_module("""\
            from app.deps import load_d


            class Kit:
                def __init__(self, mcp) -> None:
                    self.mcp = mcp
                    self.mcp._tool_manager.add_tool(self.t, name="t")

                def t(self, x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                    return d
            """),
        "app/main.py": entry_point("from app.kit import Kit", "Kit(mcp)"),
    },
    "import app.main",
    "app/deps.py",
)

# Classes defining their tools in `__init__` (s10, s15) with a resolver that is a method of the
# same object: `Resolve(self.load_d)`, the SDK reading the bound method (no `self`).
CASES["tool method resolving a bound method of self, nested in __init__"] = (
    {
        "app/kit.py": tools_module("""\
            class Kit:
                def __init__(self, mcp) -> None:
                    @mcp.tool()
                    def t(x: int, d: Annotated[str, Resolve(self.load_d)]) -> str:
                        return d

                def load_d(self, nope: str) -> str:
                    return nope
            """),
        "app/main.py": entry_point("from app.kit import Kit", "Kit(mcp)"),
    },
    "import app.main",
    "app/kit.py",
    "InvalidSignature: Resolver 'load_d' parameter 'nope'",
    METHOD,
)

# Published register helpers stacking the project's logging decorator (a `functools.wraps`
# wrapper in a helpers module) under `@mcp.tool()`, in a module with postponed annotations: the
# SDK reads the hints through `__wrapped__`, in the tool's own module.
CASES["decorator of a helpers module stacked under tool() in a register helper, postponed annotations"] = (
    {
        "app/deps.py": DEPS,
        "app/logs.py": """\
            import functools


            def logged(fn):
                @functools.wraps(fn)
                def wrapper(*args, **kwargs):
                    return fn(*args, **kwargs)

                return wrapper
            """,
        "app/tools.py": "from __future__ import annotations\n\n"
        + tools_module("""\
            from app.deps import load_d
            from app.logs import logged


            def register(mcp) -> None:
                @mcp.tool()
                @logged
                def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                    return d
            """),
        "app/main.py": entry_point("from app.tools import register", "register(mcp)"),
    },
    "import app.main",
    "app/deps.py",
)

# Published servers adding tools through a method of an object that holds the server (s11: made
# by its class, `r = Reg(mcp)`); here a factory function returns it (`registrar =
# make_registrar(mcp)`), the shape the brief's "classes built by factories" names. lint found the
# method only on an object its class makes: silent, the SDK refusing.
CASES["a registrar object a factory makes holding the server, its add() given the tool"] = (
    {
        "app/deps.py": DEPS,
        "app/registrar.py": """\
            class Registrar:
                def __init__(self, server) -> None:
                    self.server = server

                def add(self, fn, name=None) -> None:
                    self.server.add_tool(fn, name=name)


            def make_registrar(server) -> Registrar:
                return Registrar(server)
            """,
        "app/tools.py": TOOL,
        "app/main.py": entry_point(
            "from app.registrar import make_registrar\n    from app.tools import t",
            'registrar = make_registrar(mcp)\n    registrar.add(t, name="t")',
        ),
    },
    "import app.main",
    "app/deps.py",
)

# FastAPI projects' alias helpers (code corpus, unnamed: `def as_annotated_dependency(cls): return
# Annotated[cls, Depends(cls)]`, `depmap(...)` returning `Annotated[NewDep, Depends(mapped)]`),
# ported: the alias is what a call of the project's own function returns. lint read the alias
# as unknown: `d` a plain tool argument, silent while the SDK refused.
CASES["a dependency alias made by the project's own alias function"] = (
    {
        "app/injection.py": """\
            from typing import Annotated, Any

            from mcp.server.mcpserver import Resolve


            def injected(fn: Any, kind: Any = str) -> Any:
                \"\"\"`Annotated[kind, Resolve(fn)]`, spelt once.\"\"\"
                return Annotated[kind, Resolve(fn)]
            """,
        "app/deps.py": "from app.injection import injected\n\n\n"
        + DEPS
        + "\n\nD = injected(load_d, kind=str)\n",
        "app/tools.py": """\
            from app.deps import D


            def t(x: int, d: D) -> str:
                return d
            """,
        "app/main.py": entry_point("from app.tools import t", "mcp.add_tool(t)"),
    },
    "import app.main",
    "app/deps.py",
)

# A PRD-assessment server, `forge` (MCP 2.x with `Resolve` and `Sample`; the index does not name
# its repository): `_anticipated` returns an `async def` wrapper for a coroutine function and a
# plain one otherwise (both `functools.wraps`), under `@mcp.tool(structured_output=True)` on the
# tools and on the resolvers themselves, in a module with postponed annotations.
CASES["a decorator choosing an async or a sync wraps wrapper, on tools and on their resolvers"] = (
    {
        "app/guard.py": """\
            from functools import wraps
            from inspect import iscoroutinefunction


            def anticipated(func):
                if iscoroutinefunction(func):

                    @wraps(func)
                    async def async_wrapper(*args, **kwargs):
                        try:
                            return await func(*args, **kwargs)
                        except ValueError as error:
                            raise RuntimeError(str(error)) from error

                    return async_wrapper

                @wraps(func)
                def wrapper(*args, **kwargs):
                    try:
                        return func(*args, **kwargs)
                    except ValueError as error:
                        raise RuntimeError(str(error)) from error

                return wrapper
            """,
        "app/server.py": "from __future__ import annotations\n\n"
        + tools_module("""\
            from mcp.server import MCPServer

            from app.guard import anticipated

            mcp = MCPServer("x")


            @anticipated
            def load_d(nope: str) -> str:
                return nope


            @mcp.tool(structured_output=True)
            @anticipated
            async def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                return d


            @mcp.tool(structured_output=True)
            @anticipated
            def u(x: int) -> str:
                return str(x)
            """),
        "app/main.py": "from app.server import mcp\n",
    },
    "import app.main",
    "app/server.py",
)

# django-veo-admin-api's conformance module: an adapter class builds its server in `__init__`
# (`self.server = MCPServer(...)`) and registers its own tools through a keyword-only
# `self._add_tool(fn, *, name, ...)`; the module making the adapter adds one more tool on
# `adapter.server`, whose resolver asks for sampling.
CASES["a tool added on the server an adapter instance of another module builds and holds"] = (
    {
        "app/deps.py": DEPS,
        "app/adapter.py": """\
            from mcp.server import MCPServer


            class Adapter:
                def __init__(self, *, name: str = "admin") -> None:
                    self.server = MCPServer(name)
                    self._register()

                def _register(self) -> None:
                    self._add_tool(self._apps, name="admin.apps", description="List the apps")

                async def _apps(self) -> list[str]:
                    return []

                def _add_tool(self, function, *, name: str, description: str) -> None:
                    self.server.add_tool(function, name=name, description=description, structured_output=True)
            """,
        "app/main.py": tools_module("""\
            from app.adapter import Adapter
            from app.deps import load_d

            adapter = Adapter()


            async def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                return d


            adapter.server.add_tool(t, name="t", description="the tool")
            """),
    },
    "import app.main",
    "app/deps.py",
)

NOT_FOLLOWED: dict[str, str] = {}
"""Cases lint does not follow yet: strict xfails saying what the SDK does and what lint says."""

(
    test_sdk_refuses_and_lint_reports_alike,
    test_each_file_alone_reports_what_lint_dot_reports,
    test_the_editor_reports_what_lint_dot_reports,
) = published_shapes.survey_tests(CASES, NOT_FOLLOWED)


def test_a_tool_manager_of_no_server_registers_nothing(tmp_path: Path) -> None:
    """`hub._tool_manager.add_tool(t)` on a project object that is no `MCPServer` (its own
    manager class): the SDK never sees `t` and starts the server; lint reports nothing, `lint .`
    and each file alone alike."""
    files = {
        "app/deps.py": DEPS,
        "app/tools.py": CASES["a tool registered through the server's private tool manager"][0][
            "app/tools.py"
        ],
        "app/hub.py": """\
            class Manager:
                def __init__(self) -> None:
                    self.added: list[object] = []

                def add_tool(self, fn: object) -> None:
                    self.added.append(fn)


            class Hub:
                def __init__(self) -> None:
                    self._tool_manager = Manager()
            """,
        "app/main.py": entry_point(
            "from app.hub import Hub\n    from app.tools import t",
            "hub = Hub()\n    hub._tool_manager.add_tool(t)",
        ),
    }
    write_files(tmp_path, {**PROJECT, **files})
    started = sdk(tmp_path, "import app.main")
    assert started.returncode == 0, started.stderr
    assert lint_diagnostics(tmp_path, "--no-cache", ".") == []
    for path in files:
        assert lint_diagnostics(tmp_path, "--no-cache", path) == [], path
