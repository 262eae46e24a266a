"""`mcpdeps rule MCPD001` / `mcpdeps rule --all`: a rule's documentation in the terminal.

The page is the engine's (`lint_rules.api.explain`, as the agent's `explain` tool gives it:
the markdown of `docs/rules.md`, one message for an unknown rule), rendered by rich; codes
and kebab names are both accepted, as everywhere else.
"""

from __future__ import annotations

import typer

from ..errors import UserError
from ..shared_options import VERBOSE
from ..typer_options import typer_option


def rule(
    code: str = typer.Argument(None, help="A rule code (MCPD001) or name (resolver-cycle)."),
    all_rules: bool = typer.Option(False, "--all", help="Show every rule."),
    verbose: bool = typer_option(VERBOSE),
) -> None:
    """Explain a rule: what it finds, why it matters, an example and its fix."""
    from rich.console import Console
    from rich.markdown import Markdown

    from ...lint_rules import api

    if all_rules == (code is not None):
        raise UserError("Give one rule code or name (`mcpdeps rule MCPD001`), or `--all`.")
    pages = api.rule_pages() if all_rules else [api.explain(code)]
    console = Console()
    if not console.is_terminal:  # piped: the markdown itself, as `ruff rule` does (no padding to 80)
        import sys

        sys.stdout.write("\n".join(page.markdown for page in pages))
        return
    for page in pages:
        console.print(Markdown(page.markdown))
        console.print()
