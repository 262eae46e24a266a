"""Collections a registering loop runs over, computed from lists written out (the s21 round).

Published servers keep one list of tools per feature and join them for the loop: with `+`
(`ALL_TOOLS = READ_TOOLS + WRITE_TOOLS` in the tools package), with `itertools.chain(...)`, or
behind a getter (`def get_all_tools(): return [r, w]`, a dict's `.items()` with the keys as
names); feature modules summed alike, each one's `register(mcp)` called in the loop; a class
attribute read through `self` (`for name in self.TOOLS:`) as `Server.TOOLS` is. The SDK registers each value; lint read `[*A, *B]` but said these loops not analysed
(MCPD113), the SDK refusing. A sum changed after it is bound, or a getter building its list,
is still said not analysed (what is written is not what the loop sees).

Each case is a small project of our own in the 2.3 API whose tool runs `load_d(nope)`;
`published_shapes.survey_tests` checks it as the other survey files do (the SDK, `lint .`,
each file alone cold and cached, the editor saved and unsaved). No published code is here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import published_shapes
from conftest import write_files
from published_shapes import PROJECT, REFUSED, duplicates_logged, entry_point, found, sdk
from test_published_shapes_s21 import DEPS, tools_module

CASES: dict[str, tuple[Any, ...]] = {}

FEATURE_TOOLS = {
    "app/deps.py": DEPS,
    "app/tools/read.py": "def r(x: int) -> int:\n    return x\n\n\nREAD_TOOLS = [r]\n",
    "app/tools/write.py": tools_module(
        """\
        from app.deps import load_d


        def w(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
            return d


        WRITE_TOOLS = [w]
        """
    ),
}
"""One list of tools per feature module; the write feature's tool runs the refused resolver."""

# Published servers joining one list per feature with `+` in the tools package for the server
# to loop over.
CASES["feature lists summed in the package __init__, looped by the server"] = (
    {
        **FEATURE_TOOLS,
        "app/tools/__init__.py": (
            "from app.tools.read import READ_TOOLS\nfrom app.tools.write import WRITE_TOOLS\n\n"
            "ALL_TOOLS = READ_TOOLS + WRITE_TOOLS\n"
        ),
        "app/main.py": entry_point(
            "from app.tools import ALL_TOOLS", "for fn in ALL_TOOLS:\n        mcp.add_tool(fn)"
        ),
    },
    "import app.main",
    "app/deps.py",
)

# The same lists joined by `itertools.chain` where the loop is written.
CASES["feature lists joined by itertools.chain in the registering loop"] = (
    {
        **FEATURE_TOOLS,
        "app/tools/__init__.py": "",
        "app/main.py": entry_point(
            "import itertools\n\n    from app.tools.read import READ_TOOLS\n    from app.tools.write import WRITE_TOOLS",
            "for fn in itertools.chain(READ_TOOLS, WRITE_TOOLS):\n        mcp.tool()(fn)",
        ),
    },
    "import app.main",
    "app/deps.py",
)

GETTER = """\
from app.tools.read import r
from app.tools.write import w


def get_all_tools():
    \"\"\"Every tool of the server, in the order they are listed.\"\"\"
    return [r, w]
"""
"""A tools package `__init__` listing its functions in a getter whose body is one `return`."""

# Published tools packages listing their functions in a getter, looped over by the factory.
CASES["a getter of the tools package returning its functions, looped in a factory"] = (
    {
        **FEATURE_TOOLS,
        "app/tools/__init__.py": GETTER,
        "app/main.py": """\
            from mcp.server import MCPServer

            from app.tools import get_all_tools


            def build() -> MCPServer:
                mcp = MCPServer("x")
                for fn in get_all_tools():
                    mcp.add_tool(fn)
                return mcp
            """,
    },
    "from app.main import build; build()",
    "app/deps.py",
)

# A getter returning a dict of name -> function, looped over `.items()` with the keys as names.
CASES["a getter returning a dict of tools, looped over its items with the keys as names"] = (
    {
        **FEATURE_TOOLS,
        "app/tools/__init__.py": (
            "from app.tools.read import r\nfrom app.tools.write import w\n\n\n"
            "def tool_table():\n    return {'read': r, 'write': w}\n"
        ),
        "app/main.py": entry_point(
            "from app import tools",
            "for name, fn in tools.tool_table().items():\n        mcp.add_tool(fn, name=name)",
        ),
    },
    "import app.main",
    "app/deps.py",
)

REGISTRARS = {
    "app/deps.py": DEPS,
    "app/notes.py": "def register(mcp) -> None:\n    @mcp.tool()\n    def n(x: int) -> int:\n        return x\n",
    "app/tasks.py": tools_module(
        """\
        from app.deps import load_d


        def register(mcp) -> None:
            @mcp.tool()
            def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                return d
        """
    ),
}
"""Two feature modules each with a `register(mcp)` helper; the tasks feature's tool is refused."""

# Published plugin loaders listing core and optional feature modules apart and looping over
# their sum, each module's `register(mcp)` called: lint said both helpers' tools not analysed
# ("no call in the project passes a server"), the SDK refusing.
CASES["feature modules listed apart, register(mcp) of each in a loop over their sum"] = (
    {
        **REGISTRARS,
        "app/main.py": entry_point(
            "from app import notes, tasks",
            "CORE = [notes]\n    EXTRA = [tasks]\n    for m in CORE + EXTRA:\n        m.register(mcp)",
        ),
    },
    "import app.main",
    "app/deps.py",
)

# The sum bound to a name in a modules listing of its own, imported by the entry point.
CASES["feature modules summed in a listing module, register(mcp) of each in a loop"] = (
    {
        **REGISTRARS,
        "app/features.py": "from app import notes, tasks\n\nCORE = [notes]\nALL = CORE + [tasks]\n",
        "app/main.py": entry_point("from app.features import ALL", "for m in ALL:\n        m.register(mcp)"),
    },
    "import app.main",
    "app/deps.py",
)

CLASS_TOOLS = tools_module(
    """\
    from mcp.server import MCPServer

    from app.deps import load_d


    class Server:
        TOOLS = ("search", "draw")

        def __init__(self) -> None:
            self.mcp = MCPServer("x")
            for name in self.TOOLS:
                self.mcp.add_tool(getattr(self, name), name=name)

        def search(self, x: int, d: Annotated[str, Resolve(load_d)]) -> str:
            return d

        def draw(self, x: int) -> str:
            return str(x)


    server = Server()
    """
)
"""A server class naming its tool methods in a class attribute, registered by `getattr(self, name)`."""

# Published server classes listing the names of their tool methods in a class attribute and
# registering `getattr(self, name)` for each in `__init__`: lint read `Server.TOOLS` but not
# `self.TOOLS`, and said the tools not analysed, the SDK refusing.
CASES["tool methods named by a class attribute, getattr(self, name) for each in __init__"] = (
    {"app/deps.py": DEPS, "app/main.py": CLASS_TOOLS},
    "import app.main",
    "app/deps.py",
)

# The class attribute holding the functions themselves, shadowed by nothing.
CASES["tool functions held by a class attribute, self.TOOLS looped in __init__"] = (
    {
        **FEATURE_TOOLS,
        "app/tools/__init__.py": "",
        "app/main.py": """\
            from mcp.server import MCPServer

            from app.tools.read import r
            from app.tools.write import w


            class Server:
                TOOLS = [r, w]

                def __init__(self) -> None:
                    self.mcp = MCPServer("x")
                    for fn in self.TOOLS:
                        self.mcp.add_tool(fn)


            server = Server()
            """,
    },
    "import app.main",
    "app/deps.py",
)

(
    test_sdk_refuses_and_lint_reports_alike,
    test_each_file_alone_reports_what_lint_dot_reports,
    test_the_editor_reports_what_lint_dot_reports,
) = published_shapes.survey_tests(CASES, {})


def test_a_sum_changed_after_it_is_bound_is_said_not_analysed(tmp_path: Path) -> None:
    """`ALL = A + B` then `ALL.append(r)`: the loop registers `r` twice (the SDK logs the
    duplicate); what is written is not what the loop sees, so lint says the loop not analysed
    (MCPD113) rather than reading the sum."""
    files = {
        "app/tools.py": (
            "def r(x: int) -> int:\n    return x\n\n\ndef w(x: int) -> int:\n    return x\n\n\n"
            "A = [r]\nB = [w]\nALL = A + B\nALL.append(r)\n"
        ),
        "app/main.py": entry_point("from app.tools import ALL", "for fn in ALL:\n        mcp.add_tool(fn)"),
    }
    write_files(tmp_path, {**PROJECT, **files})
    assert duplicates_logged(tmp_path, {}) == ["Tool already exists: r"]
    assert [d["code"] for d in found(tmp_path, ["."])] == ["MCPD113"]


def test_a_sum_listing_a_function_twice_is_a_duplicate(tmp_path: Path) -> None:
    """`for fn in A + A:` registers `r` twice: the SDK logs the duplicate, lint reports MCPD110
    at the loop's registration."""
    files = {
        "app/tools.py": "def r(x: int) -> int:\n    return x\n\n\nA = [r]\n",
        "app/main.py": entry_point("from app.tools import A", "for fn in A + A:\n        mcp.add_tool(fn)"),
    }
    write_files(tmp_path, {**PROJECT, **files})
    assert duplicates_logged(tmp_path, {}) == ["Tool already exists: r"]
    assert [(d["code"], d["path"]) for d in found(tmp_path, ["."])] == [("MCPD110", "app/main.py")]


def test_a_getter_building_its_list_is_said_not_analysed(tmp_path: Path) -> None:
    """`def get_tools(): tools = [r]; if ...: tools.append(w); return tools`: lint reads only a
    getter whose body is one `return`; this one's loop is said not analysed (MCPD113), the SDK
    refusing the tool it appends."""
    files = {
        "app/deps.py": DEPS,
        "app/tools.py": tools_module(
            """\
            import os

            from app.deps import load_d


            def w(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                return d


            def r(x: int) -> int:
                return x


            def get_tools():
                tools = [r]
                if not os.environ.get("READ_ONLY"):
                    tools.append(w)
                return tools
            """
        ),
        "app/main.py": entry_point(
            "from app.tools import get_tools", "for fn in get_tools():\n        mcp.add_tool(fn)"
        ),
    }
    write_files(tmp_path, {**PROJECT, **files})
    assert REFUSED in sdk(tmp_path, "import app.main").stderr
    assert [d["code"] for d in found(tmp_path, ["."])] == ["MCPD113"]


def test_an_instance_list_shadowing_the_class_attribute_is_what_registers(tmp_path: Path) -> None:
    """`TOOLS = [t]` in the class body, `self.TOOLS = [ok]` in `__init__`, then `for fn in
    self.TOOLS:`: the instance's list registers (the SDK starts, `t` never registered), and lint
    reads it, not the class attribute: nothing reported."""
    files = {
        "app/deps.py": DEPS,
        "app/main.py": tools_module(
            """\
            from mcp.server import MCPServer

            from app.deps import load_d


            def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                return d


            def ok(x: int) -> int:
                return x


            class Server:
                TOOLS = [t]

                def __init__(self) -> None:
                    self.TOOLS = [ok]
                    self.mcp = MCPServer("x")
                    for fn in self.TOOLS:
                        self.mcp.add_tool(fn)


            server = Server()
            """
        ),
    }
    write_files(tmp_path, {**PROJECT, **files})
    started = sdk(tmp_path, "import app.main")
    assert started.returncode == 0, started.stderr
    assert found(tmp_path, ["."]) == []
