"""Tool parameter shapes read in published MCP servers, written small in my own words (2.3 API).

No tests here: `test_published_shapes_params.py` runs each case under the SDK and mcpdeps.
Importing the package fills `CASES` from its three modules, in order.
"""

from __future__ import annotations

from . import arguments, context, resolved
from .base import CASES, HEAD

__all__ = ["CASES", "HEAD", "arguments", "context", "resolved"]
