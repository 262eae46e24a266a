"""Paths named on the command line: a missing one is a usage error (exit 2) for every command.

`lint` used to report a missing file as MCPD000 "cannot read file" with the advice to fix
its syntax (exit 1), while `graph` said "does not exist" (exit 2): one check, one sentence,
with the close name in the same folder when the path looks like a typo.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from ..resolver_core.suggest import did_you_mean_path
from .errors import UserError


def require_existing(paths: Iterable[str | os.PathLike[str]], cwd: Path) -> None:
    """Raise a `UserError` for the first path that does not exist (a dangling link does exist).

    A path in a folder the user may not enter is not missing: the command says it cannot be
    read (lint: MCPD000 "Permission denied") and checks the rest."""
    for p in paths:
        typed = os.fspath(p)
        try:
            os.lstat(cwd / typed)
        except PermissionError:
            continue
        except (OSError, ValueError):
            raise UserError(
                f"{typed} does not exist{did_you_mean_path(typed, cwd)}; give a Python file or a folder."
            ) from None
