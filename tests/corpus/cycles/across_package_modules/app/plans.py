from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import Resolve

from app import quota


def plan_of(q: Annotated[int, Resolve(quota.check_quota)]) -> str:
    return "pro"
