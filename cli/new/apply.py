"""The last step of `new resolver` / `new tool`: show, re-lint, confirm, write.

A change is written only if the linter finds no `error` in the result (the SDK would refuse
such a server); `--dry-run` shows the diff and the verdict and writes nothing.
"""

from __future__ import annotations

from pathlib import Path

import typer
from mcpdeps.cli.errors import UserError
from mcpdeps.cli.new.files import SourceFile, read_source, write_or_explain
from mcpdeps.cli.new.output import note, show_diagnostics, show_diff
from mcpdeps.cli.new.prompts import confirm
from mcpdeps.cli.new.relint import Relint, relint


def refuse_if_errors(result: Relint, subject: str) -> None:
    """Exit 1 with the diagnostics when `subject` (the would-be result) would not pass `mcpdeps lint`."""
    if not result.available:
        note(
            "[dim]note: the linter (lint_rules.lint) is not available here; the result was not re-linted.[/]"
        )
        return
    if result.new_warnings:
        note(f"[yellow]{len(result.new_warnings)} lint warning(s) in the result (not blocking):[/]")
        show_diagnostics(result.new_warnings)
    if not result.errors:
        return
    show_diagnostics(result.errors)
    already = (
        f" ({result.preexisting} of them already there before this change)" if result.preexisting else ""
    )
    raise UserError(
        f"{subject} would not pass `mcpdeps lint`: {len(result.errors)} error(s){already}, "
        "so the SDK would refuse to register the server. Nothing was written.",
        exit_code=1,
    )


def apply_edit(
    source: SourceFile, display: str, new_text: str, *, what: str, dry_run: bool, interactive: bool
) -> None:
    """Show the diff when useful, refuse a result that would not lint, then write atomically."""
    if dry_run or interactive:
        show_diff(display, source.text, new_text)
    refuse_if_errors(relint([Path(display)], {source.path: new_text}), f"{display} with {what} added")
    if dry_run:
        note("Dry run: nothing was written.")
        return
    if interactive and not confirm(f"Write {display}?"):
        note("Nothing was written.")
        raise typer.Exit(1)
    if read_source(source.path) != source:
        raise UserError(f"{display} changed while mcpdeps was working on it; run the command again.")
    write_or_explain(source.path, new_text, bom=source.bom)
    note(f"Added {what} to {display}.")
