"""`mcpdeps rule` (placeholder until its issue lands)."""

import typer


def rule() -> None:
    """Not implemented yet."""
    raise typer.Exit(2)
