"""`[tool.mcpdeps]`: the project's lint settings, found upward from the linted paths.

Validated with pydantic so that a typo is an error naming the key and the file
(exit 2) instead of a silently ignored setting. Rule selectors are checked
against the registry here too, for the same reason. Command-line flags are
merged on top by `merge` (flags win), the way ruff users expect.
"""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Literal

from mcpdeps.lint_rules.config_files import ConfigError, locate_config, read_toml, settings_table
from mcpdeps.resolver_core.suggest import did_you_mean
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError

FailOn = Literal["error", "warning", "info"]


class LintConfig(BaseModel):
    """The keys of `[tool.mcpdeps]` (kebab-case in TOML)."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    select: list[str] | None = Field(
        default=None, description="Rules to run (codes, prefixes like `MCPD1`, or names); default: all."
    )
    ignore: list[str] = Field(default=[], description="Rules to skip.")
    extend_select: list[str] = Field(
        default=[], alias="extend-select", description="Rules to add to `select`."
    )
    per_file_ignores: dict[str, list[str]] = Field(
        default={},
        alias="per-file-ignores",
        description="Glob (relative to the config file's folder) → rules to skip in matching files.",
    )
    exclude: list[str] = Field(default=[], description="Glob patterns of files and folders not to walk into.")
    extend_exclude: list[str] = Field(
        default=[], alias="extend-exclude", description="More patterns to exclude."
    )
    fail_on: FailOn = Field(
        default="error", alias="fail-on", description="Lowest severity that makes `lint` exit 1."
    )
    src: list[str] = Field(
        default=[],
        description="Extra source roots (relative to the config file) to find imported modules in.",
    )
    serve: Any = Field(default=None, description="The server `mcpdeps serve` runs (`file.py:object`).")

    _path: Path | None = PrivateAttr(default=None)

    @property
    def path(self) -> Path | None:
        """The file the settings came from (None: built-in defaults)."""
        return self._path

    @property
    def root(self) -> Path | None:
        """The folder relative paths in the file (src, per-file-ignores) are relative to."""
        return self._path.parent if self._path is not None else None


def _key_name(loc: Sequence[int | str]) -> str:
    first = str(loc[0]) if loc else "?"
    field = LintConfig.model_fields.get(first)
    name = field.alias if field is not None and field.alias else first
    return ".".join([name, *(str(p) for p in loc[1:])])


def _explain(error: ValidationError, path: Path, where: str) -> ConfigError:
    """One sentence per problem, naming the key and the file, with a suggestion for typos."""
    known = sorted(f.alias or n for n, f in LintConfig.model_fields.items())
    sentences = []
    for err in error.errors():
        if err["type"] == "extra_forbidden":
            key = ".".join(str(p) for p in err["loc"])  # as written: `fail_on` is unknown, `fail-on` is not
            hint = did_you_mean(key, known) or f" (known keys: {', '.join(known)})"
            sentences.append(f"unknown key {key!r}{hint}")
        else:
            key = _key_name(err["loc"])
            sentences.append(f"bad value for {key!r}: {err['msg']} (got {err.get('input')!r})")
    return ConfigError(f"Invalid configuration in {path} ({where}): {'; '.join(sentences)}.")


def _check_selectors(config: LintConfig, path: Path, where: str) -> None:
    """Every code, prefix or name in the file must name a rule: a typo would silently select nothing."""
    from mcpdeps.lint_rules.registry import UnknownRule, matching

    lists: list[tuple[str, Iterable[str]]] = [
        ("select", config.select or []),
        ("ignore", config.ignore),
        ("extend-select", config.extend_select),
        *((f"per-file-ignores.{pattern!r}", codes) for pattern, codes in config.per_file_ignores.items()),
    ]
    for key, selectors in lists:
        for selector in selectors:
            try:
                matching(selector)
            except UnknownRule:
                raise ConfigError(
                    f"Invalid configuration in {path} ({where}): {key} names {selector!r}, which is no "
                    "rule code, code prefix or rule name (see `mcpdeps rule --all`)."
                ) from None


def load_config(path: Path) -> LintConfig:
    """Read and validate one configuration file (`--config FILE`, or the one found upward)."""
    path = path.absolute()
    if path.is_dir():
        raise ConfigError(
            f"--config names the folder {path}; give a file in it (pyproject.toml, mcpdeps.toml "
            "or .mcpdeps.toml)."
        )
    if not path.exists():
        raise ConfigError(f"The configuration file {path} does not exist.")
    if not path.is_file():
        raise ConfigError(f"The configuration file {path} is not a regular file (a pipe or a device).")
    found = settings_table(path, read_toml(path))
    if found is None:
        raise ConfigError(f"The configuration file {path} has no [tool.mcpdeps] table.")
    table, where = found
    try:
        config = LintConfig.model_validate(table)
    except ValidationError as exc:
        raise _explain(exc, path, where) from None
    config._path = path
    _check_selectors(config, path, where)
    return config


def config_for(paths: Sequence[str | os.PathLike[str]], explicit: Path | None, cwd: Path) -> LintConfig:
    """The settings for a run: `--config FILE`, else the file found from the first linted path."""
    path = locate_config(paths, explicit, cwd)
    return load_config(path) if path is not None else default_config()


def default_config() -> LintConfig:
    """The built-in settings (no file): the defaults as they are, not validated.

    Validating them would build pydantic's validator for the model, and import its plugin
    machinery, on every run of a project without a config file: a tenth of a warm run.
    Equal to `LintConfig()` (`tests/test_diagnostics_plain.py`)."""
    return LintConfig.model_construct()


def per_file_ignored(config: LintConfig, display_path: str, code: str, cwd: Path) -> bool:
    """Whether `per-file-ignores` turns off `code` for a file (globs relative to the config's folder)."""
    if not config.per_file_ignores:
        return False
    from mcpdeps.lint_rules.registry import matching

    absolute = (cwd / display_path).absolute()
    root = config.root or cwd
    try:
        rel = absolute.relative_to(root).as_posix()
    except ValueError:
        rel = absolute.as_posix()
    for pattern, selectors in config.per_file_ignores.items():
        hit = fnmatch.fnmatch(rel, pattern) or fnmatch.fnmatch(absolute.name, pattern)
        if hit and any(code == rule.code for sel in selectors for rule in matching(sel)):
            return True
    return False
