# expect: ok
"""One question per resolver, three resolvers under one tool: allowed."""
from typing import Annotated

from pydantic import BaseModel

from mcp.server import MCPServer
from mcp.server.mcpserver import Elicit, ListRoots, Resolve, Sample
from mcp.types import CreateMessageResult, ListRootsResult, SamplingMessage, TextContent

mcp = MCPServer("Ask")


class Ok(BaseModel):
    ok: bool


def confirm(task: str) -> Elicit[Ok]:
    return Elicit(f"Run {task}?", Ok)


def summarize(task: str) -> Sample:
    return Sample([SamplingMessage(role="user", content=TextContent(type="text", text=task))], max_tokens=20)


def roots() -> ListRoots:
    return ListRoots()


@mcp.tool()
def run(
    task: str,
    ok: Annotated[Ok, Resolve(confirm)],
    summary: Annotated[CreateMessageResult, Resolve(summarize)],
    where: Annotated[ListRootsResult, Resolve(roots)],
) -> str:
    """Run a task."""
    return task
