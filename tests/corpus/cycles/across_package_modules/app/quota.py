from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import Resolve

from app import plans


def check_quota(user: str, plan: Annotated[str, Resolve(plans.plan_of)]) -> int:
    return 1
