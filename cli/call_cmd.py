"""`mcpdeps call` (placeholder until its issue lands)."""

import typer


def call() -> None:
    """Not implemented yet."""
    raise typer.Exit(2)
