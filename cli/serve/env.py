"""`--env-file`: dotenv files loaded into the environment before the server is imported.

python-dotenv only logs a warning for a line it cannot parse and carries on,
which hides typos in secrets; we refuse the file instead and name the line.
Variables already set in the environment win (as with uvicorn's --env-file),
so a value exported in the shell can override the file.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Sequence
from pathlib import Path

from ...resolver_core import bounded_read
from ..errors import UserError


def read_env_file(path: Path) -> dict[str, str]:
    """The variables of one dotenv file; a line that is not `KEY=VALUE` is an error.

    The error names the line and its key, never its value: an env file holds secrets, and
    error output ends up in CI logs and terminal scrollback.
    """
    from dotenv.parser import parse_stream

    try:
        text = bounded_read.read_text(path, f"env file {path}")
    except bounded_read.Unreadable as exc:
        raise UserError(exc.sentence()) from exc
    values: dict[str, str] = {}
    for binding in parse_stream(io.StringIO(text)):
        if binding.error:
            line = binding.original.line
            raise UserError(
                f"Env file {path}, line {line} is not KEY=VALUE{_key_of(binding.original.string)} "
                "(its value is not shown). Fix the line (quote values with spaces or #) or remove it."
            )
        if binding.key is not None:
            values[binding.key] = binding.value or ""
    return values


def _key_of(line: str) -> str:
    """` (key 'NAME')` for the name a broken line starts with, if it starts with one."""
    match = re.match(r"\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)", line)
    return f" (key {match[1]!r})" if match else ""


def load_env_files(paths: Sequence[Path]) -> dict[str, str]:
    """Read every file (later files win among themselves), then export what the shell did not set."""
    merged: dict[str, str] = {}
    for path in paths:
        merged.update(read_env_file(path))
    for key, value in merged.items():
        os.environ.setdefault(key, value)
    return merged
