"""`--env-file`: dotenv files loaded into the environment before the server is imported.

python-dotenv only logs a warning for a line it cannot parse and carries on,
which hides typos in secrets; we refuse the file instead and name the line.
Variables already set in the environment win (as with uvicorn's --env-file),
so a value exported in the shell can override the file.
"""

from __future__ import annotations

import io
import os
from collections.abc import Sequence
from pathlib import Path

from mcpdeps.cli.errors import UserError


def read_env_file(path: Path) -> dict[str, str]:
    """The variables of one dotenv file; a line that is not `KEY=VALUE` is an error."""
    from dotenv.parser import parse_stream

    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise UserError(f"Env file {path} does not exist.") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"Env file {path} cannot be read: {exc}.") from exc
    values: dict[str, str] = {}
    for binding in parse_stream(io.StringIO(text)):
        if binding.error:
            line = binding.original.line
            shown = binding.original.string.strip().splitlines()[0] if binding.original.string.strip() else ""
            raise UserError(
                f"Env file {path}, line {line} is not KEY=VALUE: {shown!r}. "
                "Fix the line (quote values with spaces or #) or remove it."
            )
        if binding.key is not None:
            values[binding.key] = binding.value or ""
    return values


def load_env_files(paths: Sequence[Path]) -> dict[str, str]:
    """Read every file (later files win among themselves), then export what the shell did not set."""
    merged: dict[str, str] = {}
    for path in paths:
        merged.update(read_env_file(path))
    for key, value in merged.items():
        os.environ.setdefault(key, value)
    return merged
