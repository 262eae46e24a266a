"""`mcpdeps migrate PATHS`: bring MCP servers from mcp 1.x to 2.x (`--diff` to preview).

The typer command only; the codemods are `lint_rules/migration/`, the output `render.py`.
libcst is imported inside the command, never at start-up.
"""

from __future__ import annotations

from pathlib import Path

import typer

from ..shared_options import DIFF, EXCLUDE, VERBOSE
from ..typer_options import typer_option


def migrate(
    paths: list[Path] = typer.Argument(
        None, help="Files or folders to migrate (default: the current folder)."
    ),
    diff: bool = typer_option(DIFF),
    exclude: list[str] | None = typer_option(EXCLUDE),
    verbose: bool = typer_option(VERBOSE),
) -> None:
    """Rewrite a server for mcp 2 (FastMCP → MCPServer, settings → run(), questions → resolvers)."""
    from .render import run_migrate

    targets = [str(p) for p in paths] if paths else ["."]
    raise typer.Exit(run_migrate(targets, diff=diff, exclude=exclude or []))
