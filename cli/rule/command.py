"""`mcpdeps rule MCPD001` / `mcpdeps rule --all`: a rule's documentation in the terminal.

The text is the same markdown as `docs/rules.md` (`lint_rules.docs`), rendered
by rich; codes and kebab names are both accepted, as everywhere else.
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

    from ...lint_rules.docs import rule_markdown
    from ...lint_rules.registry import ALL_RULES, UnknownRule, find_rule

    if all_rules == (code is not None):
        raise UserError("Give one rule code or name (`mcpdeps rule MCPD001`), or `--all`.")
    if all_rules:
        rules = list(ALL_RULES)
    else:
        try:
            rules = [find_rule(code)]
        except UnknownRule as exc:
            raise UserError(f"{exc}; `mcpdeps rule --all` lists every rule.") from exc
    console = Console()
    if not console.is_terminal:  # piped: the markdown itself, as `ruff rule` does (no padding to 80)
        import sys

        sys.stdout.write("\n".join(rule_markdown(r) for r in rules))
        return
    for r in rules:
        console.print(Markdown(rule_markdown(r)))
        console.print()
