"""Registrations inside functions (issue 27): factories, helpers, closures, branching decorators.

The SDK is the oracle, both ways, in the same test: each case is imported here under the real
`mcp`, then started as its entry point would (the factory called, or the helper called with a
fresh `MCPServer`); the SDK raises its first registration error then, or the server's tools are
listed and called through the SDK's in-process `Client`. mcpdeps reads the same files without
running them: `lint` must report exactly the SDK's error (one per case, so the sets are equal),
and `graph` must list the tools the SDK registered with the SDK's published arguments.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import anyio
import pytest
from conftest import run_mcpdeps
from mcpdeps.lint_rules import lint, slice_plan
from mcpdeps.resolver_core import build_graph
from mcpdeps.resolver_core.graph_json import graph_document
from oracle.sdk_calls import sample_arguments
from oracle.sdk_verdicts import code_for

HEAD = (
    "from typing import Annotated\n\n"
    "from mcp.server import MCPServer\n"
    "from mcp.server.mcpserver import Context, Resolve\n\n"
)

Start = Callable[[ModuleType], Any]


@contextmanager
def imported(folder: Path) -> Iterator[ModuleType]:
    """The case's `server` module, imported with its folder first on `sys.path` (then forgotten)."""
    sys.modules.pop("server", None)  # another test's `server`, imported in this process
    before = set(sys.modules)
    sys.path.insert(0, str(folder))
    importlib.invalidate_caches()
    try:
        yield importlib.import_module("server")
    finally:
        sys.path.remove(str(folder))
        for name in set(sys.modules) - before:
            if getattr(sys.modules[name], "__file__", None) and str(folder) in sys.modules[name].__file__:
                del sys.modules[name]
        sys.modules.pop("server", None)


async def _schemas(server: Any) -> dict[str, list[str]]:
    """Each registered tool's published arguments, after one call of it succeeded."""
    from mcp import Client

    published = {}
    async with Client(server) as client:
        for tool in (await client.list_tools()).tools:
            result = await client.call_tool(tool.name, sample_arguments(tool.input_schema))
            assert not result.is_error, (tool.name, result.content)
            published[tool.name] = list(tool.input_schema.get("properties", {}))
    return published


def sdk_verdict(folder: Path, start: Start) -> tuple[str | None, dict[str, list[str]]]:
    """(the code of the SDK's registration error at start-up, or None; the tools' arguments)."""
    with contextlib.ExitStack() as stack:
        try:
            server = start(stack.enter_context(imported(folder)))
        except Exception as exc:  # at import (module level) or when the case starts
            code = code_for(exc)
            assert code is not None, f"an SDK error with no code: {exc!r}"
            return code, {}
        return None, anyio.run(_schemas, server)


def static_verdict(folder: Path) -> tuple[set[str], dict[str, list[str]]]:
    """mcpdeps' registration codes for the folder, and the arguments `graph` lists per tool."""
    codes = {d.code for d in lint([folder], cwd=folder).diagnostics if d.code.startswith("MCPD0")}
    document = graph_document(build_graph([folder / "server.py"], cwd=folder))
    return codes, {t["name"]: t["arguments"] for s in document["servers"] for t in s["tools"]}


def write(folder: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    return folder


FACTORY_CLOSURES = HEAD + (
    'SEARCH = "search_books"\n\n\n'
    "def build_server(*, shelf: dict[str, int]) -> MCPServer:\n"
    '    mcp = MCPServer("Books")\n\n'
    "    def stock() -> dict[str, int]:\n"
    "        return shelf\n\n"
    "    def count(title: str, books: Annotated[dict[str, int], Resolve(stock)]) -> int:\n"
    "        return books.get(title, 0)\n\n"
    "    Count = Annotated[int, Resolve(count)]\n\n"
    "    @mcp.tool(name=SEARCH)\n"
    "    def search(title: str, n: Count) -> str:\n"
    '        return f"{title}: {n}"\n\n'
    "    def reserve(title: str, n: Count, ctx: Context) -> bool:\n"
    "        return n > 0\n\n"
    '    mcp.add_tool(reserve, name="reserve_book")\n'
    "    return mcp\n"
)

CASES: dict[str, tuple[dict[str, str], Start]] = {
    "factory with closures (valid)": (
        {"server.py": FACTORY_CLOSURES},
        lambda m: m.build_server(shelf={"Dune": 2}),
    ),
    "factory, closure needs an unknown parameter (R2)": (
        {"server.py": FACTORY_CLOSURES.replace("def stock() ->", "def stock(region: str) ->")},
        lambda m: m.build_server(shelf={}),
    ),
    "local marker alias, resolver in a closure of the helper (R2)": (
        {
            "server.py": HEAD
            + "def register(server: MCPServer) -> None:\n"
            + "    def who(user_id: int) -> str:\n        return str(user_id)\n\n"
            + "    Who = Annotated[str, Resolve(who)]\n\n"
            + "    @server.tool()\n    def greet(user: str, name: Who) -> str:\n        return name\n"
        },
        lambda m: m.register(m.MCPServer()),
    ),
    "factory of a subclass (T2)": (
        {
            "server.py": HEAD
            + "class Shop(MCPServer):\n    pass\n\n\n"
            + "def make():\n    shop = Shop('s')\n\n"
            + "    @shop.tool()\n    def buy(item: str, _coupon: str = '') -> str:\n        return item\n\n"
            + "    return shop\n"
        },
        lambda m: m.make(),
    ),
    "untyped helper of another module, called from the factory (R3)": (
        {
            "server.py": "from mcp.server import MCPServer\n\nimport extra\n\n\n"
            "def create() -> MCPServer:\n    app = MCPServer('x')\n    extra.add_tools(app)\n    return app\n",
            "extra.py": HEAD
            + "def today() -> str:\n    return 'now'\n\n\n"
            + "def add_tools(mcp):\n    @mcp.tool()\n"
            + "    def log(text: str, day: Annotated[str, Resolve(today)] | None = None) -> str:\n"
            + "        return text\n",
        },
        lambda m: m.create(),
    ),
    "helpers in a loop over modules, through a pass-through helper (valid)": (
        {
            "server.py": "from mcp.server import MCPServer\n\nimport a\nimport b\n\n\n"
            "def install(server):\n    for module in (a, b):\n        module.register(server)\n\n\n"
            "def create() -> MCPServer:\n    mcp = MCPServer('x')\n    install(mcp)\n    return mcp\n",
            "a.py": HEAD
            + "def owner(name: str) -> str:\n    return name\n\n\n"
            + "def register(server: MCPServer[dict]) -> None:\n    @server.tool()\n"
            + "    def who(name: str, o: Annotated[str, Resolve(owner)]) -> str:\n        return o\n",
            "b.py": HEAD
            + "def register(server) -> None:\n    server.add_tool(lambda city: city.upper(), name='shout')\n",
        },
        lambda m: m.create(),
    ),
    "library helper nobody calls, given a fresh server (T3)": (
        {
            "server.py": HEAD
            + "def register(server: MCPServer) -> None:\n    @server.tool()\n"
            + "    def plan(day: 'Day') -> str:\n        return 'x'\n"
        },
        lambda m: m.register(m.MCPServer()),
    ),
    "registration in a branch that runs (T2)": (
        {
            "server.py": HEAD
            + "def build(debug: bool = False) -> MCPServer:\n    mcp = MCPServer('x')\n"
            + "    if debug:\n        @mcp.tool()\n        def dump(_all: bool) -> str:\n            return ''\n"
            + "    return mcp\n"
        },
        lambda m: m.build(debug=True),
    ),
}

BRANCHING = (
    "import functools\nimport inspect\n" + HEAD + "mcp = MCPServer('w')\n\n\n"
    "def traced(fn):\n"
    "    if inspect.iscoroutinefunction(fn):\n"
    "        @functools.wraps(fn)\n"
    "        async def awrapper(*args, **kwargs):\n            return await fn(*args, **kwargs)\n"
    "        return awrapper\n"
    "    else:\n"
    "        @functools.wraps(fn)\n"
    "        def wrapper(*args, **kwargs):\n            return fn(*args, **kwargs)\n"
    "        return wrapper\n\n\n"
    "@traced\nasync def account(user: str) -> str:\n    return user\n\n\n"
    "@traced\ndef plan(acct: Annotated[str, Resolve(account)]) -> str:\n    return acct\n\n\n"
    "@mcp.tool()\nasync def balance(user: str, p: Annotated[str, Resolve(plan)]) -> str:\n    return p\n"
)
CASES["decorator branching on iscoroutinefunction (valid)"] = ({"server.py": BRANCHING}, lambda m: m.mcp)
CASES["decorator branching on iscoroutinefunction (R2 behind it)"] = (
    {"server.py": BRANCHING.replace("async def account(user: str)", "async def account(user_id: int)")},
    lambda m: m.mcp,
)


@pytest.mark.parametrize("case", list(CASES))
def test_static_verdict_is_the_sdks_at_start_up(case: str, tmp_path: Path) -> None:
    files, start = CASES[case]
    folder = write(tmp_path, files)
    sdk_code, sdk_tools = sdk_verdict(folder, start)
    codes, graph_tools = static_verdict(folder)
    assert codes == ({sdk_code} if sdk_code else set())
    if sdk_code is None:
        assert sdk_tools, "the case registers no tool"
        assert {name: graph_tools.get(name) for name in sdk_tools} == sdk_tools


def test_graph_draws_a_factorys_tools(tmp_path: Path) -> None:
    write(tmp_path, {"server.py": FACTORY_CLOSURES})
    done = run_mcpdeps("graph", "server.py", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "search_books" in done.stdout and "reserve_book" in done.stdout
    assert "← count" in done.stdout and "← stock" in done.stdout


def test_lint_of_the_factory_file_alone_reaches_a_helper_module(tmp_path: Path) -> None:
    """pre-commit passes only the changed file: the helper it calls is read anyway."""
    files, _ = CASES["untyped helper of another module, called from the factory (R3)"]
    write(tmp_path, {"pyproject.toml": "[project]\nname = 'p'\nversion = '0'\n", **files})
    done = run_mcpdeps("lint", "--format", "json", "--no-cache", "server.py", cwd=tmp_path)
    found = [(d["code"], d["path"], d["tool"]) for d in json.loads(done.stdout)["diagnostics"]]
    assert found == [("MCPD003", "extra.py", "log")]


def test_registrations_it_cannot_follow_are_named(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "server.py": HEAD
            + "from plugins import PLUGINS\n\nmcp = MCPServer('p')\n\n\n"
            + "def price(title: str) -> float:\n    return 1.0\n\n\n"
            + "def quote(title: str, amount: float) -> str:\n    return title\n\n\n"
            + "quote.__annotations__['amount'] = Annotated[float, Resolve(price)]\n"
            + "mcp.add_tool(quote)\n\n"
            + "for plugin in PLUGINS:\n    mcp.add_tool(plugin)\n\n\n"
            + "def register_more(app):\n    @app.tool()\n    def more(x: int) -> int:\n        return x\n",
            "plugins.py": "PLUGINS = []\n",
        },
    )
    found = [(d.code, d.severity, d.tool, d.line) for d in lint([tmp_path], cwd=tmp_path).diagnostics]
    assert found == [
        ("MCPD113", "info", "quote", 20),
        ("MCPD113", "info", None, 23),
        ("MCPD113", "info", "more", 27),
    ]


BRANCHES = HEAD + (
    "def build(fast: bool) -> MCPServer:\n"
    "    mcp = MCPServer('x')\n"
    "    if fast:\n"
    "        @mcp.tool()\n        def search(query: str) -> str:\n            return query\n"
    "    else:\n"
    "        @mcp.tool()\n        def search(query: str, limit: int = 10) -> str:\n            return query\n"
    "    @mcp.tool(name='search')\n    def again(query: str) -> str:\n        return query\n\n"
    "    return mcp\n"
)


@pytest.mark.parametrize("fast", [True, False])
def test_tools_in_two_arms_of_one_if_are_no_duplicates(fast: bool, tmp_path: Path) -> None:
    """Each start registers one `search` of the two arms (the SDK drops the later `again`):
    MCPD110 only for `again`, never between the arms, whichever arm runs."""
    folder = write(tmp_path, {"server.py": BRANCHES})
    assert sdk_verdict(folder, lambda m: m.build(fast))[1] == {
        "search": ["query"] if fast else ["query", "limit"]
    }
    found = [(d.code, d.line) for d in lint([folder], cwd=folder).diagnostics]
    assert found == [("MCPD110", 16)]


def test_lint_of_the_factory_file_is_the_same_cached_and_after_an_edit(tmp_path: Path) -> None:
    """The helper's verdict reaches `lint server.py` from the cache too, and follows its edits."""
    files, _ = CASES["untyped helper of another module, called from the factory (R3)"]
    write(tmp_path, {"pyproject.toml": "[project]\nname = 'p'\nversion = '0'\n", **files})

    def codes(*args: str) -> list[tuple[str, str]]:
        done = run_mcpdeps("lint", "--format", "json", "--exit-zero", *args, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        return [(d["code"], d["path"]) for d in json.loads(done.stdout)["diagnostics"]]

    everything = codes("--no-cache", ".")
    assert everything == [("MCPD003", "extra.py")]
    assert codes("server.py") == everything  # fills the cache
    assert codes("server.py") == everything  # from the cache
    (tmp_path / "extra.py").write_text(files["extra.py"].replace("| None = None", ""), encoding="utf-8")
    assert codes("server.py") == [] == codes("--no-cache", "server.py")


def test_slices_see_what_one_build_sees(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A factory and its helpers in different slices of a large run: the same findings."""

    files, _ = CASES["helpers in a loop over modules, through a pass-through helper (valid)"]
    broken = files["a.py"].replace("def owner(name: str)", "def owner(user_id: int)")
    write(tmp_path, {**files, "a.py": broken, "c.py": files["a.py"].replace("who", "whom")})

    def found() -> list[tuple[str, str, int, str | None]]:
        return [
            (d.code, Path(d.path).name, d.line, d.tool) for d in lint([tmp_path], cwd=tmp_path).diagnostics
        ]

    whole = found()
    assert whole == [("MCPD002", "a.py", 6, "who")]
    monkeypatch.setattr(slice_plan, "MAX_FILES_PER_SLICE", 1)
    assert found() == whole
