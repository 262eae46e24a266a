"""`mcpdeps lint PATHS`: static check of Resolve(...) graphs; never imports user code."""

from __future__ import annotations

import enum
import sys
from pathlib import Path

import typer

from cli.errors import UserError


class Format(str, enum.Enum):
    full = "full"
    concise = "concise"
    json = "json"


class FailOn(str, enum.Enum):
    error = "error"
    warning = "warning"
    info = "info"


def _split(values: list[str] | None) -> list[str]:
    return [v.strip() for item in values or [] for v in item.split(",") if v.strip()]


def lint(
    paths: list[Path] = typer.Argument(None, help="Files or folders to check (default: the current folder)."),
    output_format: Format = typer.Option(Format.full, "--format", "--output-format", help="Output format."),
    select: list[str] = typer.Option(
        None, "--select", help="Rule codes, prefixes or names to run (comma-separated)."
    ),
    ignore: list[str] = typer.Option(None, "--ignore", help="Rule codes, prefixes or names to skip."),
    extend_select: list[str] = typer.Option(None, "--extend-select", help="Rules to add to the selection."),
    fail_on: FailOn = typer.Option(
        FailOn.error, "--fail-on", help="Lowest severity that makes the exit code 1."
    ),
    exit_zero: bool = typer.Option(False, "--exit-zero", help="Exit 0 even when diagnostics are found."),
    verbose: bool = typer.Option(False, "-v", "--verbose", help="Show tracebacks for internal errors."),
) -> None:
    """Check MCP servers for everything the SDK would refuse at registration, without importing them."""
    from lint_rules import lint as run_lint
    from lint_rules.registry import UnknownRule
    from resolver_core.diagnostics import SEVERITY_RANK

    try:
        result = run_lint(
            [str(p) for p in paths] if paths else ["."],
            select=_split(select) or None,
            ignore=_split(ignore),
            extend_select=_split(extend_select),
        )
    except UnknownRule as exc:
        raise UserError(str(exc)) from exc

    if output_format is Format.json:
        from cli.render_lint import to_json

        sys.stdout.write(to_json(result) + "\n")
    else:
        from rich.console import Console

        from cli.render_lint import render_diagnostics

        render_diagnostics(result, console=Console(highlight=False), fmt=output_format.value)

    threshold = SEVERITY_RANK[fail_on.value]
    failed = any(SEVERITY_RANK[d.severity] >= threshold for d in result.diagnostics)
    raise typer.Exit(1 if failed and not exit_zero else 0)
