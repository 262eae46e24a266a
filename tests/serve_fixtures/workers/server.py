"""A two-question tool for `serve --workers`: each resolver run logs which worker process ran it.

Request state is sealed with keys from the environment, shared by every worker.
The log (path in MCPDEPS_TEST_PID_LOG) gets one line per resolver run and per
tool body: `<what> <pid>`; resolver bodies re-run every round, so the lines show
which process answered each round.
"""

import os
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Elicit, RequestStateSecurity, Resolve
from pydantic import BaseModel

mcp = MCPServer(
    "Trips",
    request_state_security=RequestStateSecurity(keys=[os.environ["MCP_STATE_KEY"]]),
)


class When(BaseModel):
    day: str


class Seats(BaseModel):
    count: int


def _log(what: str) -> None:
    with open(os.environ["MCPDEPS_TEST_PID_LOG"], "a", encoding="utf-8") as log:
        log.write(f"{what} {os.getpid()}\n")


def ask_day(city: str) -> When | Elicit[When]:
    _log("ask_day")
    return Elicit(f"Which day do you travel to {city}?", When)


def ask_seats(city: str, when: Annotated[When, Resolve(ask_day)]) -> Seats | Elicit[Seats]:
    _log("ask_seats")
    return Elicit(f"How many seats to {city} on {when.day}?", Seats)


@mcp.tool()
def book_trip(
    city: str,
    when: Annotated[When, Resolve(ask_day)],
    seats: Annotated[Seats, Resolve(ask_seats)],
) -> str:
    """Book seats on a trip, asking the day and the number of seats."""
    _log("book_trip")
    return f"Booked {seats.count} seat(s) to {city} on {when.day} (worker {os.getpid()})."
