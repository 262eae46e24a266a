"""Lint what `new` would write, before writing it.

The static linter (`lint_rules.lint`) models every registration error the SDK raises, so a
result with an `error` diagnostic is a server that would not start: `new` refuses it. The
would-be text is passed through `source_overrides`, so nothing touches the disk first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class Relint:
    """The outcome: `available` is False while the linter is not installed in this checkout."""

    available: bool
    errors: list[Any] = field(default_factory=list)  # lint_rules Diagnostic objects
    preexisting: int = 0  # how many of `errors` were already there before the change
    new_warnings: list[Any] = field(default_factory=list)  # warnings/infos the change introduces


def _key(diagnostic: Any) -> tuple[str, str, str]:
    """Identity of a diagnostic that survives line shifts caused by the insertion."""
    return (diagnostic.code, str(diagnostic.path), diagnostic.message)


def _lint_function() -> Any | None:
    try:
        from ...lint_rules import lint
    except ImportError:
        return None
    return lint


def relint(
    paths: Sequence[Path], overrides: Mapping[Path, str] | None = None, *, before: bool = True
) -> Relint:
    """Diagnostics for `paths` with `overrides` applied, compared with the files as they are.

    The comparison (a second lint, only when the result has any diagnostic) tells which errors
    were already there and which warnings the change brings.
    """
    lint = _lint_function()
    if lint is None:
        return Relint(available=False)
    resolved = {p.resolve(): text for p, text in (overrides or {}).items()}
    after = lint(list(paths), source_overrides=resolved).diagnostics
    errors = [d for d in after if d.severity == "error"]
    old: set[tuple[str, str, str]] = set()
    if after and before and overrides:
        old = {_key(d) for d in lint(list(paths)).diagnostics}
    return Relint(
        available=True,
        errors=errors,
        preexisting=sum(1 for d in errors if _key(d) in old),
        new_warnings=[d for d in after if d.severity != "error" and _key(d) not in old],
    )
