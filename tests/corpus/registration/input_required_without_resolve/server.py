# expect: ok
"""An InputRequiredResult return is fine on a tool without resolved parameters."""
from mcp.server import MCPServer
from mcp.types import InputRequiredResult

mcp = MCPServer("Manual")


@mcp.tool()
def manual(question: str) -> InputRequiredResult | str:
    """Drive the multi-round flow by hand."""
    return question
