"""Resolvers in the shapes published servers write them, checked against the SDK itself.

The s9-s11 surveys rebuilt how published servers *register* tools; this one rebuilds what
their `Resolve(...)` markers name and where tools live: a resolver module imported under an
alias, static and class methods, a method of an object made in the marker
(`Resolve(Deps().load_d)`) or handed out by a getter, closures a factory makes, dependency
aliases (`D = Annotated[str, Resolve(load_d)]`) imported from other modules, dataclasses,
lambdas and partials as resolvers, a resolver handed to the registering helper with the
server (`register_tools(mcp, resolve_login=load_d)`), tool methods of frozen dataclasses,
servers imported through an `ImportError` fallback, script folders put on `sys.path`... Each project's tool
runs a resolver the SDK refuses (`nope` is no tool argument); `published_shapes.check_both_ways`
says what each must do: the SDK (run as the server starts) refuses it and lint reports
MCPD002 in the resolver's file, `lint .` and `lint FILE` alike; with the clean resolver both
accept it. A resolver that is no plain function says how the SDK names it and how it is made
clean (`METHOD`, `NESTED`, `FIELD`, `LAMBDA`).
"""

from __future__ import annotations

from pathlib import Path

import published_shapes
import pytest
from published_shapes import CLEAN, PROJECT, REFUSED, check_both_ways, entry_point, found, write_files

Case = tuple[dict[str, str], str, str, str, tuple[str, str]]

BAD = CLEAN[0] + "\n"
"""The refused resolver, a plain function at module level."""

METHOD = (
    "def load_d(self, nope: str) -> str:\n        return nope",
    "def load_d(self, x: int) -> str:\n        return str(x)",
)
"""A refused method resolver (in a class body) and its clean twin."""

NESTED = (
    "def load_d(nope: str) -> str:\n        return nope",
    "def load_d(x: int) -> str:\n        return str(x)",
)
"""The refused resolver indented once (a staticmethod, a closure), and its clean twin."""

HEAD = "from typing import Annotated\n\nfrom mcp.server import MCPServer\nfrom mcp.server.mcpserver import Resolve\n"

DEPS_ALIAS = (
    "from typing import Annotated\n\nfrom mcp.server.mcpserver import Resolve\n\n\n"
    + BAD
    + "\n\nD = Annotated[str, Resolve(load_d)]\n"
)
"""A module defining the refused resolver and the dependency alias `D` naming it."""


def server_module(imports: str, target: str, before: str = "") -> str:
    """A module binding a server `mcp` and registering `t`, whose `d` is resolved by `target`
    (`imports` say where it comes from; `before` runs before the server is made)."""
    return (
        HEAD
        + imports
        + before
        + '\nmcp = MCPServer("x")\n\n\n@mcp.tool()\n'
        + f"def t(x: int, d: Annotated[str, Resolve({target})]) -> str:\n    return d\n"
    )


def alias_tool(imports: str, annotation: str = "D") -> str:
    """A module binding a server `mcp` and registering `t`, whose `d` is annotated with a
    dependency alias (`annotation`) imported by `imports`."""
    return (
        f'from mcp.server import MCPServer\n\n{imports}\nmcp = MCPServer("x")\n\n\n@mcp.tool()\n'
        f"def t(x: int, d: {annotation}) -> str:\n    return d\n"
    )


def resolver_case(deps: str, tool: str, refused_with: str = REFUSED, clean: tuple[str, str] = CLEAN) -> Case:
    """`app/deps.py` holding the refused resolver, `app/main.py` the server using it."""
    return {"app/deps.py": deps, "app/main.py": tool}, "import app.main", "app/deps.py", refused_with, clean


def context_case(annotation: str, imports: str, types: str) -> Case:
    """A resolver whose `ctx` is annotated `annotation` (imported by `imports` from a project
    module `app/types.py` holding `types`): a Context, so only `nope` is refused."""
    deps = imports + "\n\ndef load_d(ctx: " + annotation + ", nope: str) -> str:\n    return nope\n"
    case = resolver_case(deps, server_module("\nfrom app.deps import load_d\n", "load_d"))
    case[0]["app/types.py"] = types
    return (
        case[0],
        case[1],
        case[2],
        REFUSED,
        ("nope: str) -> str:\n    return nope", "x: int) -> str:\n    return str(x)"),
    )


KIT = """\
class Kit:
    @staticmethod
    def load_d(nope: str) -> str:
        return nope

    def t(self, x: int, d: Annotated[str, Resolve(load_d)]) -> str:
        return d
"""
"""A tool method whose resolver is a staticmethod of its own class body: the SDK evaluates
the method's annotations there, where `load_d` is defined."""

CASES: dict[str, Case] = {
    "a resolver module imported under an alias": resolver_case(
        BAD, server_module("\nimport app.deps as dm\n", "dm.load_d")
    ),
    "a staticmethod resolver named through its class": resolver_case(
        "class Deps:\n    @staticmethod\n    " + NESTED[0] + "\n",
        server_module("\nfrom app.deps import Deps\n", "Deps.load_d"),
        clean=NESTED,
    ),
    "a classmethod resolver named through its class": resolver_case(
        "class Deps:\n    @classmethod\n    def load_d(cls, nope: str) -> str:\n        return nope\n",
        server_module("\nfrom app.deps import Deps\n", "Deps.load_d"),
        clean=(
            "load_d(cls, nope: str) -> str:\n        return nope",
            "load_d(cls, x: int) -> str:\n        return str(x)",
        ),
    ),
    "a method of a module-level instance, inherited from a base in another module": (
        {
            "app/base.py": "class Base:\n    " + METHOD[0] + "\n",
            "app/deps.py": "from app.base import Base\n\n\nclass Deps(Base):\n    pass\n\n\ndeps = Deps()\n",
            "app/main.py": server_module("\nfrom app.deps import deps\n", "deps.load_d"),
        },
        "import app.main",
        "app/base.py",
        REFUSED,
        METHOD,
    ),
    "a method of an instance made in the Resolve call": resolver_case(
        "class Deps:\n    def __init__(self, url: str) -> None:\n        self.url = url\n\n    "
        + METHOD[0]
        + "\n",
        server_module("\nfrom app.deps import Deps\n", 'Deps("u").load_d'),
        clean=METHOD,
    ),
    "a method of the instance a cached getter hands out": resolver_case(
        "import functools\n\n\nclass Deps:\n    "
        + METHOD[0]
        + "\n\n\n@functools.cache\ndef get_deps() -> Deps:\n    return Deps()\n",
        server_module("\nfrom app.deps import get_deps\n", "get_deps().load_d"),
        clean=METHOD,
    ),
    "a closure a factory makes, called with arguments in the marker": resolver_case(
        "def make_loader(label: str):\n    " + NESTED[0] + "\n\n    return load_d\n",
        server_module("\nfrom app.deps import make_loader\n", 'make_loader("a")'),
        clean=NESTED,
    ),
    "a resolver re-exported by a package __init__ star import": (
        {
            "app/deps/__init__.py": "from .users import *  # noqa: F403\n",
            "app/deps/users.py": BAD,
            "app/main.py": server_module("\nfrom app.deps import load_d\n", "load_d"),
        },
        "import app.main",
        "app/deps/users.py",
        REFUSED,
        CLEAN,
    ),
    "a TypeAlias dependency alias imported from another module": resolver_case(
        DEPS_ALIAS.replace("import Annotated", "import Annotated, TypeAlias").replace(
            "D =", "D: TypeAlias ="
        ),
        alias_tool("from app.deps import D\n"),
    ),
    "a dependency alias read as an attribute of its module": resolver_case(
        DEPS_ALIAS, alias_tool("from app import deps\n", "deps.D")
    ),
    "a resolver depending on an alias a third module defines": (
        {
            "app/deps.py": DEPS_ALIAS,
            "app/user.py": "from app.deps import D\n\n\ndef user(d: D) -> str:\n    return d\n",
            "app/main.py": server_module("\nfrom app.user import user\n", "user"),
        },
        "import app.main",
        "app/deps.py",
        REFUSED,
        CLEAN,
    ),
    "a resolver behind the project's own functools.wraps decorator": resolver_case(
        "import functools\n\n\ndef logged(fn):\n    @functools.wraps(fn)\n    def inner(*a, **k):\n"
        "        return fn(*a, **k)\n\n    return inner\n\n\n@logged\n" + BAD,
        server_module("\nfrom app.deps import load_d\n", "load_d"),
    ),
    "a resolver whose Context is a project alias of Context[State]": context_case(
        "Ctx",
        "from app.types import Ctx\n",
        "from dataclasses import dataclass\n\nfrom mcp.server.mcpserver import Context\n\n\n"
        "@dataclass\nclass State:\n    n: int\n\n\nCtx = Context[State]\n",
    ),
    "a resolver whose Context is a project subclass": context_case(
        "AppContext",
        "from app.types import AppContext\n",
        "from mcp.server.mcpserver import Context\n\n\nclass AppContext(Context):\n    pass\n",
    ),
    "a dataclass used as the resolver": resolver_case(
        "from dataclasses import dataclass\n\n\n@dataclass\nclass Query:\n    x: int\n    nope: str\n",
        server_module("\nfrom app.deps import Query\n", "Query"),
        "InvalidSignature: Resolver 'Query' parameter 'nope'",
        ("    nope: str\n", ""),
    ),
    "a lambda bound to a name in another module": resolver_case(
        "load_d = lambda nope: nope  # noqa: E731\n",
        server_module("\nfrom app.deps import load_d\n", "load_d"),
        "InvalidSignature: Resolver '<lambda>' parameter 'nope'",
        ("lambda nope: nope", "lambda x: x"),
    ),
    "a functools.partial resolver binding a setting": resolver_case(
        "import functools\n\n\ndef _load(prefix: str, nope: str) -> str:\n    return prefix + nope\n\n\n"
        'load_d = functools.partial(_load, "p")\n',
        server_module("\nfrom app.deps import load_d\n", "load_d"),
        "InvalidSignature: Resolver 'partial' parameter 'nope'",
        ("nope: str) -> str:\n    return prefix + nope", "x: int) -> str:\n    return prefix + str(x)"),
    ),
    "a resolver asking with Sample beside one asking with ListRoots": resolver_case(
        "from mcp.server.mcpserver import ListRoots, Sample\n\n\ndef roots() -> ListRoots:\n"
        '    return ListRoots()\n\n\ndef load_d(nope: str) -> Sample:\n    return Sample("hi", max_tokens=5)\n',
        HEAD.replace("import Annotated", "import Annotated, Any")
        + '\nfrom app.deps import load_d, roots\n\nmcp = MCPServer("x")\n\n\n@mcp.tool()\n'
        "def t(x: int, d: Annotated[Any, Resolve(load_d)], r: Annotated[Any, Resolve(roots)]) -> str:\n"
        "    return str(d)\n",
        clean=("load_d(nope: str)", "load_d(x: int)"),
    ),
    "a frozen dataclass tool object whose keyword-only method is added": (
        {
            "app/deps.py": DEPS_ALIAS,
            "app/tools.py": "from dataclasses import dataclass\n\nfrom app.deps import D\n\n\n"
            "@dataclass(frozen=True)\nclass Kit:\n    prefix: str\n\n"
            "    def t(self, x: int, *, d: D) -> str:\n        return self.prefix + d\n\n\n"
            'kit = Kit(prefix="p")\n',
            "app/main.py": entry_point("from app.tools import kit", "mcp.add_tool(kit.t)"),
        },
        "import app.main",
        "app/deps.py",
        REFUSED,
        CLEAN,
    ),
    "a tool method resolving a staticmethod of its class body, added on an instance": (
        {"app/main.py": HEAD + "\n\n" + KIT + '\n\nmcp = MCPServer("x")\nkit = Kit()\nmcp.add_tool(kit.t)\n'},
        "import app.main",
        "app/main.py",
        REFUSED,
        NESTED,
    ),
    "a tool method added on an instance made in the add_tool call": (
        {
            "app/deps.py": BAD,
            "app/main.py": HEAD + "\nfrom app.deps import load_d\n\n\nclass Kit:\n"
            "    def t(self, x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n        return d\n\n\n"
            'mcp = MCPServer("x")\nmcp.add_tool(Kit().t)\n',
        },
        "import app.main",
        "app/deps.py",
        REFUSED,
        CLEAN,
    ),
    "MCPServer imported through a try/except ImportError fallback": resolver_case(
        BAD,
        server_module(
            "\nfrom app.deps import load_d\n",
            "load_d",
        ).replace(
            "from mcp.server import MCPServer\n",
            "try:\n    from mcp.server import MCPServer\nexcept ImportError:\n"
            "    from mcp.server.mcpserver import MCPServer\n",
        ),
    ),
    "a helper typed MCPServer[None] under TYPE_CHECKING defining its tool inside": (
        {
            "app/deps.py": DEPS_ALIAS,
            "app/tools.py": "from __future__ import annotations\n\nfrom typing import TYPE_CHECKING\n\n"
            "from app.deps import D\n\nif TYPE_CHECKING:\n    from mcp.server import MCPServer\n\n\n"
            'def register(mcp: MCPServer[None], prefix: str) -> None:\n    @mcp.tool(name="t")\n'
            "    def _tool(x: int, d: D) -> str:\n        return prefix + d\n",
            "app/main.py": entry_point("from app.tools import register", 'register(mcp, "p")'),
        },
        "import app.main",
        "app/deps.py",
        REFUSED,
        CLEAN,
    ),
    "a script folder put on sys.path, its sibling modules imported flat": (
        {
            "server/deps.py": BAD,
            "server/tools.py": "from typing import Annotated\n\nfrom mcp.server.mcpserver import Resolve\n\n"
            "from deps import load_d\n\n\ndef t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n    return d\n",
            "server/main.py": "import os\nimport sys\n\nsys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))\n\n"
            "from mcp.server import MCPServer  # noqa: E402\n\nfrom tools import t  # noqa: E402\n\n"
            'mcp = MCPServer("x")\nmcp.add_tool(t)\n',
        },
        "import runpy; runpy.run_path('server/main.py', run_name='server_module')",
        "server/deps.py",
        REFUSED,
        CLEAN,
    ),
    "a dependency alias two packages up, imported relatively": (
        {
            "app/deps/__init__.py": "from typing import Annotated\n\nfrom mcp.server.mcpserver import Resolve\n\n"
            'from .users import load_d\n\nD = Annotated[str, Resolve(load_d)]\n\n__all__ = ["D"]\n',
            "app/deps/users.py": BAD,
            "app/tools/__init__.py": "",
            "app/tools/weather/__init__.py": "",
            "app/tools/weather/forecast.py": alias_tool("from ...deps import D\n"),
            "app/main.py": "import app.tools.weather.forecast  # noqa: F401\n",
        },
        "import app.main",
        "app/deps/users.py",
        REFUSED,
        CLEAN,
    ),
    "a tool made in __init__ resolving a method of an object self holds": resolver_case(
        "class Deps:\n    " + METHOD[0] + "\n",
        HEAD
        + "\nfrom app.deps import Deps\n\n\nclass Kit:\n    def __init__(self, mcp: MCPServer) -> None:\n"
        "        self.deps = Deps()\n\n        @mcp.tool()\n"
        "        def t(x: int, d: Annotated[str, Resolve(self.deps.load_d)]) -> str:\n            return d\n\n\n"
        'mcp = MCPServer("x")\nKit(mcp)\n',
        clean=METHOD,
    ),
}


PASSED_TOOLS = """\
    from collections.abc import Callable
    from typing import Annotated

    from mcp.server import MCPServer
    from mcp.server.mcpserver import Resolve


    def register_tools(mcp: MCPServer, *, resolve_login: Callable[..., str]) -> None:
        _register_t(mcp, resolve_login)


    def _register_t(mcp: MCPServer, resolve_login: Callable[..., str]) -> None:
        @mcp.tool(name="t")
        def t(x: int, login: Annotated[str, Resolve(resolve_login)]) -> str:
            return login
"""
"""A helper given the server and the resolver its tools use, passing both on to another."""

CASES["a resolver handed by keyword to the registering helper, passed on"] = (
    {
        "app/deps.py": BAD,
        "app/tools.py": PASSED_TOOLS,
        "app/main.py": entry_point(
            "from app.deps import load_d\n    from app.tools import register_tools",
            "register_tools(mcp, resolve_login=load_d)",
        ),
    },
    "import app.main",
    "app/deps.py",
    REFUSED,
    CLEAN,
)
CASES["a resolver handed to the registering helper from a build() function"] = (
    {
        "app/deps.py": BAD,
        "app/tools.py": PASSED_TOOLS,
        "app/main.py": "from mcp.server import MCPServer\n\nfrom app.deps import load_d\n"
        "from app.tools import register_tools\n\n\ndef build() -> MCPServer:\n"
        '    server = MCPServer("x")\n    register_tools(server, resolve_login=load_d)\n'
        "    return server\n\n\nmcp = build()\n",
    },
    "import app.main",
    "app/deps.py",
    REFUSED,
    CLEAN,
)

CASES["a kit class given the server and the resolver its tools use"] = (
    {
        "app/deps.py": BAD,
        "app/tools.py": "from typing import Annotated\n\nfrom mcp.server.mcpserver import Resolve\n\n\n"
        "class Kit:\n    def __init__(self, mcp, resolve_login) -> None:\n"
        '        @mcp.tool(name="t")\n'
        "        def t(x: int, login: Annotated[str, Resolve(resolve_login)]) -> str:\n"
        "            return login\n",
        "app/main.py": entry_point(
            "from app.deps import load_d\n    from app.tools import Kit", "Kit(mcp, load_d)"
        ),
    },
    "import app.main",
    "app/deps.py",
    REFUSED,
    CLEAN,
)
CASES["a resolver left to the registering helper's default"] = (
    {
        "app/deps.py": BAD,
        "app/tools.py": "from typing import Annotated\n\nfrom mcp.server.mcpserver import Resolve\n\n"
        "from app.deps import load_d\n\n\ndef register_tools(mcp, resolve_login=load_d) -> None:\n"
        '    @mcp.tool(name="t")\n'
        "    def t(x: int, login: Annotated[str, Resolve(resolve_login)]) -> str:\n        return login\n",
        "app/main.py": entry_point("from app.tools import register_tools", "register_tools(mcp)"),
    },
    "import app.main",
    "app/deps.py",
    REFUSED,
    CLEAN,
)


for _rewrap in ("functools.cache", "functools.lru_cache(maxsize=None)"):
    CASES[f"a resolver rebound to {_rewrap} of itself"] = resolver_case(
        f"import functools\n\n\n{BAD}\n\nload_d = {_rewrap}(load_d)\n",
        server_module("\nfrom app.deps import load_d\n", "load_d"),
    )

CASES["a resolver rebound to a wrapper of itself made without functools.wraps"] = resolver_case(
    "def timed(fn):\n    def inner(nope: str) -> str:\n        return str(fn)\n\n    return inner\n\n\n"
    f"{BAD}\n\nload_d = timed(load_d)\n",
    server_module("\nfrom app.deps import load_d\n", "load_d"),
    "InvalidSignature: Resolver 'inner' parameter 'nope'",
    ("def inner(nope: str)", "def inner(x: int)"),
)
"""The control of the two above: `load_d = timed(load_d)` is `@timed`, whose `inner` (no
`__wrapped__`) is what the SDK reads; `load_d(nope)` itself stays in the clean twin, unread."""

CASES["a tool rebound to functools.cache of itself, then registered"] = resolver_case(
    BAD,
    HEAD + 'import functools\n\nfrom app.deps import load_d\n\nmcp = MCPServer("x")\n\n\n'
    "def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n    return d\n\n\n"
    "t = functools.cache(t)\nmcp.tool()(t)\n",
)

CASES["tool entries of a dataclass, a loop registering each entry's function"] = (
    {
        "app/deps.py": BAD,
        "app/registry.py": "from collections.abc import Callable\nfrom dataclasses import dataclass\n\n"
        "from mcp.server import MCPServer\n\n\n@dataclass(frozen=True)\nclass Entry:\n"
        "    function: Callable[..., object]\n    read_only: bool = True\n\n\n"
        "def register(server: MCPServer, entries: list[Entry]) -> None:\n    for entry in entries:\n"
        '        server.tool(meta={"ro": entry.read_only})(entry.function)\n',
        "app/tools.py": "from typing import Annotated\n\nfrom mcp.server.mcpserver import Resolve\n\n"
        "from app.deps import load_d\nfrom app.registry import Entry\n\n\n"
        "def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n    return d\n\n\nENTRIES = [Entry(t)]\n",
        "app/main.py": entry_point(
            "from app.registry import register\n    from app.tools import ENTRIES",
            "register(mcp, ENTRIES)",
        ),
    },
    "import app.main",
    "app/deps.py",
    REFUSED,
    CLEAN,
)

GATE = (
    "from typing import Annotated\n\nfrom mcp.server.mcpserver import Resolve\n\nfrom app.deps import load_d\n\n\n"
    'def gated(fn):\n    fn.__annotations__["d"] = Annotated[str, Resolve(load_d)]\n    return fn\n'
)
"""A decorator writing a `Resolve` annotation into the function it hands back: the SDK reads it."""

CASES["a decorator writing a Resolve annotation into the tool's __annotations__"] = (
    {
        "app/deps.py": BAD,
        "app/gate.py": GATE,
        "app/main.py": 'from mcp.server import MCPServer\n\nfrom app.gate import gated\n\nmcp = MCPServer("x")\n\n\n'
        "@mcp.tool()\n@gated\ndef t(x: int, d) -> str:\n    return str(d)\n",
    },
    "import app.main",
    "app/deps.py",
    REFUSED,
    CLEAN,
)

CASES["a decorator writing a Resolve annotation, called on the function add_tool is given"] = (
    {
        "app/deps.py": BAD,
        "app/gate.py": GATE,
        "app/main.py": 'from mcp.server import MCPServer\n\nfrom app.gate import gated\n\nmcp = MCPServer("x")\n\n\n'
        "def t(x: int, d: str) -> str:\n    return d\n\n\nmcp.add_tool(gated(t))\n",
    },
    "import app.main",
    "app/deps.py",
    REFUSED,
    CLEAN,
)


@pytest.mark.parametrize("case", sorted(CASES))
def test_lint_reports_what_the_sdk_refuses_and_accepts_what_it_accepts(tmp_path: Path, case: str) -> None:
    check_both_ways(tmp_path, *CASES[case])


def test_a_default_beside_a_resolve_a_decorator_writes_is_never_used(tmp_path: Path) -> None:
    """`def t(x: int, d=None)` under a decorator writing `d`'s `Resolve`: the SDK resolves `d`
    on every call, so its default is never used (MCPD111, an info), as when the def writes it."""
    case = CASES["a decorator writing a Resolve annotation into the tool's __annotations__"]
    files = {**case[0], "app/deps.py": case[0]["app/deps.py"].replace(*CLEAN)}
    files["app/main.py"] = files["app/main.py"].replace("d) -> str", "d=None) -> str")
    write_files(tmp_path, {**PROJECT, **files})
    assert [(d["code"], d["path"], d["severity"]) for d in found(tmp_path, ["."])] == [
        ("MCPD111", "app/main.py", "info")
    ]


test_the_editor_reports_what_lint_dot_reports = published_shapes.editor_test(CASES)
