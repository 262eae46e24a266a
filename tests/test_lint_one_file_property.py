"""Property: for every file F of a random project, `lint F` says about F what `lint .` says.

Two generators: `test_incremental.make_project`'s projects through its random edits (broken
and fixed resolvers, syntax errors, files added and removed), and `_spread` below, which
spreads resolvers over flat modules, packages and namespace packages, imports them in every
spelling, and registers tools at module level on a shared server and through helpers a
factory calls (duplicate tool names across files, cycles across modules). Every file is
linted alone, cold and with a cache kept across runs (as pre-commit runs), and compared
with one cold `lint .` restricted to it; a few files linted together are compared too.
Run in process, on a bounded number of seeds.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from mcpdeps.lint_rules import lint
from mcpdeps.resolver_core.diagnostics import plain
from test_incremental import _edit, make_project

HEADER = "from typing import Annotated\n\nfrom mcp.server import MCPServer\nfrom mcp.server.mcpserver import Resolve\n"
PLACES = ("{name}.py", "pkg/{name}.py", "ns/sub/{name}.py")
"""Where a resolver module goes: flat, in a package, in a namespace package."""


def _located(paths: list[str], root: Path, cache: Path | None = None) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for d in lint(paths, cwd=root, cache_dir=cache).diagnostics:
        out.setdefault(d.path, []).append(plain(d))
    return out


def _check_every_file(root: Path, cache: Path, rng: random.Random, context: object) -> set[str]:
    """Assert the property on the project as it is; returns the codes `lint .` found."""
    whole = _located(["."], root)
    files = sorted(str(p.relative_to(root)) for p in root.rglob("*.py"))
    for path in files:
        expected = whole.get(path, [])
        assert _located([path], root).get(path, []) == expected, (path, "cold", context)
        assert _located([path], root, cache).get(path, []) == expected, (path, "cached", context)
    several = rng.sample(files, min(3, len(files)))
    found = _located(several, root, cache)
    for path in several:
        assert found.get(path, []) == whole.get(path, []), (several, path, context)
    return {d["code"] for ds in whole.values() for d in ds}


def _spread(root: Path, rng: random.Random) -> None:
    files = {"pyproject.toml": "[project]\nname = 'p'\nversion = '0'\n", "pkg/__init__.py": ""}
    modules = []  # (dotted name, resolver names)
    for i in range(rng.randint(2, 3)):
        place = rng.choice(PLACES).format(name=f"deps_{i}")
        modules.append((place[:-3].replace("/", "."), [f"r{i}_{j}" for j in range(2)]))
    for dotted, resolvers in modules:
        path = f"{dotted.replace('.', '/')}.py"
        lines = [HEADER]
        for resolver in resolvers:
            kind = rng.choice(["arg", "unknown", "other"])
            if kind == "other":
                target_module, target = rng.choice(modules)
                alias = target_module.replace(".", "_")
                lines.insert(1, f"import {target_module} as {alias}\n")
                param = f"v: Annotated[str, Resolve({alias}.{rng.choice(target)})]"
            else:
                param = "user: str" if kind == "arg" else "user_id: str"
            lines.append(f"\n\ndef {resolver}({param}) -> str:\n    return 'x'\n")
        files[path] = "".join(lines)
    files["server.py"] = "from mcp.server import MCPServer\n\nmcp = MCPServer('s')\n"
    helpers = []
    for t in range(rng.randint(2, 3)):
        dotted, resolvers = rng.choice(modules)
        package, _, leaf = dotted.rpartition(".")
        spelling = rng.choice(["import_as", "from"] if package else ["import_as"])
        imp = f"import {dotted} as d\n" if spelling == "import_as" else f"from {package} import {leaf} as d\n"
        helper = rng.random() < 0.5
        indent = "    " if helper else ""
        server = "s" if helper else "mcp"
        body = [HEADER, imp]
        body.append("\n\ndef register(s: MCPServer) -> None:\n" if helper else "from server import mcp\n")
        for name in rng.sample(["search", "show", "list_items"], 2):
            body.append(
                f"\n{indent}@{server}.tool()\n{indent}def {name}(user: str, "
                f"v: Annotated[str, Resolve(d.{rng.choice(resolvers)})]) -> str:\n{indent}    return v\n"
            )
        files[f"tools_{t}.py"] = "".join(body)
        if helper:
            helpers.append(f"tools_{t}")
    tools = sorted(name[:-3] for name in files if name.startswith("tools_"))
    calls = "".join(f"    {h}.register(s)\n" for h in helpers)
    files["main.py"] = (
        "from mcp.server import MCPServer\n\n"
        + "".join(f"import {t}\n" for t in tools)
        + f"\n\ndef build() -> MCPServer:\n    s = MCPServer('main')\n{calls}    return s\n"
    )
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")


@pytest.mark.parametrize("seed", range(4))
def test_each_file_alone_through_random_edits(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    root = tmp_path / "proj"
    make_project(root, rng)
    history: list[str] = []
    for step in range(3):
        if step:
            history.append(_edit(root, rng))
        _check_every_file(root, tmp_path / "cache", rng, history)


def test_each_file_alone_with_resolvers_spread_over_packages(tmp_path: Path) -> None:
    seen: set[str] = set()
    for seed in range(12):
        rng = random.Random(seed)
        root = tmp_path / str(seed)
        _spread(root, rng)
        seen |= _check_every_file(root, tmp_path / f"cache{seed}", rng, seed)
    assert {"MCPD001", "MCPD002", "MCPD110"} <= seen  # the cases that couple files all came up
