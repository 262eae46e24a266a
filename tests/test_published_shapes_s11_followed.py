"""The s11 shapes lint once did not follow, in the other ways they are written, and their controls.

`test_published_shapes_s11` holds the six shapes as published (`functools.partial(register,
mcp)`, `Register()(mcp)`, `tool = mcp.tool` in a helper or imported, `for fn in self.tools`,
`getattr(tools, name)` over `tools.__all__`). Here: each one's variants, checked both ways
against the SDK as they are (`check_both_ways`), and a control per shape where it registers
nothing the resolver runs in (a partial of a helper that registers nothing, a `__call__` that
does not register, `__all__` naming another function, ...): the SDK starts the server with the
refused resolver in place, and lint reports nothing, `lint .` and each file alone alike. A
shape followed by guessing would report there.
"""

from __future__ import annotations

from pathlib import Path

import published_shapes
import pytest
from conftest import lint_diagnostics, write_files
from published_shapes import PROJECT, check_both_ways, entry_point, resolver_module, sdk

TOOL = """\
def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
    return d
"""
"""A module-level tool whose resolved parameter runs `load_d` (the resolver the SDK refuses)."""

OTHER = """\
def other(x: int) -> str:
    return str(x)
"""
"""A tool that runs no resolver: what a control registers instead of `t`, if anything."""

REGISTER = "def register(mcp) -> None:\n    mcp.add_tool(t)\n\n\n"
"""A helper registering `t` on the server it is given."""

SERVER_TOOL = 'from mcp.server import MCPServer\n\nmcp = MCPServer("x")\ntool = mcp.tool\n'
"""A server module binding its `tool` method to a module-level name others import."""

IMPORTED_TOOL = "from app.server import tool\n"

REGISTRAR = (
    "class Reg:\n    def __init__(self, mcp) -> None:\n        self.mcp = mcp\n\n"
    "    def __call__(self, fn, name) -> None:\n        self.mcp.add_tool(fn, name=name)\n\n\n"
)
"""A registrar holding the server, whose `__call__` registers the function it is given."""

VARIANTS: dict[str, tuple[dict[str, str], str, str]] = {
    "partial imported from functools, bound then called": (
        {
            "app/tools.py": resolver_module(REGISTER + TOOL),
            "app/main.py": entry_point(
                "from functools import partial\n\n    from app.tools import register",
                "setup = partial(register, mcp)\n    setup()",
            ),
        },
        "import app.main",
        "app/tools.py",
    ),
    "a partial called where it is made": (
        {
            "app/tools.py": resolver_module(REGISTER + TOOL),
            "app/main.py": entry_point(
                "import functools\n\n    from app.tools import register",
                "functools.partial(register, mcp)()",
            ),
        },
        "import app.main",
        "app/tools.py",
    ),
    "a partial passing the server by keyword": (
        {
            "app/tools.py": resolver_module(REGISTER + TOOL),
            "app/main.py": entry_point(
                "import functools\n\n    from app.tools import register",
                "functools.partial(register, mcp=mcp)()",
            ),
        },
        "import app.main",
        "app/tools.py",
    ),
    "a partial bound at module level, called in main()": (
        {
            "app/tools.py": resolver_module(REGISTER + TOOL),
            "app/main.py": entry_point(
                "import functools\n\n    from app.tools import register",
                "setup = functools.partial(register, mcp)\n\n\n    def main() -> None:\n        setup()\n\n\n    main()",
            ),
        },
        "import app.main",
        "app/tools.py",
    ),
    "a partial binding the name, the server passed when it is called": (
        {
            "app/tools.py": resolver_module(
                "def register(mcp, name) -> None:\n    mcp.add_tool(t, name=name)\n\n\n" + TOOL
            ),
            "app/main.py": entry_point(
                "import functools\n\n    from app.tools import register",
                'setup = functools.partial(register, name="weather")\n    setup(mcp)',
            ),
        },
        "import app.main",
        "app/tools.py",
    ),
    "a registrar instance holding the server, its __call__ given the tool": (
        {
            "app/tools.py": resolver_module(
                "class Register:\n    def __init__(self, mcp) -> None:\n        self.mcp = mcp\n\n"
                "    def __call__(self, fn, name) -> None:\n        self.mcp.add_tool(fn, name=name)\n\n\n"
                + TOOL
            ),
            "app/main.py": entry_point("from app.tools import Register, t", 'Register(mcp)(t, "weather")'),
        },
        "import app.main",
        "app/tools.py",
    ),
    "a registrar instance bound to a name, then called": (
        {
            "app/tools.py": resolver_module(
                "class Register:\n    def __call__(self, mcp) -> None:\n        mcp.add_tool(t)\n\n\n" + TOOL
            ),
            "app/main.py": entry_point(
                "from app.tools import Register", "install = Register()\n    install(mcp)"
            ),
        },
        "import app.main",
        "app/tools.py",
    ),
    "the server's tool method bound in a helper, used as a decorator there": (
        {
            "app/tools.py": resolver_module(
                "def register(mcp) -> None:\n    tool = mcp.tool\n\n    @tool()\n"
                "    def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n        return d\n"
            ),
            "app/main.py": entry_point("from app.tools import register", "register(mcp)"),
        },
        "import app.main",
        "app/tools.py",
    ),
    "the server's add_tool bound in a helper, called": (
        {
            "app/tools.py": resolver_module(
                "def register(mcp) -> None:\n    add = mcp.add_tool\n    add(t)\n\n\n" + TOOL
            ),
            "app/main.py": entry_point("from app.tools import register", "register(mcp)"),
        },
        "import app.main",
        "app/tools.py",
    ),
    "a registry object listing tools in a tuple": (
        {
            "app/tools.py": resolver_module(
                "class Registry:\n    def __init__(self) -> None:\n        self.tools = (t,)\n\n"
                "    def apply(self, mcp) -> None:\n        for fn in self.tools:\n            mcp.tool()(fn)\n\n\n"
                + TOOL
            ),
            "app/main.py": entry_point("from app.tools import Registry", "Registry().apply(mcp)"),
        },
        "import app.main",
        "app/tools.py",
    ),
    "tools named in a tuple __all__ added by getattr": (
        {
            "app/tools.py": resolver_module(OTHER + "\n\n" + TOOL + '\n\n__all__ = ("other", "t")\n'),
            "app/main.py": entry_point(
                "from app import tools",
                "for name in tools.__all__:\n        mcp.add_tool(getattr(tools, name))",
            ),
        },
        "import app.main",
        "app/tools.py",
    ),
    "the server's tool method imported, called on the tool with a name": (
        {
            "app/server.py": SERVER_TOOL,
            "app/tools.py": resolver_module(TOOL + '\n\ntool(name="weather")(t)\n', imports=IMPORTED_TOOL),
            "app/main.py": "import app.tools  # noqa: F401\n",
        },
        "import app.main",
        "app/tools.py",
    ),
    "the server's tool method imported, called bare on the tool": (
        {
            "app/server.py": SERVER_TOOL,
            "app/tools.py": resolver_module(TOOL + "\n\ntool()(t)\n", imports=IMPORTED_TOOL),
            "app/main.py": "import app.tools  # noqa: F401\n",
        },
        "import app.main",
        "app/tools.py",
    ),
    "the server's add_tool imported under its name, called on the tool": (
        {
            "app/server.py": SERVER_TOOL + "add_tool = mcp.add_tool\n",
            "app/tools.py": resolver_module(
                TOOL + "\n\nadd_tool(t)\n", imports="from app.server import add_tool\n"
            ),
            "app/main.py": "import app.tools  # noqa: F401\n",
        },
        "import app.main",
        "app/tools.py",
    ),
    "a registrar instance holding the server, bound to a name, then given the tool": (
        {
            "app/tools.py": resolver_module(REGISTRAR + TOOL),
            "app/main.py": entry_point("from app.tools import Reg, t", 'r = Reg(mcp)\n    r(t, "weather")'),
        },
        "import app.main",
        "app/tools.py",
    ),
}
"""The shapes as published servers also write them: the SDK refuses each, lint reports it."""

CONTROLS: dict[str, tuple[dict[str, str], str]] = {
    "a partial of a helper that registers nothing, called": (
        {
            "app/tools.py": resolver_module("def prepare(mcp) -> None:\n    print(mcp.name)\n\n\n" + TOOL),
            "app/main.py": entry_point(
                "import functools\n\n    from app.tools import prepare",
                "setup = functools.partial(prepare, mcp)\n    setup()",
            ),
        },
        "import app.main",
    ),
    "a registrar class whose __call__ registers nothing": (
        {
            "app/tools.py": resolver_module(
                "class Register:\n    def __call__(self, mcp) -> None:\n        print(mcp.name)\n\n\n" + TOOL
            ),
            "app/main.py": entry_point("from app.tools import Register", "Register()(mcp)"),
        },
        "import app.main",
    ),
    "the server's tool method bound in a helper, applied to another function": (
        {
            "app/tools.py": resolver_module(
                "def register(mcp) -> None:\n    tool = mcp.tool\n    tool()(other)\n\n\n"
                + OTHER
                + "\n\n"
                + TOOL
            ),
            "app/main.py": entry_point("from app.tools import register", "register(mcp)"),
        },
        "import app.main",
    ),
    "an imported name the importing module binds again before decorating": (
        {
            "app/server.py": 'from mcp.server import MCPServer\n\nmcp = MCPServer("x")\ntool = mcp.tool\n',
            "app/tools.py": resolver_module(
                "def tool():\n    return lambda fn: fn\n\n\n@tool()\n" + TOOL,
                imports="from app.server import tool  # noqa: F401\n",
            ),
            "app/main.py": "import app.tools  # noqa: F401\n",
        },
        "import app.main",
    ),
    "a registry object listing another tool in __init__": (
        {
            "app/tools.py": resolver_module(
                "class Registry:\n    def __init__(self) -> None:\n        self.tools = [other]\n\n"
                "    def apply(self, mcp) -> None:\n        for fn in self.tools:\n            mcp.add_tool(fn)\n\n\n"
                + OTHER
                + "\n\n"
                + TOOL
            ),
            "app/main.py": entry_point("from app.tools import Registry", "Registry().apply(mcp)"),
        },
        "import app.main",
    ),
    "__all__ naming another function, added by getattr": (
        {
            "app/tools.py": resolver_module(OTHER + "\n\n" + TOOL + '\n\n__all__ = ["other"]\n'),
            "app/main.py": entry_point(
                "from app import tools",
                "for name in tools.__all__:\n        mcp.add_tool(getattr(tools, name))",
            ),
        },
        "import app.main",
    ),
    "the server's tool method imported, called on another function": (
        {
            "app/server.py": SERVER_TOOL,
            "app/tools.py": resolver_module(
                OTHER + "\n\n" + TOOL + "\n\ntool()(other)\n", imports=IMPORTED_TOOL
            ),
            "app/main.py": "import app.tools  # noqa: F401\n",
        },
        "import app.main",
    ),
    "a registrar instance holding the server, bound to a name, given another function": (
        {
            "app/tools.py": resolver_module(REGISTRAR + OTHER + "\n\n" + TOOL),
            "app/main.py": entry_point(
                "from app.tools import Reg, other", 'r = Reg(mcp)\n    r(other, "weather")'
            ),
        },
        "import app.main",
    ),
}
"""The shapes registering nothing that runs `load_d`: the SDK starts the server, lint is silent."""


@pytest.mark.parametrize("case", sorted(VARIANTS))
def test_variants_reported_as_the_sdk_refuses_them(tmp_path: Path, case: str) -> None:
    check_both_ways(tmp_path, *VARIANTS[case])


@pytest.mark.parametrize("case", sorted(CONTROLS))
def test_controls_registering_nothing_refused_are_accepted(tmp_path: Path, case: str) -> None:
    files, entry = CONTROLS[case]
    write_files(tmp_path, {**PROJECT, **files})
    started = sdk(tmp_path, entry)
    assert started.returncode == 0, started.stderr
    assert lint_diagnostics(tmp_path, "--no-cache", ".") == []
    for path in files:
        assert lint_diagnostics(tmp_path, "--no-cache", path) == [], path


test_the_editor_reports_what_lint_dot_reports = published_shapes.editor_test(
    VARIANTS, more={name: (files, None, published_shapes.CLEAN) for name, (files, _) in CONTROLS.items()}
)
