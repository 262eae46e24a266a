# expect: MCPD002
"""The same with a dataclass field: its generated __init__ hints are never read."""
from dataclasses import dataclass

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("R2")


def owner_of(repo: str) -> str:
    return repo.split("/")[0]


@dataclass
class Repo:
    repo: str
    owner: Annotated[str, Resolve(owner_of)]


@mcp.tool()
def clone(repo: str, r: Annotated[Repo, Resolve(Repo)]) -> str:
    """Clone a repository."""
    return r.owner
