# expect: MCPD004
"""A resolver annotated `-> Elicit[Yes] | Sample | ListRoots | str` asks more than one question."""

from typing import Annotated, Union

from pydantic import BaseModel

from mcp.server import MCPServer
from mcp.server.mcpserver import Elicit, ListRoots, Resolve, Sample
from mcp.types import SamplingMessage, TextContent

mcp = MCPServer("Questions")


class Yes(BaseModel):
    ok: bool


class Reason(BaseModel):
    why: str


def ask(topic: str) -> Elicit[Yes] | Sample | ListRoots | str:
    return "none"


@mcp.tool()
def decide(topic: str, answer: Annotated[object, Resolve(ask)]) -> str:
    """Decide."""
    return topic
