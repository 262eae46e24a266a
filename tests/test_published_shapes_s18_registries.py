"""Registries a decorator fills and a loop adds (s18), as published servers write them: a dict
keyed by name (`TOOLS[name] = fn` in a decorator factory, `TOOLS[fn.__name__] = fn`), an
object's method (`@registry.tool`, `@registry.tool(name=...)`) appending to a list or a dict it
holds, the loop in the server module or in a factory (`for name, fn in TOOLS.items():
mcp.add_tool(fn, name=name)`), the tools split over several modules. Each is a small project of
our own in the 2.3 API, started as its author starts it.

The registry's tools land where the decorator is applied; the file of the resolvers they run
must be reported alike by `lint .`, by each file alone (pre-commit), cached, and by the editor
(`published_shapes.survey_tests`). What the SDK registers is read with its names: a dict keyed
by name registers each function under its key when the loop passes it (the SDK's duplicate
warning, or its absence, against MCPD110), and only what the instance the loop runs over holds
(another instance of the registry class collects its own).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import write_files
from published_shapes import CLEAN, PROJECT, REFUSED, duplicates_logged, found, sdk, survey_tests
from test_published_shapes_s14_resolvers import BAD
from test_published_shapes_s15_resolvers import HEAD

Case = tuple[dict[str, str], str, str, str, tuple[str, str]]

DEPS = {"app/auth/__init__.py": "", "app/auth/deps.py": BAD}
"""The refused resolver `load_d(nope)` in a package of its own."""
TYPED = "from typing import Any, Callable\n\n"


def tool_module(decorator: str, imports: str, name: str = "t") -> str:
    """A tools module applying `decorator` to `name(x, d)`, resolved by `load_d` of app/auth/deps.py."""
    return (
        HEAD
        + f"\nfrom app.auth.deps import load_d\n{imports}\n\n{decorator}\n"
        + f"def {name}(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n    return d\n"
    )


def main(imports: str, loop: str) -> str:
    """An entry point importing the tools modules for their side effect and the registry
    (`imports`), binding `mcp` and adding the registry's tools (`loop`, indented by 4)."""
    return f"from mcp.server import MCPServer\n\n{imports}\nmcp = MCPServer('x')\n{loop}"


KEYED = (
    TYPED + "TOOLS: dict[str, Callable[..., Any]] = {}\n\n\ndef tool(name: str) -> Callable[..., Any]:\n"
    "    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:\n        TOOLS[name] = fn\n        return fn\n\n"
    "    return deco\n"
)
"""A dict registry filled by a decorator factory under the name each `@tool("x")` passes."""

REGISTER_TOOL = (
    TYPED + "TOOLS: dict[str, Callable[..., Any]] = {}\n\n\n"
    "def register_tool(name: str, function: Callable[..., Any]) -> None:\n    TOOLS[name] = function\n"
)
"""A dict registry filled by a function called with the key and the function."""

REGISTRY_CLASS = (
    TYPED + "\nclass ToolRegistry:\n    def __init__(self) -> None:\n"
    "        self.tools: dict[str, Callable[..., Any]] = {}\n\n"
    "    def tool(self, name: str | None = None) -> Callable[..., Any]:\n"
    "        def deco(fn: Callable[..., Any]) -> Callable[..., Any]:\n"
    "            self.tools[name or fn.__name__] = fn\n            return fn\n\n        return deco\n"
)
"""A registry object whose `tool(name=...)` method returns the decorator filling its dict."""

ADDED_BY_KEY = main(
    "import app.tools  # noqa: F401\nfrom app.registry import TOOLS\n",
    "for name, fn in TOOLS.items():\n    mcp.add_tool(fn, name=name)\n",
)
"""An entry point adding each function of the dict registry `TOOLS` under its key."""

CASES: dict[str, Case] = {}

# 1. A dict registry filled by a decorator factory (`@tool("lookup")`), the server module adding
#    `TOOLS.items()` under their keys.
CASES["dict registry by a decorator factory's name, added from its items under their keys"] = (
    {
        **DEPS,
        "app/registry.py": KEYED,
        "app/tools.py": tool_module('@tool("lookup")', "from app.registry import tool"),
        "app/main.py": ADDED_BY_KEY,
    },
    "import app.main",
    "app/auth/deps.py",
    REFUSED,
    CLEAN,
)

# 2. A dict registry keyed by `fn.__name__`, the tools split over two modules, the loop in a
#    server factory of another package (`create_server()`), called by the entry point.
CASES["dict registry by function name, tools in two modules, added from its items in a factory"] = (
    {
        **DEPS,
        "app/registry.py": TYPED + "TOOLS: dict[str, Callable[..., Any]] = {}\n\n\n"
        "def tool(fn: Callable[..., Any]) -> Callable[..., Any]:\n    TOOLS[fn.__name__] = fn\n    return fn\n",
        "app/tools/__init__.py": "from . import orders, users  # noqa: F401\n",
        "app/tools/users.py": tool_module("@tool", "from app.registry import tool", "users_t"),
        "app/tools/orders.py": "from app.registry import tool\n\n\n@tool\ndef orders_t(x: int) -> int:\n"
        "    return x\n",
        "app/server/__init__.py": "",
        "app/server/factory.py": "from mcp.server import MCPServer\n\nimport app.tools  # noqa: F401\n"
        "from app.registry import TOOLS\n\n\ndef create_server() -> MCPServer:\n    mcp = MCPServer('x')\n"
        "    for name, fn in TOOLS.items():\n        mcp.add_tool(fn, name=name)\n    return mcp\n",
        "app/main.py": "from app.server.factory import create_server\n\nmcp = create_server()\n",
    },
    "import app.main",
    "app/auth/deps.py",
    REFUSED,
    CLEAN,
)

# 3. A registry object whose method is a decorator factory (`@registry.tool(name="lookup")`)
#    filling the dict it holds, the server module adding `registry.tools.items()`.
CASES["registry object's decorator factory method filling its dict, added under the keys"] = (
    {
        **DEPS,
        "app/registry.py": REGISTRY_CLASS + "\n\nregistry = ToolRegistry()\n",
        "app/tools.py": tool_module('@registry.tool(name="lookup")', "from app.registry import registry"),
        "app/main.py": main(
            "import app.tools  # noqa: F401\nfrom app.registry import registry\n",
            "for name, fn in registry.tools.items():\n    mcp.add_tool(fn, name=name)\n",
        ),
    },
    "import app.main",
    "app/auth/deps.py",
    REFUSED,
    CLEAN,
)

# 4. A registry object appending to the list it holds (`def register(self, fn)`), the instance
#    bound in the package `__init__`, the server module adding `registry.tools` in a loop.
CASES["registry object bound in the package __init__, its method appending, tools added in a loop"] = (
    {
        **DEPS,
        "app/__init__.py": "from app.registry import Registry\n\nregistry = Registry()\n",
        "app/registry.py": TYPED + "\nclass Registry:\n    def __init__(self) -> None:\n"
        "        self.tools: list[Callable[..., Any]] = []\n\n"
        "    def register(self, fn: Callable[..., Any]) -> Callable[..., Any]:\n"
        "        self.tools.append(fn)\n        return fn\n",
        "app/tools.py": tool_module("@registry.register", "from app import registry"),
        "app/main.py": main(
            "from app import registry\nfrom app import tools  # noqa: F401\n",
            "for fn in registry.tools:\n    mcp.add_tool(fn)\n",
        ),
    },
    "import app.main",
    "app/auth/deps.py",
    REFUSED,
    CLEAN,
)

# 5. A list registry filled by a decorator factory taking options (`@tool(tags=("users",))`),
#    the server module adding what it holds.
CASES["list registry filled by a decorator factory taking options, added in a loop"] = (
    {
        **DEPS,
        "app/registry.py": TYPED + "REGISTERED: list[Callable[..., Any]] = []\n\n\n"
        "def tool(*, tags: tuple[str, ...] = ()) -> Callable[..., Any]:\n"
        "    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:\n        REGISTERED.append(fn)\n"
        "        return fn\n\n    return deco\n",
        "app/tools.py": tool_module('@tool(tags=("users",))', "from app.registry import tool"),
        "app/main.py": main(
            "import app.tools  # noqa: F401\nfrom app.registry import REGISTERED\n",
            "for fn in REGISTERED:\n    mcp.add_tool(fn)\n",
        ),
    },
    "import app.main",
    "app/auth/deps.py",
    REFUSED,
    CLEAN,
)

# 6. A set registry (`_REGISTRY.add(fn)`, the decorator returning a `functools.wraps` wrapper),
#    a helper of the registry module registering what it holds sorted by name on the server it
#    is handed (`for fn in sorted(_REGISTRY, key=...): mcp.tool()(fn)`), the server calling it.
CASES["set registry added sorted by a helper the server module calls"] = (
    {
        **DEPS,
        "app/registry.py": "import functools\n" + TYPED + "_REGISTRY: set[Callable[..., Any]] = set()\n\n\n"
        "def expose(fn: Callable[..., Any]) -> Callable[..., Any]:\n    _REGISTRY.add(fn)\n\n"
        "    @functools.wraps(fn)\n    def wrapper(*args: Any, **kwargs: Any) -> Any:\n"
        "        return fn(*args, **kwargs)\n\n    return wrapper\n\n\n"
        "def register_all(server: Any) -> None:\n    for fn in sorted(_REGISTRY, key=lambda f: f.__name__):\n"
        "        server.tool()(fn)\n",
        "app/tools.py": tool_module("@expose", "from app.registry import expose"),
        "app/main.py": main(
            "import app.tools  # noqa: F401\nfrom app.registry import register_all\n",
            "register_all(mcp)\n",
        ),
    },
    "import app.main",
    "app/auth/deps.py",
    REFUSED,
    CLEAN,
)

# 7. A dict registry of records (`TOOLS[name] = {"function": fn, "description": ...}`) a
#    decorator factory fills, the server registering each record's function under its key
#    (`mcp.tool(name=name, description=...)(entry["function"])`).
CASES["dict registry of records holding the function, registered under the keys"] = (
    {
        **DEPS,
        "app/registry.py": TYPED + "TOOLS: dict[str, dict[str, Any]] = {}\n\n\n"
        "def toolbox(name: str, description: str) -> Callable[..., Any]:\n"
        "    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:\n"
        '        TOOLS[name] = {"function": fn, "description": description}\n        return fn\n\n'
        "    return deco\n",
        "app/tools.py": tool_module(
            '@toolbox("lookup", "Look a user up.")', "from app.registry import toolbox"
        ),
        "app/main.py": main(
            "import app.tools  # noqa: F401\nfrom app.registry import TOOLS\n",
            "for name, entry in TOOLS.items():\n"
            '    mcp.tool(name=name, description=entry["description"])(entry["function"])\n',
        ),
    },
    "import app.main",
    "app/auth/deps.py",
    REFUSED,
    CLEAN,
)

# 8. A registry function called, not applied (`register_tool("lookup", t)` below the defs), the
#    name its first parameter, the server module adding the dict's items under their keys.
CASES["registry function called with a name and the function, added under the keys"] = (
    {
        **DEPS,
        "app/registry.py": REGISTER_TOOL,
        "app/tools.py": tool_module("", "from app.registry import register_tool")
        + '\n\nregister_tool("lookup", t)\n',
        "app/main.py": ADDED_BY_KEY,
    },
    "import app.main",
    "app/auth/deps.py",
    REFUSED,
    CLEAN,
)


(
    test_sdk_refuses_and_lint_reports_alike,
    test_each_file_alone_reports_what_lint_dot_reports,
    test_the_editor_reports_what_lint_dot_reports,
) = survey_tests(
    CASES,
    {},
)


def _each_alone_reports_it(root: Path, whole: list[dict[str, object]], first: str) -> None:
    """`first`, the tools file and the server file each linted alone report what `lint .`
    (`whole`) reports there."""
    for given in (first, "app/tools.py", "app/main.py"):
        assert [d for d in found(root, [given]) if d["path"] == given] == [
            d for d in whole if d["path"] == given
        ], given


def _two_registries(root: Path, added: str) -> None:
    """Two instances of one registry class, `a` holding the tool running `load_d(nope)`, `b` a
    clean one; the server adds what `added` holds."""
    write_files(
        root,
        {
            **PROJECT,
            **DEPS,
            "app/registry.py": REGISTRY_CLASS + "\n\na = ToolRegistry()\nb = ToolRegistry()\n",
            "app/tools.py": tool_module("@a.tool()", "from app.registry import a, b")
            + "\n\n@b.tool()\ndef u(x: int) -> int:\n    return x\n",
            "app/main.py": main(
                f"import app.tools  # noqa: F401\nfrom app.registry import {added}\n",
                f"for name, fn in {added}.tools.items():\n    mcp.add_tool(fn, name=name)\n",
            ),
        },
    )


@pytest.mark.parametrize("added", ["a", "b"])
def test_only_the_instance_the_loop_runs_over_registers(tmp_path: Path, added: str) -> None:
    """Two instances of one registry class: the server adds one's tools, not the other's. The
    SDK refuses the project only when it adds the instance holding the refused resolver's tool,
    and lint (`lint .`, the resolver file alone, the tools file alone) reports MCPD002 then
    only, never the other instance's tools as the server's."""
    _two_registries(tmp_path, added)
    started = sdk(tmp_path, "import app.main")
    refused = added == "a"
    assert (REFUSED in started.stderr) == refused and (started.returncode == 0) != refused, started.stderr
    whole = found(tmp_path, ["."])
    expected = [("MCPD002", "app/auth/deps.py")] if refused else []
    assert [(d["code"], d["path"]) for d in whole] == expected
    _each_alone_reports_it(tmp_path, whole, "app/auth/deps.py")


NAMED: dict[str, tuple[str, str, bool]] = {
    "a key equal to a tool the server registered first": ('@tool("search")', "lookup", True),
    "a key other than the function's name, equal to it": ('@tool("lookup")', "search", False),
}
"""A dict registry's tool (its decorator, its function's name), beside `@mcp.tool() def
search` registered first, and whether the SDK then logs a duplicate tool name."""


@pytest.mark.parametrize("named", sorted(NAMED))
def test_a_dict_registry_registers_under_its_keys(tmp_path: Path, named: str) -> None:
    """`for name, fn in TOOLS.items(): mcp.add_tool(fn, name=name)` registers each function under
    its key, not its own name: the SDK logs a duplicate (and drops it) when a key is the name of a
    tool registered before, and none when only the function's own name is; lint reports MCPD110
    exactly then, alike in `lint .` and for each file alone."""
    decorator, function, duplicate = NAMED[named]
    write_files(
        tmp_path,
        {
            **PROJECT,
            "app/registry.py": KEYED,
            "app/tools.py": f"from app.registry import tool\n\n\n{decorator}\ndef {function}(x: int) -> int:\n"
            "    return x\n",
            "app/main.py": main(
                "import app.tools  # noqa: F401\nfrom app.registry import TOOLS\n",
                "\n\n@mcp.tool()\ndef search(q: str) -> str:\n    return q\n\n\n"
                "for name, fn in TOOLS.items():\n    mcp.add_tool(fn, name=name)\n",
            ),
        },
    )
    logged = duplicates_logged(tmp_path, {})
    assert bool(logged) == duplicate, logged
    whole = found(tmp_path, ["."])
    assert [d["code"] for d in whole] == (["MCPD110"] if duplicate else []), whole
    _each_alone_reports_it(tmp_path, whole, "app/registry.py")


@pytest.mark.parametrize("called", [False, True], ids=["decorated", "called"])
@pytest.mark.parametrize("refused_last", [False, True])
def test_a_key_stored_twice_registers_the_last_function(
    tmp_path: Path, refused_last: bool, called: bool
) -> None:
    """Two defs of one module under one key of a dict registry (`@tool("lookup")` twice, or
    `register_tool("lookup", f)` called for each): the dict holds the last, so the SDK is handed
    only that one, refusing the project when it runs `load_d(nope)` and starting it (no duplicate
    logged) when the refused one came first; lint reports MCPD002 then only, and no MCPD110, in
    `lint .` and for each file alone. (Called, lint said MCPD110 "keeps the first".)"""
    plain = "def {}(x: int) -> int:\n    return x\n"
    resolved = "def {}(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n    return d\n"
    order = ["first", "second"]
    kinds = [plain, resolved] if refused_last else [resolved, plain]
    if called:
        defs = [kind.format(name) for kind, name in zip(kinds, order, strict=True)]
        defs.append("".join(f'register_tool("lookup", {name})\n' for name in order))
        registry, imported = REGISTER_TOOL, "register_tool"
    else:
        defs = ['@tool("lookup")\n' + kind.format(name) for kind, name in zip(kinds, order, strict=True)]
        registry, imported = KEYED, "tool"
    write_files(
        tmp_path,
        {
            **PROJECT,
            **DEPS,
            "app/registry.py": registry,
            "app/tools.py": HEAD
            + f"\nfrom app.auth.deps import load_d\nfrom app.registry import {imported}\n\n\n"
            + "\n\n".join(defs),
            "app/main.py": ADDED_BY_KEY,
        },
    )
    started = sdk(tmp_path, "import app.main")
    assert (REFUSED in started.stderr) == refused_last, started.stderr
    if not refused_last:
        assert duplicates_logged(tmp_path, {}) == []
    whole = found(tmp_path, ["."])
    assert [(d["code"], d["path"]) for d in whole] == (
        [("MCPD002", "app/auth/deps.py")] if refused_last else []
    )
    _each_alone_reports_it(tmp_path, whole, "app/auth/deps.py")


@pytest.mark.parametrize("case", sorted(CASES))
def test_parallel_runs_report_what_one_process_does(tmp_path: Path, case: str) -> None:
    """`lint -j 2 .`, cold and cached, reports each registry project as one process does."""
    write_files(tmp_path, {**PROJECT, **CASES[case][0]})
    whole = found(tmp_path, ["."])
    cache = tmp_path / "cache"
    assert found(tmp_path, ["."], jobs=2) == found(tmp_path, ["."], cache, jobs=2) == whole
    assert found(tmp_path, ["."], cache, jobs=2) == whole


TAKEN_OUT = (
    ("mcp.add_tool(", "print("),
    ("server.tool()(fn)", "print(fn)"),
    ('mcp.tool(name=name, description=entry["description"])(entry["function"])', "print(entry)"),
)
"""Each case's registering loop made to register nothing (what it adds, printed instead)."""


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_cached_run_follows_the_loop_taken_out_and_put_back(tmp_path: Path, case: str) -> None:
    """The loop adding a registry's tools taken out, then put back, with the cache kept: each
    cached `lint .` reports what a cold run does (the files filling the registry are checked
    again with the loop's, which need not import them: s17's strict xfail, for every shape)."""
    root = tmp_path / "p"
    files = CASES[case][0]
    write_files(root, {**PROJECT, **files})
    name, (old, new) = next(
        (name, pair) for name, text in sorted(files.items()) for pair in TAKEN_OUT if pair[0] in text
    )
    looped = files[name]
    cache = tmp_path / "cache"
    for text in (looped, looped.replace(old, new), looped):
        (root / name).write_text(text)
        assert found(root, ["."], cache) == found(root, ["."]), (name, text)
