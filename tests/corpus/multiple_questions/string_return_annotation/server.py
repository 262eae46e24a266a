# expect: MCPD004
"""Postponed annotations: the return annotation is evaluated by the SDK at registration."""
from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel

from mcp.server import MCPServer
from mcp.server.mcpserver import Elicit, ListRoots, Resolve, Sample
from mcp.types import SamplingMessage, TextContent

mcp = MCPServer("R4")


class Ok(BaseModel):
    ok: bool


class Name(BaseModel):
    name: str


def ask(task: str) -> Elicit[Name] | Sample | None:
    return None


@mcp.tool()
def run(task: str, who: Annotated[Name, Resolve(ask)]) -> str:
    """Run."""
    return task
