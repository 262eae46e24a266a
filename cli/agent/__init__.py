"""`mcpdeps mcp`: mcpdeps as an MCP server for coding agents.

Named `agent`, not `mcp`: a folder `cli/mcp/` would be imported as the SDK itself by
any Python started in `cli/` (the current folder comes first on `sys.path`).
"""
