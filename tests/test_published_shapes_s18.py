"""Registration shapes of published servers the s9-s17 surveys did not hold (s18), each rebuilt
in the 2.3 API as a whole small server in a valid twin and a twin with one planted mistake,
checked against the SDK started as the author starts it (`published_servers.Server`):

- keyword arguments unpacked into `add_tool` from dicts written out (`mcp.add_tool(**config)`
  over a list of them), and from a record's `asdict` in its own `register(mcp)`;
- keyword arguments looked up per function (`mcp.add_tool(fn, **TOOL_META.get(...))`), built
  per record in the registering loop (`mcp.tool(**kwargs)(spec["func"])`), a dict of annotations
  (`mcp.tool(**READ)`) and a flag-gated decorator factory forwarding its `**kw` to `tool()`;
- closures made per value of a loop, named by a `__name__` assignment in the factory (no
  `name=`), or by `name=spec.name` of a record list filtered by an enabled-module setting;
- a registry filled by `__init_subclass__`, each subclass's staticmethod added by a loop;
- a dict comprehension applying `mcp.tool(name=...)` to each entry of a dict of handlers;
- toolsets in a dict of lists, the groups an environment variable names registered;
- registrars handed to a loader in a list, each called with the server in its loop.

The repositories named in the comments are where each structure was learnt; no code of theirs
is here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import write_files
from mcpdeps.lint_rules import slice_plan
from published_servers import PYPROJECT, Server, mod, plant, run_sdk, server_tests
from published_shapes import found
from test_published_shapes_s17 import CASES as S17
from test_published_shapes_s17 import TENANT

TOOLS = mod(
    """\

    from app.deps import Tenant


    def search(query: str, tenant: Tenant) -> str:
        return f"{tenant}:{query}"


    def fetch(doc_id: str, tenant: Tenant) -> str:
        return f"{tenant}:{doc_id}"


    def stats(detail: bool) -> str:
        return str(detail)
    """
)
"""`app/tools.py`: three plain tool functions, registered by the server module."""

ENTRY = "import app.server\n\nserver = app.server.mcp\n"

HANDED = S17["registrars handed to a helper that calls each with the server, under try/except ImportError"]
"""The s17 round's toolsets registered by a helper each is handed to (`loader(mcp)`)."""

BASE = {"app/__init__.py": "", "app/deps.py": TENANT, "app/tools.py": TOOLS}

CASES: dict[str, Server] = {}

UNLISTED: dict[str, Server] = {}
"""Shapes whose tools lint cannot list: it says so (MCPD113) on both twins, never silent."""

# A published agentic framework's `my_mcp/tools/__init__.py` (the index does not name its
# repository) builds `tool_config = {"name": ..., "description": ..., "fn": obj}` per function
# and calls `mcp.add_tool(**tool_config)`. Here the configs are written out in a list. Planted:
# the second config given the first one's name: the SDK drops the second tool.
CASES["add_tool(**config) over a list of dicts written out"] = Server(
    files={
        **BASE,
        "app/server.py": """\
            from mcp.server import MCPServer

            from app.tools import fetch, search, stats

            mcp = MCPServer("docs")

            TOOL_CONFIGS = [
                {"fn": search, "name": "docs_search", "description": "Search the documents"},
                {"fn": fetch, "name": "docs_fetch"},
                {"fn": stats},
            ]

            for config in TOOL_CONFIGS:
                mcp.add_tool(**config)
            """,
    },
    start=ENTRY,
    planted=("app/server.py", '"name": "docs_fetch"', '"name": "docs_search"'),
    expected=[("app/server.py", "MCPD110")],
    dropped=True,
)

# A published server's `MCPRouter` dataclass (fn, name, title, description, annotations,
# structured_output) whose `register(self, mcp)` calls `mcp.add_tool(**self.as_dict())`, with
# `as_dict` returning `dataclasses.asdict(self)`. Planted: the tenant resolver's `ctx` left
# without its `Context` annotation (R2).
UNLISTED["dataclass route whose register(mcp) unpacks asdict(self) into add_tool"] = Server(
    files={
        **BASE,
        "app/routes.py": """\
            from collections.abc import Callable
            from dataclasses import asdict, dataclass

            from mcp.server import MCPServer


            @dataclass
            class ToolRoute:
                fn: Callable[..., object]
                name: str | None = None
                description: str | None = None

                def as_dict(self) -> dict[str, object]:
                    return asdict(self)

                def register(self, mcp: MCPServer) -> None:
                    mcp.add_tool(**self.as_dict())
            """,
        "app/server.py": """\
            from mcp.server import MCPServer

            from app.routes import ToolRoute
            from app.tools import fetch, search

            mcp = MCPServer("docs")

            ROUTES = [ToolRoute(search, name="docs_search"), ToolRoute(fetch, description="Fetch one")]

            for route in ROUTES:
                route.register(mcp)
            """,
    },
    start=ENTRY,
    planted=("app/deps.py", "ctx: Context", "ctx"),
    expected=[("app/deps.py", "MCPD002"), ("app/deps.py", "MCPD002")],
    refused="Resolver 'current_tenant' parameter 'ctx' cannot be resolved",
)

# A published server registering each function with options kept per name in a dict
# (`add_tool(fn, **TOOL_OPTIONS.get(fn.__name__, {}))`), the options renaming some tools.
# Planted: fetch's options given search's new name: the SDK drops fetch.
CASES["add_tool(fn, **OPTIONS.get(fn.__name__, {})) in a loop over functions"] = Server(
    files={
        **BASE,
        "app/server.py": """\
            from mcp.server import MCPServer

            from app.tools import fetch, search, stats

            mcp = MCPServer("docs")

            TOOL_OPTIONS = {
                "search": {"name": "docs_search", "title": "Search"},
                "fetch": {"name": "docs_fetch"},
            }

            for fn in (search, fetch, stats):
                mcp.add_tool(fn, **TOOL_OPTIONS.get(fn.__name__, {}))
            """,
    },
    start=ENTRY,
    planted=("app/server.py", '"fetch": {"name": "docs_fetch"}', '"fetch": {"name": "docs_search"}'),
    expected=[("app/server.py", "MCPD110")],
    dropped=True,
)

# Published SAP Ariba and Salesforce servers' `register_tools(mcp)`: for each spec dict of a
# list, `kwargs = {"name": spec["name"], "description": spec["summary"]}`, annotations added
# when the spec has them, then `mcp.tool(**kwargs)(spec["func"])`. Planted: the second spec
# given the first one's name: the SDK drops it.
CASES["tool(**kwargs)(spec['func']) with kwargs built per spec dict in the loop"] = Server(
    files={
        **BASE,
        "app/server.py": """\
            from mcp.server import MCPServer
            from mcp.types import ToolAnnotations

            from app.tools import fetch, search

            mcp = MCPServer("docs")

            TOOL_SPECS = [
                {"name": "docs_search", "summary": "Search", "func": search},
                {"name": "docs_fetch", "summary": "Fetch", "func": fetch, "read_only": True},
            ]

            for spec in TOOL_SPECS:
                kwargs: dict = {"name": spec["name"], "description": spec["summary"]}
                if spec.get("read_only"):
                    kwargs["annotations"] = ToolAnnotations(readOnlyHint=True)
                mcp.tool(**kwargs)(spec["func"])
            """,
    },
    start=ENTRY,
    planted=("app/server.py", '{"name": "docs_fetch"', '{"name": "docs_search"'),
    expected=[("app/server.py", "MCPD110")],
    dropped=True,
)

# A published Bing Webmaster server: read tools under `@mcp.tool(**READ)` (a dict of
# annotations), mutating ones under `@mutating_tool(name=...)`, a factory whose decorator returns
# `fn if READ_ONLY else mcp.tool(**kw)(fn)`, the flag read from the environment (off by default).
# Planted: the batch submission given the single one's name: the SDK drops it.
CASES["tool(**READ) and a flag-gated factory forwarding **kw to tool()"] = Server(
    files={
        **BASE,
        "app/server.py": """\
            import os

            from mcp.server import MCPServer
            from mcp.types import ToolAnnotations

            from app.tools import search

            mcp = MCPServer("webmaster")
            READ_ONLY = os.getenv("WEBMASTER_READ_ONLY", "false") == "true"
            READ = {"annotations": ToolAnnotations(readOnlyHint=True)}


            def mutating_tool(**kw):
                def deco(fn):
                    return fn if READ_ONLY else mcp.tool(**kw)(fn)

                return deco


            mcp.tool(**READ)(search)


            @mutating_tool(name="submit_url", description="Submit one URL")
            def submit(url: str) -> str:
                return url


            @mutating_tool(name="submit_urls")
            def submit_batch(urls: list[str]) -> str:
                return ",".join(urls)
            """,
    },
    start=ENTRY,
    planted=("app/server.py", '@mutating_tool(name="submit_urls")', '@mutating_tool(name="submit_url")'),
    expected=[("app/server.py", "MCPD110")],
    dropped=True,
)

# A published server (ProjectMind; a sandboxing EDA server) making one closure per name of a
# constant list in a factory that sets `tool.__name__ = tool_name`, then `mcp.tool()(...)` with
# no name: the SDK names each tool after the assigned `__name__`. Planted: the assignment
# replaced by a docstring's: every closure is `read`, the SDK drops the second.
CASES["closure per table from a factory assigning __name__, tool() without a name"] = Server(
    files={
        **BASE,
        "app/server.py": mod(
            """\

            from mcp.server import MCPServer

            from app.deps import Tenant

            mcp = MCPServer("tables")

            TABLES = ("users", "orders")


            def make_reader(table: str):
                def read(limit: int, tenant: Tenant) -> str:
                    return f"{tenant}:{table}:{limit}"

                read.__name__ = f"read_{table}"
                return read


            for table in TABLES:
                mcp.tool()(make_reader(table))
            """
        ),
    },
    start=ENTRY,
    planted=("app/server.py", 'read.__name__ = f"read_{table}"', 'read.__doc__ = f"Read {table}"'),
    expected=[("app/server.py", "MCPD110")],
    dropped=True,
)

# A published Microsoft 365 server's `register_catalog_tools(mcp, services, runner)`: a list of
# spec records, `if spec.module not in enabled_modules: continue`, then
# `mcp.tool(name=spec.name, ...)(_handler(spec, ...))`, `_handler` returning an async closure.
# Planted: the tenant resolver's `ctx` without its annotation (R2).
CASES["spec records filtered by enabled modules, tool(name=spec.name)(handler(spec))"] = Server(
    files={
        **BASE,
        "app/catalog.py": mod(
            """\

            import os
            from typing import NamedTuple

            from mcp.server import MCPServer

            from app.deps import Tenant


            class Spec(NamedTuple):
                name: str
                module: str
                path: str


            SPECS = [
                Spec("list_users", "users", "/users"),
                Spec("list_messages", "mail", "/me/messages"),
            ]

            ENABLED = set(os.environ.get("M365_MODULES", "users,mail").split(","))


            def _handler(spec: Spec):
                async def handler(top: int, tenant: Tenant) -> str:
                    return f"{tenant}:{spec.path}:{top}"

                return handler


            def register_catalog(mcp: MCPServer) -> None:
                for spec in SPECS:
                    if spec.module not in ENABLED:
                        continue
                    mcp.tool(name=spec.name, description=f"GET {spec.path}")(_handler(spec))
            """
        ),
        "app/server.py": """\
            from mcp.server import MCPServer

            from app.catalog import register_catalog

            mcp = MCPServer("m365")
            register_catalog(mcp)
            """,
    },
    start=ENTRY,
    planted=("app/deps.py", "ctx: Context", "ctx"),
    expected=[("app/deps.py", "MCPD002")],  # both tools are one def: one diagnostic names both
    refused="Resolver 'current_tenant' parameter 'ctx' cannot be resolved",
)

# Registries filled by `__init_subclass__` (a web agent's `BaseAction` registering each
# subclass by its `type`; tool base classes of published servers): each subclass of `ToolBase`
# is appended to `ToolBase.registry` when its class statement runs, and the server module adds
# each one's staticmethod `run` under its `name`. Planted: the tenant resolver's `ctx` without
# its annotation (R2).
UNLISTED["subclasses collected by __init_subclass__, each one's staticmethod added"] = Server(
    files={
        **BASE,
        "app/base.py": """\
            class ToolBase:
                name: str = ""
                registry: list[type["ToolBase"]] = []

                def __init_subclass__(cls, **kwargs: object) -> None:
                    super().__init_subclass__(**kwargs)
                    ToolBase.registry.append(cls)
            """,
        "app/kinds.py": mod(
            """\

            from app.base import ToolBase
            from app.deps import Tenant


            class SearchTool(ToolBase):
                name = "search"

                @staticmethod
                def run(query: str, tenant: Tenant) -> str:
                    return f"{tenant}:{query}"


            class FetchTool(ToolBase):
                name = "fetch"

                @staticmethod
                def run(doc_id: str, tenant: Tenant) -> str:
                    return f"{tenant}:{doc_id}"
            """
        ),
        "app/server.py": """\
            from mcp.server import MCPServer

            import app.kinds  # noqa: F401
            from app.base import ToolBase

            mcp = MCPServer("docs")

            for tool_cls in ToolBase.registry:
                mcp.add_tool(tool_cls.run, name=tool_cls.name)
            """,
    },
    start=ENTRY,
    planted=("app/deps.py", "ctx: Context", "ctx"),
    expected=[("app/deps.py", "MCPD002"), ("app/deps.py", "MCPD002")],
    refused="Resolver 'current_tenant' parameter 'ctx' cannot be resolved",
)

# A published server keeping its handlers in a dict by tool name and registering them in a
# dict comprehension that also keeps what `tool()` returns:
# `REGISTERED = {name: mcp.tool(name=name)(fn) for name, fn in HANDLERS.items()}`. Planted: the
# tenant resolver's `ctx` without its annotation (R2).
CASES["dict comprehension applying tool(name=name) to each handler of a dict"] = Server(
    files={
        **BASE,
        "app/server.py": """\
            from mcp.server import MCPServer

            from app.tools import fetch, search

            mcp = MCPServer("docs")

            HANDLERS = {"docs_search": search, "docs_fetch": fetch}
            REGISTERED = {name: mcp.tool(name=name)(fn) for name, fn in HANDLERS.items()}
            """,
    },
    start=ENTRY,
    planted=("app/deps.py", "ctx: Context", "ctx"),
    expected=[("app/deps.py", "MCPD002"), ("app/deps.py", "MCPD002")],
    refused="Resolver 'current_tenant' parameter 'ctx' cannot be resolved",
)

# Toolsets (github-mcp-server's `--toolsets`, ported to Python servers reading
# `os.getenv("TOOLSETS", "...")`): a dict of lists of tool functions by group, the groups the
# variable names (every group by default) registered by a nested loop. Planted: the write
# group also lists `search`: the SDK drops it the second time.
UNLISTED["toolsets: a dict of lists by group, the groups an env variable names registered"] = Server(
    files={
        **BASE,
        "app/server.py": """\
            import os

            from mcp.server import MCPServer

            from app.tools import fetch, search, stats

            mcp = MCPServer("docs")

            TOOLSETS = {
                "read": [search, fetch],
                "admin": [stats],
            }

            for group in os.getenv("TOOLSETS", "read,admin").split(","):
                for fn in TOOLSETS[group]:
                    mcp.add_tool(fn)
            """,
    },
    start=ENTRY,
    planted=("app/server.py", '"admin": [stats]', '"admin": [stats, search]'),
    expected=[("app/server.py", "MCPD110")],
    dropped=True,
)

# A plugin loader of a published server (`load_all(mcp, loaders)`, each loader a module's
# `register_tools(mcp)`, the list written out in the server module's call), the s17 round's
# `_register_toolset(name, loader)` called once with every registrar instead of once each (its
# toolsets reused). Planted: the pdf toolset registers its reader under the csv one's name: the
# SDK drops it.
CASES["registrars handed to a loader in a list, called in its loop with the server"] = Server(
    files={
        **BASE,
        "app/tools/__init__.py": "",
        **{path: HANDED.files[path] for path in ("app/tools/csv_tools.py", "app/tools/pdf_tools.py")},
        "app/loading.py": """\
            import logging
            from collections.abc import Callable, Sequence

            from mcp.server import MCPServer

            logger = logging.getLogger("loading")


            def load_all(mcp: MCPServer, loaders: Sequence[Callable[[MCPServer], None]]) -> None:
                for loader in loaders:
                    loader(mcp)
                    logger.info("loaded %s", loader.__module__)
            """,
        "app/server.py": """\
            from mcp.server import MCPServer

            from app.loading import load_all
            from app.tools import csv_tools, pdf_tools

            mcp = MCPServer("files")
            load_all(mcp, [csv_tools.register_tools, pdf_tools.register_tools])
            """,
    },
    start=ENTRY,
    planted=HANDED.planted,
    expected=[("app/tools/pdf_tools.py", "MCPD110")],
    dropped=True,
)

SPECS = {name: "app/server.py:mcp" for name in CASES}
"""The spec naming each valid twin's server for `graph`."""

(
    test_graph_of_the_valid_twin_is_what_graph_live_draws,
    test_sdk_starts_the_valid_twin_and_lint_reports_nothing,
    test_sdk_refuses_the_planted_twin_and_lint_reports_it,
    test_each_file_alone_reports_what_lint_dot_reports,
    test_the_editor_reports_what_lint_dot_reports,
) = server_tests(CASES, SPECS)


@pytest.mark.parametrize("planted", [False, True], ids=["valid", "planted"])
@pytest.mark.parametrize("case", sorted(UNLISTED))
def test_unlisted_tools_are_said_not_analysed_on_both_twins(tmp_path: Path, case: str, planted: bool) -> None:
    """The SDK starts the valid twin and refuses (or drops a tool of) the planted one; lint
    cannot list the tools the loop registers (a registry `__init_subclass__` fills, a dict
    subscripted by a value read from the environment, the fields a record's own method hands
    on through `asdict(self)`) and says so (MCPD113) on both twins,
    `lint .` and the registering file alone alike: never silent."""
    server = UNLISTED[case]
    write_files(tmp_path, {**PYPROJECT, **server.files})
    if planted:
        plant(tmp_path, server)
    ran = run_sdk(tmp_path, server)
    if planted and server.refused:
        assert ran.returncode != 0 and server.refused in ran.stderr, ran.stderr[-3000:]
    else:
        assert ran.returncode == 0, ran.stderr[-3000:]
        assert bool(json.loads(ran.stdout)["dropped"]) == (planted and server.dropped)
    whole = found(tmp_path, ["."])
    assert [d["code"] for d in whole] == ["MCPD113"], whole
    assert found(tmp_path, [str(whole[0]["path"])]) == whole


@pytest.mark.parametrize("case", sorted(CASES))
def test_workers_report_what_one_process_reports(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, case: str
) -> None:
    """`lint . -j 2` with a file per slice (every file checked in a worker, its callers built
    beside it) reports on the planted twin what one process reports."""
    monkeypatch.setattr(slice_plan, "MIN_FILES_PER_JOB", 1)
    monkeypatch.setattr(slice_plan, "MAX_FILES_PER_SLICE", 1)
    write_files(tmp_path, {**PYPROJECT, **CASES[case].files})
    plant(tmp_path, CASES[case])
    one = found(tmp_path, ["."])
    assert found(tmp_path, ["."], jobs=2) == one
