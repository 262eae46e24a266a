"""`mcpdeps lint` (placeholder until the core lands)."""

import typer


def lint() -> None:
    """Not implemented yet."""
    raise typer.Exit(2)
