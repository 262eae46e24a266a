"""The modules `gen_shapes.py` writes, one kind at a time: what each kind looks like in
published servers built on the SDK (the kinds are listed in `gen_shapes.py`'s docstring).

Each writer fills a `Module`'s text from the random generator it is given, in a fixed order,
so a tree is the same for the same shape, size, seed and error rate.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from gen_errors import Errors

IMPORTS = """from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, Field

from mcp.server import MCPServer
from mcp.server.mcpserver import Context, Elicit, Resolve
"""

FILLER = '''

def _summarise_{n}(rows: list[dict[str, int]], *, key: str = "total") -> dict[str, float]:
    """Aggregate rows for display (code of the size and kind real modules carry)."""
    out: dict[str, float] = {{}}
    for position, row in enumerate(rows):
        value = row.get(key, 0)
        if position % 3 == 0:
            out[str(position)] = value * 1.5
        elif value > 10:
            out[str(position)] = value - 10
        else:
            out.setdefault("small", 0.0)
            out["small"] += value
    return {{k: round(v, 2) for k, v in sorted(out.items())}}
'''

PLAIN_CLASS = '''

class Service{n}:
    """A service object of the application, with no MCP in sight."""

    def __init__(self, base_url: str, retries: int = 3) -> None:
        self.base_url = base_url
        self.retries = retries
        self._seen: dict[str, int] = {{}}

    def fetch(self, path: str) -> str:
        count = self._seen.get(path, 0) + 1
        self._seen[path] = count
        return f"{{self.base_url}}/{{path}}?attempt={{count}}"

    def reset(self) -> None:
        self._seen.clear()
'''


@dataclass
class Module:
    kind: str
    package: str
    name: str
    index: int
    body: list[str] = field(default_factory=list)
    imports: list[str] = field(default_factory=list)
    """What the entry point (`app/main.py`) imports to start this module's registrations."""
    calls: list[str] = field(default_factory=list)
    """The entry point's statements that start them (none: another module calls it)."""
    function: str = ""
    """The registering function a `feature` or `group` module's callers call, or the decorator of a
    `decos` module."""

    @property
    def dotted(self) -> str:
        return f"{self.package}.{self.name}"


def _deps(m: Module, rng: random.Random, earlier: list[Module], errors: Errors) -> None:
    i = m.index
    imports = [IMPORTS]
    code = [
        f'''

class User{i}(BaseModel):
    id: str
    name: str = ""


class Plan{i}(BaseModel):
    approve: bool = Field(description="Go ahead?")


async def get_user_{i}(user_id: str, ctx: Context) -> User{i}:
    """Look the user up (the model never gets to invent one)."""
    return User{i}(id=user_id)


def quota_{i}(user: Annotated[User{i}, Resolve(get_user_{i})]) -> int:
    return len(user.id) * 10


async def approve_{i}(
    user: Annotated[User{i}, Resolve(get_user_{i})], quota: Annotated[int, Resolve(quota_{i})]
) -> Plan{i} | Elicit[Plan{i}]:
    if quota > 50:
        return Plan{i}(approve=True)
    return Elicit(f"{{user.id}} is over quota. Continue?", Plan{i})


class Repo{i}:
    """Resolvers as bound methods of a shared object."""

    def __init__(self) -> None:
        self.rows: dict[str, int] = {{}}

    def lookup(self, key: str) -> int:
        return self.rows.get(key, 0)


repo_{i} = Repo{i}()

UserDep{i} = Annotated[User{i}, Resolve(get_user_{i})]
QuotaDep{i} = Annotated[int, Resolve(quota_{i})]
RowDep{i} = Annotated[int, Resolve(repo_{i}.lookup)]
'''
    ]
    others = [e for e in earlier if e.kind == "deps"]
    for other in rng.sample(others, min(len(others), rng.randint(0, 3))):
        alias = f"d{other.index}"
        imports.append(f"from {other.package} import {other.name} as {alias}\n")
        code.append(
            f"""

def cross_{i}_{other.index}(
    user: {alias}.UserDep{other.index}, quota: Annotated[int, Resolve({alias}.quota_{other.index})]
) -> str:
    return f"{{user.id}}:{{quota}}"
"""
        )
    m.body = [*imports, *code, errors.resolver(i)]


def _tool(i: int, k: int, d: Module | None, on: str, rng: random.Random, error: bool) -> str:
    deco = f"@{on}.tool()"
    if d is None:
        return f'''

{deco}
def tool_{i}_{k}(query: str, limit: int = 10) -> str:
    """Tool {i}.{k}."""
    return query[:limit]
'''
    a = f"d{d.index}"
    j = d.index
    if error:
        return f"""

def who_{i}_{k}(user_id: str) -> str:
    return user_id


{deco}
def broken_{i}_{k}(query: str, who: Annotated[str, Resolve(who_{i}_{k})] | None = None) -> str:
    return query
"""
    extra = rng.choice(
        [
            f"quota: {a}.QuotaDep{j},",
            f"row: {a}.RowDep{j},",
            f"plan: Annotated[{a}.Plan{j}, Resolve({a}.approve_{j})],",
            "ctx: Context,",
        ]
    )
    return f'''

{deco}
async def tool_{i}_{k}(
    query: str,
    user_id: str,
    key: str,
    user: {a}.UserDep{j},
    {extra}
    limit: int = 10,
) -> str:
    """Tool {i}.{k}: answers a query for the user."""
    return f"{{user.id}} {{query}} {{limit}}"
'''


def _pick_deps(rng: random.Random, earlier: list[Module], n: int) -> list[Module]:
    deps = [e for e in earlier if e.kind == "deps"]
    return rng.sample(deps, min(len(deps), n))


def _deps_imports(deps: list[Module]) -> list[str]:
    return [f"from {d.package} import {d.name} as d{d.index}\n" for d in deps]


def indent(texts: list[str], by: str = "    ") -> str:
    """Code written for module level, as the body of a function (`by`: its indentation)."""
    return "".join("\n".join(by + line if line else line for line in t.split("\n")) for t in texts)


def _tools_like(m: Module, rng: random.Random, earlier: list[Module], errors: Errors) -> None:
    i = m.index
    deps = _pick_deps(rng, earlier, rng.randint(1, 2))
    count = rng.randint(2, 6)
    error = i % 37 == 5
    on = "server" if m.kind == "factory" else "mcp"
    seeded = errors.tools(i, f"@{on}.tool()", on, [d.index for d in deps])
    needed = [s.module for s in seeded]
    if m.kind == "tools":
        head = [IMPORTS, "from app.server import mcp\n", *_deps_imports(deps), *needed]
        tools = [
            _tool(i, k, rng.choice(deps) if deps else None, "mcp", rng, error and k == 0)
            for k in range(count)
        ]
        m.body = head + tools + [s.tool for s in seeded]
    elif m.kind == "server":
        head = [IMPORTS, *_deps_imports(deps), *needed, f'\nmcp = MCPServer("svc{i}")\n']
        tools = [
            _tool(i, k, rng.choice(deps) if deps else None, "mcp", rng, error and k == 0)
            for k in range(count)
        ]
        m.body = head + tools + [s.tool for s in seeded]
    elif m.kind == "factory":
        head = [IMPORTS, *_deps_imports(deps), *needed]
        inner = [_tool(i, k, rng.choice(deps) if deps else None, "server", rng, False) for k in range(count)]
        indented = indent(inner + [s.tool for s in seeded])
        m.imports = [f"from {m.package}.{m.name} import register as register_{i}\n"]
        m.calls = [f"register_{i}(mcp)\n"]
        m.body = [
            *head,
            f'''

def register(server: MCPServer) -> None:
    """Declare this feature's tools on the server the entry point passes."""
{indented}
''',
        ]
    else:  # added
        head = [IMPORTS, "from app.server import mcp\n", *_deps_imports(deps), *needed]
        funcs = [_tool(i, k, rng.choice(deps) if deps else None, "mcp", rng, False) for k in range(count)]
        funcs = [f.replace("\n@mcp.tool()\n", "\n") for f in funcs]
        adds = "".join(f"mcp.add_tool(tool_{i}_{k})\n" for k in range(count))
        m.body = [*head, *funcs, "\n\n", adds, *(s.tool for s in seeded)]


def _registering(
    m: Module, rng: random.Random, earlier: list[Module], errors: Errors, deco: str, on: str | None
) -> tuple[list[str], list[str]]:
    """The head (imports, what seeded errors need) and the tools of a module registering with
    `deco`; `on` is the server's expression where `deco` is the server's own decorator."""
    deps = _pick_deps(rng, earlier, rng.randint(1, 2))
    i = m.index
    tools = [
        _tool(i, k, rng.choice(deps) if deps else None, "server", rng, False).replace("@server.tool()", deco)
        for k in range(rng.randint(2, 5))
    ]
    seeded = errors.tools(i, deco, on, [d.index for d in deps])
    head = [IMPORTS, *_deps_imports(deps), *(s.module for s in seeded)]
    return head, tools + [s.tool for s in seeded]


def _feature(m: Module, rng: random.Random, earlier: list[Module], errors: Errors) -> None:
    """`def register(server)`: tools declared on whatever server the caller passes."""
    param = rng.choice(("server", "mcp", "app"))
    signature = f"{param}: MCPServer" if rng.random() < 0.6 else param
    m.function = rng.choice(("register", "register_tools", f"setup_{m.index}"))
    head, tools = _registering(m, rng, earlier, errors, f"@{param}.tool()", param)
    doc = '"""Declare this feature\'s tools on the server it is given."""'
    m.body = [*head, f"\n\ndef {m.function}({signature}) -> None:\n    {doc}\n{indent(tools)}"]
    m.imports = [f"from {m.package} import {m.name} as f{m.index}\n"]
    m.calls = [f"f{m.index}.{m.function}(mcp)\n"]


def _take_callees(
    m: Module, rng: random.Random, earlier: list[Module], least: int, most: int
) -> list[Module]:
    """`least` to `most` registering modules nobody calls yet (as many as there are), now called
    by `m` instead of the entry point."""
    free = [e for e in earlier if e.kind in ("feature", "group") and e.calls]
    chosen = rng.sample(free, min(len(free), rng.randint(least, most)))
    m.body.extend(line for c in chosen for line in c.imports)
    return chosen


def _passed_on(chosen: list[Module]) -> list[str]:
    """The calls `chosen`'s caller makes, passing its own server on; each is taken from the entry point."""
    lines = [c.calls[0].replace("(mcp)", "(server)") for c in chosen]
    for c in chosen:
        c.calls = []
    return lines


def _group(m: Module, rng: random.Random, earlier: list[Module]) -> None:
    """`register_all(server)`, the package's helper calling its features' helpers."""
    m.body = ["from __future__ import annotations\n\nfrom mcp.server import MCPServer\n"]
    chosen = _take_callees(m, rng, earlier, 1, 3)
    looped = len(chosen) > 1 and len({c.function for c in chosen}) == 1 and chosen[0].kind == "feature"
    if looped and rng.random() < 0.5:
        modules = ", ".join(f"f{c.index}" for c in chosen)
        calls = [f"for feature in ({modules}):\n    feature.{chosen[0].function}(server)\n"]
        _passed_on(chosen)
    else:
        calls = _passed_on(chosen) or ["pass\n"]
    m.function = f"register_all_{m.index}"
    doc = '"""Wire every feature of the package on one server."""'
    m.body.append(f"\n\ndef {m.function}(server: MCPServer) -> None:\n    {doc}\n{indent(calls)}")
    m.imports = [f"from {m.package}.{m.name} import {m.function}\n"]
    m.calls = [f"{m.function}(mcp)\n"]


def _decos(m: Module, rng: random.Random) -> None:
    """A decorator of the application's own that registers on the shared server.

    Not named `tool`: `@h.tool` (a module's function reached as an attribute) is not followed
    today (`tests/test_generated_sdk_agrees.py` holds that gap as a strict xfail)."""
    register = rng.choice(("return mcp.tool()(fn)\n", "mcp.add_tool(fn)\n    return fn\n"))
    m.function = rng.choice(("expose", "register_tool"))
    m.body = [
        "from __future__ import annotations\n\nfrom collections.abc import Callable\nfrom typing import Any\n\n"
        "from app.server import mcp\n",
        f"\n\ndef {m.function}(fn: Callable[..., Any]) -> Callable[..., Any]:\n"
        f'    """Feature modules decorate their tools with it."""\n    {register}',
    ]


def _decorated(m: Module, rng: random.Random, earlier: list[Module], errors: Errors) -> None:
    """Tools decorated with another module's decorator (`@h.expose`), registered when imported."""
    decos = [e for e in earlier if e.kind == "decos"]
    h = rng.choice(decos)
    head, tools = _registering(m, rng, earlier, errors, f"@h.{h.function}", None)
    m.body = [*head, f"from {h.package} import {h.name} as h\n", *tools]
    m.calls = [f"import {m.dotted}  # registers its tools\n"]


def _klass(m: Module, rng: random.Random, earlier: list[Module], errors: Errors) -> None:
    """A class whose `__init__` declares its tools on the server it is built with."""
    i = m.index
    head, tools = _registering(m, rng, earlier, errors, "@server.tool()", "server")
    init = "    def __init__(self, server: MCPServer) -> None:\n        self.server = server\n"
    m.body = [
        *head,
        f'\n\nclass Tools{i}:\n    """A feature\'s tools."""\n\n{init}{indent(tools, "        ")}',
    ]
    m.imports = [f"from {m.package}.{m.name} import Tools{i}\n"]
    m.calls = [f"Tools{i}(mcp)\n"]


def _builder(m: Module, rng: random.Random, earlier: list[Module], errors: Errors) -> None:
    """`create_server()`: a factory building a server of its own, wiring features and its own tools."""
    i = m.index
    head, tools = _registering(m, rng, earlier, errors, "@server.tool()", "server")
    m.body = head
    wiring = _passed_on(_take_callees(m, rng, earlier, 0, 2))
    start = [f'server = MCPServer("svc{i}")\n', *wiring]
    doc = '"""Build the service\'s server, as an entry point\'s `create_server()` does."""'
    m.body.append(
        f"\n\ndef create_server_{i}() -> MCPServer:\n    {doc}\n{indent(start)}{indent(tools)}\n    return server\n"
    )
    m.imports = [f"from {m.package}.{m.name} import create_server_{i}\n"]
    m.calls = [f"svc_{i} = create_server_{i}()\n"]


def _helpers(m: Module, rng: random.Random) -> None:
    m.body = [
        "from __future__ import annotations\n\nfrom mcp.types import TextContent\n",
        f"""

def as_content_{m.index}(text: str) -> TextContent:
    return TextContent(type="text", text=text)
""",
    ]


def _plain(m: Module, rng: random.Random) -> None:
    m.body = [
        '"""Application code."""\n\nfrom __future__ import annotations\n\nimport json\n',
        PLAIN_CLASS.format(n=m.index),
    ]


WRITERS = {"feature": _feature, "decorated": _decorated, "klass": _klass, "builder": _builder}


def write(m: Module, rng: random.Random, earlier: list[Module], errors: Errors) -> None:
    """Write module `m` of its kind (`earlier`: the modules written before it, which it may
    import, call or decorate with), then filler code of no interest to mcpdeps."""
    kind = m.kind
    if kind == "deps":
        _deps(m, rng, earlier, errors)
    elif kind in ("tools", "server", "factory", "added"):
        _tools_like(m, rng, earlier, errors)
    elif kind in ("feature", "decorated", "klass", "builder"):
        WRITERS[kind](m, rng, earlier, errors)
    elif kind == "group":
        _group(m, rng, earlier)
    elif kind == "decos":
        _decos(m, rng)
    elif kind == "helpers":
        _helpers(m, rng)
    else:
        _plain(m, rng)
    m.body.extend(FILLER.format(n=f"{m.index}_{p}") for p in range(rng.choice((1, 2, 4, 6, 10, 20))))
