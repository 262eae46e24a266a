"""MCPD110 located by the order the program imports the files registering one tool name.

The SDK keeps the first registration of a name and logs `Tool already exists` for the second;
which is second is the order the entry point's imports run the modules in (depth first, a
module imported twice running once), not the order of their paths. Each case runs the server
under the SDK (`published_shapes.DUPLICATES_LOGGED`, which names no file: the SDK's word is
which tool it dropped, `t` returning its module's letter) and checks that `lint .` and each
file alone locate the duplicate in the file imported second, and that the clean twin (one
tool renamed) is accepted by both. Where the order cannot be told (two entry points
disagreeing) the order of the paths stands.
"""

from __future__ import annotations

import functools
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import lint_diagnostics, write_files
from mcpdeps.resolver_core import companions
from mcpdeps.resolver_core.companions import run_files
from mcpdeps.resolver_core.prefilter import may_register_at_top
from published_shapes import PROJECT, WARNINGS_KEPT, sdk

SERVER = 'from mcp.server import MCPServer\n\nmcp = MCPServer("x")\n'
KIT = 'from app.server import mcp\n\n\n@mcp.tool()\ndef t(x: int) -> str:\n    return "{0}"\n'
"""A module registering `t` on the shared server, returning its own letter."""
ADDED = 'from app.server import mcp\n\n\ndef t(x: int) -> str:\n    return "{0}"\n\n\nmcp.add_tool(t)\n'
"""The same, added by `mcp.add_tool(t)`."""

KEPT = (
    WARNINGS_KEPT
    + """
import asyncio
from app.server import mcp
import {start}
result = asyncio.run(mcp.call_tool("t", {{"x": 1}}))
print(json.dumps([[m for m in logged if "already exists" in m], str(result)]))
"""
)
"""The server started under the SDK (`import {start}`): its duplicate warnings, and what the
tool `t` it kept returns (the letter of the module whose registration came first)."""


def kept(root: Path, start: str = "app.main") -> tuple[list[str], str]:
    ran = sdk(root, KEPT.format(start=start))
    assert ran.returncode == 0, ran.stderr
    logged, result = json.loads(ran.stdout.splitlines()[-1])
    return logged, result


def found(root: Path, *args: str) -> list[tuple[str, str]]:
    return [(d["code"], d["path"]) for d in lint_diagnostics(root, "--no-cache", *args or (".",))]


def cached(root: Path, *args: str) -> list[tuple[str, str]]:
    """`found`, with the cache kept in `root/.cache`: after the first, runs read it (warm)."""
    return [
        (d["code"], d["path"]) for d in lint_diagnostics(root, "--cache-dir", str(root / ".cache"), *args)
    ]


MAINS = {
    "b then a": ("import app.b  # noqa: F401\nimport app.a  # noqa: F401\n", "b"),
    "a then b": ("import app.a  # noqa: F401\nimport app.b  # noqa: F401\n", "a"),
    "from app import b, a": ("from app import b, a  # noqa: F401\n", "b"),
    "a hub importing b, then a": ("import app.hub  # noqa: F401\nimport app.a  # noqa: F401\n", "b"),
    "a, b, then a again": ("import app.a  # noqa: F401\nimport app.b  # noqa: F401\nimport app.a\n", "a"),
    "b then a, adding the tool with add_tool": (
        "import app.b  # noqa: F401\nimport app.a  # noqa: F401\n",
        "b",
    ),
    "a factory importing b then a": (
        "def create():\n    import app.b  # noqa: F401\n    import app.a  # noqa: F401\n\n\ncreate()\n",
        "b",
    ),
}


@pytest.mark.parametrize("case", MAINS)
def test_the_duplicate_is_in_the_module_imported_second(tmp_path: Path, case: str) -> None:
    main, first = MAINS[case]
    second = "a" if first == "b" else "b"
    kit = ADDED if "add_tool" in case else KIT
    files = {
        "app/server.py": SERVER,
        "app/a.py": kit.format("a"),
        "app/b.py": kit.format("b"),
        "app/hub.py": "import app.b  # noqa: F401\n",
        "app/main.py": main,
    }
    write_files(tmp_path, {**PROJECT, **files})
    logged, result = kept(tmp_path)
    assert logged == ["Tool already exists: t"] and f"'{first}'" in result, result
    assert found(tmp_path) == [("MCPD110", f"app/{second}.py")]
    assert found(tmp_path, f"app/{second}.py") == [("MCPD110", f"app/{second}.py")]
    assert found(tmp_path, f"app/{first}.py") == []

    (tmp_path / f"app/{second}.py").write_text(
        kit.format(second).replace("def t(", "def t2(").replace("(t)", "(t2)")
    )
    logged, result = kept(tmp_path)
    assert logged == [] and f"'{first}'" in result, result
    assert found(tmp_path) == found(tmp_path, "app/a.py") == found(tmp_path, "app/b.py") == []


def test_a_file_shown_later_but_imported_first(tmp_path: Path) -> None:
    """`app/z.py` is imported before `app/y.py`: `lint app/y.py` alone checks `z.py` too
    (shown after it, run before it) and reports the duplicate there."""
    files = {
        "app/server.py": SERVER,
        "app/y.py": KIT.format("y"),
        "app/z.py": KIT.format("z"),
        "app/main.py": "import app.z  # noqa: F401\nimport app.y  # noqa: F401\n",
    }
    write_files(tmp_path, {**PROJECT, **files})
    logged, result = kept(tmp_path)
    assert logged == ["Tool already exists: t"] and "'z'" in result, result
    assert found(tmp_path) == found(tmp_path, "app/y.py") == [("MCPD110", "app/y.py")]
    assert found(tmp_path, "app/z.py") == []


def test_two_entry_points_disagreeing_keep_the_order_of_paths(tmp_path: Path) -> None:
    """`app/main.py` runs b first, `app/dev.py` a first: each program drops another tool, so
    lint cannot tell which; it reports the second by path, as before."""
    files = {
        "app/server.py": SERVER,
        "app/a.py": KIT.format("a"),
        "app/b.py": KIT.format("b"),
        "app/main.py": "import app.b  # noqa: F401\nimport app.a  # noqa: F401\n",
        "app/dev.py": "import app.a  # noqa: F401\nimport app.b  # noqa: F401\n",
    }
    write_files(tmp_path, {**PROJECT, **files})
    assert "'b'" in kept(tmp_path)[1]
    assert "'a'" in kept(tmp_path, "app.dev")[1]
    assert found(tmp_path) == found(tmp_path, "app/b.py") == [("MCPD110", "app/b.py")]
    assert found(tmp_path, "app/a.py") == []


def test_a_warm_run_follows_a_reordered_entry_point(tmp_path: Path) -> None:
    """Reordering only `app/main.py`'s imports moves the report on a warm `lint .` and on a
    warm `lint FILE` (main.py is one of the files those runs check)."""
    files = {
        "app/server.py": SERVER,
        "app/a.py": KIT.format("a"),
        "app/b.py": KIT.format("b"),
        "app/main.py": "import app.a  # noqa: F401\nimport app.b  # noqa: F401\n",
    }
    write_files(tmp_path, {**PROJECT, **files})
    warm = functools.partial(cached, tmp_path)
    assert warm(".") == warm("app/b.py") == [("MCPD110", "app/b.py")]
    assert warm("app/a.py") == []
    (tmp_path / "app/main.py").write_text("import app.b  # noqa: F401\nimport app.a  # noqa: F401\n")
    assert warm(".") == warm("app/a.py") == [("MCPD110", "app/a.py")]
    assert warm("app/b.py") == []
    assert "'b'" in kept(tmp_path)[1]
    shutil.rmtree(tmp_path / ".cache")
    assert warm(".") == [("MCPD110", "app/a.py")]


HELPER = 'def register(mcp) -> None:\n    @mcp.tool()\n    def t(x: int) -> str:\n        return "{0}"\n'
"""A helper registering `t`, returning its module's letter."""

CALLS = {
    "at the top of the entry point": "from app import a, b\nfrom app.server import mcp\n\n{0}.register(mcp)\n{1}.register(mcp)\n",
    "in one function body": "from app import a, b\nfrom app.server import mcp\n\n\ndef main() -> None:\n"
    "    {0}.register(mcp)\n    {1}.register(mcp)\n\n\nmain()\n",
    "imported under other names": "from app.a import register as register_a\nfrom app.b import register as register_b\n"
    "from app.server import mcp\n\nregister_{0}(mcp)\nregister_{1}(mcp)\n",
}


@pytest.mark.parametrize("where", CALLS)
@pytest.mark.parametrize("first", ["a", "b"])
def test_helpers_called_in_another_order_than_their_paths(tmp_path: Path, where: str, first: str) -> None:
    """`b.register(mcp)` then `a.register(mcp)`: the SDK drops a's `t`; lint reports a's, in
    `lint .` and in each file alone (and b's when the calls are the other way round)."""
    second = "a" if first == "b" else "b"
    files = {
        "app/server.py": SERVER,
        "app/a.py": HELPER.format("a"),
        "app/b.py": HELPER.format("b"),
        "app/main.py": CALLS[where].format(first, second),
    }
    write_files(tmp_path, {**PROJECT, **files})
    logged, result = kept(tmp_path)
    assert logged == ["Tool already exists: t"] and f"'{first}'" in result, result
    assert found(tmp_path) == [("MCPD110", f"app/{second}.py")]
    assert found(tmp_path, f"app/{second}.py") == [("MCPD110", f"app/{second}.py")]
    assert found(tmp_path, f"app/{first}.py") == found(tmp_path, "app/main.py") == []

    (tmp_path / f"app/{second}.py").write_text(HELPER.format(second).replace("def t(", "def t2("))
    logged, result = kept(tmp_path)
    assert logged == [] and f"'{first}'" in result, result
    assert found(tmp_path) == found(tmp_path, "app/a.py") == found(tmp_path, "app/b.py") == []


def test_helpers_called_in_two_statements_run_in_the_order_written(tmp_path: Path) -> None:
    """`if FAST: b.register(mcp)` then `a.register(mcp)`: two statements of one body run in the
    order written, whatever branch holds a call (`call_order.py`): the SDK keeps b's `t` and
    drops a's, and lint reports a's, in `lint .` and in each file alone."""
    files = {
        "app/server.py": SERVER,
        "app/a.py": HELPER.format("a"),
        "app/b.py": HELPER.format("b"),
        "app/main.py": "from app import a, b\nfrom app.server import mcp\n\nFAST = True\n"
        "if FAST:\n    b.register(mcp)\na.register(mcp)\n",
    }
    write_files(tmp_path, {**PROJECT, **files})
    assert "'b'" in kept(tmp_path)[1]
    assert found(tmp_path) == found(tmp_path, "app/a.py") == [("MCPD110", "app/a.py")]
    assert found(tmp_path, "app/b.py") == []


@pytest.mark.parametrize(
    ("text", "top"),
    [
        (b"@mcp.tool()\ndef t(): ...\n", True),
        (b"def t(): ...\n\n\nmcp.add_tool(t)\n", True),
        (b"tool = mcp.tool\ntool()(t)\n", True),
        (b"def register(mcp):\n    @mcp.tool()\n    def t(): ...\n", False),
        (b"if FAST:\n    mcp.add_tool(t)\n", False),
        (b"x = make()\nclass K:\n    pass\n", False),
    ],
)
def test_a_registration_at_the_top_is_told_by_the_text(text: bytes, top: bool) -> None:
    """`may_register_at_top`: a decorator or call at a line's start; never for a module that
    registers only in functions or blocks (their order is not the imports')."""
    assert may_register_at_top(text) is top


def test_a_factory_given_alone_reads_no_import_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A module registering only inside its factory (`def register(mcp)`) is met in the order
    of the calls, never of the imports: `lint app/a.py` does not follow the entry point's
    imports to place `app/z.py` (shown after it, imported first); a top-level tool module in
    its place does."""
    files = {
        "app/server.py": SERVER,
        "app/a.py": "def register(mcp):\n    @mcp.tool()\n    def t(x: int) -> str:\n        return 'a'\n",
        "app/z.py": KIT.format("z"),
        "app/main.py": "import app.z  # noqa: F401\nfrom app import a\nfrom app.server import mcp\n\na.register(mcp)\n",
    }
    write_files(tmp_path, {**PROJECT, **files})
    asked: list[object] = []
    real = companions.runs_before

    def runs_before(*args: Any) -> Any:
        asked.append(args)
        return real(*args)

    monkeypatch.setattr(companions, "runs_before", runs_before)
    run_files(["app/a.py"], (), tmp_path)
    assert asked == []
    write_files(tmp_path, {"app/a.py": KIT.format("a")})
    run_files(["app/a.py"], (), tmp_path)
    assert len(asked) == 1


def test_a_warm_run_follows_reordered_helper_calls(tmp_path: Path) -> None:
    """Swapping the entry point's two helper calls moves the report on warm runs, `lint .`
    and each file alone, with one cache."""
    files = {
        "app/server.py": SERVER,
        "app/a.py": HELPER.format("a"),
        "app/b.py": HELPER.format("b"),
        "app/main.py": CALLS["at the top of the entry point"].format("a", "b"),
    }
    write_files(tmp_path, {**PROJECT, **files})
    warm = functools.partial(cached, tmp_path)
    assert warm(".") == warm("app/b.py") == [("MCPD110", "app/b.py")]
    assert warm("app/a.py") == []
    (tmp_path / "app/main.py").write_text(CALLS["at the top of the entry point"].format("b", "a"))
    assert warm("app/a.py") == [("MCPD110", "app/a.py")]
    assert warm(".") == [("MCPD110", "app/a.py")]
    assert warm("app/b.py") == []
    assert "'b'" in kept(tmp_path)[1]


LAZY_PACKAGE = """\
import importlib

_LAZY = {"thing": "app.b"}


def __getattr__(name):
    if name in _LAZY:
        return importlib.import_module(_LAZY[name])
    raise AttributeError(name)
"""
"""A package whose PEP 562 `__getattr__` imports `app.b` when `thing` is first asked of it."""


def test_a_module_a_lazy_package_spells_is_not_run_when_the_package_is(tmp_path: Path) -> None:
    """`import app.lazy` then `import app.a`, `import app.b`: the package runs none of the modules
    its strings spell (its `__getattr__` imports `app.b` only when asked for `thing`), so the
    SDK keeps a's `t` and drops b's. Which module a name looked up at run time imports, and
    when, is not the text's order: the order of paths stands, and it reports b."""
    files = {
        "app/server.py": SERVER,
        "app/a.py": KIT.format("a"),
        "app/b.py": KIT.format("b"),
        "app/lazy/__init__.py": LAZY_PACKAGE,
        "app/main.py": "import app.lazy  # noqa: F401\nimport app.a  # noqa: F401\nimport app.b  # noqa: F401\n",
    }
    write_files(tmp_path, {**PROJECT, **files})
    logged, result = kept(tmp_path)
    assert logged == ["Tool already exists: t"] and "'a'" in result, result
    assert found(tmp_path) == found(tmp_path, "app/b.py") == [("MCPD110", "app/b.py")]
    assert found(tmp_path, "app/a.py") == []
