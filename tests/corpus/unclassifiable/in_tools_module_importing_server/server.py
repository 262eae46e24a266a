# expect: MCPD002
"""The same layout with an unclassifiable parameter in `app.tools`."""
import app.tools  # noqa: F401  (registers the tools)
from app.core import mcp

__all__ = ["mcp"]
