"""Registration shapes read in published servers (the s21 round), checked against the SDK.

- tool classes of a project held by another object: a server class storing a holder of tool
  objects (`self.tools = Tools()`, whose `__init__` stores `self.rag = Rag()`) and adding their
  bound methods down the chain (`self.mcp.add_tool(self.tools.rag.search)`), or a module-level
  holder (`tools.rag.search`): lint said them not analysed;
- tool classes each with an `add(self, mcp)` method defining its tools (an abstract `BaseTool`
  subclassed per tool), run over a list of instances another module writes (`TOOLS =
  [SolveTool(), EchoTool()]`, then `for tool in TOOLS: tool.add(mcp)`) or over a tuple of the
  classes instantiated in the loop (`for cls in (SolveTool, EchoTool): cls().add(mcp)`): lint
  said the tools not analysed ("no call in the project passes a server"), the SDK refusing;
- shapes lint already agreed on, kept as the most common published ones: a factory taking a
  container and returning a Starlette app mounting its local server, helpers `add_x_tool(mcp)`
  registering into it; `Field(...)` written before the `Resolve` in the `Annotated`.

Each case is a small project of our own in the 2.3 API whose tool runs `load_d(nope)`, which
the SDK refuses; `published_shapes.survey_tests` starts the server under the SDK, then runs
`lint .`, `lint <resolver file>` (refused and clean), each file alone cold and cached, and the
editor's model, saved and unsaved. The comment above a case says where its shape was read;
no code of theirs is here.
"""

from __future__ import annotations

from pathlib import Path

import published_shapes
import pytest
from conftest import write_files
from published_shapes import PROJECT, duplicates_logged, entry_point, found, sdk
from test_published_shapes_s20 import DEPS, Case, tools_module

CASES: dict[str, Case] = {}

TOOL_OBJECTS = tools_module(
    """\
    from app.deps import load_d


    class Rag:
        def search(self, x: int, d: Annotated[str, Resolve(load_d)]) -> str:
            return d


    class Plot:
        def draw(self, x: int) -> str:
            return str(x)


    class Tools:
        def __init__(self) -> None:
            self.rag = Rag()
            self.plot = Plot()
    """
)
"""`app/tools.py`: tool objects (the refused tool a method of `Rag`) and the holder of both."""

# A published RAG server (code corpus): its server class stores `FastMCP("Tools")` and a holder
# of tool objects (`self.tools = MCPTools()`, whose attributes are one object per tool family)
# in `__init__`, then `self.mcp.add_tool(self.tools.rag.ret_retrieval)` per tool.
CASES["server class adding bound methods of tool objects its holder attribute stores"] = (
    {
        "app/deps.py": DEPS,
        "app/tools.py": TOOL_OBJECTS,
        "app/main.py": """\
            from mcp.server import MCPServer

            from app.tools import Tools


            class Server:
                def __init__(self) -> None:
                    self.mcp = MCPServer("x")
                    self.tools = Tools()
                    self.mcp.add_tool(self.tools.rag.search)
                    self.mcp.add_tool(self.tools.plot.draw)

                def run(self) -> None:
                    self.mcp.run()


            server = Server()
            """,
    },
    "import app.main",
    "app/deps.py",
)

# The same chain read from a module-level holder instead of `self`.
CASES["bound methods of tool objects a module-level holder stores, add_tool(tools.rag.search)"] = (
    {
        "app/deps.py": DEPS,
        "app/tools.py": TOOL_OBJECTS + "\n\ntools = Tools()\n",
        "app/main.py": entry_point(
            "from app.tools import tools", "mcp.add_tool(tools.rag.search)\n    mcp.add_tool(tools.plot.draw)"
        ),
    },
    "import app.main",
    "app/deps.py",
)

TOOL_CLASSES = tools_module(
    """\
    from abc import ABC, abstractmethod

    from app.deps import load_d


    class BaseTool(ABC):
        @abstractmethod
        def add(self, mcp) -> None: ...


    class SolveTool(BaseTool):
        def add(self, mcp) -> None:
            @mcp.tool(name="solve")
            async def solve(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                return d


    class EchoTool(BaseTool):
        def add(self, mcp) -> None:
            @mcp.tool()
            def echo(x: int) -> int:
                return x
    """
)
"""`app/tools.py`: one class per tool behind an abstract base, each defining its tool in
`add(mcp)`; `SolveTool`'s runs the refused resolver."""

# Published servers with an abstract `BaseTool` whose subclasses implement `add(self, mcp:
# FastMCP)` (code corpus, a maths RAG server) and a registry module listing one instance of
# each: the server module loops over that list.
CASES["tool objects of another module's list, each one's add(mcp) called in a loop"] = (
    {
        "app/deps.py": DEPS,
        "app/tools.py": TOOL_CLASSES + "\n\nTOOLS: list[BaseTool] = [SolveTool(), EchoTool()]\n",
        "app/main.py": entry_point(
            "from app.tools import TOOLS", "for tool in TOOLS:\n        tool.add(mcp)"
        ),
    },
    "import app.main",
    "app/deps.py",
)

# The same list handed through a helper of a third module the entry point gives the server.
CASES["tool objects of another module's list, add(mcp) looped by a register helper"] = (
    {
        "app/deps.py": DEPS,
        "app/tools.py": TOOL_CLASSES + "\n\nTOOLS = [SolveTool(), EchoTool()]\n",
        "app/registry.py": """\
            from app.tools import TOOLS


            def register_all(mcp) -> None:
                for tool in TOOLS:
                    tool.add(mcp)
            """,
        "app/main.py": entry_point("from app.registry import register_all", "register_all(mcp)"),
    },
    "import app.main",
    "app/deps.py",
)

# The classes listed instead of instances, each made in the loop: `cls().add(mcp)`.
CASES["tool classes written in the loop, each instantiated and its add(mcp) called"] = (
    {
        "app/deps.py": DEPS,
        "app/tools.py": TOOL_CLASSES,
        "app/main.py": entry_point(
            "from app.tools import EchoTool, SolveTool",
            "for cls in (SolveTool, EchoTool):\n        cls().add(mcp)",
        ),
    },
    "import app.main",
    "app/deps.py",
)

# The classes listed by the tools module, instantiated in a factory's loop.
CASES["tool classes of another module's tuple, instantiated in a factory's loop"] = (
    {
        "app/deps.py": DEPS,
        "app/tools.py": TOOL_CLASSES + "\n\nTOOL_CLASSES = (SolveTool, EchoTool)\n",
        "app/main.py": """\
            from mcp.server import MCPServer

            from app.tools import TOOL_CLASSES


            def build() -> MCPServer:
                mcp = MCPServer("x")
                for cls in TOOL_CLASSES:
                    cls().add(mcp)
                return mcp
            """,
    },
    "from app.main import build; build()",
    "app/deps.py",
)

# Agreed already; the most common published shape of this round: a factory taking the
# application's container, registering through `add_x_tool(mcp)` helpers a package re-exports,
# and returning a Starlette app mounting the server (the server is never returned).
CASES["factory taking a container, add_x_tool(mcp) helpers, returning the app mounting it"] = (
    {
        "app/deps.py": DEPS,
        "app/tools/__init__.py": "from app.tools.echo import add_echo_tool\nfrom app.tools.solve import add_solve_tool\n",
        "app/tools/solve.py": tools_module("""\
            from mcp.server import MCPServer

            from app.deps import load_d


            def add_solve_tool(mcp: MCPServer) -> None:
                @mcp.tool(name="solve")
                async def solve(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                    return d
            """),
        "app/tools/echo.py": """\
            def add_echo_tool(mcp) -> None:
                @mcp.tool()
                def echo(x: int) -> int:
                    return x
            """,
        "app/main.py": """\
            from mcp.server import MCPServer
            from starlette.applications import Starlette
            from starlette.routing import Mount

            from app.tools import add_echo_tool, add_solve_tool


            def create_app(container: object) -> Starlette:
                mcp = MCPServer(name="x")
                add_solve_tool(mcp)
                add_echo_tool(mcp)
                return Starlette(routes=[Mount("/", app=mcp.streamable_http_app())])
            """,
    },
    "from app.main import create_app; create_app(object())",
    "app/deps.py",
)

# Agreed already: published tools describe a resolved parameter with `Field(description=...)`
# before the marker; the SDK takes the first `Resolve` of the metadata, wherever it is.
CASES["Field(description=...) written before the Resolve in the Annotated"] = (
    {
        "app/deps.py": DEPS,
        "app/main.py": tools_module("""\
            from mcp.server import MCPServer
            from pydantic import Field

            from app.deps import load_d

            mcp = MCPServer("x")


            @mcp.tool()
            def t(x: int, d: Annotated[str, Field(description="who"), Resolve(load_d)]) -> str:
                return d
            """),
    },
    "import app.main",
    "app/deps.py",
)

# Published helpers returning the server's decorator with fixed options (`def read_only(mcp):
# return mcp.tool(annotations=...)`), applied where it is made: `read_only(mcp)(t)` in a
# register helper. lint read `@read_only(mcp)` on a def and `tool = read_only(mcp)`, but was
# silent on the call applied at once, the SDK refusing.
CASES["a function returning the server's tool(...) applied where it is called, read_only(mcp)(t)"] = (
    {
        "app/deps.py": DEPS,
        "app/deco.py": """\
            def read_only(mcp):
                return mcp.tool(annotations={"readOnlyHint": True})
            """,
        "app/tools.py": tools_module("""\
            from app.deco import read_only
            from app.deps import load_d


            def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                return d


            def register(mcp) -> None:
                read_only(mcp)(t)
            """),
        "app/main.py": entry_point("from app.tools import register", "register(mcp)"),
    },
    "import app.main",
    "app/deps.py",
)

# The same from a module-level server: `def tool(): return mcp.tool()`, then `tool()(t)`.
CASES["a getter of the module server's tool() decorator applied at once, tool()(t)"] = (
    {
        "app/deps.py": DEPS,
        "app/server.py": """\
            from mcp.server import MCPServer

            mcp = MCPServer("x")


            def tool():
                return mcp.tool()
            """,
        "app/tools.py": tools_module("""\
            from app.deps import load_d
            from app.server import tool


            def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                return d


            tool()(t)
            """),
        "app/main.py": "import app.tools\n",
    },
    "import app.main",
    "app/deps.py",
)

# atopile's `MCPTools` (code corpus; it moved to `mcp.server.mcpserver.MCPServer`): a registry
# whose `register(decorator=None)` stores `self._tools[func] = decorator` (a default function
# returning `mcp.tool()`, or a lambda a tool passes), and `install(mcp)` running
# `decorator(mcp)(func)` over `self._tools.items()`.
CASES["registry storing a decorator getter per function, install(mcp) applying each"] = (
    {
        "app/deps.py": DEPS,
        "app/registry.py": """\
            from __future__ import annotations

            from typing import TYPE_CHECKING, Callable

            if TYPE_CHECKING:
                from mcp.server import MCPServer


            class MCPTools:
                def __init__(self) -> None:
                    self._tools: dict[Callable, Callable] = {}

                def register(self, decorator: Callable | None = None) -> Callable:
                    def default_decorator(mcp: MCPServer) -> Callable:
                        return mcp.tool()

                    if decorator is None:
                        decorator = default_decorator

                    def decorator_wrapper(func: Callable) -> Callable:
                        self._tools[func] = decorator
                        return func

                    return decorator_wrapper

                def install(self, mcp: MCPServer) -> None:
                    for func, decorator in self._tools.items():
                        decorator(mcp)(func)
            """,
        "app/tools.py": tools_module("""\
            from app.deps import load_d
            from app.registry import MCPTools

            library_tools = MCPTools()


            @library_tools.register()
            def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                return d


            @library_tools.register(lambda mcp: mcp.tool(name="echo"))
            def u(x: int) -> int:
                return x
            """),
        "app/main.py": entry_point("from app.tools import library_tools", "library_tools.install(mcp)"),
    },
    "import app.main",
    "app/deps.py",
)

NOT_FOLLOWED: dict[str, str] = {
    "registry storing a decorator getter per function, install(mcp) applying each": (
        "the SDK registers each stored function through the decorator its getter returns and "
        "refuses load_d(nope); lint does not follow a getter called through a dict's values "
        "(`decorator(mcp)(func)` over `self._tools.items()`) and says nothing"
    ),
}
"""Cases lint does not follow yet: strict xfails saying what the SDK does and what lint says."""

(
    test_sdk_refuses_and_lint_reports_alike,
    test_each_file_alone_reports_what_lint_dot_reports,
    test_the_editor_reports_what_lint_dot_reports,
) = published_shapes.survey_tests(CASES, NOT_FOLLOWED)


def test_two_tool_classes_of_a_loop_adding_one_name_are_a_duplicate(tmp_path: Path) -> None:
    """`for cls in (A, B): cls().add(mcp)` where both `add` methods register a tool named
    `same`: the SDK logs the duplicate and keeps A's; lint reports MCPD110 on B's, `lint .` and
    the file alone alike."""
    files = {
        "app/tools.py": """\
            class A:
                def add(self, mcp) -> None:
                    @mcp.tool()
                    def same(x: int) -> int:
                        return x


            class B:
                def add(self, mcp) -> None:
                    @mcp.tool(name="same")
                    def other(x: int) -> int:
                        return x
            """,
        "app/main.py": entry_point(
            "from app.tools import A, B", "for cls in (A, B):\n        cls().add(mcp)"
        ),
    }
    write_files(tmp_path, {**PROJECT, **files})
    assert duplicates_logged(tmp_path, {}) == ["Tool already exists: same"]
    whole = [(d["code"], d["path"], d["line"]) for d in found(tmp_path, ["."])]
    assert whole == [("MCPD110", "app/tools.py", 10)]
    assert [(d["code"], d["path"], d["line"]) for d in found(tmp_path, ["app/tools.py"])] == whole


@pytest.mark.xfail(
    strict=True,
    reason=(
        "mcp 2.3.0 refuses every functools.partial registered as a tool, name= given or not: "
        "func_metadata reads `func.__name__`, which a partial lacks (AttributeError, the server "
        "does not start); mcpdeps says the tool not analysed (MCPD113, info) and no contract code "
        "names this registration error yet"
    ),
)
def test_a_partial_registered_as_a_tool_is_an_error(tmp_path: Path) -> None:
    """A published wiki server's `server.add_tool(partial(write, vault), name="write", ...)`:
    the SDK cannot register it; lint should report an error there."""
    files = {
        "app/main.py": """\
            from functools import partial

            from mcp.server import MCPServer


            class Vault:
                pass


            def write(vault: Vault, text: str) -> str:
                return text


            mcp = MCPServer("x")
            mcp.add_tool(partial(write, Vault()), name="write")
            """,
    }
    write_files(tmp_path, {**PROJECT, **files})
    assert "has no attribute '__name__'" in sdk(tmp_path, "import app.main").stderr
    assert [d["severity"] for d in found(tmp_path, ["."])] == ["error"]
