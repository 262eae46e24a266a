"""Generate a large MCP-heavy project for the lint benchmarks (issue 4, benchmark 3).

`python benchmarks/gen_corpus.py OUT_DIR --modules 1000` writes a package tree of
servers, tools and resolvers importing each other across packages: type aliases
(`StockDep = Annotated[...]`), import aliases, Context parameters, `Elicit` and
`Sample` questions, bound methods, and a few deliberate errors (cycles,
unclassifiable parameters, unions) so the linter has something to report.
About 150 lines per module. Deterministic for a given `--seed`.
"""

from __future__ import annotations

import argparse
import random
import shutil
from pathlib import Path

HEADER = '''"""Generated module {name}: resolvers and tools for the benchmark corpus."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, Field

from mcp.server.mcpserver import Context, Elicit, Resolve, Sample
from mcp.types import SamplingMessage, TextContent
'''

PADDING = '''

def _format_{i}(values: list[int], *, scale: float = 1.0) -> str:
    """Format numbers for display (padding that looks like real code)."""
    total = 0
    for position, value in enumerate(values):
        if position % 2:
            total += value * 2
        else:
            total -= value
    parts = [f"{{v * scale:.2f}}" for v in values if v > 0]
    return ", ".join(parts) + f" = {{total}}"
'''

DEPS = '''

class Record{i}(BaseModel):
    title: str
    copies: int = 0


class Confirm{i}(BaseModel):
    confirm: bool = Field(description="Proceed?")


async def load_{i}(title: str) -> Record{i}:
    """Load a record by title."""
    return Record{i}(title=title, copies=len(title))


def score_{i}(record: Annotated[Record{i}, Resolve(load_{i})], ctx: Context) -> int:
    return record.copies * 2


async def confirm_{i}(
    title: str,
    record: Annotated[Record{i}, Resolve(load_{i})],
) -> Confirm{i} | Elicit[Confirm{i}]:
    if record.copies > 3:
        return Confirm{i}(confirm=True)
    return Elicit(f"{{title!r}} is low on stock. Continue?", Confirm{i})


def suggest_{i}(title: str) -> Sample:
    prompt = f"Suggest a book like {{title}}."
    return Sample(
        [SamplingMessage(role="user", content=TextContent(type="text", text=prompt))],
        max_tokens=50,
    )


ScoreDep{i} = Annotated[int, Resolve(score_{i})]
'''

CHAIN = """

def chained_{i}(base: Annotated[int, Resolve({other}.score_{j})], title: str) -> int:
    return base + len(title)
"""

TOOLS = '''

@mcp.tool()
async def tool_{i}_{k}(
    title: str,
    limit: int = 10,
    record: Annotated[deps.Record{d}, Resolve(deps.load_{d})] = ...,
    score: deps.ScoreDep{d} = ...,
    ok: Annotated[deps.Confirm{d}, Resolve(deps.confirm_{d})] = ...,
) -> str:
    """Tool {i}.{k}."""
    return f"{{title}} {{limit}} {{score}} {{ok.confirm}}"
'''

TOOLS_CLEAN = '''

@mcp.tool()
async def tool_{i}_{k}(
    title: str,
    record: Annotated[deps.Record{d}, Resolve(deps.load_{d})],
    score: deps.ScoreDep{d},
    ok: Annotated[deps.Confirm{d}, Resolve(deps.confirm_{d})],
    limit: int = 10,
) -> str:
    """Tool {i}.{k}."""
    return f"{{title}} {{limit}} {{score}} {{ok.confirm}}"
'''

ERRORS = [
    # an unclassifiable parameter
    """

def broken_{i}(user_id: str) -> str:
    return user_id


@mcp.tool()
def broken_tool_{i}(title: str, who: Annotated[str, Resolve(broken_{i})]) -> str:
    return who
""",
    # a cycle (postponed annotations make it writable)
    """

def ping_{i}(v: Annotated[int, Resolve(pong_{i})]) -> int:
    return v


def pong_{i}(v: Annotated[int, Resolve(ping_{i})]) -> int:
    return v


@mcp.tool()
def cyclic_tool_{i}(title: str, v: Annotated[int, Resolve(ping_{i})]) -> str:
    return title
""",
    # Resolve wrapped in a union
    """

def maybe_{i}(title: str) -> str:
    return title


@mcp.tool()
def union_tool_{i}(title: str, m: Annotated[str, Resolve(maybe_{i})] | None = None) -> str:
    return title
""",
]


def generate(out: Path, modules: int, seed: int = 1) -> int:
    """Write the corpus; returns the number of lines written."""
    rng = random.Random(seed)
    if out.exists():
        shutil.rmtree(out)
    (out / "app").mkdir(parents=True)
    (out / "pyproject.toml").write_text('[project]\nname = "bench"\nversion = "0"\n')
    (out / "app" / "__init__.py").write_text("")
    (out / "app" / "server.py").write_text('from mcp.server import MCPServer\n\nmcp = MCPServer("Big")\n')
    packages = max(1, modules // 50)
    lines = 0
    pairs = modules // 2
    for n in range(pairs):
        pkg = out / f"pkg{n % packages}"
        if not pkg.exists():
            pkg.mkdir()
            (pkg / "__init__.py").write_text("")
        deps_name = f"deps_{n}"
        body = [HEADER.format(name=deps_name)]
        if n > 0:
            j = rng.randrange(n)
            other_pkg = f"pkg{j % packages}"
            body.insert(1, f"from {other_pkg} import deps_{j} as other_{j}\n")
            body.append(CHAIN.format(i=n, other=f"other_{j}", j=j))
        body.append(DEPS.format(i=n))
        body.extend(PADDING.format(i=f"{n}_{p}") for p in range(9))
        text = "".join(body)
        (pkg / f"{deps_name}.py").write_text(text)
        lines += text.count("\n")

        tools = [
            HEADER.format(name=f"tools_{n}"),
            "\nfrom app.server import mcp\n",
            f"from . import {deps_name} as deps\n",
        ]
        for k in range(3):
            tools.append(TOOLS_CLEAN.format(i=n, k=k, d=n))
        if n % 40 == 7:
            tools.append(ERRORS[(n // 40) % len(ERRORS)].format(i=n))
        tools.extend(PADDING.format(i=f"{n}_{p}") for p in range(8))
        text = "".join(tools)
        (pkg / f"tools_{n}.py").write_text(text)
        lines += text.count("\n")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--modules", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    lines = generate(args.out, args.modules, args.seed)
    print(f"wrote {args.modules} modules, {lines} lines to {args.out}")


if __name__ == "__main__":
    main()
