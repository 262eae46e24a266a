"""`graph --live`: import the server the way `serve` does and read its registered tools.

Kept apart from `graph_cmd` so that the static path never imports `mcp` or the user's code.
"""

from __future__ import annotations

from pathlib import Path

from mcpdeps.cli.errors import UserError
from mcpdeps.resolver_core.model import Graph


def live_graph(spec: str | None) -> Graph:
    """The live graph of the server `spec` names; import failures become user errors (exit 2)."""
    from mcpdeps.resolver_core.loading import LoadError, load_server

    try:
        loaded = load_server(spec, cwd=Path.cwd())
    except LoadError as exc:
        hint = (
            "\nWithout --live, `mcpdeps graph` reads the source instead and shows every problem at its node."
            if exc.__cause__ is not None
            else ""
        )
        raise UserError(f"{exc}{hint}") from exc
    except Exception as exc:  # the SDK refused a tool at registration, or the module crashed
        raise UserError(
            f"The server could not be imported: {type(exc).__name__}: {exc}. "
            "Run `mcpdeps graph` without --live (or `mcpdeps lint`) to see every problem at once."
        ) from exc
    from mcpdeps.resolver_core.live import build_live_graph

    return build_live_graph(loaded)
