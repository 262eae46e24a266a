"""Property tests for insertion: random awkward modules, every original line kept, the result registers.

The modules are assembled from the shapes that make insertion hard (header comments, docstrings,
`__future__`, imports on one line or in parentheses, decorators, comments between definitions, a
trailing main block, CRLF, tabs). The real planning code runs in-process (no CLI start-up per
example); the result is compiled and executed, so the real SDK registers every tool in it.
"""

from __future__ import annotations

import warnings

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcpdeps.cli.new.module_info import read_module
from mcpdeps.cli.new.plans import ToolRequest, plan_resolver, plan_tool
from mcpdeps.cli.new.specs import ArgSpec, DependSpec
from new_helpers import FRESH_RESOLVER, assert_only_additions

HEADERS = ["", "#!/usr/bin/env python\n", "# -*- coding: utf-8 -*-\n# licence header\n"]
DOCSTRINGS = ["", '"""Module docstring."""\n', '"""Multi-line\n\ndocstring."""\n']
FUTURE = ["", "from __future__ import annotations\n"]
IMPORTS = [
    "import os\n",
    "from typing import Any\n",
    "from typing import (\n    Any,\n    Optional,\n)\n",
    "from typing import Optional, Annotated\n",
    "from mcp.server.mcpserver import Context\n",
    "from mcp.server.mcpserver import (\n    Context,\n)\n",
    "from mcp.server.mcpserver import (Context,\n                                  Resolve)\n",
    "import json  # a trailing comment\n",
]
SEPARATORS = ["\n\n", "\n\n\n", "\n# a comment\n", "\n\n# section\n\n\n", "\n"]
MAIN = [
    "",
    '\n\nif __name__ == "__main__":\n    mcp.run()\n',
    '\n# run\nif __name__ == "__main__":\n    mcp.run()\n# end\n',
]


def _resolver(i: int) -> str:
    return f"def r{i}(x: str) -> str:\n    return x  # r{i}\n"


def _tool(i: int, decorated: bool) -> str:
    extra = "@staticmethod\n" if decorated else ""
    return f'@mcp.tool(title="t{i}")\n{extra}def t{i}(x: str) -> str:\n    """Tool {i}."""\n    return x\n'


@st.composite
def modules(draw: st.DrawFn) -> str:
    imports = draw(st.lists(st.sampled_from(IMPORTS), unique=True, max_size=4))
    parts = [
        draw(st.sampled_from(HEADERS)),
        draw(st.sampled_from(DOCSTRINGS)),
        draw(st.sampled_from(FUTURE)),
        *imports,
        "from mcp.server import MCPServer\n\n",
        'mcp = MCPServer("p")\n',
    ]
    items = draw(st.lists(st.tuples(st.booleans(), st.booleans()), min_size=1, max_size=5))
    resolvers = 0
    for i, (is_tool, decorated) in enumerate(items):
        parts.append(draw(st.sampled_from(SEPARATORS)))
        if is_tool:
            parts.append(_tool(i, decorated))
        else:
            parts.append(_resolver(resolvers))
            resolvers += 1
    if not resolvers:
        parts.append("\n\n" + _resolver(0))
    parts.append(draw(st.sampled_from(MAIN)))
    source = "".join(parts)
    if draw(st.booleans()):
        source = source.replace("    ", "\t")
    return source.replace("\n", "\r\n") if draw(st.booleans()) else source


def _registers(text: str) -> list[str]:
    """Execute the module (the real SDK registers each tool) and return the tool names."""
    namespace: dict[str, object] = {"__name__": "generated"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(compile(text, "generated.py", "exec"), namespace)  # the module is ours, generated above
    server = namespace["mcp"]
    return [t.name for t in server._tool_manager.list_tools()]  # type: ignore[attr-defined]


def _check(source: str, result: str) -> None:
    if "\r\n" in source:
        assert "\n" not in result.replace("\r\n", ""), "a bare LF in a CRLF file"
    assert_only_additions(source.replace("\r\n", "\n"), result.replace("\r\n", "\n"))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(modules())
def test_adding_a_resolver_then_a_tool_keeps_every_line_and_registers(source: str) -> None:
    with_resolver = plan_resolver(read_module(source, "m.py"), "m.py", FRESH_RESOLVER)
    _check(source, with_resolver)
    tool = ToolRequest(
        name="added",
        server="mcp",
        args=[ArgSpec("x", "str")],
        resolves=[DependSpec("v", "fresh", None), DependSpec("w", "r0", "str")],
        context=True,
        sync=True,
    )
    result = plan_tool(read_module(with_resolver, "m.py"), "m.py", tool)
    _check(with_resolver, result)
    assert result.count("def fresh(") == 1 and result.count("def added(") == 1
    assert result.index("def r0(") < result.index("def fresh(") < result.index("def added(")
    tools = _registers(result)
    assert "added" in tools
