"""`[tool.mcpdeps]`: the project's lint settings, found upward from the linted paths.

Validated with pydantic so that a typo is an error naming the key and the file
(exit 2) instead of a silently ignored setting. Rule selectors are checked
against the registry here too, for the same reason. Command-line flags are
merged on top by `merge` (flags win), the way ruff users expect.
"""

from __future__ import annotations

import fnmatch
import functools
import os
import typing
from collections.abc import Iterable, Sequence
from dataclasses import MISSING, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from ..resolver_core.records import record
from ..resolver_core.suggest import did_you_mean
from .config_files import ConfigError, locate_config, read_toml, settings_table

if TYPE_CHECKING:
    from dataclasses import Field

    from pydantic import BaseModel, ValidationError

FailOn = Literal["error", "warning", "info"]


def _about(description: str, alias: str | None = None) -> dict[str, str | None]:
    """A key's metadata: what the docs say of it, and its spelling in TOML when that is not
    the field's name."""
    return {"description": description, "alias": alias}


@record(kw_only=True)
class LintConfig:
    """The keys of `[tool.mcpdeps]` (kebab-case in TOML), as validated, and the file they came from.

    A dataclass, validated by a pydantic model derived from it (`_table_model`) only when a
    file is read: the built-in settings of a project without one cost no pydantic import.
    """

    select: list[str] | None = field(
        default=None, metadata=_about("Rules to run (codes, prefixes like `MCPD1`, or names); default: all.")
    )
    ignore: list[str] = field(default_factory=list, metadata=_about("Rules to skip."))
    extend_select: list[str] = field(
        default_factory=list, metadata=_about("Rules to add to `select`.", "extend-select")
    )
    per_file_ignores: dict[str, list[str]] = field(
        default_factory=dict,
        metadata=_about(
            "Glob (relative to the config file's folder) → rules to skip in matching files.",
            "per-file-ignores",
        ),
    )
    exclude: list[str] = field(
        default_factory=list, metadata=_about("Glob patterns of files and folders not to walk into.")
    )
    extend_exclude: list[str] = field(
        default_factory=list, metadata=_about("More patterns to exclude.", "extend-exclude")
    )
    fail_on: FailOn = field(
        default="error", metadata=_about("Lowest severity that makes `lint` exit 1.", "fail-on")
    )
    src: list[str] = field(
        default_factory=list,
        metadata=_about("Extra source roots (relative to the config file) to find imported modules in."),
    )
    serve: Any = field(default=None, metadata=_about("The server `mcpdeps serve` runs (`file.py:object`)."))
    path: Path | None = None
    """The file the settings came from (None: built-in defaults)."""

    @property
    def root(self) -> Path | None:
        """The folder relative paths in the file (src, per-file-ignores) are relative to."""
        return self.path.parent if self.path is not None else None


KEYS = tuple(f for f in fields(LintConfig) if "description" in f.metadata)
"""The table's keys, in order (the docs list them so)."""


def key_name(f: Field[Any]) -> str:
    """How a key is spelt in TOML."""
    return f.metadata["alias"] or f.name


@functools.cache
def _table_model() -> type[BaseModel]:
    """The pydantic model that validates a table: `LintConfig`'s keys, with their TOML
    spellings, and no other key (a typo is an error, not an ignored setting)."""
    from pydantic import ConfigDict, create_model
    from pydantic import Field as Key

    hints = typing.get_type_hints(LintConfig)

    def key(f: Field[Any]) -> Any:
        where = {"alias": f.metadata["alias"], "description": f.metadata["description"]}
        if f.default_factory is not MISSING:
            return Key(default_factory=f.default_factory, **where)
        return Key(default=f.default, **where)

    return create_model(  # type: ignore[call-overload, no-any-return]
        "LintConfigTable",
        __config__=ConfigDict(extra="forbid", frozen=True),
        **{f.name: (hints[f.name], key(f)) for f in KEYS},
    )


def _key_name(loc: Sequence[int | str]) -> str:
    first = str(loc[0]) if loc else "?"
    named = {f.name: key_name(f) for f in KEYS}
    return ".".join([named.get(first, first), *(str(p) for p in loc[1:])])


def _explain(error: ValidationError, path: Path, where: str) -> ConfigError:
    """One sentence per problem, naming the key and the file, with a suggestion for typos."""
    known = sorted(key_name(f) for f in KEYS)
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
    from .registry import UnknownRule, matching

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
    from pydantic import ValidationError

    try:
        validated = _table_model().model_validate(table)
    except ValidationError as exc:
        raise _explain(exc, path, where) from None
    config = LintConfig(**{f.name: getattr(validated, f.name) for f in KEYS}, path=path)
    _check_selectors(config, path, where)
    return config


def config_for(paths: Sequence[str | os.PathLike[str]], explicit: Path | None, cwd: Path) -> LintConfig:
    """The settings for a run: `--config FILE`, else the file found from the first linted path."""
    path = locate_config(paths, explicit, cwd)
    return load_config(path) if path is not None else default_config()


def default_config() -> LintConfig:
    """The built-in settings (no file)."""
    return LintConfig()


def per_file_ignored(config: LintConfig, display_path: str, code: str, cwd: Path) -> bool:
    """Whether `per-file-ignores` turns off `code` for a file (globs relative to the config's folder)."""
    if not config.per_file_ignores:
        return False
    from .registry import matching

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
