# expect: ok
"""Async bound method depending on a staticmethod of its own class and a plain function."""
from __future__ import annotations

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Context, Resolve

mcp = MCPServer("Repo")


def owner_of(repo: str) -> str:
    return repo.split("/")[0]


class Git:
    @staticmethod
    def branch(ref: str) -> str:
        return ref or "main"

    async def head(
        self,
        owner: Annotated[str, Resolve(owner_of)],
        branch: Annotated[str, Resolve(Git.branch)],
        ctx: Context,
    ) -> str:
        return f"{owner}:{branch}"


git = Git()


@mcp.tool()
async def head(repo: str, ref: str, sha: Annotated[str, Resolve(git.head)]) -> str:
    """The head commit of a branch."""
    return sha
