# expect: MCPD002, MCPD006
# start: mcp = create_server()
"""Classes that hold the server in an attribute: the application creates it in `__init__`
and hands `self.mcp` to a tools class, whose method registers on its own `self.mcp`."""
from mcp.server import MCPServer

from tools.info import InfoTools


class App:
    def __init__(self) -> None:
        self.mcp = MCPServer("Info")
        InfoTools(self.mcp).register_tools()
        self.setup()

    def setup(self) -> None:
        @self.mcp.tool()
        def version(_verbose: bool = False) -> str:
            """An underscore parameter: T2."""
            return "1"


def create_server() -> MCPServer:
    return App().mcp
