"""Registration shapes read in published servers (the s15 round), checked against the SDK.

Classes registering their methods or nested functions on `self.mcp`, the project's own
decorators around `mcp.tool()` (conditional ones, local ones, ones importing the server in
their body), registries unpacked in loops, servers held in dicts, dataclasses or maybes, async
factories and `__main__` blocks. Each case is written in my own words with the 2.3 API, after
the shape a published server uses (named in the comment above it). The tool runs
`load_d(nope)`, which the SDK refuses; `published_shapes.check_both_ways` starts the server
under the SDK, then runs `lint .` and `lint <resolver file>`, refused and clean.
"""

from __future__ import annotations

from pathlib import Path

import published_shapes
import pytest
from conftest import lint_diagnostics, write_files
from mcpdeps.lint_rules import slice_plan
from published_shapes import (
    PROJECT,
    REFUSED,
    check_both_ways,
    each_file_alone_reports_what_lint_dot_reports,
    entry_point,
    found,
    resolver_module,
    sdk,
)

Case = tuple[dict[str, str], str, str]

RESOLVE = "from typing import Annotated\n\nfrom mcp.server.mcpserver import Resolve\n"
BAD_TOOL = "def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n    return d\n"
GOOD_TOOL = "def u(x: int) -> str:\n    return str(x)\n"
DEPS = "def load_d(nope: str) -> str:\n    return nope\n"
"""`app/deps.py`: the refused resolver alone, for projects whose tools import it."""

CASES: dict[str, Case] = {}

ASYNC_MAIN = (
    "import asyncio\n\nfrom mcp.server import MCPServer\n\nfrom app.tools import register\n\n\n{body}"
)
"""An async entry point importing the registering helper `register` of `app/tools.py`."""

# aws mcp (msk server, a tools class): `__init__(self, mcp, ..., allow_sensitive)` keeps the
# server on self and registers bound methods with one literal name each,
# `self.mcp.tool(name="...", annotations=...)(self.method)`, one of them under a flag.
CASES["class given the server registering bound methods by literal name, one under a flag"] = (
    {
        "app/users.py": resolver_module(
            """\
            class Users:
                def __init__(self, mcp, *, allow_sensitive: bool = False) -> None:
                    self.mcp = mcp
                    self.allow_sensitive = allow_sensitive
                    self.mcp.tool(name="list_users")(self.list_users)
                    if self.allow_sensitive:
                        self.mcp.tool(name="user_secret")(self.user_secret)

                def list_users(self, x: int) -> str:
                    return str(x)

                def user_secret(self, x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                    return d
            """
        ),
        "app/main.py": entry_point("from app.users import Users", "Users(mcp, allow_sensitive=True)"),
    },
    "import app.main",
    "app/users.py",
)

# A web-search tutor server: the class makes its own server in `__init__` inside a
# try/except that re-raises, then defines `@self.mcp.tool()` functions in `__init__`.
CASES["class making its server in __init__ under try/except, tools nested in __init__"] = (
    {
        "app/search.py": resolver_module(
            """\
            class WebSearch:
                def __init__(self, limit: int = 5) -> None:
                    try:
                        self.mcp = MCPServer("search")
                    except Exception as exc:
                        raise RuntimeError("no server") from exc

                    @self.mcp.tool()
                    def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                        return d


            service = WebSearch()
            """,
            imports="from mcp.server import MCPServer\n",
        ),
        "app/main.py": "from app.search import service\n\nmcp = service.mcp\n",
    },
    "import app.main",
    "app/search.py",
)

# A repository-tracking server: `async def register_tools(self)` defines
# `@self.mcp.tool(name=...) async def ...` and is awaited from the async entry point.
CASES["async register_tools method defining tools on self.mcp, awaited from async main"] = (
    {
        "app/repos.py": resolver_module(
            """\
            class RepoTools:
                def __init__(self, db, mcp) -> None:
                    self.db = db
                    self.mcp = mcp

                async def register_tools(self) -> None:
                    @self.mcp.tool(name="add_repository")
                    async def add_repository(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                        return d
            """
        ),
        "app/main.py": """\
            import asyncio

            from mcp.server import MCPServer

            from app.repos import RepoTools


            async def main() -> None:
                mcp = MCPServer("repos")
                await RepoTools(None, mcp).register_tools()


            if __name__ == "__main__":
                asyncio.run(main())
        """,
    },
    "import asyncio, app.main\nasyncio.run(app.main.main())",
    "app/repos.py",
)

# A Meraki server: `__init__` keeps the server and calls `self._register_tools()` only when an
# API key is set; `_register_tools` runs `self.mcp.tool()(self.method)` for each method.
CASES["class registering its bound methods in a method __init__ calls when enabled"] = (
    {
        "app/api.py": resolver_module(
            """\
            class ApiTools:
                def __init__(self, mcp, enabled: bool) -> None:
                    self.mcp = mcp
                    self.enabled = enabled
                    if self.enabled:
                        self._register_tools()

                def _register_tools(self) -> None:
                    self.mcp.tool()(self.u)
                    self.mcp.tool()(self.t)

                def u(self, x: int) -> str:
                    return str(x)

                def t(self, x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                    return d
            """
        ),
        "app/main.py": entry_point(
            "import os\n\n    from app.api import ApiTools",
            'ApiTools(mcp, enabled=bool(os.getenv("API_KEY")))',
        ),
    },
    "import os\nos.environ['API_KEY'] = 'k'\nimport app.main",
    "app/api.py",
)

# A manufacturing-data server: `register(self)` calls one `_register_<tool>()` method per
# tool, each defining a nested `@self.mcp.tool(name=..., description=...)` function; the
# services are annotated with strings naming classes imported for type checkers only.
CASES["register() calling one private method per tool, each defining it on self.mcp"] = (
    {
        "app/perf.py": resolver_module(
            """\
            class PerformanceTools:
                def __init__(self, mcp: "MCPServer", clock: "Clock") -> None:
                    self.mcp = mcp
                    self.clock = clock

                def register(self) -> None:
                    self._register_state()

                def _register_state(self) -> None:
                    @self.mcp.tool(name="equipment_state", description="State of a line.")
                    def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                        return d
            """,
            imports="from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
            "    from mcp.server import MCPServer\n\n    from app.clock import Clock\n",
        ),
        "app/clock.py": "class Clock:\n    pass\n",
        "app/main.py": entry_point(
            "from app.clock import Clock\n    from app.perf import PerformanceTools",
            "PerformanceTools(mcp, Clock()).register()",
        ),
    },
    "import app.main",
    "app/perf.py",
)

# A task server: a local list of `(name, fn)` pairs in the registering function, each
# registered with `mcp.tool(name=name)(fn)` when the options allow it.
CASES["local list of (name, fn) pairs, tool(name=name)(fn) when an option allows it"] = (
    {
        "app/deps.py": DEPS,
        "app/tasks.py": RESOLVE
        + "\nfrom app.deps import load_d\n\n\n"
        + GOOD_TOOL
        + "\n\n"
        + BAD_TOOL
        + """

def allowed(name: str, opts: dict) -> bool:
    return name not in opts.get("deny", ())


def register_tasks(mcp, opts: dict) -> None:
    pairs = [
        ("task_get", u),
        ("task_make", t),
    ]
    for name, fn in pairs:
        if allowed(name, opts):
            mcp.tool(name=name)(fn)
""",
        "app/main.py": entry_point("from app.tasks import register_tasks", "register_tasks(mcp, {})"),
    },
    "import app.main",
    "app/deps.py",
)

# A LoRA "cortex" server: a dict of name -> (function, description) unpacked as
# `for name, (fn, _description) in tools.items()`, registered when the name is exposed.
CASES["dict of name -> (fn, description) unpacked in the loop target, exposed ones registered"] = (
    {
        "app/deps.py": DEPS,
        "app/cortex.py": RESOLVE
        + "\nfrom mcp.server import MCPServer\n\nfrom app.deps import load_d\n\n\n"
        + GOOD_TOOL
        + "\n\n"
        + BAD_TOOL
        + """

def build(exposed: set[str]) -> MCPServer:
    mcp = MCPServer("cortex")
    every = {
        "status": (u, "The status."),
        "train": (t, "Train now."),
    }
    for name, (fn, _description) in every.items():
        if name in exposed:
            mcp.tool(name=name)(fn)
    return mcp
""",
        "app/main.py": 'from app.cortex import build\n\nmcp = build({"status", "train"})\n',
    },
    "import app.main",
    "app/deps.py",
)

# An animation-pipeline server: a module-level decorator `def tool(fn)` records the function
# in a dict, then returns `mcp.tool()(fn)`; tools are decorated with the bare `@tool`.
CASES["own bare decorator recording the function, returning mcp.tool()(fn)"] = (
    {
        "app/main.py": resolver_module(
            """\
            mcp = MCPServer("anim")
            FUNCS = {}


            def tool(fn):
                FUNCS[fn.__name__] = fn
                return mcp.tool()(fn)


            @tool
            def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                return d
            """,
            imports="from mcp.server import MCPServer\n",
        ),
    },
    "import app.main",
    "app/main.py",
)

# A marketing server: `_maybe(group)` returns a decorator
# `mcp.tool()(fn) if group in GROUPS else fn`, GROUPS read from an environment variable.
CASES["decorator factory registering in a conditional expression on env groups"] = (
    {
        "app/main.py": resolver_module(
            """\
            mcp = MCPServer("marketing")
            GROUPS = {g for g in os.environ.get("GROUPS", "cms,social").split(",") if g}


            def maybe(group: str):
                def deco(fn):
                    return mcp.tool()(fn) if group in GROUPS else fn

                return deco


            @maybe("cms")
            def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                return d
            """,
            imports="import os\n\nfrom mcp.server import MCPServer\n",
        ),
    },
    "import app.main",
    "app/main.py",
)

# A rate-limit server: `_experimental_tool()` returns a decorator registering only when a
# module-level flag read from the environment is set (`if FLAG: return mcp.tool()(fn)`).
CASES["decorator factory registering under an if on a module flag, else returning fn"] = (
    {
        "app/main.py": resolver_module(
            """\
            mcp = MCPServer("limits")
            EXPERIMENTAL = os.environ.get("SHOW_EXPERIMENTAL", "") == "1"


            def experimental_tool():
                def decorator(fn):
                    if EXPERIMENTAL:
                        return mcp.tool()(fn)
                    return fn

                return decorator


            @experimental_tool()
            def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                return d
            """,
            imports="import os\n\nfrom mcp.server import MCPServer\n",
        ),
    },
    "import os\nos.environ['SHOW_EXPERIMENTAL'] = '1'\nimport app.main",
    "app/main.py",
)

# A stdio-only decorator (`local_only(fn)`): returns `fn` early when the transport variable
# says http, otherwise `mcp.tool()(fn)`.
CASES["bare decorator returning fn early on an env test, else mcp.tool()(fn)"] = (
    {
        "app/main.py": resolver_module(
            """\
            mcp = MCPServer("raise")


            def local_only(fn):
                if os.environ.get("TRANSPORT", "").lower() == "http":
                    return fn
                return mcp.tool()(fn)


            @local_only
            def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                return d
            """,
            imports="import os\n\nfrom mcp.server import MCPServer\n",
        ),
    },
    "import app.main",
    "app/main.py",
)

# A CAD bridge server: `register_tools(mcp, ctx, allow_python)` defines a local
# `def tool(fn): names.append(fn.__name__); return mcp.tool()(fn)` and decorates nested
# async functions with it, returning the names.
CASES["local decorator closing over the helper's server, nested tools decorated with it"] = (
    {
        "app/cad.py": resolver_module(
            """\
            def register_tools(mcp, ctx, allow_python: bool) -> list[str]:
                names: list[str] = []

                def tool(fn):
                    names.append(fn.__name__)
                    return mcp.tool()(fn)

                @tool
                async def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                    return d

                return names
            """
        ),
        "app/main.py": entry_point("from app.cad import register_tools", "register_tools(mcp, None, False)"),
    },
    "import app.main",
    "app/cad.py",
)

# A robot-motion server: inside the registering function a local decorator factory
# `register_tool_if(enabled)` registers (and records) only when enabled.
CASES["local decorator factory register_tool_if(enabled) inside the registering function"] = (
    {
        "app/motion.py": resolver_module(
            """\
            def register_motion_tools(mcp, has_capability) -> list[str]:
                registered: list[str] = []

                def register_tool_if(enabled: bool):
                    def decorator(fn):
                        if enabled:
                            registered.append(fn.__name__)
                            return mcp.tool()(fn)
                        return fn

                    return decorator

                @register_tool_if(has_capability("scene"))
                def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                    return d

                return registered
            """
        ),
        "app/main.py": entry_point(
            "from app.motion import register_motion_tools", "register_motion_tools(mcp, lambda cap: True)"
        ),
    },
    "import app.main",
    "app/motion.py",
)

# A video-workshop server: a decorator in a helper module imports the server singleton in
# its body (no circular import at load), records the name and returns `mcp.tool()(fn)`.
CASES["decorator importing the server in its body, used by another module"] = (
    {
        "app/server.py": "from mcp.server import MCPServer\n\nmcp = MCPServer('video')\n",
        "app/effects_base.py": """\
            WRAPPED: list[str] = []


            def effect_tool(fn):
                from app.server import mcp

                WRAPPED.append(fn.__name__)
                return mcp.tool()(fn)
        """,
        "app/effects.py": resolver_module(
            "@effect_tool\n" + BAD_TOOL, imports="from app.effects_base import effect_tool\n"
        ),
        "app/main.py": "from app.server import mcp\nimport app.effects\n",
    },
    "import app.main",
    "app/effects.py",
)

# A PLC project server: the SDK import is optional (`FastMCP = None` on ImportError), the
# server is `MCPServer(...) if MCPServer else None` and `_tool(fn)` registers only then.
CASES["server made only if the SDK imported, _tool(fn) registering if it exists"] = (
    {
        "app/main.py": resolver_module(
            """\
            mcp = MCPServer("plc") if MCPServer else None


            def _tool(fn):
                return mcp.tool()(fn) if mcp else fn


            @_tool
            def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                return d
            """,
            imports="try:\n    from mcp.server import MCPServer\nexcept ImportError:\n    MCPServer = None\n",
        ),
    },
    "import app.main",
    "app/main.py",
)

# The same optional SDK import, the server made in a class's `__init__` only if it imported
# (`self.mcp = MCPServer(...) if MCPServer is not None else None`), methods registered then.
CASES["server stored on self only if the SDK imported, bound methods registered if it exists"] = (
    {
        "app/main.py": resolver_module(
            """\
            class Service:
                def __init__(self) -> None:
                    self.mcp = MCPServer("svc") if MCPServer is not None else None
                    if self.mcp is not None:
                        self.mcp.tool()(self.t)

                def t(self, x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                    return d


            service = Service()
            """,
            imports="try:\n    from mcp.server import MCPServer\nexcept ImportError:\n    MCPServer = None\n",
        ),
    },
    "import app.main",
    "app/main.py",
)

# Servers kept in a module-level dict by audience, tools decorated through the subscription.
CASES["servers in a module-level dict, @SERVERS['admin'].tool()"] = (
    {
        "app/servers.py": "from mcp.server import MCPServer\n\n"
        'SERVERS = {"public": MCPServer("public"), "admin": MCPServer("admin")}\n',
        "app/admin.py": resolver_module(
            '@SERVERS["admin"].tool()\n' + BAD_TOOL, imports="from app.servers import SERVERS\n"
        ),
        "app/main.py": "from app.servers import SERVERS\nimport app.admin\n\nmcp = SERVERS['admin']\n",
    },
    "import app.main",
    "app/admin.py",
)

# An application state dataclass holding the server, one module-level instance, tools
# decorated through it in another module (`@state.mcp.tool()`).
CASES["dataclass instance holding the server, @state.mcp.tool() in another module"] = (
    {
        "app/state.py": """\
            from dataclasses import dataclass, field

            from mcp.server import MCPServer


            @dataclass
            class AppState:
                mcp: MCPServer = field(default_factory=lambda: MCPServer("state"))
                debug: bool = False


            state = AppState()
        """,
        "app/tools.py": resolver_module(
            "@state.mcp.tool()\n" + BAD_TOOL, imports="from app.state import state\n"
        ),
        "app/main.py": "from app.state import state\nimport app.tools\n\nmcp = state.mcp\n",
    },
    "import app.main",
    "app/tools.py",
)

# An async factory (`async def create_server() -> MCPServer`), awaited by `asyncio.run` in
# the entry point, handing its server to a registering helper of another module.
CASES["async factory awaited by asyncio.run, handing its server to a helper"] = (
    {
        "app/tools.py": resolver_module(
            "def register(server) -> None:\n    server.add_tool(t)\n\n\n" + BAD_TOOL
        ),
        "app/main.py": ASYNC_MAIN.format(
            body='async def create_server() -> MCPServer:\n    server = MCPServer("async")\n'
            "    await asyncio.sleep(0)\n    register(server)\n    return server\n\n\n"
            "mcp = asyncio.run(create_server())\n"
        ),
    },
    "import app.main",
    "app/tools.py",
)

# A server handed on in a settings dict spread into the helper call (`register(**opts)`).
CASES["the server handed to the helper through **opts"] = (
    {
        "app/tools.py": resolver_module(
            "def register(server, readonly: bool = True) -> None:\n    server.add_tool(t)\n\n\n" + BAD_TOOL
        ),
        "app/main.py": entry_point(
            "from app.tools import register",
            'opts = {"server": mcp, "readonly": False}\n    register(**opts)',
        ),
    },
    "import app.main",
    "app/tools.py",
)

# src layout with a console script: `[project.scripts] app = "svc.cli:main"`, main builds the
# server with a factory of another module and runs it.
CASES["src layout, console-script main() building the server with a factory"] = (
    {
        "pyproject.toml": "[project]\nname = 'svc'\nversion = '0'\n[project.scripts]\nsvc = 'svc.cli:main'\n",
        "src/svc/__init__.py": "",
        "src/svc/deps.py": DEPS,
        "src/svc/tools.py": RESOLVE
        + "\nfrom .deps import load_d\n\n\ndef add_tools(server) -> None:\n    @server.tool()\n"
        + "    def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n        return d\n",
        "src/svc/server.py": "from mcp.server import MCPServer\n\nfrom .tools import add_tools\n\n\n"
        "def build() -> MCPServer:\n    server = MCPServer('svc')\n    add_tools(server)\n    return server\n",
        "src/svc/cli.py": "from .server import build\n\n\ndef main() -> None:\n    build().run()\n",
    },
    "import sys; sys.path.insert(0, 'src')\nimport svc.server\nsvc.server.build()",
    "src/svc/deps.py",
)

# A tools package whose `__init__` imports every submodule pkgutil finds, each registering at
# module level on the server imported relatively from two levels up.
CASES["pkgutil-imported submodules registering at module level on `from ...server import mcp`"] = (
    {
        "app/server.py": "from mcp.server import MCPServer\n\nmcp = MCPServer('plug')\n",
        "app/features/__init__.py": "",
        "app/features/tools/__init__.py": """\
            import importlib
            import pkgutil

            for _finder, _name, _ispkg in pkgutil.iter_modules(__path__):
                importlib.import_module(f"{__name__}.{_name}")
        """,
        "app/features/tools/orders.py": resolver_module(
            "@mcp.tool()\n" + BAD_TOOL, imports="from ...server import mcp\n"
        ),
        "app/main.py": "from app.server import mcp\nimport app.features.tools\n",
    },
    "import app.main",
    "app/features/tools/orders.py",
)

# An optional extra tools module imported under try/except ImportError; importing it is
# what registers (module-level `@mcp.tool()`).
CASES["optional tools module imported under try/except ImportError, registering at import"] = (
    {
        "app/server.py": "from mcp.server import MCPServer\n\nmcp = MCPServer('opt')\n",
        "app/extra.py": resolver_module("@mcp.tool()\n" + BAD_TOOL, imports="from app.server import mcp\n"),
        "app/main.py": "from app.server import mcp\n\ntry:\n    import app.extra  # noqa: F401\n"
        "except ImportError:\n    pass\n",
    },
    "import app.main",
    "app/extra.py",
)

# Tools added in the `if __name__ == "__main__":` block right before `mcp.run()`.
CASES["add_tool calls in the __main__ block before run()"] = (
    {
        "app/tools.py": resolver_module(BAD_TOOL),
        "app/main.py": """\
            from mcp.server import MCPServer

            from app.tools import t

            mcp = MCPServer("main")

            if __name__ == "__main__":
                mcp.add_tool(t)
                mcp.run()
        """,
    },
    "import runpy\nfrom mcp.server import MCPServer\nMCPServer.run = lambda self, *a, **k: None\n"
    "runpy.run_module('app.main', run_name='__main__')",
    "app/tools.py",
)

# A tool defined inside `main()` on the module-level server (the script's entry point).
CASES["tool defined inside main() on the module-level server"] = (
    {
        "app/main.py": resolver_module(
            """\
            mcp = MCPServer("script")


            def main() -> None:
                @mcp.tool()
                def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                    return d

                mcp.run()
            """,
            imports="from mcp.server import MCPServer\n",
        ),
    },
    "import app.main\napp.main.MCPServer.run = lambda self, *a, **k: None\napp.main.main()",
    "app/main.py",
)

# Two servers in one project, one helper per server; the refused tool is on the second.
CASES["two servers in one project, the refused tool on the second one's helper"] = (
    {
        "app/tools.py": resolver_module(
            GOOD_TOOL
            + "\n\n"
            + BAD_TOOL
            + "\n\ndef public(server) -> None:\n    server.add_tool(u)\n\n\n"
            + "def admin(server) -> None:\n    server.add_tool(u)\n    server.add_tool(t)\n"
        ),
        "app/main.py": """\
            from mcp.server import MCPServer

            from app import tools

            mcp = MCPServer("public")
            admin = MCPServer("admin")
            tools.public(mcp)
            tools.admin(admin)
        """,
    },
    "import app.main",
    "app/tools.py",
)

# A decorator made by a helper given the server (`tool = make_tool(mcp)`), imported and used
# bare in a tools module.
CASES["decorator made by a helper given the server, imported and used bare"] = (
    {
        "app/server.py": """\
            from mcp.server import MCPServer


            def make_tool(server):
                def deco(fn):
                    return server.tool()(fn)

                return deco


            mcp = MCPServer("made")
            tool = make_tool(mcp)
        """,
        "app/tools.py": resolver_module("@tool\n" + BAD_TOOL, imports="from app.server import tool\n"),
        "app/main.py": "from app.server import mcp\nimport app.tools\n",
    },
    "import app.main",
    "app/tools.py",
)


# A helper taking its settings as `**kwargs`, reading the server out of them
# (`server = kwargs["server"]`), called with `server=mcp`.
CASES["the helper reading the server out of **kwargs"] = (
    {
        "app/tools.py": resolver_module(
            "def register(**kwargs) -> None:\n    server = kwargs['server']\n    server.add_tool(t)\n\n\n"
            + BAD_TOOL
        ),
        "app/main.py": entry_point("from app.tools import register", "register(server=mcp, readonly=True)"),
    },
    "import app.main",
    "app/tools.py",
)


CASES["the helper reading the server out of **kwargs after *rest, called with positional values"] = (
    {
        "app/tools.py": resolver_module(
            "def register(label, *rest, **kwargs) -> None:\n    kwargs['server'].add_tool(t)\n\n\n" + BAD_TOOL
        ),
        "app/main.py": entry_point("from app.tools import register", 'register("a", "b", "c", server=mcp)'),
    },
    "import app.main",
    "app/tools.py",
)

CASES["the helper reading the server with kwargs.get, called with the keyword"] = (
    {
        "app/tools.py": resolver_module(
            'def register(**kwargs) -> None:\n    kwargs.get("server").add_tool(t)\n\n\n'
            'def setup(**kwargs) -> None:\n    server = kwargs.get("server", None)\n    register(server=server)\n\n\n'
            + BAD_TOOL
        ),
        "app/main.py": entry_point("from app.tools import setup", "setup(server=mcp)"),
    },
    "import app.main",
    "app/tools.py",
)

# The entry point binding one server of the dict (`mcp = SERVERS["admin"]`), tool modules
# decorating with that name.
CASES["a name bound to one server of a module-level dict, @mcp.tool() in another module"] = (
    {
        "app/servers.py": "from mcp.server import MCPServer\n\n"
        'SERVERS = {"public": MCPServer("public"), "admin": MCPServer("admin")}\nmcp = SERVERS["admin"]\n',
        "app/admin.py": resolver_module("@mcp.tool()\n" + BAD_TOOL, imports="from app.servers import mcp\n"),
        "app/main.py": "from app.servers import mcp\nimport app.admin\n",
    },
    "import app.main",
    "app/admin.py",
)


# The SDK's decorator with fixed settings made by `functools.partial(mcp.tool, ...)`, applied
# as `@read_only()` in a tools module.
CASES["functools.partial of the server's tool method with fixed settings, applied as @read_only()"] = (
    {
        "app/server.py": "import functools\n\nfrom mcp.server import MCPServer\n\n"
        "mcp = MCPServer('partial')\nread_only = functools.partial(mcp.tool, description='Reads only.')\n",
        "app/tools.py": resolver_module(
            "@read_only()\n" + BAD_TOOL, imports="from app.server import read_only\n"
        ),
        "app/main.py": "from app.server import mcp\nimport app.tools\n",
    },
    "import app.main",
    "app/tools.py",
)

# An async registering helper (`async def register(server)`) awaited by the async entry point.
CASES["async register(server) helper awaited from async main"] = (
    {
        "app/tools.py": resolver_module(
            "async def register(server) -> None:\n    server.add_tool(t)\n\n\n" + BAD_TOOL
        ),
        "app/main.py": ASYNC_MAIN.format(
            body='async def main() -> None:\n    mcp = MCPServer("async")\n    await register(mcp)\n'
        ),
    },
    "import asyncio, app.main\nasyncio.run(app.main.main())",
    "app/tools.py",
)

# A module-level `mcp = None` set by `global mcp` in `main()`, tools defined there after it.
CASES["server bound by global in main(), tools defined in main after it"] = (
    {
        "app/main.py": resolver_module(
            """\
            mcp: MCPServer | None = None


            def main() -> None:
                global mcp
                mcp = MCPServer("global")

                @mcp.tool()
                def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                    return d
            """,
            imports="from mcp.server import MCPServer\n",
        ),
    },
    "import app.main\napp.main.main()",
    "app/main.py",
)


CASES["functools.partial of the server's tool method, applied in the module binding it"] = (
    {
        "app/main.py": resolver_module(
            'mcp = MCPServer("partial")\nread_only = partial(mcp.tool, description="Reads only.")\n\n\n'
            '@read_only(name="t")\n' + BAD_TOOL,
            imports="from functools import partial\n\nfrom mcp.server import MCPServer\n",
        ),
    },
    "import app.main",
    "app/main.py",
)

# A research-data server: handler names from a constant list, each fetched with
# `getattr(handlers, name)` on an instance and registered with `mcp.tool(name=name)(fn)`.
CASES["names from a constant list, getattr on a handler instance, tool(name=name)(fn)"] = (
    {
        "app/handlers.py": resolver_module(
            """\
        NAMES = ["t"]


        class Handlers:
            def t(self, x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                return d
        """
        ),
        "app/main.py": entry_point(
            "from app.handlers import NAMES, Handlers",
            "handlers = Handlers()\n    for name in NAMES:\n        fn = getattr(handlers, name)\n"
            "        mcp.tool(name=name)(fn)",
        ),
    },
    "import app.main",
    "app/handlers.py",
)


# One function exposed on two servers by stacking their decorators.
CASES["one function under both servers' stacked tool() decorators"] = (
    {
        "app/main.py": resolver_module(
            'public = MCPServer("public")\nmcp = MCPServer("admin")\n\n\n@public.tool()\n@mcp.tool()\n'
            + BAD_TOOL,
            imports="from mcp.server import MCPServer\n",
        ),
    },
    "import app.main",
    "app/main.py",
)

# The tool set chosen by a `match` on a mode setting, each arm calling a registering helper.
CASES["match on a mode setting, each case calling a registering helper"] = (
    {
        "app/tools.py": resolver_module(
            GOOD_TOOL
            + "\n\n"
            + BAD_TOOL
            + "\n\ndef basic(server) -> None:\n    server.add_tool(u)\n\n\n"
            + "def full(server) -> None:\n    server.add_tool(t)\n"
        ),
        "app/main.py": entry_point(
            "import os\n\n    from app.tools import basic, full",
            'match os.getenv("MODE", "full"):\n        case "basic":\n            basic(mcp)\n'
            "        case _:\n            full(mcp)",
        ),
    },
    "import app.main",
    "app/tools.py",
)

# An optional tools module imported under `contextlib.suppress(ImportError)`.
CASES["optional tools module imported under contextlib.suppress(ImportError)"] = (
    {
        "app/server.py": "from mcp.server import MCPServer\n\nmcp = MCPServer('opt')\n",
        "app/extra.py": resolver_module("@mcp.tool()\n" + BAD_TOOL, imports="from app.server import mcp\n"),
        "app/main.py": "import contextlib\n\nfrom app.server import mcp\n\n"
        "with contextlib.suppress(ImportError):\n    import app.extra  # noqa: F401\n",
    },
    "import app.main",
    "app/extra.py",
)

# A classmethod of a service class added as a tool (`mcp.add_tool(Service.t)`, bound to the class).
CASES["a classmethod added as a tool through its class"] = (
    {
        "app/service.py": resolver_module(
            "class Service:\n    @classmethod\n"
            "    def t(cls, x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n        return d\n"
        ),
        "app/main.py": entry_point("from app.service import Service", "mcp.add_tool(Service.t)"),
    },
    "import app.main",
    "app/service.py",
)

# Tools added by mapping the server's add_tool over a list (`list(map(mcp.add_tool, TOOLS))`).
CASES["list(map(mcp.add_tool, TOOLS)) over an imported list"] = (
    {
        "app/tools.py": resolver_module(GOOD_TOOL + "\n\n" + BAD_TOOL + "\n\nTOOLS = [u, t]\n"),
        "app/main.py": entry_point("from app.tools import TOOLS", "list(map(mcp.add_tool, TOOLS))"),
    },
    "import app.main",
    "app/tools.py",
)


SAID: dict[str, dict[str, str]] = {}
"""Shapes lint cannot list: it must say so (MCPD113) or report the refusal, never stay silent."""

# Tools found by a name prefix in a module's `vars()`.
SAID["tools found by a name prefix in vars(module)"] = {
    "app/tools.py": resolver_module(
        "def tool_t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n    return d\n"
    ),
    "app/main.py": entry_point(
        "from app import tools",
        'for n, fn in vars(tools).items():\n        if n.startswith("tool_"):\n            mcp.add_tool(fn, name=n)',
    ),
}


# The nested loop target over rows lint cannot read (`(fn, doc)` pairs bound elsewhere).
SAID["nested loop target over a dict whose rows are names, not pairs written out"] = {
    "app/tools.py": resolver_module(BAD_TOOL + '\n\nROW = (t, "doc")\nEVERY = {"t": ROW}\n'),
    "app/main.py": entry_point(
        "from app.tools import EVERY",
        "for name, (fn, _doc) in EVERY.items():\n        mcp.tool(name=name)(fn)",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_published_shape(tmp_path: Path, case: str) -> None:
    check_both_ways(tmp_path, *CASES[case])


@pytest.mark.parametrize("case", sorted(SAID))
def test_unlistable_registration_is_said_not_silent(tmp_path: Path, case: str) -> None:
    write_files(tmp_path, {**PROJECT, **SAID[case]})
    assert REFUSED in sdk(tmp_path, "import app.main").stderr
    found = [d["code"] for d in lint_diagnostics(tmp_path, "--no-cache", ".")]
    assert found and set(found) <= {"MCPD113", "MCPD002"}, found


FOLLOWED_THIS_ROUND = sorted(
    case
    for case in CASES
    if any(
        word in case
        for word in (
            "**",
            "kwargs",
            "dict",
            "SDK imported",
            "made by a helper",
            "partial",
            "unpacked in the loop",
            "map(",
        )
    )
)
"""The cases lint was silent on (or said not analysed) before this round: every file alone,
cached and with workers, must report what `lint .` does."""


@pytest.mark.parametrize("case", FOLLOWED_THIS_ROUND)
def test_each_file_alone_reports_what_lint_dot_reports(tmp_path: Path, case: str) -> None:
    root = tmp_path / "p"
    write_files(root, {**PROJECT, **CASES[case][0]})
    each_file_alone_reports_what_lint_dot_reports(root, tmp_path)


@pytest.mark.parametrize("case", FOLLOWED_THIS_ROUND)
def test_workers_report_what_one_process_reports(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, case: str
) -> None:
    monkeypatch.setattr(slice_plan, "MIN_FILES_PER_JOB", 1)
    monkeypatch.setattr(slice_plan, "MAX_FILES_PER_SLICE", 1)
    write_files(tmp_path, {**PROJECT, **CASES[case][0]})
    one = found(tmp_path, ["."])
    assert [d["code"] for d in one] == ["MCPD002"]
    assert found(tmp_path, ["."], jobs=2) == one


def test_a_map_nothing_consumes_registers_nothing(tmp_path: Path) -> None:
    """`map(mcp.add_tool, TOOLS)` alone is lazy: the SDK registers (and refuses) nothing."""
    files, _, _ = CASES["list(map(mcp.add_tool, TOOLS)) over an imported list"]
    main = files["app/main.py"].replace("list(map(mcp.add_tool, TOOLS))", "map(mcp.add_tool, TOOLS)")
    write_files(tmp_path, {**PROJECT, **files, "app/main.py": main})
    ran = sdk(tmp_path, "import app.main")
    assert ran.returncode == 0, ran.stderr
    assert lint_diagnostics(tmp_path, "--no-cache", ".") == []


test_the_editor_reports_what_lint_dot_reports = published_shapes.editor_test(
    CASES, more={name: (files, "app/tools.py", published_shapes.CLEAN) for name, files in SAID.items()}
)
