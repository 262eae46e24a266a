"""`mcpdeps lint PATHS`: static check of Resolve(...) graphs; never imports user code.

Start-up is measured: nothing heavy is imported at module level, `mcp` never,
and libcst only for `--fix`/`--diff` (and to compute the edit lists of the
`json`/`sarif` formats when a diagnostic is fixable).
"""

from __future__ import annotations

import enum
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from mcpdeps.cli.lint.options import lint_settings

if TYPE_CHECKING:
    from mcpdeps.lint_rules import LintResult


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


def _read_stdin() -> tuple[str, str]:
    """Standard input decoded as if it were the file (BOM, PEP 263 cookie), whatever the locale.

    Also returns the codec that writes the text back byte for byte (`--fix` prints it). Bytes
    that are not valid in their encoding are kept (as surrogates) and reported by the parser.
    """
    import io
    import tokenize

    data = sys.stdin.buffer.read()
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return data.decode(encoding), encoding  # "utf-8-sig" drops a BOM here and writes it back
    except (SyntaxError, UnicodeDecodeError, LookupError):
        return data.decode("utf-8", "surrogateescape"), "utf-8"


def _split(values: list[str] | None) -> list[str]:
    return [v.strip() for item in values or [] for v in item.split(",") if v.strip()]


def _exit_code(result: LintResult, fail_on: str, exit_zero: bool) -> int:
    from mcpdeps.resolver_core.diagnostics import SEVERITY_RANK

    threshold = SEVERITY_RANK[fail_on]
    failed = any(SEVERITY_RANK[d.severity] >= threshold for d in result.diagnostics)
    return 1 if failed and not exit_zero else 0


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
    from mcpdeps.lint_rules.settings import run

    cwd = Path.cwd()
    overrides: dict[Path, str] | None = None
    stdin_encoding = "utf-8"
    targets = [str(p) for p in paths] if paths else ["."]
    if stdin_filename is None:
        from mcpdeps.cli.inputs import require_existing

        require_existing(targets, cwd)
    else:
        targets = [stdin_filename]
        source, stdin_encoding = _read_stdin()
        overrides = {(cwd / stdin_filename).absolute(): source}
    settings = lint_settings(
        targets,
        cwd,
        config_file=config_file,
        select=_split(select),
        ignore=_split(ignore),
        extend_select=_split(extend_select),
        exclude=_split(exclude) or None,
        extend_exclude=_split(extend_exclude),
        fail_on=fail_on.value if fail_on is not None else None,
    )
    if diff:
        from mcpdeps.cli.lint.render_fix import show_diff

        raise typer.Exit(show_diff(targets, settings, overrides=overrides, cwd=cwd))
    if fix:
        from mcpdeps.cli.lint.render_fix import apply_fixes

        result = apply_fixes(
            targets,
            settings,
            overrides=overrides,
            cwd=cwd,
            stdin=stdin_filename,
            stdin_encoding=stdin_encoding,
        )
    else:
        from mcpdeps.cli.lint.render_progress import lint_progress
        from mcpdeps.resolver_core.cache import default_cache_dir

        cache = None if no_cache else (cache_dir or default_cache_dir(cwd))
        with lint_progress() as progress:
            result = run(
                targets,
                settings,
                source_overrides=overrides,
                cwd=cwd,
                cache_dir=cache,
                progress=progress,
                jobs=jobs or os.cpu_count() or 1,
                fixes=output_format in (Format.json, Format.sarif) and not statistics,
            )
    from mcpdeps.cli.lint.render_text import write_report

    write_report(
        result,
        fmt=output_format.value,
        output_file=output_file,
        statistics=statistics,
        to_stderr=fix and stdin_filename is not None,
    )
    raise typer.Exit(_exit_code(result, settings.fail_on, exit_zero))
