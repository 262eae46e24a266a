"""`mcpdeps new` (placeholder until its issue lands)."""

import typer

app = typer.Typer(help="Scaffold a server, a tool or a resolver.", no_args_is_help=True)
