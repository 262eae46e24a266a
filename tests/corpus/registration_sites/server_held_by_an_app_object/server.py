# expect: MCPD006
# start: main()
"""An application object holds the server (`self.mcp = MCPServer(...)` in `__init__`); the
entry point creates it and hands `app.mcp` to a helper in another module, which registers
on it (T2 on `archive`)."""
from mcp.server import MCPServer

import journal_tools


class JournalApp:
    def __init__(self) -> None:
        self.mcp = MCPServer("Journal")


def main() -> None:
    app = JournalApp()
    journal_tools.register(app.mcp)
