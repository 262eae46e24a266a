"""`graph --live`: import the server the way `serve` does and read its registered tools.

Kept apart from `graph_cmd` so that the static path never imports `mcp` or the user's code.
The server is imported by the interpreter `serve` would run it with: in this process when
that is mcpdeps' own, else by the runner there (`cli/runner`), which sends the graph back.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ...resolver_core.model import Graph
from ..errors import UserError


def live_graph(spec: str | None, python: Path | None = None, verbose: bool = False) -> Graph:
    """The live graph of the server `spec` names, imported by the interpreter chosen for it."""
    from ...resolver_core.loading import LoadError, parse_spec
    from ..runner.sdk import interpreter_for

    try:
        parsed = parse_spec(spec, Path.cwd())
    except LoadError as exc:
        raise UserError(str(exc)) from exc
    interpreter = interpreter_for(python, parsed.path, "graph --live")
    if interpreter.own:
        from ..runner.interpreter import explaining_missing

        with explaining_missing(interpreter):
            return import_live_graph(spec)
    from ..runner.parent import graph_elsewhere

    sys.stderr.write(f"mcpdeps graph --live: the server runs under {interpreter.describe()}\n")
    return graph_elsewhere(interpreter, spec, verbose)


def import_live_graph(spec: str | None) -> Graph:
    """The live graph of the server, imported into this process; failures become user errors (exit 2)."""
    from ...resolver_core.loading import LoadError, load_server

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
    from ...resolver_core.live import build_live_graph

    return build_live_graph(loaded)
