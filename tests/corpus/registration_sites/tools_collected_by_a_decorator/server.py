# expect: MCPD003
# start: mcp = build()
"""A decorator of the project collects the tool functions in a list (`TOOLS.append(fn)`);
the factory registers whatever it collected: each function `@journal_tool` decorates is a
tool (R3 on `tag_entry`)."""
from mcp.server import MCPServer

import journal_tools  # noqa: F401  (importing it fills the list)
from collect import TOOLS


def build() -> MCPServer:
    mcp = MCPServer("Journal")
    for fn in TOOLS:
        mcp.add_tool(fn)
    return mcp
