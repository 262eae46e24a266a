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

A third of published servers register their tools away from the module that declares the
server, and the `helpers` shape is made of those layouts:
- `feature`: `register(server)` (or `register_tools(mcp)`, `setup_N(app)`, annotated or not),
  called by the entry point or by one of the following;
- `group`: `register_all(server)` calling several features' helpers (directly or in a loop over
  the modules), passing its server on: chains of helpers;
- `decos`/`decorated`: a decorator of the application's own (`@h.expose`, which calls
  `mcp.tool()(fn)` or `mcp.add_tool(fn)` in its module) on tools of other modules;
- `klass`: a class whose `__init__(self, server)` declares its tools;
- `builder`: `create_server()`, a factory building a server of its own, wiring features on it.
The entry point (`app/main.py`) starts whatever no other module calls.

Shapes weigh the kinds: `dense` (nearly every module a server or resolver module, factories
included), `flat` (as dense, every tool at module level: no factory couples the files),
`mixed` (about half MCP, factories included), `sparse` (a large application with a small MCP
surface at module level), `helpers` (the layouts above, with cross-module resolvers).
`monorepo` is many projects side by side, each with its own `pyproject.toml` under `src/`
(awslabs/mcp holds 62 servers, about 40 modules each): a `helpers` tree of about 40 modules per
project, every project naming its packages alike (`app`, `pkg0`, ...), as servers generated
from one template do. Module sizes vary (about 40 to 400 lines). Errors are seeded in a share of the modules
(`--errors RATE`, `gen_errors.py`: 0.25 by default for `helpers`, none for the others, whose
trees stay as the benchmarks' figures were measured on, with their one deliberate MCPD003
every 37 tool modules). Deterministic for a given shape, size, seed and rate.

`python benchmarks/gen_shapes.py OUT --shape dense --modules 1000 --seed 1`
`python benchmarks/gen_shapes.py OUT --shape helpers --modules 250 --seed 1 --errors 0.3`
"""

from __future__ import annotations

import argparse
import random
import shutil
from pathlib import Path

from gen_errors import Errors
from gen_modules import Module, write

SHAPES: dict[str, dict[str, int]] = {
    "dense": {"deps": 30, "tools": 25, "factory": 20, "server": 4, "added": 6, "helpers": 10, "plain": 5},
    "flat": {"deps": 40, "tools": 40, "factory": 0, "server": 4, "added": 6, "helpers": 8, "plain": 2},
    "mixed": {"deps": 15, "tools": 12, "factory": 8, "server": 2, "added": 3, "helpers": 10, "plain": 50},
    "sparse": {"deps": 2, "tools": 2, "factory": 0, "server": 1, "added": 1, "helpers": 3, "plain": 91},
    "helpers": {
        **{"deps": 22, "feature": 20, "group": 6, "decos": 3, "decorated": 10, "klass": 6, "builder": 4},
        **{"tools": 5, "server": 2, "added": 2, "helpers": 6, "plain": 14},
    },
}
ALL_SHAPES = (*SHAPES, "monorepo")
"""Every shape `generate` writes: the weighted ones, and `monorepo`, made of `helpers` projects."""

PER_PROJECT = 40
"""Modules per project of a `monorepo` tree."""

ERRORS = {"helpers": 0.25}
"""The share of modules carrying a seeded error (`gen_errors.py`) when `--errors` is not given:
none for the shapes the benchmarks' figures were measured on, so they stay byte for byte."""


def generate(
    out: Path, modules: int, shape: str = "dense", seed: int = 1, errors: float | None = None
) -> int:
    """Write a project of `modules` modules of `shape`; returns the number of lines written.

    `errors`: the share of modules carrying a seeded error (default: the shape's, `ERRORS`)."""
    if shape == "monorepo":
        return _monorepo(out, modules, seed, errors)
    rng = random.Random(f"{shape}-{modules}-{seed}")
    seeded = Errors(ERRORS.get(shape, 0.0) if errors is None else errors, f"{shape}-{modules}-{seed}")
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
        if kind == "decorated" and not any(e.kind == "decos" for e in earlier):
            kind = "decos"  # a decorator before the modules it decorates
        package = f"pkg{rng.randrange(packages)}"
        m = Module(kind, package, f"{kind}_{n}", n)
        write(m, rng, earlier, seeded)
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
    started = [m for m in earlier if m.calls]
    main = ["from app.server import mcp\n", *(line for m in started for line in m.imports)]
    main += ["\n\n", *(line for m in started for line in m.calls)]
    (out / "app" / "main.py").write_text("".join(main))
    return lines + len(main)


def _monorepo(out: Path, modules: int, seed: int, errors: float | None) -> int:
    """`modules` modules in `helpers` projects of about `PER_PROJECT` modules each, under
    `out/src/server_N/`; returns the number of lines written."""
    if out.exists():
        shutil.rmtree(out)
    projects = max(2, round(modules / PER_PROJECT))
    sizes = [modules // projects + (n < modules % projects) for n in range(projects)]
    return sum(
        generate(out / "src" / f"server_{n}", size, "helpers", seed * 1000 + n, errors)
        for n, size in enumerate(sizes)
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--shape", choices=sorted(ALL_SHAPES), default="dense")
    parser.add_argument("--modules", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--errors",
        type=float,
        metavar="RATE",
        help="share of modules carrying a seeded error (default: 0.25 for helpers, 0 otherwise)",
    )
    args = parser.parse_args()
    lines = generate(args.out, args.modules, args.shape, args.seed, args.errors)
    print(f"wrote {args.modules} {args.shape} modules, {lines} lines to {args.out}")


if __name__ == "__main__":
    main()
