"""`mcpdeps graph` (placeholder until its issue lands)."""

import typer


def graph() -> None:
    """Not implemented yet."""
    raise typer.Exit(2)
