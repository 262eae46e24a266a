"""Whole published servers (s16): the structure of real Python MCP servers (layout, how tools
are registered, how db clients / the current user / settings / confirmations reach the tools)
rebuilt in the 2.3 API with resolvers, each in a valid twin and a twin with one planted
mistake, checked against the SDK started the way the author starts it
(`published_servers.Server`). The repositories named are where the structure was learnt; no
code of theirs is here.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from conftest import write_files
from published_servers import (
    PYPROJECT,
    Server,
    mod,
    server_tests,
)
from published_shapes import (
    duplicates_logged,
    found,
)

CASES: dict[str, Server] = {}

# 1. ianrichard/mcp-server: a flat layout (no package), `main.py` binds `mcp` and then imports
#    `tools.register_tools`, which imports each feature's `register_*` lazily inside its body.
#    Planted: a sandbox resolver asks for `base_dir`, which no tool has (R2).
CASES["flat layout, register_tools importing feature registrars lazily"] = Server(
    files={
        "main.py": """\
            from mcp.server import MCPServer

            mcp = MCPServer("demo")

            from tools import register_tools  # noqa: E402

            register_tools(mcp)
            """,
        "tools/__init__.py": """\
            def register_tools(mcp) -> None:
                from .file_tools import register_file_tools
                from .math_tools import register_math_tools

                register_file_tools(mcp)
                register_math_tools(mcp)
            """,
        "tools/sandbox.py": """\
            from pathlib import Path


            def sandbox_root(path: str) -> Path:
                return Path("/srv/files") / path
            """,
        "tools/file_tools.py": mod("""\
            from pathlib import Path

            from .sandbox import sandbox_root


            def register_file_tools(mcp) -> None:
                @mcp.tool()
                def read_file(path: str, where: Annotated[Path, Resolve(sandbox_root)]) -> str:
                    return str(where)
            """),
        "tools/math_tools.py": """\
            def register_math_tools(mcp) -> None:
                @mcp.tool()
                def add(a: int, b: int) -> int:
                    return a + b
            """,
    },
    start="import main\nserver = main.mcp",
    planted=("tools/sandbox.py", "def sandbox_root(path: str)", "def sandbox_root(base_dir: str)"),
    expected=[("tools/sandbox.py", "MCPD002")],
    refused="Resolver 'sandbox_root' parameter 'base_dir'",
    read_from="ianrichard/mcp-server",
)

# 2. jatindera/agentic-ai-video-ad-generator: `create_mcp_server()` builds the server and calls
#    `routes.register_tools(mcp)`, which `add_tool`s functions from `app/tools/*`; two search
#    providers both name their function `search`. Planted: the second one registered without
#    `name=` (dropped by the SDK as a duplicate).
CASES["factory calling routes.register_tools, add_tool of same-named functions"] = Server(
    files={
        "app/__init__.py": "",
        "app/deps.py": """\
            class Http:
                def __init__(self, base: str) -> None:
                    self.base = base


            def http_client() -> Http:
                return Http("https://example.invalid")
            """,
        "app/tools/__init__.py": "",
        "app/tools/google.py": mod("""\
            from app.deps import Http, http_client


            def search(query: str, http: Annotated[Http, Resolve(http_client)]) -> str:
                return http.base + query
            """),
        "app/tools/bing.py": mod("""\
            from app.deps import Http, http_client


            def search(query: str, http: Annotated[Http, Resolve(http_client)]) -> str:
                return http.base + "/bing?" + query
            """),
        "app/server/__init__.py": "",
        "app/server/routes.py": """\
            from app.tools import bing, google


            def register_tools(mcp) -> None:
                mcp.add_tool(google.search)
                mcp.add_tool(bing.search, name="bing_search")
            """,
        "app/server/mcp_server.py": """\
            from mcp.server import MCPServer

            from app.server.routes import register_tools


            def create_mcp_server() -> MCPServer:
                mcp = MCPServer("ads")
                register_tools(mcp)
                return mcp
            """,
    },
    start="from app.server.mcp_server import create_mcp_server\nserver = create_mcp_server()",
    planted=(
        "app/server/routes.py",
        'mcp.add_tool(bing.search, name="bing_search")',
        "mcp.add_tool(bing.search)",
    ),
    expected=[("app/server/routes.py", "MCPD110")],
    dropped=True,
    read_from="jatindera/agentic-ai-video-ad-generator",
)

# 3. leaninnovationlabs/dmcp: a class owns its server (`self.mcp = MCPServer(...)`) and
#    registers its own bound methods in `_register_tools`. Planted: the helper the tool resolves
#    is written as a method beside it, so the annotation (evaluated in the class body) holds the
#    plain function and its `self` is unclassifiable (R2).
CASES["class owning its server, registering bound methods"] = Server(
    files={
        "app/__init__.py": "",
        "app/units.py": """\
            def units(city: str) -> str:
                return "imperial" if city.endswith("US") else "metric"
            """,
        "app/server.py": mod("""\
            from mcp.server import MCPServer

            from app.units import units


            class WeatherServer:
                def __init__(self, name: str) -> None:
                    self.mcp = MCPServer(name)
                    self._register_tools()

                def _register_tools(self) -> None:
                    self.mcp.add_tool(self.forecast)
                    self.mcp.tool()(self.hello)

                def forecast(self, city: str, unit: Annotated[str, Resolve(units)]) -> str:
                    return city + " in " + unit

                def hello(self, name: str = "World") -> str:
                    return "Hello, " + name
            """),
    },
    start="from app.server import WeatherServer\nserver = WeatherServer('w').mcp",
    planted=(
        "app/server.py",
        "    def forecast(self",
        "    def units(self, city: str) -> str:\n        return 'metric'\n\n    def forecast(self",
    ),
    expected=[("app/server.py", "MCPD002")],
    refused="Resolver 'units' parameter 'self'",
    read_from="leaninnovationlabs/dmcp",
)


# 4. A `BaseToolProvider(mcp)` hierarchy (an auth demo seen in the code corpus): each provider
#    class registers its bound methods in `register_tools`, the server module instantiates them
#    all; the current user comes from `app/auth.py`. Planted: an optional user, the Resolve
#    wrapped in `| None` (R3).
CASES["tool provider classes registering bound methods, current user from an auth module"] = Server(
    files={
        "app/__init__.py": "",
        "app/auth.py": mod("""\
            class User:
                def __init__(self, name: str) -> None:
                    self.name = name


            def current_user(ctx: Context) -> User:
                return User(ctx.request_id or "anonymous")
            """),
        "app/providers/__init__.py": "",
        "app/providers/base.py": """\
            class BaseToolProvider:
                def __init__(self, mcp) -> None:
                    self.mcp = mcp

                def register_tools(self) -> None:
                    raise NotImplementedError
            """,
        "app/providers/account.py": mod("""\
            from app.auth import User, current_user
            from app.providers.base import BaseToolProvider


            class AccountTools(BaseToolProvider):
                def register_tools(self) -> None:
                    self.mcp.tool(name="whoami")(self.whoami)
                    self.mcp.tool(name="greet")(self.greet)

                def whoami(self, user: Annotated[User, Resolve(current_user)]) -> str:
                    return user.name

                def greet(self, other: str, user: Annotated[User, Resolve(current_user)]) -> str:
                    return user.name + " greets " + other
            """),
        "app/main.py": """\
            from mcp.server import MCPServer

            from app.providers.account import AccountTools

            mcp = MCPServer("auth-demo")
            for provider in (AccountTools(mcp),):
                provider.register_tools()
            """,
    },
    start="from app.main import mcp as server",
    planted=(
        "app/providers/account.py",
        "user: Annotated[User, Resolve(current_user)]) -> str:\n        return user.name\n",
        "user: Annotated[User, Resolve(current_user)] | None = None) -> str:\n        return user.name\n",
    ),
    expected=[("app/providers/account.py", "MCPD003")],
    refused="Parameter 'user' of 'whoami' wraps",
)

# 5. A knowledge-base server (the personal_kb layout): a lifespan yields the store, each tool
#    module has `register_kb_<verb>(mcp, prefix="kb_")` naming its tool `f"{prefix}<verb>"`, the
#    store reaches tools through a resolver reading the lifespan context. Planted: the store
#    module copied from the search one keeps `f"{prefix}search"` (a dropped duplicate).
CASES["register helpers naming tools from a prefix parameter, store from the lifespan"] = Server(
    files={
        "kb/__init__.py": "",
        "kb/store.py": mod("""\
            class Store:
                def find(self, query: str) -> list[str]:
                    return [query]


            def store(ctx: Context) -> Store:
                return ctx.request_context.lifespan_context["store"]
            """),
        "kb/tools/__init__.py": "",
        "kb/tools/kb_search.py": mod("""\
            from kb.store import Store, store


            def register_kb_search(mcp, prefix: str = "kb_") -> None:
                @mcp.tool(name=f"{prefix}search")
                async def kb_search(query: str, db: Annotated[Store, Resolve(store)]) -> list[str]:
                    return db.find(query)
            """),
        "kb/tools/kb_store.py": mod("""\
            from kb.store import Store, store


            def register_kb_store(mcp, prefix: str = "kb_") -> None:
                @mcp.tool(name=f"{prefix}store")
                async def kb_store(text: str, db: Annotated[Store, Resolve(store)]) -> str:
                    return text
            """),
        "kb/server.py": """\
            from contextlib import asynccontextmanager

            from mcp.server import MCPServer

            from kb.store import Store
            from kb.tools.kb_search import register_kb_search
            from kb.tools.kb_store import register_kb_store


            @asynccontextmanager
            async def lifespan(server):
                yield {"store": Store()}


            mcp = MCPServer("personal-kb", lifespan=lifespan)
            register_kb_search(mcp)
            register_kb_store(mcp)
            """,
    },
    start="from kb.server import mcp as server",
    planted=("kb/tools/kb_store.py", 'name=f"{prefix}store"', 'name=f"{prefix}search"'),
    expected=[("kb/tools/kb_store.py", "MCPD110")],
    dropped=True,
)

# 6. The wp_db_mcp layout: `server.py` imports the lifespan from `db.py` and
#    `register_all_tools` from `tools/`; the modules use postponed annotations and import the
#    connection type for hints only. Planted: `db.py` imports it under `TYPE_CHECKING`, so the
#    SDK cannot evaluate the resolver's hints and its `ctx` is unclassifiable (R2).
CASES["postponed annotations, connection type imported for the resolver's hints"] = Server(
    files={
        "wpdb/__init__.py": "",
        "wpdb/connection.py": """\
            class Connection:
                def query(self, sql: str) -> list[str]:
                    return [sql]
            """,
        "wpdb/db.py": """\
            from __future__ import annotations

            from contextlib import asynccontextmanager

            from mcp.server.mcpserver import Context

            from wpdb.connection import Connection


            @asynccontextmanager
            async def app_lifespan(server):
                yield {"conn": Connection()}


            def connection(ctx: Context) -> Connection:
                return ctx.request_context.lifespan_context["conn"]
            """,
        "wpdb/tools/__init__.py": """\
            from wpdb.tools.posts import register_post_tools


            def register_all_tools(mcp) -> None:
                register_post_tools(mcp)
            """,
        "wpdb/tools/posts.py": """\
            from __future__ import annotations

            from typing import Annotated

            from mcp.server.mcpserver import Resolve

            from wpdb.connection import Connection
            from wpdb.db import connection


            def register_post_tools(mcp) -> None:
                @mcp.tool()
                def list_posts(limit: int, conn: Annotated[Connection, Resolve(connection)]) -> list[str]:
                    return conn.query(f"select * from wp_posts limit {limit}")
            """,
        "wpdb/server.py": """\
            from mcp.server import MCPServer

            from wpdb.db import app_lifespan
            from wpdb.tools import register_all_tools

            mcp = MCPServer("wp_db_mcp", lifespan=app_lifespan)
            register_all_tools(mcp)
            """,
    },
    start="from wpdb.server import mcp as server",
    planted=(
        "wpdb/db.py",
        "from wpdb.connection import Connection\n",
        "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from wpdb.connection import Connection\n",
    ),
    expected=[("wpdb/db.py", "MCPD002")],
    refused="Resolver 'connection' parameter 'ctx'",
)

# 7. A `create_server(config)` factory passing `tools=[Tool.from_function(f) for f in
#    ALL_TOOLS]` to the constructor (a Z-Wave specification server in the code corpus), the
#    module binding `mcp = create_server(Config.from_env())`. Planted: R2 in the spec resolver.
CASES["factory passing tools=[Tool.from_function(f) for f in ALL_TOOLS]"] = Server(
    files={
        "zw/__init__.py": "",
        "zw/config.py": """\
            import os


            class Config:
                def __init__(self, spec_dir: str) -> None:
                    self.spec_dir = spec_dir

                @classmethod
                def from_env(cls) -> "Config":
                    return cls(os.environ.get("SPEC_DIR", "/spec"))
            """,
        "zw/deps.py": """\
            def spec_path(command_class: str) -> str:
                return "/spec/" + command_class
            """,
        "zw/tools.py": mod("""\
            from zw.deps import spec_path


            def lookup_command_class(command_class: str, path: Annotated[str, Resolve(spec_path)]) -> str:
                return path


            def list_registries() -> list[str]:
                return ["manufacturers"]


            ALL_TOOLS = [lookup_command_class, list_registries]
            """),
        "zw/server.py": """\
            from mcp.server import MCPServer
            from mcp.server.mcpserver.tools.base import Tool

            from zw.config import Config
            from zw.tools import ALL_TOOLS


            def create_server(config: Config) -> MCPServer:
                return MCPServer(
                    "Z-Wave",
                    instructions="Query the specification",
                    tools=[Tool.from_function(func) for func in ALL_TOOLS],
                )


            mcp = create_server(Config.from_env())
            """,
    },
    start="from zw.server import mcp as server",
    planted=("zw/deps.py", "def spec_path(command_class: str)", "def spec_path(cc: str)"),
    expected=[("zw/deps.py", "MCPD002")],
    refused="Resolver 'spec_path' parameter 'cc'",
)

# 8. Settings read once and cached (`@lru_cache def get_settings()`, as in many FastAPI-shaped
#    servers) feeding an API client resolver. Planted: the settings loader made `async` under
#    `@lru_cache` (a sync wrapper): the SDK injects a coroutine object and never awaits it.
CASES["lru_cache settings resolver feeding a client resolver"] = Server(
    files={
        "svc/__init__.py": "",
        "svc/settings.py": """\
            from functools import lru_cache


            class Settings:
                api_url = "https://api.example.invalid"


            @lru_cache
            def get_settings() -> Settings:
                return Settings()
            """,
        "svc/deps.py": mod("""\
            from svc.settings import Settings, get_settings


            def api_base(settings: Annotated[Settings, Resolve(get_settings)]) -> str:
                return type(settings).__name__
            """),
        "svc/tools.py": mod("""\
            from svc.deps import api_base


            def register(mcp) -> None:
                @mcp.tool()
                def which(item: str, base: Annotated[str, Resolve(api_base)]) -> str:
                    return base
            """),
        "svc/main.py": """\
            from mcp.server import MCPServer

            from svc import tools

            mcp = MCPServer("svc")
            tools.register(mcp)
            """,
    },
    start="from svc.main import mcp as server",
    planted=("svc/settings.py", "def get_settings()", "async def get_settings()"),
    expected=[("svc/settings.py", "MCPD108")],
    call=("which", {"item": "x"}),
    answers=("Settings", "coroutine"),
)


# 9. cstortz/monorepo_mcp: a shared `core` package (settings, security) and one package per
#    server, each with its own `MCPServer` and tools using the core's resolvers. Planted: the
#    core's admin check asks for `schema`, a tool argument of the postgres server's tool but
#    not of the redis server's one (R2 when the redis server starts).
CASES["monorepo: a shared core's resolvers used by two servers"] = Server(
    files={
        "core/__init__.py": "",
        "core/security.py": mod("""\
            class Principal:
                def __init__(self, name: str) -> None:
                    self.name = name


            def principal(ctx: Context) -> Principal:
                return Principal(ctx.client_id or "local")


            def require_admin(who: Annotated[Principal, Resolve(principal)]) -> Principal:
                return who
            """),
        "servers/__init__.py": "",
        "servers/postgres_server/__init__.py": "",
        "servers/postgres_server/server.py": mod("""\
            from mcp.server import MCPServer

            from core.security import Principal, require_admin

            mcp = MCPServer("postgres")


            @mcp.tool()
            def drop_table(schema: str, table: str, admin: Annotated[Principal, Resolve(require_admin)]) -> str:
                return admin.name + " dropped " + schema + "." + table
            """),
        "servers/redis_server/__init__.py": "",
        "servers/redis_server/server.py": mod("""\
            from mcp.server import MCPServer

            from core.security import Principal, require_admin

            mcp = MCPServer("redis")


            @mcp.tool()
            def flush(db: int, admin: Annotated[Principal, Resolve(require_admin)]) -> str:
                return admin.name + " flushed " + str(db)
            """),
    },
    start="from servers.postgres_server.server import mcp\nfrom servers.redis_server.server import mcp as server",
    planted=("core/security.py", "def require_admin(who:", "def require_admin(schema: str, who:"),
    expected=[("core/security.py", "MCPD002")],
    refused="Resolver 'require_admin' parameter 'schema'",
    read_from="cstortz/monorepo_mcp",
)

# 10. A registry list: feature modules export lists of functions, `tools/__init__.py` joins
#     them (`ALL_TOOLS = [*NOTE_TOOLS, *TASK_TOOLS]`), the server loops `for func in ALL_TOOLS:
#     mcp.add_tool(func)`. Planted: the owner resolver of the task tools asks for `user_id`,
#     which only the note tools have.
CASES["registry list joined from feature lists, add_tool in a loop"] = Server(
    files={
        "app/__init__.py": "",
        "app/deps.py": """\
            def owner(project: str) -> str:
                return "owner of " + project
            """,
        "app/tools/__init__.py": """\
            from app.tools.notes import NOTE_TOOLS
            from app.tools.tasks import TASK_TOOLS

            ALL_TOOLS = [*NOTE_TOOLS, *TASK_TOOLS]
            """,
        "app/tools/notes.py": """\
            def add_note(user_id: str, text: str) -> str:
                return user_id + ": " + text


            NOTE_TOOLS = [add_note]
            """,
        "app/tools/tasks.py": mod("""\
            from app.deps import owner


            def add_task(project: str, title: str, who: Annotated[str, Resolve(owner)]) -> str:
                return who + ": " + title


            TASK_TOOLS = [add_task]
            """),
        "app/main.py": """\
            from mcp.server import MCPServer

            from app.tools import ALL_TOOLS

            mcp = MCPServer("demo")
            for func in ALL_TOOLS:
                mcp.add_tool(func)
            """,
    },
    start="from app.main import mcp as server",
    planted=("app/deps.py", "def owner(project: str)", "def owner(user_id: str)"),
    expected=[("app/deps.py", "MCPD002")],
    refused="Resolver 'owner' parameter 'user_id'",
)

# 11. A destructive-operation server (the StockTrim confirmation ADR): deletions ask the user
#     through a resolver returning `Elicit`, the record is loaded by another resolver. Planted:
#     the confirmation may also fall back to the client's LLM (`Elicit[...] | Sample`, R4).
CASES["confirmation resolver asking before a deletion"] = Server(
    files={
        "inv/__init__.py": "",
        "inv/confirm.py": """\
            from typing import Annotated

            from mcp.server.mcpserver import Elicit, Resolve, Sample
            from pydantic import BaseModel

            from inv.records import Item, load_item


            class Confirm(BaseModel):
                confirm: bool


            def confirm_delete(item: Annotated[Item, Resolve(load_item)]) -> Elicit[Confirm]:
                return Elicit("Delete " + item.sku + "?", Confirm)
            """,
        "inv/records.py": """\
            class Item:
                def __init__(self, sku: str) -> None:
                    self.sku = sku


            def load_item(sku: str) -> Item:
                return Item(sku)
            """,
        "inv/server.py": mod("""\
            from mcp.server import MCPServer

            from inv.confirm import Confirm, confirm_delete

            mcp = MCPServer("stock")


            @mcp.tool()
            def delete_item(sku: str, answer: Annotated[Confirm, Resolve(confirm_delete)]) -> str:
                return ("deleted " if answer.confirm else "kept ") + sku
            """),
    },
    start="from inv.server import mcp as server",
    planted=(
        "inv/confirm.py",
        "-> Elicit[Confirm]:",
        "-> Elicit[Confirm] | Sample:",
    ),
    expected=[("inv/confirm.py", "MCPD004")],
    refused="multiple Elicit/Sample/ListRoots arms",
)

# 12. A RAG client built at start-up and handed to `register_kb_search(mcp, rag_client,
#     top_k)`, which closes over it in a local resolver (vera_mcp_service). Planted: the
#     injected client named `_client` as the private value it is (T2).
CASES["register helper closing over a client in a local resolver"] = Server(
    files={
        "rag/__init__.py": "",
        "rag/client.py": """\
            class RagClient:
                def __init__(self, url: str) -> None:
                    self.url = url
            """,
        "rag/tools.py": mod("""\
            from rag.client import RagClient


            def register_kb_search(mcp, rag_client: RagClient, top_k: int) -> None:
                def client() -> RagClient:
                    return rag_client

                @mcp.tool()
                async def kb_search(query: str, rc: Annotated[RagClient, Resolve(client)]) -> str:
                    return rc.url + "?q=" + query + "&k=" + str(top_k)
            """),
        "rag/main.py": """\
            from mcp.server import MCPServer

            from rag.client import RagClient
            from rag.tools import register_kb_search

            mcp = MCPServer("vera")
            register_kb_search(mcp, RagClient("http://rag"), top_k=5)
            """,
    },
    start="from rag.main import mcp as server",
    planted=(
        "rag/tools.py",
        "rc: Annotated[RagClient, Resolve(client)]) -> str:\n        return rc.url",
        "_client: Annotated[RagClient, Resolve(client)]) -> str:\n        return _client.url",
    ),
    expected=[("rag/tools.py", "MCPD006")],
    refused="Parameter _client of kb_search cannot start with '_'",
)

# 13. A feature module registered as `chm.register(mcp)` (gabos_mcp) whose resolvers form a
#     diamond: a token, the user from it, the permissions from the user and the token.
#     Planted: the user reads the permissions back (a cycle through postponed annotations).
CASES["module registrar, auth resolvers in a diamond"] = Server(
    files={
        "gab/__init__.py": "",
        "gab/auth.py": """\
            from __future__ import annotations

            from typing import Annotated

            from mcp.server.mcpserver import Context, Resolve


            def token(ctx: Context) -> str:
                return ctx.client_id or "anonymous"


            def user(tok: Annotated[str, Resolve(token)]) -> str:
                return "user:" + tok


            def permissions(who: Annotated[str, Resolve(user)], tok: Annotated[str, Resolve(token)]) -> list[str]:
                return [who, tok]
            """,
        "gab/tools/__init__.py": "",
        "gab/tools/chm.py": mod("""\
            from gab.auth import permissions


            def register(mcp) -> None:
                @mcp.tool()
                def open_chm(path: str, perms: Annotated[list[str], Resolve(permissions)]) -> str:
                    return path + str(perms)
            """),
        "gab/server.py": """\
            from mcp.server import MCPServer

            from gab.tools import chm

            mcp = MCPServer("gabos-mcp")
            chm.register(mcp)
            """,
    },
    start="from gab.server import mcp as server",
    planted=(
        "gab/auth.py",
        "def user(tok: Annotated[str, Resolve(token)]) -> str:",
        "def user(tok: Annotated[str, Resolve(token)], p: Annotated[list[str], Resolve(permissions)]) -> str:",
    ),
    expected=[("gab/auth.py", "MCPD001")],
    refused="cyclic dependency",
)

# 14. The lorekeeper layout: lookup functions in `tools/` re-exported by the package
#     `__init__`, decorated in `server.py` (`mcp.tool()(lookup_spell)`), models imported for
#     hints under postponed annotations. Planted: the model imported under `TYPE_CHECKING`
#     only, so the tool's return hint cannot be evaluated (T3).
CASES["tool functions re-exported by a package, decorated in the server module"] = Server(
    files={
        "lore/__init__.py": "",
        "lore/models.py": """\
            from pydantic import BaseModel


            class Spell(BaseModel):
                name: str
                level: int
            """,
        "lore/cache.py": """\
            def cache_dir(name: str) -> str:
                return "/cache/" + name
            """,
        "lore/tools/__init__.py": """\
            from lore.tools.spells import lookup_spell

            __all__ = ["lookup_spell"]
            """,
        "lore/tools/spells.py": """\
            from __future__ import annotations

            from typing import Annotated

            from mcp.server.mcpserver import Resolve

            from lore.cache import cache_dir
            from lore.models import Spell


            async def lookup_spell(name: str, where: Annotated[str, Resolve(cache_dir)]) -> Spell:
                return Spell(name=name + where, level=1)
            """,
        "lore/server.py": """\
            from mcp.server import MCPServer

            from lore.tools import lookup_spell

            mcp = MCPServer(name="lorekeeper-mcp")
            mcp.tool()(lookup_spell)
            """,
    },
    start="from lore.server import mcp as server",
    planted=(
        "lore/tools/spells.py",
        "from lore.models import Spell\n",
        "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from lore.models import Spell\n",
    ),
    expected=[("lore/tools/spells.py", "MCPD009")],
    refused="Unable to evaluate type annotations for callable 'lookup_spell'",
)


# 15. Idsl-group/IDSL-MCP-Server: `tools/echo.py` has `register_tools(mcp)`, `server.py` a
#     `build()` its `main()` runs (a FastMCP 2.x project where `@mcp.tool` bare is allowed).
#     Planted: the port keeps the bare decorator (T9 under mcp 2.3).
CASES["build() calling each tools module's register_tools, ported from bare @mcp.tool"] = Server(
    files={
        "idsl/__init__.py": "",
        "idsl/deps.py": mod("""\
            def request_id(ctx: Context) -> str:
                return str(ctx.request_id)
            """),
        "idsl/tools/__init__.py": "",
        "idsl/tools/echo.py": mod("""\
            from idsl.deps import request_id


            def register_tools(mcp) -> None:
                @mcp.tool()
                def echo_tool(message: str, rid: Annotated[str, Resolve(request_id)]) -> str:
                    return "Echo: " + message + " #" + rid
            """),
        "idsl/server.py": """\
            from mcp.server import MCPServer

            from idsl.tools import echo


            def build() -> MCPServer:
                mcp = MCPServer("idsl")
                echo.register_tools(mcp)
                return mcp


            def main() -> None:
                build().run()


            if __name__ == "__main__":
                main()
            """,
    },
    start="from idsl.server import build\nserver = build()",
    planted=("idsl/tools/echo.py", "@mcp.tool()", "@mcp.tool"),
    expected=[("idsl/tools/echo.py", "MCPD008")],
    refused="The @tool decorator was used incorrectly",
    read_from="Idsl-group/IDSL-MCP-Server",
)

# 16. A permissions module and an `app` module binding `mcp`, tools importing it relatively
#     (`from ..app import mcp`), every tool taking the caller through a `CurrentUser` alias
#     and describing its parameters with `Field` (the personal_kb style). Planted: the user
#     made optional under a `Field` description, hiding the Resolve (the SDK shows `user` to
#     the model and never runs the resolver).
CASES["relative imports of the app's server, a CurrentUser alias under Field descriptions"] = Server(
    files={
        "prof/__init__.py": "",
        "prof/app.py": 'from mcp.server import MCPServer\n\nmcp = MCPServer("profiles")\n',
        "prof/permissions.py": mod("""\
            from pydantic import BaseModel


            class User(BaseModel):
                sub: str


            def current_user(ctx: Context) -> User:
                return User(sub=str(ctx.request_id))


            CurrentUser = Annotated[User, Resolve(current_user)]
            """),
        "prof/tools/__init__.py": "",
        "prof/tools/profile.py": """\
            from typing import Annotated

            from pydantic import Field

            from ..app import mcp
            from ..permissions import CurrentUser


            @mcp.tool(name="get-profile-info")
            def get_profile_info(
                fields: Annotated[str, Field(description="Comma-separated fields")],
                user: Annotated[CurrentUser, Field(description="The caller")],
            ) -> str:
                return type(user).__name__
            """,
        "prof/main.py": """\
            from prof.app import mcp
            from prof.tools import profile  # noqa: F401
            """,
    },
    start="from prof.main import mcp as server",
    planted=(
        "prof/tools/profile.py",
        'user: Annotated[CurrentUser, Field(description="The caller")],',
        'user: Annotated[CurrentUser | None, Field(description="The caller")] = None,',
    ),
    expected=[("prof/tools/profile.py", "MCPD101")],
    call=("get-profile-info", {"fields": "name"}),
    answers=("User", "NoneType"),
)

# 17. Settings loaded from the environment (my-personal-agent/weather-service's
#     `get_settings()`), read by resolvers through a classmethod. Planted: the settings class
#     itself given to Resolve, its `__init__` wanting `api_key`, which no tool has (R2).
CASES["settings class with a classmethod loader used as a resolver"] = Server(
    files={
        "wx/__init__.py": "",
        "wx/settings.py": """\
            import os


            class Settings:
                def __init__(self, api_key: str) -> None:
                    self.api_key = api_key

                @classmethod
                def from_env(cls) -> "Settings":
                    return cls(os.environ.get("WX_KEY", ""))
            """,
        "wx/server.py": mod("""\
            from mcp.server import MCPServer

            from wx.settings import Settings

            mcp = MCPServer("weather")


            @mcp.tool()
            async def forecast(city: str, settings: Annotated[Settings, Resolve(Settings.from_env)]) -> str:
                return city + (settings.api_key and "*")
            """),
    },
    start="from wx.server import mcp as server",
    planted=("wx/server.py", "Resolve(Settings.from_env)", "Resolve(Settings)"),
    expected=[("wx/settings.py", "MCPD002")],
    refused="parameter 'api_key'",
    read_from="my-personal-agent/weather-service",
)


# 18. A server class deriving from the SDK's (`class NotesServer(MCPServer)`, registering its
#     bound methods in `__init__`), resolvers timed by a `utils/timing.py` decorator kept with
#     `functools.wraps`. Planted: the db resolver made `async` under that sync decorator: the
#     SDK injects the coroutine object.
CASES["MCPServer subclass registering its methods, resolvers under a timing decorator"] = Server(
    files={
        "notes/__init__.py": "",
        "notes/utils/__init__.py": "",
        "notes/utils/timing.py": """\
            import functools
            import time


            def timed(fn):
                @functools.wraps(fn)
                def wrapper(*args, **kwargs):
                    started = time.perf_counter()
                    try:
                        return fn(*args, **kwargs)
                    finally:
                        time.perf_counter() - started

                return wrapper
            """,
        "notes/db.py": """\
            from notes.utils.timing import timed


            class Db:
                pass


            @timed
            def open_db() -> Db:
                return Db()
            """,
        "notes/server.py": mod("""\
            from mcp.server import MCPServer

            from notes.db import Db, open_db


            class NotesServer(MCPServer):
                def __init__(self) -> None:
                    super().__init__("notes")
                    self.add_tool(self.list_notes)

                def list_notes(self, folder: str, db: Annotated[Db, Resolve(open_db)]) -> str:
                    return type(db).__name__


            server = NotesServer()
            """),
    },
    start="from notes.server import server",
    planted=("notes/db.py", "def open_db()", "async def open_db()"),
    expected=[("notes/db.py", "MCPD108")],
    call=("list_notes", {"folder": "inbox"}),
    answers=("Db", "coroutine"),
)

# 19. Write tools registered only when the settings allow them (`if settings.allow_writes:
#     register_write_tools(mcp)`, a read-only default seen in database servers). Planted: the
#     write module's tool copied from the read one keeps the name `query` (dropped when writes
#     are allowed, which is how this server is started).
CASES["write tools registered under a settings flag"] = Server(
    files={
        "dbsrv/__init__.py": "",
        "dbsrv/settings.py": """\
            import os


            class Settings:
                allow_writes = os.environ.get("ALLOW_WRITES", "1") == "1"


            settings = Settings()
            """,
        "dbsrv/deps.py": """\
            def connection(database: str) -> str:
                return "conn:" + database
            """,
        "dbsrv/read_tools.py": mod("""\
            from dbsrv.deps import connection


            def register_read_tools(mcp) -> None:
                @mcp.tool(name="query")
                def query(database: str, sql: str, conn: Annotated[str, Resolve(connection)]) -> str:
                    return conn + sql
            """),
        "dbsrv/write_tools.py": mod("""\
            from dbsrv.deps import connection


            def register_write_tools(mcp) -> None:
                @mcp.tool(name="execute")
                def execute(database: str, sql: str, conn: Annotated[str, Resolve(connection)]) -> str:
                    return conn + sql
            """),
        "dbsrv/server.py": """\
            from mcp.server import MCPServer

            from dbsrv.read_tools import register_read_tools
            from dbsrv.settings import settings
            from dbsrv.write_tools import register_write_tools

            mcp = MCPServer("db")
            register_read_tools(mcp)
            if settings.allow_writes:
                register_write_tools(mcp)
            """,
    },
    start="from dbsrv.server import mcp as server",
    planted=("dbsrv/write_tools.py", '@mcp.tool(name="execute")', '@mcp.tool(name="query")'),
    expected=[("dbsrv/write_tools.py", "MCPD110")],
    dropped=True,
)


# 20. The circular layout many FastMCP projects use: `app/server.py` binds `mcp` and imports
#     its tool modules at the bottom (`from app.tools import notes` after `mcp = MCPServer(...)`), each tool
#     module doing `from app.server import mcp`; a notes service instance made at import
#     serves bound-method resolvers. Planted: the resolver taken from the class, not the
#     instance (`Resolve(NotesService.notebook)`: `self` is unclassifiable, R2).
CASES["server module importing its tool modules at the bottom, bound-method resolvers"] = Server(
    files={
        "app/__init__.py": "",
        "app/service.py": """\
            class NotesService:
                def __init__(self, root: str) -> None:
                    self.root = root

                def notebook(self, name: str) -> str:
                    return self.root + "/" + name


            service = NotesService("/notes")
            """,
        "app/tools/__init__.py": "",
        "app/tools/notes.py": mod("""\
            from app.server import mcp
            from app.service import NotesService, service


            @mcp.tool()
            def open_notebook(name: str, path: Annotated[str, Resolve(service.notebook)]) -> str:
                return path
            """),
        "app/server.py": """\
            from mcp.server import MCPServer

            mcp = MCPServer("notes")

            from app.tools import notes  # noqa: E402, F401
            """,
    },
    start="from app.server import mcp as server",
    planted=("app/tools/notes.py", "Resolve(service.notebook)", "Resolve(NotesService.notebook)"),
    expected=[("app/service.py", "MCPD002")],
    refused="Resolver 'notebook' parameter 'self'",
)


# 21. A toolkit factory closing over the API client it is given (`install(mcp, api)` defining
#     its resolver locally, as vera_mcp_service's registrar does), the project then adopting
#     postponed annotations (a linter's "add `from __future__ import annotations`" fix).
#     Planted: that import: the local resolver in the tool's hint is no global, so the SDK
#     cannot evaluate the tool's annotations (T3).
CASES["toolkit factory with a local resolver, postponed annotations added"] = Server(
    files={
        "kit/__init__.py": "",
        "kit/api.py": """\
            class Api:
                def get(self, path: str) -> str:
                    return "GET " + path
            """,
        "kit/toolkit.py": """\
            from typing import Annotated

            from mcp.server.mcpserver import Resolve

            from kit.api import Api


            def install(mcp, api: Api) -> None:
                def client() -> Api:
                    return api

                @mcp.tool()
                def fetch(path: str, http: Annotated[Api, Resolve(client)]) -> str:
                    return http.get(path)
            """,
        "kit/main.py": """\
            from mcp.server import MCPServer

            from kit.api import Api
            from kit.toolkit import install

            mcp = MCPServer("kit")
            install(mcp, Api())
            """,
    },
    start="from kit.main import mcp as server",
    planted=(
        "kit/toolkit.py",
        "from typing import Annotated\n",
        "from __future__ import annotations\n\nfrom typing import Annotated\n",
    ),
    expected=[("kit/toolkit.py", "MCPD009")],
    refused="Unable to evaluate type annotations for callable 'fetch'",
)


NOT_FOLLOWED: dict[str, str] = {}
"""Cases lint does not yet report as the SDK does, with the reason (strict xfails)."""


SPECS = {
    "flat layout, register_tools importing feature registrars lazily": "main.py:mcp",
    "factory calling routes.register_tools, add_tool of same-named functions": (
        "app/server/mcp_server.py:create_mcp_server"
    ),
    "tool provider classes registering bound methods, current user from an auth module": "app/main.py:mcp",
    "register helpers naming tools from a prefix parameter, store from the lifespan": "kb/server.py:mcp",
    "postponed annotations, connection type imported for the resolver's hints": "wpdb/server.py:mcp",
    "factory passing tools=[Tool.from_function(f) for f in ALL_TOOLS]": "zw/server.py:mcp",
    "lru_cache settings resolver feeding a client resolver": "svc/main.py:mcp",
    "monorepo: a shared core's resolvers used by two servers": "servers/redis_server/server.py:mcp",
    "registry list joined from feature lists, add_tool in a loop": "app/main.py:mcp",
    "confirmation resolver asking before a deletion": "inv/server.py:mcp",
    "register helper closing over a client in a local resolver": "rag/main.py:mcp",
    "module registrar, auth resolvers in a diamond": "gab/server.py:mcp",
    "tool functions re-exported by a package, decorated in the server module": "lore/server.py:mcp",
    "build() calling each tools module's register_tools, ported from bare @mcp.tool": "idsl/server.py:build",
    "relative imports of the app's server, a CurrentUser alias under Field descriptions": "prof/main.py:mcp",
    "settings class with a classmethod loader used as a resolver": "wx/server.py:mcp",
    "MCPServer subclass registering its methods, resolvers under a timing decorator": "notes/server.py:server",
    "write tools registered under a settings flag": "dbsrv/server.py:mcp",
    "server module importing its tool modules at the bottom, bound-method resolvers": "app/server.py:mcp",
    "toolkit factory with a local resolver, postponed annotations added": "kit/main.py:mcp",
}
"""The spec naming each valid twin's server (or the factory building it) for `graph`."""

NOT_DRAWN: dict[str, str] = {}
"""Specs whose static graph is not yet what `graph --live` draws, with the reason (strict xfails)."""


(
    test_graph_of_the_valid_twin_is_what_graph_live_draws,
    test_sdk_starts_the_valid_twin_and_lint_reports_nothing,
    test_sdk_refuses_the_planted_twin_and_lint_reports_it,
    test_each_file_alone_reports_what_lint_dot_reports,
    test_the_editor_reports_what_lint_dot_reports,
) = server_tests(CASES, SPECS, NOT_DRAWN, NOT_FOLLOWED)


PREFIXED = """\
    def register_search(mcp, prefix: str = "kb_") -> None:
        @mcp.tool(name=f"{prefix}search")
        def search(query: str) -> str:
            return query


    def register_find(mcp, prefix: str = "kb_") -> None:
        @mcp.tool(name=f"{prefix}find")
        def find(query: str) -> str:
            return query
    """
"""Two registrars naming their tool from a `prefix` parameter with a default (case 5's shape)."""

PREFIX_CALLS: dict[str, tuple[str, tuple[str, str], bool]] = {
    "each with its default, the second named as the first": (
        "register_search(mcp)\nregister_find(mcp)\n",
        ('{prefix}find"', '{prefix}search"'),
        True,
    ),
    "each with its default, named apart": ("register_search(mcp)\nregister_find(mcp)\n", ("", ""), False),
    "one passed a prefix making the other's name": (
        'register_search(mcp)\nregister_find(mcp, "kb_sea")\n',
        ('{prefix}find"', '{prefix}rch"'),
        True,
    ),
    "one passed another prefix": (
        'register_search(mcp)\nregister_find(mcp, prefix="docs_")\n',
        ('{prefix}find"', '{prefix}search"'),
        False,
    ),
    "the same registrar called twice with one prefix": (
        "register_search(mcp)\nregister_search(mcp)\nregister_find(mcp)\n",
        ("", ""),
        True,
    ),
    "one passed options that may hold a prefix (not read, not compared)": (
        'OPTIONS = {"prefix": "docs_"}\nregister_search(mcp)\nregister_find(mcp, **OPTIONS)\n',
        ('{prefix}find"', '{prefix}search"'),
        False,
    ),
    "the same registrar called twice with two prefixes": (
        'register_search(mcp, "a_")\nregister_search(mcp, "b_")\nregister_find(mcp)\n',
        ("", ""),
        False,
    ),
}
"""How the server module calls the two registrars, what is replaced in their text, and
whether the SDK drops a duplicate."""


@pytest.mark.parametrize("case", sorted(PREFIX_CALLS))
def test_a_name_built_from_a_registrar_s_prefix_is_the_sdk_s(tmp_path: Path, case: str) -> None:
    """`@mcp.tool(name=f"{prefix}search")` in `def register_search(mcp, prefix="kb_")` is
    named by what each call passes (or the default): a duplicate the SDK drops is MCPD110,
    two names it keeps apart are none."""
    calls, (old, new), expected = PREFIX_CALLS[case]
    files = {
        "app/__init__.py": "",
        "app/tools.py": textwrap.dedent(PREFIXED).replace(old, new),
        "app/main.py": "from mcp.server import MCPServer\n\nfrom app.tools import register_find, register_search\n\n"
        'mcp = MCPServer("kb")\n' + calls,
    }
    write_files(tmp_path, {**PYPROJECT, **files})
    dropped = bool(duplicates_logged(tmp_path, {}))
    assert dropped == expected
    for given in (["."], ["app/tools.py"], ["app/main.py"]):
        assert [d["code"] for d in found(tmp_path, given)] == (["MCPD110"] if dropped else []), given
