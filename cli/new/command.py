"""`mcpdeps new`: scaffold a server project, or add a resolver or a tool to an existing module.

Only typer signatures live here; the work is in the modules beside it, imported inside each
command so that libcst is not loaded when another command (notably `lint`) starts.

The terminal side (rich, prompts): `terminal` (the three flows: show / re-lint / confirm /
write), `prompts` (asking for what is missing), `render` (diffs, file trees, diagnostics).
The engines, which take no typer and no rich (the editor and MCP front ends call them too):
- `specs`: parsing option values; `module_info`: what the edited module contains (libcst);
  `name_checks`: the refusals
- `codegen`: the new code's text; `imports` and `insertion`: splicing it in with libcst
- `plans`: request + module -> new text; `relint`: lint the would-be result
- `files`: exact reads and atomic writes; `project` and `templates/server/`: `new server`
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Annotated

import typer

from ..shared_options import VERBOSE
from ..typer_options import typer_option

app = typer.Typer(help="Scaffold a server, a tool or a resolver.", no_args_is_help=True)

DryRun = Annotated[bool, typer.Option("--dry-run", help="Show the diff (or the file tree); write nothing.")]
Yes = Annotated[bool, typer.Option("--yes", "-y", help="Never prompt (also the case without a terminal).")]
NEW_VERBOSE = replace(VERBOSE, help="Show the traceback when something fails.")
InFile = Annotated[
    str | None, typer.Option("--in", metavar="FILE", help="The module to add to (asked on a terminal).")
]
WithContext = Annotated[bool, typer.Option("--context", help="Add a `ctx: Context` parameter.")]
Sync = Annotated[bool, typer.Option("--sync", help="A plain `def` instead of `async def`.")]


@app.command("server")
def server(
    name: Annotated[
        str | None, typer.Argument(help="Project name: the folder and the server's name.")
    ] = None,
    directory: Annotated[Path, typer.Option("--dir", help="Where to create the project folder.")] = Path("."),
    force: Annotated[
        bool, typer.Option("--force", help="Write into a non-empty folder (our files only).")
    ] = False,
    dry_run: DryRun = False,
    yes: Yes = False,
    verbose: bool = typer_option(NEW_VERBOSE),
) -> None:
    """Create NAME/ with src/NAME/server.py, tests, pyproject.toml, README.md and a pre-commit config."""
    from .terminal import new_server

    new_server(name, directory, force=force, dry_run=dry_run, yes=yes)


@app.command("resolver")
def resolver(
    name: Annotated[str | None, typer.Argument(help="The resolver function's name.")] = None,
    module: InFile = None,
    args: Annotated[
        list[str] | None,
        typer.Option("--arg", metavar="NAME[:TYPE]", help="A tool argument it reads by name."),
    ] = None,
    context: WithContext = False,
    depends: Annotated[
        list[str] | None,
        typer.Option(
            "--depends", metavar="PARAM=RESOLVER[:TYPE]", help="A parameter filled by another resolver."
        ),
    ] = None,
    returns: Annotated[
        str | None, typer.Option("--returns", metavar="TYPE", help="Return type (default str).")
    ] = None,
    elicit: Annotated[
        str | None,
        typer.Option("--elicit", metavar="MODEL", help="Ask the user for a MODEL (created if missing)."),
    ] = None,
    sample: Annotated[bool, typer.Option("--sample", help="Ask the client's LLM (returns Sample).")] = False,
    list_roots: Annotated[bool, typer.Option("--list-roots", help="Ask the client for its roots.")] = False,
    sync: Sync = False,
    dry_run: DryRun = False,
    yes: Yes = False,
    verbose: bool = typer_option(NEW_VERBOSE),
) -> None:
    """Insert a resolver function before the first tool of a module."""
    from .terminal import new_resolver

    new_resolver(
        name,
        module,
        args=args or [],
        context=context,
        depends=depends or [],
        returns=returns,
        elicit=elicit,
        sample=sample,
        list_roots=list_roots,
        sync=sync,
        dry_run=dry_run,
        yes=yes,
    )


@app.command("tool")
def tool(
    name: Annotated[
        str | None, typer.Argument(help="The tool function's name (also the tool's name).")
    ] = None,
    module: InFile = None,
    server: Annotated[
        str | None, typer.Option("--server", metavar="VAR", help="The server variable, if there are several.")
    ] = None,
    args: Annotated[
        list[str] | None,
        typer.Option("--arg", metavar="NAME:TYPE", help="A tool argument (the model fills it)."),
    ] = None,
    resolves: Annotated[
        list[str] | None,
        typer.Option("--resolve", metavar="PARAM=RESOLVER[:TYPE]", help="A parameter filled by a resolver."),
    ] = None,
    context: WithContext = False,
    sync: Sync = False,
    dry_run: DryRun = False,
    yes: Yes = False,
    verbose: bool = typer_option(NEW_VERBOSE),
) -> None:
    """Insert a tool after the last tool of its server, before a trailing main block."""
    from .terminal import new_tool

    new_tool(
        name,
        module,
        server=server,
        args=args or [],
        resolves=resolves or [],
        context=context,
        sync=sync,
        dry_run=dry_run,
        yes=yes,
    )
