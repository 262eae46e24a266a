# expect: MCPD002
# start: mcp = build()
"""Groups of tools listed in another module, registered in nested loops (`for group in
(tools.READ, tools.WRITE): for fn in group:`), and one group again under computed names
(`name=f"v2_{fn.__name__}"`): every registration is checked under the name the SDK gives it
(R2 on `read_entry` and on `v2_read_entry`)."""
from mcp.server import MCPServer

import journal_tools


def build() -> MCPServer:
    mcp = MCPServer("Journal")
    for group in (journal_tools.READ, journal_tools.WRITE):
        for fn in group:
            mcp.tool()(fn)
    for fn in journal_tools.READ:
        mcp.add_tool(fn, name=f"v2_{fn.__name__}")
    return mcp
