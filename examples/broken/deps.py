"""Resolvers of the broken bookshop; `check_quota` refers back to `server.plan_of`.

The two modules import each other. `mcpdeps lint` (and the oracle test, which imports
the server as the module `server`) see the cycle. `mcp run server.py` loads the file
as `server_module`, so `import server` below loads it a second time while this module
is still half-initialised: the SDK's first error is then R2 for `plan_of` (its hints
cannot be evaluated yet) rather than the cycle, which is a good reason not to write
modules that import each other.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel

from mcp.server.mcpserver import Elicit, Resolve, Sample
from mcp.types import SamplingMessage, TextContent

import server

INVENTORY = {"Dune": 7, "Neuromancer": 0}


class Genre(BaseModel):
    genre: str


def check_quota(user: str, plan: Annotated[str, Resolve(server.plan_of)]) -> int:
    return 20 if plan == "pro" else 5


def check_stock(title: str, warehouse: str) -> int:
    return INVENTORY.get(title, 0)


def estimate_delivery(title: str) -> str:
    return "tomorrow" if INVENTORY.get(title, 0) else "in 2-3 weeks"


def ask_reader(genre: str) -> Elicit[Genre] | Sample:
    if not genre:
        return Elicit("Which genre do you like?", Genre)
    text = f"Suggest one {genre} book title."
    return Sample([SamplingMessage(role="user", content=TextContent(type="text", text=text))], max_tokens=50)


def shelf_of(genre: str) -> str:
    return f"shelf {len(genre) % 5}"

