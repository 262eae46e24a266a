"""Registration shapes read in published servers (the s22 round) that lint does not follow yet,
checked against the SDK: strict xfails saying what the SDK does and what lint says, whose files
alone and editor's model must still report what `lint .` reports.

- an instance's members (`getmembers(self, ...)`, `dir(self)` with a decorator's mark),
  `BaseTool.__subclasses__()`.

The other shapes of that round (a mark a decorator sets tested in a namespace loop, the modules
handed to a helper, a collecting decorator's wrapper, OpenTelemetry's span decorator) are
followed now: `test_published_shapes_s23.py`.

Cases are built as `test_published_shapes_s22.py`'s are (our own code, the shape's source in a
comment above each).
"""

from __future__ import annotations

import published_shapes
from published_shapes import entry_point
from test_published_shapes_s20 import DEPS, Case, tools_module

CASES: dict[str, Case] = {}

TOOL_CLASSES = tools_module(
    """\
    from app.deps import load_d


    class BaseTool:
        name = ""


    class SolveTool(BaseTool):
        name = "solve"

        def run(self, x: int, d: Annotated[str, Resolve(load_d)]) -> str:
            return d


    class EchoTool(BaseTool):
        name = "echo"

        def run(self, x: int) -> str:
            return str(x)
    """
)

# Published tool frameworks register `cls().run` for each subclass of their base class.
CASES["each subclass of a base tool class, BaseTool.__subclasses__()"] = (
    {
        "app/deps.py": DEPS,
        "app/tools.py": TOOL_CLASSES,
        "app/main.py": entry_point(
            "from app.tools import BaseTool",
            "for cls in BaseTool.__subclasses__():\n        mcp.add_tool(cls().run, name=cls.name)",
        ),
    },
    "import app.main",
    "app/deps.py",
)

SELF_LISTED = """\
    from mcp.server import MCPServer

    from app.tools import Tools

    mcp = MCPServer("x")
    Tools(mcp)
    """

# Published tool classes register their own public methods in `__init__`.
CASES["a tool class registering its public methods, getmembers(self, ismethod)"] = (
    {
        "app/deps.py": DEPS,
        "app/tools.py": tools_module(
            """\
            import inspect

            from app.deps import load_d


            class Tools:
                def __init__(self, mcp) -> None:
                    for name, method in inspect.getmembers(self, predicate=inspect.ismethod):
                        if not name.startswith("_"):
                            mcp.add_tool(method)

                def solve(self, x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                    return d
            """
        ),
        "app/main.py": SELF_LISTED,
    },
    "import app.main",
    "app/deps.py",
)

CASES["a tool class registering the methods a decorator marks, over dir(self)"] = (
    {
        "app/deps.py": DEPS,
        "app/tools.py": tools_module(
            """\
            from app.deps import load_d


            def tool(fn):
                fn.is_tool = True
                return fn


            class Tools:
                def __init__(self, mcp) -> None:
                    for attr in dir(self):
                        fn = getattr(self, attr)
                        if getattr(fn, "is_tool", False):
                            mcp.add_tool(fn)

                @tool
                def solve(self, x: int, d: Annotated[str, Resolve(load_d)]) -> str:
                    return d
            """
        ),
        "app/main.py": SELF_LISTED,
    },
    "import app.main",
    "app/deps.py",
)

_UNREAD = "; lint does not read "
NOT_FOLLOWED: dict[str, str] = {
    "each subclass of a base tool class, BaseTool.__subclasses__()": (
        "the SDK registers SolveTool().run and refuses load_d(nope)" + _UNREAD + "the subclasses "
        "`__subclasses__()` lists (they may be in any module) and says the tool not analysed (MCPD113)"
    ),
    "a tool class registering its public methods, getmembers(self, ismethod)": (
        "the SDK registers Tools().solve and refuses load_d(nope)" + _UNREAD + "an instance's "
        "members and says the loop not analysed (MCPD113)"
    ),
    "a tool class registering the methods a decorator marks, over dir(self)": (
        "the SDK registers Tools().solve and refuses load_d(nope)" + _UNREAD + "`dir(self)` nor the "
        "mark and says the loop not analysed (MCPD113)"
    ),
}
"""Cases lint does not follow yet: strict xfails saying what the SDK does and what lint says."""

(
    test_sdk_refuses_and_lint_reports_alike,
    test_each_file_alone_reports_what_lint_dot_reports,
    test_the_editor_reports_what_lint_dot_reports,
) = published_shapes.survey_tests(CASES, NOT_FOLLOWED)
