"""`mcpdeps lint PATHS`: static check of Resolve(...) graphs; never imports user code.

The typer command: its parameters are the help and the errors users see. The run itself is
`run.run_lint`, which `cli/main.py` also calls without typer for the well-formed
command lines `argv.parse` reads (typer's own start-up is most of a warm run). Nothing heavy
is imported at module level, `mcp` never, and libcst only for `--fix`/`--diff` (and for
fixes of the `json`/`sarif` formats that need it).
"""

from __future__ import annotations

import enum
from pathlib import Path

import typer


class Format(str, enum.Enum):
    full = "full"
    concise = "concise"
    json = "json"
    sarif = "sarif"
    github = "github"


class FailOn(str, enum.Enum):
    error = "error"
    warning = "warning"
    info = "info"


def lint(
    paths: list[Path] = typer.Argument(None, help="Files or folders to check (default: the current folder)."),
    output_format: Format = typer.Option(Format.full, "--format", "--output-format", help="Output format."),
    config_file: Path = typer.Option(
        None, "--config", help="Settings file (default: [tool.mcpdeps] in the nearest pyproject.toml)."
    ),
    select: list[str] = typer.Option(
        None, "--select", help="Rule codes, prefixes or names to run (comma-separated)."
    ),
    ignore: list[str] = typer.Option(None, "--ignore", help="Rule codes, prefixes or names to skip."),
    extend_select: list[str] = typer.Option(None, "--extend-select", help="Rules to add to the selection."),
    exclude: list[str] = typer.Option(None, "--exclude", help="Glob patterns to skip (replaces the file's)."),
    extend_exclude: list[str] = typer.Option(None, "--extend-exclude", help="More glob patterns to skip."),
    fail_on: FailOn = typer.Option(None, "--fail-on", help="Lowest severity that makes the exit code 1."),
    exit_zero: bool = typer.Option(False, "--exit-zero", help="Exit 0 even when diagnostics are found."),
    fix: bool = typer.Option(False, "--fix", help="Apply the safe fixes and rewrite the files."),
    diff: bool = typer.Option(False, "--diff", help="Show the fixes as a unified diff; write nothing."),
    unsafe_fixes: bool = typer.Option(
        False,
        "--unsafe-fixes",
        help="With --fix or --diff, also the fixes that change behaviour (MCPD112, MCPD201-MCPD204).",
    ),
    output_file: Path = typer.Option(None, "--output-file", "-o", help="Write the report to this file."),
    statistics: bool = typer.Option(False, "--statistics", help="Count diagnostics per rule instead."),
    stdin_filename: str = typer.Option(
        None, "--stdin-filename", help="Read the source from stdin and lint it as this path."
    ),
    no_cache: bool = typer.Option(False, "--no-cache", help="Do not read or write the result cache."),
    cache_dir: Path = typer.Option(
        None, "--cache-dir", help="Cache folder (default: .mcpdeps_cache/ at the project root)."
    ),
    jobs: int = typer.Option(
        0, "--jobs", "-j", min=0, help="Worker processes for large runs (default 0: one per core)."
    ),
    verbose: bool = typer.Option(False, "-v", "--verbose", help="Show tracebacks for internal errors."),
) -> None:
    """Check MCP servers for everything the SDK would refuse at registration, without importing them."""
    from .argv import LintArgs
    from .run import run_lint

    args = LintArgs(
        paths=paths,
        output_format=output_format.value,
        config_file=config_file,
        select=select,
        ignore=ignore,
        extend_select=extend_select,
        exclude=exclude,
        extend_exclude=extend_exclude,
        fail_on=fail_on.value if fail_on is not None else None,
        exit_zero=exit_zero,
        fix=fix,
        diff=diff,
        unsafe_fixes=unsafe_fixes,
        output_file=output_file,
        statistics=statistics,
        stdin_filename=stdin_filename,
        no_cache=no_cache,
        cache_dir=cache_dir,
        jobs=jobs,
        verbose=verbose,
    )
    raise typer.Exit(run_lint(args))
