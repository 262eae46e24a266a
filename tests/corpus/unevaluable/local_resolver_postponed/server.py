# expect: MCPD009
"""The same register() under `from __future__ import annotations`: the SDK evaluates the tool's
hints in the module's globals, where the local resolver does not exist."""
from tools import register

from mcp.server import MCPServer

mcp = MCPServer("Local")
register(mcp)
