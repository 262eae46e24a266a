# expect: ok
"""The classic layout: `app.core` creates the server, `app.tools` imports it and decorates,
and the entry module imports both."""
import app.tools  # noqa: F401  (registers the tools)
from app.core import mcp

__all__ = ["mcp"]
