"""Generate projects of several shapes, so a speed target is met on trees not tuned for it.

`gen_corpus.py` writes one shape: pairs of a resolver module and a tool module on one
server. Published servers are shaped otherwise, and a tree the code was not tuned on
(1,040 modules, nearly every one a server or resolver module) ran cold lint at 2.7x the
parse where `gen_corpus`'s met 2.0x. The kinds of module written here are the ones found in
published servers built on the SDK:

- `deps`: models and resolvers, aliases (`UserDep = Annotated[User, Resolve(get_user)]`),
  resolvers that resolve through another package's resolvers, a class with bound-method
  resolvers;
- `tools`: tools decorated on the shared server (`from app.server import mcp`);
- `factory`: a `register(server: MCPServer)` function that declares its tools inside it,
  called by the entry point (`app/main.py`), the commonest layout of larger servers;
- `server`: a module with its own `MCPServer` and tools (several servers in one repository);
- `added`: plain functions registered with `mcp.add_tool(fn)`;
- `helpers`: code that imports `mcp.types` for content types but declares nothing;
- `plain`: application code with no MCP at all (models, utilities, services).

Shapes weigh the kinds: `dense` (nearly every module a server or resolver module, factories
included), `flat` (as dense, every tool at module level: no factory couples the files),
`mixed` (about half MCP, factories included), `sparse` (a large application with a small MCP
surface at module level).
Module sizes vary (about 40 to 400 lines) and a few deliberate errors give the linter
something to report. Deterministic for a given shape, size and seed.

`python benchmarks/gen_shapes.py OUT --shape dense --modules 1000 --seed 1`
"""

from __future__ import annotations

import argparse
import random
import shutil
from dataclasses import dataclass, field
from pathlib import Path

SHAPES: dict[str, dict[str, int]] = {
    "dense": {"deps": 30, "tools": 25, "factory": 20, "server": 4, "added": 6, "helpers": 10, "plain": 5},
    "flat": {"deps": 40, "tools": 40, "factory": 0, "server": 4, "added": 6, "helpers": 8, "plain": 2},
    "mixed": {"deps": 15, "tools": 12, "factory": 8, "server": 2, "added": 3, "helpers": 10, "plain": 50},
    "sparse": {"deps": 2, "tools": 2, "factory": 0, "server": 1, "added": 1, "helpers": 3, "plain": 91},
}

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

    @property
    def dotted(self) -> str:
        return f"{self.package}.{self.name}"


def _deps(m: Module, rng: random.Random, earlier: list[Module]) -> None:
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
    m.body = imports + code


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


def _tools_like(m: Module, rng: random.Random, earlier: list[Module]) -> None:
    i = m.index
    deps = _pick_deps(rng, earlier, rng.randint(1, 2))
    count = rng.randint(2, 6)
    error = i % 37 == 5
    if m.kind == "tools":
        head = [IMPORTS, "from app.server import mcp\n", *_deps_imports(deps)]
        tools = [
            _tool(i, k, rng.choice(deps) if deps else None, "mcp", rng, error and k == 0)
            for k in range(count)
        ]
        m.body = head + tools
    elif m.kind == "server":
        head = [IMPORTS, *_deps_imports(deps), f'\nmcp = MCPServer("svc{i}")\n']
        tools = [
            _tool(i, k, rng.choice(deps) if deps else None, "mcp", rng, error and k == 0)
            for k in range(count)
        ]
        m.body = head + tools
    elif m.kind == "factory":
        head = [IMPORTS, *_deps_imports(deps)]
        inner = [_tool(i, k, rng.choice(deps) if deps else None, "server", rng, False) for k in range(count)]
        indented = "".join(
            "\n".join("    " + line if line else line for line in t.split("\n")) for t in inner
        )
        m.body = [
            *head,
            f'''

def register(server: MCPServer) -> None:
    """Declare this feature's tools on the server the entry point passes."""
{indented}
''',
        ]
    else:  # added
        head = [IMPORTS, "from app.server import mcp\n", *_deps_imports(deps)]
        funcs = [_tool(i, k, rng.choice(deps) if deps else None, "mcp", rng, False) for k in range(count)]
        funcs = [f.replace("\n@mcp.tool()\n", "\n") for f in funcs]
        adds = "".join(f"mcp.add_tool(tool_{i}_{k})\n" for k in range(count))
        m.body = [*head, *funcs, "\n\n", adds]


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


def generate(out: Path, modules: int, shape: str = "dense", seed: int = 1) -> int:
    """Write a project of `modules` modules of `shape`; returns the number of lines written."""
    rng = random.Random(f"{shape}-{modules}-{seed}")
    weights = SHAPES[shape]
    if out.exists():
        shutil.rmtree(out)
    (out / "app").mkdir(parents=True)
    (out / "pyproject.toml").write_text('[project]\nname = "bench"\nversion = "0"\n')
    (out / "app" / "__init__.py").write_text("")
    (out / "app" / "server.py").write_text('from mcp.server import MCPServer\n\nmcp = MCPServer("Big")\n')
    packages = max(1, modules // rng.randint(20, 60))
    kinds = list(weights)
    earlier: list[Module] = []
    for n in range(modules - 3):
        kind = "deps" if n < 4 and weights["deps"] else rng.choices(kinds, [weights[k] for k in kinds])[0]
        package = f"pkg{rng.randrange(packages)}"
        m = Module(kind, package, f"{kind}_{n}", n)
        if kind == "deps":
            _deps(m, rng, earlier)
        elif kind in ("tools", "server", "factory", "added"):
            _tools_like(m, rng, earlier)
        elif kind == "helpers":
            _helpers(m, rng)
        else:
            _plain(m, rng)
        m.body.extend(FILLER.format(n=f"{n}_{p}") for p in range(rng.choice((1, 2, 4, 6, 10, 20))))
        earlier.append(m)
    lines = 0
    for m in earlier:
        folder = out / m.package
        if not folder.exists():
            folder.mkdir()
            (folder / "__init__.py").write_text("")
        text = "".join(m.body)
        (folder / f"{m.name}.py").write_text(text)
        lines += text.count("\n")
    factories = [m for m in earlier if m.kind == "factory"]
    main = ["from app.server import mcp\n"]
    main += [f"from {m.package}.{m.name} import register as register_{m.index}\n" for m in factories]
    main += ["\n\n", *(f"register_{m.index}(mcp)\n" for m in factories)]
    (out / "app" / "main.py").write_text("".join(main))
    return lines + len(main)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--shape", choices=sorted(SHAPES), default="dense")
    parser.add_argument("--modules", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    lines = generate(args.out, args.modules, args.shape, args.seed)
    print(f"wrote {args.modules} {args.shape} modules, {lines} lines to {args.out}")


if __name__ == "__main__":
    main()
