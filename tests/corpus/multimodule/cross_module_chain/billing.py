from typing import Annotated

from mcp.server.mcpserver import Resolve

import users


def plan_of(user: Annotated[str, Resolve(users.current_user)]) -> str:
    return "pro" if user else "free"
