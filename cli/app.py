"""The typer app: every command and its help, built from the command modules.

`cli/main.py` (the entry point) imports it for every command line except the well-formed
`lint` ones, which start without typer (`cli/fast_start.py`). Each command module keeps its
heavy imports (mcp, libcst) inside the command function so that start-up stays short.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import typer

from .agent import command as mcp_cmd
from .call import command as call_cmd
from .errors import run_guarded
from .graph import command as graph_cmd
from .lint import command as lint_cmd
from .lsp import command as lsp_cmd
from .migrate import command as migrate_cmd
from .new import command as new_cmd
from .render.help import prepare_help, wants_help
from .render.usage_errors import plainly
from .rule import command as rule_cmd
from .serve import command as serve_cmd

COMMANDS: dict[str, Callable[..., object]] = {
    "lint": lint_cmd.lint,
    "rule": rule_cmd.rule,
    "graph": graph_cmd.graph,
    "serve": serve_cmd.serve,
    "call": call_cmd.call,
    "mcp": mcp_cmd.mcp,
    "lsp": lsp_cmd.lsp,
    "migrate": migrate_cmd.migrate,
}
"""The commands, in the order help lists them."""
GROUPS: dict[str, typer.Typer] = {"new": new_cmd.app}
"""The command groups (help lists them after the commands)."""


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        typer.echo(f"mcpdeps {version('mcpdeps')}")
        raise typer.Exit()


def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Show the version and exit."
    ),
) -> None:
    """See and check the Resolve(...) dependency graphs of MCP servers."""


def build_app(only: str | None = None) -> typer.Typer:
    """The typer app with every command, or with only the command or group `only`.

    Typer turns the app into click commands on every run, reading the signature and
    evaluating the annotations of every command: ~30 ms, against 1–10 ms for one command.
    A run that names its command needs only that one (and the root's `--version`), and
    reads and prints exactly what the whole app would: the group, its name and its
    options are the same, and a command is parsed on its own (`tests/test_one_command_app.py`).
    """
    built = typer.Typer(
        name="mcpdeps",
        help="See and check the Resolve(...) dependency graphs of MCP servers (mcp 2.3.0).",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        rich_markup_mode="rich",
    )
    built.callback()(_root)
    for name, function in COMMANDS.items():
        if only in (None, name):
            built.command(name)(function)
    for name, group in GROUPS.items():
        if only in (None, name):
            built.add_typer(group, name=name)
    return built


app = build_app()


def app_for(argv: Sequence[str]) -> typer.Typer:
    """The app that reads `argv`: one command's when `argv` starts with a command's name
    (that command's options, help and errors are its own), else the whole app (the root's
    help, which lists every command, its options, an unknown command)."""
    if argv and (argv[0] in COMMANDS or argv[0] in GROUPS):
        return build_app(only=argv[0])
    return app


def run_app(argv: list[str]) -> None:
    """Read `argv` with typer and run the command (help written by `render.help`, errors reworded)."""
    import typer.main

    command = typer.main.get_command(app_for(argv))  # what `app(...)` builds, then adjusted
    if wants_help(argv):
        prepare_help(command)
    reword_errors(command)
    run_guarded(command, argv)


def reword_errors(command: Any) -> None:
    """Wrap every option's value check in the command tree so its error reads `plainly`."""
    from typer._click.exceptions import BadParameter

    for param in getattr(command, "params", []):
        original = param.process_value

        def process_value(ctx: Any, value: Any, _original: Any = original) -> Any:
            try:
                return _original(ctx, value)
            except BadParameter as exc:
                exc.message = plainly(exc.message)
                raise

        param.process_value = process_value
    for sub in (getattr(command, "commands", None) or {}).values():
        reword_errors(sub)
