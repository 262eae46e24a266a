"""Asking for what is missing, only on a terminal.

`--yes`, or standard input/output not being a terminal (CI, pipes, tests), means never ask: a
missing value is then an error that names the option to pass.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from rich.prompt import Confirm, Prompt

from ..errors import UserError
from .render import out


def is_interactive(yes: bool) -> bool:
    """Prompts are allowed: no `--yes`, and both ends are a terminal."""
    return not yes and sys.stdin.isatty() and sys.stdout.isatty()


def ask(value: str | None, question: str, option: str, interactive: bool, default: str | None = None) -> str:
    """`value` if given; else ask on a terminal; else refuse, naming `option`."""
    if value:
        return value
    if not interactive:
        raise UserError(f"{option} is required (nothing is asked without a terminal, or with --yes).")
    while True:
        answer = (
            Prompt.ask(question, console=out(), default=default)
            if default
            else Prompt.ask(question, console=out())
        )
        if answer and answer.strip():
            return answer.strip()


def choose(question: str, choices: Sequence[str], option: str, interactive: bool) -> str:
    """One of `choices`, asked on a terminal; else refuse, naming `option` and the choices."""
    if not interactive:
        raise UserError(f"{option} is required here; choose one of: {', '.join(choices)}.")
    return Prompt.ask(question, console=out(), choices=list(choices), default=choices[0])


def confirm(question: str, default: bool = True) -> bool:
    """A yes/no question (only called when interactive)."""
    return Confirm.ask(question, console=out(), default=default)
