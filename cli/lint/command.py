"""`mcpdeps lint PATHS`: static check of Resolve(...) graphs; never imports user code.

The typer command, made of the declared parameters `argv.LintArgs` (their help and errors are
what users see). The run itself is `run.run_lint`, which `cli/main.py` also calls
without typer for the well-formed command lines `argv.parse` reads (typer's own start-up is
most of a warm run). Nothing heavy is imported at module level, `mcp` never, and libcst only
for `--fix`/`--diff` (and for fixes of the `json`/`sarif` formats that need it).
"""

from __future__ import annotations

import typer

from ..typer_options import command_of
from .argv import LintArgs


@command_of(LintArgs)
def lint(args: LintArgs) -> None:
    """Check MCP servers for everything the SDK would refuse at registration, without importing them."""
    from .run import run_lint

    raise typer.Exit(run_lint(args))
