"""`mcpdeps graph`: every tool's dependency tree, as a rich tree, JSON, Mermaid or Graphviz.

Static by default (same core as `lint`, nothing imported). `--live` imports the
server with the SDK and builds the same model from the registered tools. Heavy
modules (the builder, rich, the SDK) are imported inside the command so that
`mcpdeps --help` and `lint` stay fast.
"""

from __future__ import annotations

import enum
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from ..errors import UserError
from ..shared_options import INTERPRETER_DEFAULT, MISCELLANEOUS, PYTHON, VERBOSE
from ..typer_options import typer_option

if TYPE_CHECKING:
    from ...lint_rules.api.graphs import GraphResult
    from ...resolver_core.model import Graph


SELECTION, OUTPUT, LIVE = "Selection", "Output", "Live graph"
"""The sections of `graph --help`, in this order after the arguments."""


class GraphFormat(str, enum.Enum):
    tree = "tree"
    json = "json"
    mermaid = "mermaid"
    dot = "dot"


def graph(
    paths: list[str] = typer.Argument(
        None,
        help="Files or folders to read (default: the current folder); FILE.py:NAME draws the server NAME "
        "is or builds (a factory). With --live: one server spec, "
        "FILE.py[:OBJECT] (default: found the way `serve` finds it).",
    ),
    tool: list[str] = typer.Option(
        None, "--tool", "-t", help="Show only this tool (repeatable).", rich_help_panel=SELECTION
    ),
    server: list[str] = typer.Option(
        None, "--server", help="Show only the server held by this variable.", rich_help_panel=SELECTION
    ),
    output_format: GraphFormat = typer.Option(
        None,
        "--format",
        "-f",
        help="Output format (default: tree, or what the -o file's extension says).",
        show_default=False,
        rich_help_panel=OUTPUT,
    ),
    output: Path = typer.Option(
        None,
        "--output",
        "-o",
        metavar="FILE",
        help="Write to this file; its extension picks the format: .txt .json .mmd .dot, or .svg .png .pdf "
        "(drawn by Graphviz).",
        rich_help_panel=OUTPUT,
    ),
    depth: int = typer.Option(
        None,
        "--depth",
        min=1,
        metavar="N",
        help="Tree only: show resolvers down to this many levels.",
        rich_help_panel=SELECTION,
    ),
    live: bool = typer.Option(
        False, "--live", help="Import the server with the SDK and read its tools.", rich_help_panel=LIVE
    ),
    python: Path | None = typer_option(
        replace(
            PYTHON,
            help=f"With --live: the interpreter that imports the server {INTERPRETER_DEFAULT}.",
            panel=LIVE,
        )
    ),
    verbose: bool = typer_option(replace(VERBOSE, panel=MISCELLANEOUS)),
) -> None:
    """Show each tool's dependency tree: what the model sees, resolvers, questions and run order.

    Problems are drawn where they are, but the exit code stays 0: gate on `mcpdeps lint`.
    """
    from ...lint_rules import api

    if python is not None and not live:
        raise UserError("--python chooses the interpreter that imports the server: it needs --live.")
    if live:
        from .live import live_graph

        if paths and len(paths) > 1:
            raise UserError("--live imports one server: give one spec, FILE.py[:OBJECT].")
        drawn = api.choose(live_graph(paths[0] if paths else None, python, verbose), server or (), tool or ())
        found = None
    else:
        from ..inputs import require_existing
        from ..lint.render_progress import lint_progress

        request = api.GraphRequest(paths or ["."], Path.cwd(), server or (), tool or ())
        require_existing(request.files(), request.cwd)
        with lint_progress("reading") as progress:
            found = api.graph(request, progress)
        drawn = found.graph
    fmt, picture = GraphFormat(output_format or "tree"), None
    if output is not None:
        from .output import format_for

        wanted, picture = format_for(output, output_format.value if output_format else None)
        fmt = GraphFormat(wanted)
    text = _render(drawn, found, fmt, depth, to_file=output is not None)
    if picture is not None and text is not None and output is not None:
        from .output import draw_picture

        draw_picture(text, picture, output)
    elif text is not None:
        _write(text, output)
    raise typer.Exit(0)


def _render(
    graph: Graph, static: GraphResult | None, fmt: GraphFormat, depth: int | None, *, to_file: bool
) -> str | None:
    """The output text, or None when the tree was printed straight to the terminal.

    `static`: the engine's static graph, whose problems are drawn on the nodes (None: `--live`)."""
    if fmt is GraphFormat.json:
        from ...resolver_core.graph_json import dumps, graph_document

        return dumps(graph_document(graph))
    problems = static.problems if static is not None else None
    if fmt is GraphFormat.mermaid:
        from .mermaid import to_mermaid

        return to_mermaid(graph, problems)
    if fmt is GraphFormat.dot:
        from .dot import to_dot

        return to_dot(graph, problems)
    from .render import print_graph

    return print_graph(
        graph,
        depth=depth,
        capture=to_file,
        problems=problems,
        source="static" if static is not None else "live",
    )


def _write(text: str, output: Path | None) -> None:
    if output is None:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
        return
    try:
        # surrogateescape: a non-UTF-8 file name is written as its bytes, as on the terminal.
        output.write_text(
            text if text.endswith("\n") else text + "\n", encoding="utf-8", errors="surrogateescape"
        )
    except OSError as exc:
        raise UserError(f"Cannot write {output}: {exc.strerror or exc}.") from exc
