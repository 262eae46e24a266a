"""A small server whose resolvers ask every kind of question `mcpdeps call` answers.

- `plan_trip` elicits a richer form (bounds, enums, optional fields, defaults,
  descriptions) through `trip_details`.
- `name_book` asks the client's LLM for a title through `suggest_title` (Sample).
- `list_workspace` asks for the client's roots through `workspace` (ListRoots).

Run it with `mcpdeps call examples/questions/server.py plan_trip --arg city=Lyon`.
"""

from __future__ import annotations

from typing import Annotated, Literal

from mcp.server import MCPServer
from mcp.server.mcpserver import Elicit, ListRoots, Resolve, Sample
from mcp_types import CreateMessageResult, ListRootsResult, SamplingMessage, TextContent
from pydantic import BaseModel, Field

mcp = MCPServer("Questions")


class TripDetails(BaseModel):
    """What the traveller is asked before a trip is planned."""

    travellers: int = Field(2, ge=1, le=8, description="How many people travel")
    budget: float = Field(description="Budget per person, in euros", ge=0)
    transport: Literal["train", "plane", "bike"] = Field("train", description="How to get there")
    hotel: bool = Field(True, description="Book a hotel")
    notes: str | None = Field(None, max_length=200, description="Anything we should know")


def trip_details(city: str) -> Elicit[TripDetails]:
    """Ask the person for the trip's details (the message is stable: same every round)."""
    return Elicit(f"Planning a trip to {city}: a few details, please.", TripDetails)


def suggest_title(topic: str) -> Sample:
    """Ask the client's LLM for a title about the topic."""
    return Sample(
        [
            SamplingMessage(
                role="user", content=TextContent(type="text", text=f"Suggest a book title about {topic}.")
            )
        ],
        max_tokens=30,
        system_prompt="You name books. Answer with the title only.",
    )


def workspace() -> ListRoots:
    """Ask the client which folders it exposes."""
    return ListRoots()


@mcp.tool()
def plan_trip(city: str, details: Annotated[TripDetails, Resolve(trip_details)]) -> dict[str, object]:
    """Plan a trip to a city with the details the person gave."""
    return {
        "city": city,
        "travellers": details.travellers,
        "budget": details.budget * details.travellers,
        "transport": details.transport,
        "hotel": details.hotel,
        "notes": details.notes or "",
    }


@mcp.tool()
def name_book(topic: str, title: Annotated[CreateMessageResult, Resolve(suggest_title)]) -> str:
    """Name a book about a topic, with a title the client's LLM suggests."""
    content = title.content
    text = content.text if isinstance(content, TextContent) else "(no text)"
    return f"Your book about {topic}: {text.strip()}"


@mcp.tool()
def list_workspace(roots: Annotated[ListRootsResult, Resolve(workspace)]) -> list[str]:
    """List the client's roots."""
    return [str(root.uri) for root in roots.roots]
