"""Where lint settings live: the configuration file found upward from a path, and its table.

Kept apart from `config.py`, which validates the table with pydantic: finding and reading
the file is all a warm run that replays its report needs (`cli/lint/report_memo.py` keys
the report by the file's bytes), and it must not import pydantic to do it.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..resolver_core import bounded_read, toml_text

CONFIG_NAMES = (".mcpdeps.toml", "mcpdeps.toml", "pyproject.toml")
"""Looked for in each folder, in this order; a pyproject.toml counts only with a [tool.mcpdeps] table."""


class ConfigError(ValueError):
    """A configuration file that cannot be used; the message names the file and the key."""


def read_toml(path: Path) -> dict[str, Any]:
    return parse_toml(path, _text(path))


def _text(path: Path) -> str:
    try:
        return bounded_read.read_text(path, f"the configuration file {path}")
    except bounded_read.Unreadable as exc:
        raise ConfigError(exc.sentence()) from exc


def parse_toml(path: Path, text: str) -> dict[str, Any]:
    """`text`, the file at `path`, parsed; its errors are sentences naming the file."""
    try:
        return toml_text.loads(text)
    except ValueError as exc:
        raise ConfigError(f"The configuration file {path} is not valid TOML: {exc}.") from exc


def settings_table(path: Path, data: dict[str, Any]) -> tuple[dict[str, Any], str] | None:
    """The mcpdeps settings in a parsed file, and how to name their table in messages."""
    if path.name == "pyproject.toml":
        tool = data.get("tool", {})  # any TOML parses: `tool = 3` too
        table = tool.get("mcpdeps") if isinstance(tool, dict) else None
        return (table, "[tool.mcpdeps]") if isinstance(table, dict) else None
    return data, "the top level"


def candidates(start: Path) -> list[Path]:
    """Every path a configuration file is looked for at, in lookup order: each of `CONFIG_NAMES`
    in `start`'s folder, then in each folder above. What `find_config` reads, and what a cache
    keyed by the settings (the report memo) or an editor watching them must look at."""
    start = start.absolute()
    folder = start if start.is_dir() else start.parent
    return [directory / name for directory in (folder, *folder.parents) for name in CONFIG_NAMES]


def search_start(paths: Sequence[str | os.PathLike[str]], cwd: Path) -> Path:
    """Where a run's configuration is looked for from: the first linted path (its folder when it
    does not exist yet), else `cwd`."""
    start = cwd / Path(paths[0]) if paths else cwd
    return start if start.exists() else start.parent


def find_config(start: Path) -> Path | None:
    """The nearest configuration file at or above `start` (a pyproject.toml only with [tool.mcpdeps]).

    A pyproject.toml that never spells `mcpdeps` holds no such table and is not parsed: most
    projects' file is one, and a small run need not import the TOML parser. (A quoted key may
    spell it with escapes, `"mcpdep\\u0073"`: a file with any `\\u` or `\\U` is parsed.)"""
    for candidate in candidates(start):
        if not candidate.is_file():
            continue
        if candidate.name != "pyproject.toml":
            return candidate
        text = _text(candidate)
        named = "mcpdeps" in text or "\\u" in text or "\\U" in text
        tool = parse_toml(candidate, text).get("tool", {}) if named else {}
        if isinstance(tool, dict) and "mcpdeps" in tool:
            return candidate
    return None


def locate_config(paths: Sequence[str | os.PathLike[str]], explicit: Path | None, cwd: Path) -> Path | None:
    """The file a run's settings come from: `--config FILE`, else the one found from the first
    linted path; None for the built-in settings."""
    if explicit is not None:
        return cwd / explicit
    return find_config(search_start(paths, cwd))
