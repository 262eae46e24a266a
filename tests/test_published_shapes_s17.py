"""Registration shapes of published servers the s9-s16 surveys did not hold (s17), each rebuilt
in the 2.3 API as a whole small server in a valid twin and a twin with one planted mistake,
checked against the SDK started as the author starts it (`published_servers.Server`):

- an `MCPServer` subclass overriding `tool()` (a registry of what it registered; a wrapper
  logging or guarding every call, with `functools.wraps` or without it, when every tool the SDK
  sees is the wrapper, named after it);
- a class holding a server whose own `tool()` wraps each function before the server's decorator;
- a decorator factory handed the server and the tool's name (`@registered(mcp, "list_hosts")`);
- feature modules whose base class registers bound methods with a prefixed name
  (`self._add_tool(server, self.search, "search")` -> `falcon_search`), called from a class
  holding the server, each module under its own `if`;
- an `MCPServer` subclass overriding `add_tool` (which the SDK's `tool()` calls) and passing
  the function on;
- tool names kept as class constants and string enum members (`name=ToolName.SEARCH`);
- registrars handed to a helper that calls each with the server (`loader(mcp)`).

The repositories named in the comments are where each structure was learnt; no code of theirs
is here.
"""

from __future__ import annotations

from published_servers import Server, mod, server_tests

TENANT = mod(
    """\


    def current_tenant(ctx: Context) -> str:
        return "acme"


    Tenant = Annotated[str, Resolve(current_tenant)]
    """
)
"""`app/deps.py`: a resolver reading the tenant from the request, and the alias tools use."""

TOOLS = mod(
    """\

    from app.deps import Tenant
    from app.server import mcp


    @mcp.tool()
    def list_hosts(limit: int, tenant: Tenant) -> str:
        return f"{tenant}:{limit}"


    @mcp.tool()
    def get_host(host_id: str, tenant: Tenant) -> str:
        return f"{tenant}:{host_id}"
    """
)
"""`app/tools.py`: two tools decorated by the server's (overridden) `tool()`."""

ENTRY = "import app.server\n\nserver = app.server.mcp\n"

CASES: dict[str, Server] = {}

# A published server's `backend/mcp_server/__init__.py` (the code index does not name its
# repository): `class MCPWithRegistry(FastMCP)` overrides `tool(self, *args, **kwargs)` to take
# `super().tool(*args, **kwargs)`, apply it in its own `wrapper(func)` and keep what it returns
# in a dict by name; one shared instance the tool modules import. Planted: the tenant resolver's
# `ctx` left without its `Context` annotation (R2).
CASES["MCPServer subclass overriding tool() to keep a registry of what it registers"] = Server(
    files={
        "app/__init__.py": "",
        "app/server.py": """\
            from mcp.server import MCPServer


            class RegistryServer(MCPServer):
                def __init__(self, name: str) -> None:
                    super().__init__(name)
                    self.registered: dict[str, object] = {}

                def tool(self, *args, **kwargs):
                    base = super().tool(*args, **kwargs)

                    def wrapper(func):
                        done = base(func)
                        self.registered[kwargs.get("name") or func.__name__] = done
                        return done

                    return wrapper


            mcp = RegistryServer("hosts")

            from app import tools  # noqa: E402,F401
            """,
        "app/deps.py": TENANT,
        "app/tools.py": TOOLS,
    },
    start=ENTRY,
    planted=("app/deps.py", "ctx: Context", "ctx"),
    expected=[("app/deps.py", "MCPD002"), ("app/deps.py", "MCPD002")],
    refused="Resolver 'current_tenant' parameter 'ctx' cannot be resolved",
)

# Two published servers' session-capturing `FastMCP` subclasses (a `_CapturingServer` re-installing
# handlers): `tool(self, *args, **kwargs)` takes `super().tool(...)` and registers an `async def
# _wrapped(*a, **kw)` awaiting the function, one with `@functools.wraps(fn)`, one without.
# Without it the SDK registers the wrapper itself: named `audited`, its schema `a` and `kw`, the
# second tool a duplicate it drops. Planted: the `wraps` forgotten.
CASES["MCPServer subclass overriding tool() to register a logging wrapper of each function"] = Server(
    files={
        "app/__init__.py": "",
        "app/server.py": """\
            import functools

            from mcp.server import MCPServer


            class AuditedServer(MCPServer):
                def tool(self, *args, **kwargs):
                    base = super().tool(*args, **kwargs)

                    def decorator(fn):
                        @functools.wraps(fn)
                        async def audited(*a, **kw):
                            print("tool call", fn.__name__)
                            return fn(*a, **kw)

                        return base(audited)

                    return decorator


            mcp = AuditedServer("hosts")

            from app import tools  # noqa: E402,F401
            """,
        "app/deps.py": TENANT,
        "app/tools.py": TOOLS,
    },
    start=ENTRY,
    planted=("app/server.py", "@functools.wraps(fn)\n            async def", "async def"),
    expected=[("app/server.py", "MCPD109"), ("app/server.py", "MCPD109"), ("app/tools.py", "MCPD110")],
    dropped=True,
)

# The same subclass, its tools applied by calls naming them (`mcp.tool(name="list_hosts")(fn)`,
# as servers porting `add_tool` write it): the override is what registers. Planted: the wrapper
# made without `functools.wraps`: the SDK starts, every tool's schema `a` and `kw`.
CASES["MCPServer subclass overriding tool(), tools applied by calls naming them"] = Server(
    files={
        **CASES["MCPServer subclass overriding tool() to register a logging wrapper of each function"].files,
        "app/tools.py": mod(
            """\

            from app.deps import Tenant
            from app.server import mcp


            def list_hosts(limit: int, tenant: Tenant) -> str:
                return f"{tenant}:{limit}"


            def get_host(host_id: str, tenant: Tenant) -> str:
                return f"{tenant}:{host_id}"


            mcp.tool(name="list_hosts")(list_hosts)
            mcp.tool(name="get_host")(get_host)
            """
        ),
    },
    start=ENTRY,
    planted=("app/server.py", "@functools.wraps(fn)\n            async def", "async def"),
    expected=[("app/server.py", "MCPD109")] * 4,
)

# The same wrapper written on a class that holds the server instead of being one (a published
# guard server's `tool(self, *args, **kwargs)` applying `guard.wrap(fn)` before the server's
# decorator): `@hosts.tool()` is that method's, and what it hands the server is registered.
# Planted: the wrapper made without `functools.wraps`.
CASES["class holding the server, its tool() registering a wrapper of each function"] = Server(
    files={
        "app/__init__.py": "",
        "app/server.py": """\
            import functools

            from mcp.server import MCPServer


            class Guarded:
                def __init__(self, name: str) -> None:
                    self.server = MCPServer(name)

                def tool(self, *args, **kwargs):
                    def decorator(fn):
                        @functools.wraps(fn)
                        def guarded(*a, **kw):
                            return fn(*a, **kw)

                        return self.server.tool(*args, **kwargs)(guarded)

                    return decorator


            hosts = Guarded("hosts")
            mcp = hosts.server

            from app import tools  # noqa: E402,F401
            """,
        "app/deps.py": TENANT,
        "app/tools.py": TOOLS.replace("from app.server import mcp", "from app.server import hosts").replace(
            "@mcp.tool()", "@hosts.tool()"
        ),
    },
    start=ENTRY,
    planted=("app/server.py", "@functools.wraps(fn)\n            def guarded", "def guarded"),
    expected=[("app/server.py", "MCPD109"), ("app/server.py", "MCPD109"), ("app/server.py", "MCPD110")],
    dropped=True,
)

# A published server's `tools/decorators.py` (its code is Traditional Chinese; the index does not
# name the repository): `tool_decorator(mcp_instance, tool_name, description="")` returns a
# decorator making a `functools.wraps` async wrapper and registering it under `tool_name`. Planted:
# the second tool given the first one's name (the SDK drops it).
CASES["decorator factory handed the server and the tool's name, registering a wraps wrapper"] = Server(
    files={
        "app/__init__.py": "",
        "app/registry.py": """\
            import functools

            from mcp.server import MCPServer


            def registered(server: MCPServer, tool_name: str, description: str = ""):
                def decorator(fn):
                    @functools.wraps(fn)
                    async def wrapper(*args, **kwargs):
                        return await fn(*args, **kwargs)

                    return server.tool(name=tool_name, description=description or None)(wrapper)

                return decorator
            """,
        "app/server.py": """\
            from mcp.server import MCPServer

            mcp = MCPServer("hosts")

            from app import tools  # noqa: E402,F401
            """,
        "app/deps.py": TENANT,
        "app/tools.py": mod(
            """\

            from app.deps import Tenant
            from app.registry import registered
            from app.server import mcp


            @registered(mcp, "list_hosts", "List the hosts")
            async def list_hosts(limit: int, tenant: Tenant) -> str:
                return f"{tenant}:{limit}"


            @registered(mcp, "get_host")
            async def get_host(host_id: str, tenant: Tenant) -> str:
                return f"{tenant}:{host_id}"
            """
        ),
    },
    start=ENTRY,
    planted=("app/tools.py", '@registered(mcp, "get_host")', '@registered(mcp, "list_hosts")'),
    expected=[("app/registry.py", "MCPD110")],
    dropped=True,
)

FALCON = {
    "fal/__init__.py": "",
    "fal/modules/__init__.py": "",
    "fal/deps.py": TENANT,
    "fal/modules/base.py": """\
        from collections.abc import Callable

        from mcp.server import MCPServer


        class BaseModule:
            def __init__(self, client: dict[str, str]) -> None:
                self.client = client
                self.tools: list[str] = []

            def register_tools(self, server: MCPServer) -> None:
                raise NotImplementedError

            def _add_tool(self, server: MCPServer, method: Callable[..., object], name: str) -> None:
                prefixed = f"falcon_{name}"
                server.add_tool(method, name=prefixed)
                self.tools.append(prefixed)
        """,
    "fal/modules/hosts.py": """\
        from mcp.server import MCPServer

        from fal.deps import Tenant
        from fal.modules.base import BaseModule


        class HostsModule(BaseModule):
            def register_tools(self, server: MCPServer) -> None:
                self._add_tool(server, self.search_hosts, "search_hosts")
                self._add_tool(server, self.get_host, "get_host")

            def search_hosts(self, query: str, tenant: Tenant) -> str:
                return f"{tenant}:{query}"

            def get_host(self, host_id: str, tenant: Tenant) -> str:
                return f"{tenant}:{host_id}"
        """,
    "fal/modules/alerts.py": """\
        from mcp.server import MCPServer

        from fal.deps import Tenant
        from fal.modules.base import BaseModule


        class AlertsModule(BaseModule):
            def register_tools(self, server: MCPServer) -> None:
                self._add_tool(server, self.search_alerts, "search_alerts")

            def search_alerts(self, query: str, tenant: Tenant) -> str:
                return f"{tenant}:{query}"
        """,
    "fal/server.py": """\
        from mcp.server import MCPServer

        from fal.modules.alerts import AlertsModule
        from fal.modules.hosts import HostsModule


        class FalconServer:
            def __init__(self, enabled: tuple[str, ...] = ("hosts", "alerts")) -> None:
                client = {"token": "t"}
                self.server = MCPServer("falcon")
                if "hosts" in enabled:
                    HostsModule(client).register_tools(self.server)
                if "alerts" in enabled:
                    AlertsModule(client).register_tools(self.server)


        def main() -> MCPServer:
            return FalconServer().server
        """,
}
"""CrowdStrike/falcon-mcp's structure: `FalconMCPServer` holds the server it makes, each enabled
module's `register_tools(server)` calls the base class's `_add_tool(server, self.method,
"name")`, which registers the bound method as `falcon_<name>`."""

FALCON_START = "from fal.server import main\n\nserver = main()\n"

# Planted: the alerts module registers its search under the hosts module's name: the SDK keeps
# the hosts one (its module registers first) and drops the alerts one.
CASES["falcon: modules' bound methods registered by a base helper under a prefixed name"] = Server(
    files=FALCON,
    start=FALCON_START,
    planted=(
        "fal/modules/alerts.py",
        'self.search_alerts, "search_alerts"',
        'self.search_alerts, "search_hosts"',
    ),
    expected=[("fal/modules/alerts.py", "MCPD110")],
    dropped=True,
)

# The same structure, planted: the tenant resolver's `ctx` without its annotation (R2).
CASES["falcon: the resolver every module's tools share, its Context forgotten"] = Server(
    files=FALCON,
    start=FALCON_START,
    planted=("fal/deps.py", "ctx: Context", "ctx"),
    expected=[("fal/deps.py", "MCPD002"), ("fal/deps.py", "MCPD002")],
    refused="Resolver 'current_tenant' parameter 'ctx' cannot be resolved",
)

# A published server's permission-aware `FastMCP` subclass (its `add_tool` override records
# `fn.__module__` per tool name for a `list_tools` filter, then calls `super().add_tool(...)`
# with every argument): the SDK's `tool()` registers through that override too. The factory
# imports the tools module in its body. Planted: the workspace resolver asks for `root_dir`,
# which no tool has (R2).
CASES["MCPServer subclass overriding add_tool, passing each function on"] = Server(
    files={
        "app/__init__.py": "",
        "app/tools/__init__.py": "",
        "app/server.py": """\
            from mcp.server import MCPServer


            class PermissionedServer(MCPServer):
                def __init__(self, name: str, *, allowed: frozenset[str]) -> None:
                    self.allowed = allowed
                    self.tool_modules: dict[str, str] = {}
                    super().__init__(name)

                def add_tool(self, fn, name=None, title=None, description=None, annotations=None,
                             icons=None, meta=None, structured_output=None):
                    self.tool_modules[name or fn.__name__] = fn.__module__.rsplit(".", 1)[-1]
                    super().add_tool(
                        fn,
                        name=name,
                        title=title,
                        description=description,
                        annotations=annotations,
                        icons=icons,
                        meta=meta,
                        structured_output=structured_output,
                    )


            def create_server() -> PermissionedServer:
                server = PermissionedServer("files", allowed=frozenset({"files"}))
                from app.tools import files

                files.register(server)
                return server
            """,
        "app/deps.py": mod(
            """\


            def workspace(ctx: Context) -> str:
                return "/ws"
            """
        ),
        "app/tools/files.py": mod(
            """\

            from mcp.server import MCPServer

            from app.deps import workspace


            def register(server: MCPServer) -> None:
                @server.tool()
                def read_file(path: str, root: Annotated[str, Resolve(workspace)]) -> str:
                    return f"{root}/{path}"

                def list_files(root: Annotated[str, Resolve(workspace)]) -> list[str]:
                    return [root]

                server.add_tool(list_files, name="list_files")
            """
        ),
    },
    start="from app.server import create_server\n\nserver = create_server()\n",
    planted=("app/deps.py", "def workspace(ctx: Context)", "def workspace(ctx: Context, root_dir: str)"),
    expected=[("app/deps.py", "MCPD002"), ("app/deps.py", "MCPD002")],
    refused="Resolver 'workspace' parameter 'root_dir' cannot be resolved",
)

# Tool names kept in one module of constants (a pinecone server's `class ToolName(str, Enum)`
# passed whole, `name=ToolName.SEMANTIC_SEARCH`; a chat bot's `name=ToolName.ADD_REACTION.value`;
# a `StrEnum`; a plain class of strings). The SDK registers each under the string, not the
# function's name. Planted: a member given another's string (an enum alias): the SDK drops the
# second tool.
CASES["tool names from a str Enum, a StrEnum, .value and a class of constants"] = Server(
    files={
        "app/__init__.py": "",
        "app/enums.py": """\
            from enum import Enum, StrEnum


            class ToolName(str, Enum):
                SEARCH = "semantic-search"
                LIST = "list-documents"


            class Admin(StrEnum):
                STATS = "index-stats"


            class Names:
                READ = "read-document"
            """,
        "app/deps.py": TENANT,
        "app/server.py": mod(
            """\

            from mcp.server import MCPServer

            from app.deps import Tenant
            from app.enums import Admin, Names, ToolName

            mcp = MCPServer("docs")


            @mcp.tool(name=ToolName.SEARCH)
            def search(query: str, tenant: Tenant) -> str:
                return f"{tenant}:{query}"


            @mcp.tool(name=ToolName.LIST.value)
            def list_documents(limit: int, tenant: Tenant) -> str:
                return f"{tenant}:{limit}"


            @mcp.tool(name=Admin.STATS)
            def stats(detail: bool) -> str:
                return str(detail)


            @mcp.tool(name=Names.READ)
            def read(doc_id: str, tenant: Tenant) -> str:
                return f"{tenant}:{doc_id}"
            """
        ),
    },
    start=ENTRY,
    planted=("app/enums.py", 'LIST = "list-documents"', 'LIST = "semantic-search"'),
    expected=[("app/server.py", "MCPD110")],
    dropped=True,
)

# humcp's `server.py`: `_register_toolset(name, loader)` calls `loader(mcp)` on the module's
# server inside `try/except ImportError`, and is called once per toolset with that toolset's
# `register_tools` (`_register_toolset("csv", csv.register_tools)`). Planted: the pdf toolset
# registers its reader under the csv one's name: the SDK drops it.
CASES["registrars handed to a helper that calls each with the server, under try/except ImportError"] = Server(
    files={
        "app/__init__.py": "",
        "app/tools/__init__.py": "",
        "app/deps.py": TENANT,
        "app/tools/csv_tools.py": mod(
            """\

            from mcp.server import MCPServer

            from app.deps import Tenant


            def register_tools(mcp: MCPServer) -> None:
                @mcp.tool()
                def read_csv(path: str, tenant: Tenant) -> str:
                    return f"{tenant}:{path}"
            """
        ),
        "app/tools/pdf_tools.py": mod(
            """\

            from mcp.server import MCPServer

            from app.deps import Tenant


            def register_tools(mcp: MCPServer) -> None:
                @mcp.tool(name="read_pdf")
                def read(path: str, tenant: Tenant) -> str:
                    return f"{tenant}:{path}"
            """
        ),
        "app/server.py": """\
            import logging
            from collections.abc import Callable

            from mcp.server import MCPServer

            mcp = MCPServer("humcp")
            logger = logging.getLogger("humcp")


            def _register_toolset(name: str, loader: Callable[[MCPServer], None]) -> None:
                try:
                    loader(mcp)
                    logger.info("registered %s", name)
                except ImportError as e:
                    logger.warning("%s tools not available: %s", name, e)


            from app.tools import csv_tools, pdf_tools  # noqa: E402

            _register_toolset("csv", csv_tools.register_tools)
            _register_toolset("pdf", pdf_tools.register_tools)
            """,
    },
    start=ENTRY,
    planted=("app/tools/pdf_tools.py", '@mcp.tool(name="read_pdf")', '@mcp.tool(name="read_csv")'),
    expected=[("app/tools/pdf_tools.py", "MCPD110")],
    dropped=True,
)

SPECS = {
    "MCPServer subclass overriding tool() to keep a registry of what it registers": "app/server.py:mcp",
    "MCPServer subclass overriding tool() to register a logging wrapper of each function": "app/server.py:mcp",
    "class holding the server, its tool() registering a wrapper of each function": "app/server.py:mcp",
    "MCPServer subclass overriding tool(), tools applied by calls naming them": "app/server.py:mcp",
    "decorator factory handed the server and the tool's name, registering a wraps wrapper": "app/server.py:mcp",
    "falcon: modules' bound methods registered by a base helper under a prefixed name": "fal/server.py:main",
    "MCPServer subclass overriding add_tool, passing each function on": "app/server.py:create_server",
    "tool names from a str Enum, a StrEnum, .value and a class of constants": "app/server.py:mcp",
    "registrars handed to a helper that calls each with the server, under try/except ImportError": (
        "app/server.py:mcp"
    ),
}
"""The spec naming each valid twin's server (or the factory building it) for `graph`."""

NOT_DRAWN: dict[str, str] = {
    "class holding the server, its tool() registering a wrapper of each function": (
        "the server an instance's __init__ makes from its parameter (`self.server = MCPServer(name)`, "
        "`hosts = Guarded('hosts')`, `mcp = hosts.server`): `graph --live` draws it as `mcp`, named "
        "'hosts', with no line; the static graph as `server` at the call in __init__, its name unread"
    ),
}
"""Specs whose static graph is not yet what `graph --live` draws, with the reason (strict xfails)."""

NOT_FOLLOWED: dict[str, str] = {}
"""Cases lint does not yet report as the SDK does, with the reason (strict xfails)."""

(
    test_graph_of_the_valid_twin_is_what_graph_live_draws,
    test_sdk_starts_the_valid_twin_and_lint_reports_nothing,
    test_sdk_refuses_the_planted_twin_and_lint_reports_it,
    test_each_file_alone_reports_what_lint_dot_reports,
    test_the_editor_reports_what_lint_dot_reports,
) = server_tests(CASES, SPECS, NOT_DRAWN, NOT_FOLLOWED)
