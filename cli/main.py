"""Entry point: builds the typer app and turns unexpected failures into exit 2.

Each command lives in its own module and is imported here; those modules keep
heavy imports (mcp, libcst) inside the command functions so that `mcpdeps lint`
starts fast.
"""

from __future__ import annotations

import gc
import os
import sys

# `lint` and `graph` never run user code, so pydantic plugins (found by scanning every
# installed distribution's entry points) have nothing to observe: skip that scan.
# `serve` and `call` import the user's server and keep the user's plugins.
# They also run once and exit with every syntax tree still alive: the cyclic collector
# would walk them all at each collection (importing rich to render the report after a
# 1,000-module run cost 1.6 s), and reference counting frees everything else.
# `lsp` never runs user code either, but lives for hours: it keeps the collector (and freezes
# its parsed project out of it, `cli/lsp/server.py`).
if len(sys.argv) > 1 and sys.argv[1] in ("lint", "graph", "rule", "lsp") and "--live" not in sys.argv:
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    if sys.argv[1] != "lsp":
        gc.disable()

try:
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
except KeyboardInterrupt:  # Ctrl+C while still starting up: the same quiet 130 as later on
    raise SystemExit(130) from None

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


def main() -> None:
    """Console-script entry point."""
    # File names that are not valid UTF-8 are printed as the file system has them, as `ls`
    # does, instead of failing every report under a strict UTF-8 locale.
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="surrogateescape")
    argv = sys.argv[1:]
    if wants_help(argv):  # built as `app(...)` would build it, then adjusted for this terminal
        import typer.main

        command = typer.main.get_command(app)
        prepare_help(command)
        run_guarded(command, argv)
    else:
        run_guarded(app, argv)
