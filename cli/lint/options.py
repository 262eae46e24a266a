"""The settings of one lint run: the config file found for its paths, the rule flags checked and laid on top.

An engine (no typer, no rich): `mcpdeps lint` and `mcpdeps mcp`'s `lint` and `fix` tools build
their settings here, so they judge exactly alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import UserError

if TYPE_CHECKING:
    from ...lint_rules.config import FailOn as FailOnLevel
    from ...lint_rules.config import LintConfig
    from ...lint_rules.settings import Settings


def _config(paths: list[str], config_file: Path | None, cwd: Path) -> LintConfig:
    """The config file (explicit or found upward from the first path); a bad one exits 2."""
    from ...lint_rules.config import config_for
    from ...lint_rules.config_files import ConfigError

    try:
        return config_for(paths, config_file, cwd)
    except ConfigError as exc:
        raise UserError(str(exc)) from exc


def check_selectors(flags: dict[str, list[str]]) -> None:
    """A rule flag naming no rule is a usage error (exit 2), not a silently empty selection."""
    from ...lint_rules.registry import UnknownRule, matching

    for flag, selectors in flags.items():
        for selector in selectors:
            try:
                matching(selector)
            except UnknownRule as exc:
                raise UserError(f"{flag}: {exc}.") from exc


def lint_settings(
    targets: list[str],
    cwd: Path,
    *,
    config_file: Path | None = None,
    select: Sequence[str] = (),
    ignore: Sequence[str] = (),
    extend_select: Sequence[str] = (),
    exclude: list[str] | None = None,
    extend_exclude: Sequence[str] = (),
    fail_on: FailOnLevel | None = None,
) -> Settings:
    """The run's settings: the config file found for `targets`, the rule flags checked and laid on top.

    Shared with `mcpdeps mcp`, whose `lint` and `fix` tools must judge exactly as the command does.
    """
    from ...lint_rules.settings import merge

    check_selectors(
        {"--select": list(select), "--ignore": list(ignore), "--extend-select": list(extend_select)}
    )
    return merge(
        _config(targets, config_file, cwd),
        select=list(select) or None,
        ignore=list(ignore),
        extend_select=list(extend_select),
        exclude=exclude,
        extend_exclude=list(extend_exclude),
        fail_on=fail_on,
    )
