# expect: MCPD002
# start: mcp = build()
"""Tool specs as dicts (`{"func": f, "name": "x"}`) in a list of another module, registered in a
loop with `add_tool(spec["func"], name=spec["name"])`: each function under its spec's name
(R2 on `journal_open`)."""
from mcp.server import MCPServer

from specs import JOURNAL_TOOLS


def build() -> MCPServer:
    mcp = MCPServer("Journal")
    for spec in JOURNAL_TOOLS:
        mcp.add_tool(spec["func"], name=spec["name"])
    return mcp
