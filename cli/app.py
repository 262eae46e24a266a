"""The typer app: every command and its help, built from the command modules.

`cli/main.py` (the entry point) imports it for every command line except the well-formed
`lint` ones, which start without typer (`cli/fast_start.py`). Each command module keeps its
heavy imports (mcp, libcst) inside the command function so that start-up stays short.
"""

from __future__ import annotations

import typer
from mcpdeps.cli.agent import command as mcp_cmd
from mcpdeps.cli.call import command as call_cmd
from mcpdeps.cli.errors import run_guarded
from mcpdeps.cli.graph import command as graph_cmd
from mcpdeps.cli.lint import command as lint_cmd
from mcpdeps.cli.lsp import command as lsp_cmd
from mcpdeps.cli.new import command as new_cmd
from mcpdeps.cli.render.help import prepare_help, wants_help
from mcpdeps.cli.rule import command as rule_cmd
from mcpdeps.cli.serve import command as serve_cmd

app = typer.Typer(
    name="mcpdeps",
    help="See and check the Resolve(...) dependency graphs of MCP servers (mcp 2.3.0).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        typer.echo(f"mcpdeps {version('mcpdeps')}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Show the version and exit."
    ),
) -> None:
    """See and check the Resolve(...) dependency graphs of MCP servers."""


app.command("lint")(lint_cmd.lint)
app.command("rule")(rule_cmd.rule)
app.command("graph")(graph_cmd.graph)
app.command("serve")(serve_cmd.serve)
app.command("call")(call_cmd.call)
app.command("mcp")(mcp_cmd.mcp)
app.command("lsp")(lsp_cmd.lsp)
app.add_typer(new_cmd.app, name="new")


def run_app(argv: list[str]) -> None:
    """Read `argv` with typer and run the command (help adjusted for this terminal first)."""
    if wants_help(argv):  # built as `app(...)` would build it, then adjusted for this terminal
        import typer.main

        command = typer.main.get_command(app)
        prepare_help(command)
        run_guarded(command, argv)
    else:
        run_guarded(app, argv)
