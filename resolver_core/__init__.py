"""Source in, dependency graph out: the model every mcpdeps command reads.

Pure library code: no typer, no rich, and no `mcp` import on the static path
(only the live builder, `live` and `live_site`, imports the SDK, and `answer_results`
for the two runners, `call` and `mcpdeps.testing`).

The names below are loaded when first used (PEP 562), not when any submodule is
imported: a warm `lint` run reads `cache`, `discovery` and `diagnostics` only, and the
analyzer (`builder` and everything it imports) is a tenth of its start-up.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .builder import build_graph
    from .model import Graph, Parameter, Question, Resolver, Server, Span, Tool

_HOMES = {
    "build_graph": "builder",
    **dict.fromkeys(("Graph", "Parameter", "Question", "Resolver", "Server", "Span", "Tool"), "model"),
}

__all__ = ["Graph", "Parameter", "Question", "Resolver", "Server", "Span", "Tool", "build_graph"]


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{home}"), name)
