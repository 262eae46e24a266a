"""`mcpdeps lint`'s command line read without typer, for the runs that need no help and no error.

Why: typer builds a pydantic `TypeAdapter` per parameter before it calls the command, and
importing typer itself pulls click and pydantic's type machinery. Together that is about
0.3 s of every `lint` run, more than a warm run over 1,000 files costs, and what pre-commit
pays on every commit. ruff starts in milliseconds; a linter that runs on every save cannot
spend its budget on its own argument parser.

So `parse` reads the common, well-formed command lines itself and gives up (returns None)
on anything else: `--help`, an unknown option, a bad value, a missing one, `--`, combined
short flags. Then typer reads the line, and its help and error messages are the only ones
users ever see. The option table `OPTIONS` mirrors the typer command's parameters;
`tests/test_lint_argv.py` checks the two against each other, and that every line this
module accepts is read by typer into the very same values.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

Kind = Literal["flag", "value", "list", "int", "path"]

FORMATS = ("full", "concise", "json", "sarif", "github")
FAIL_ON = ("error", "warning", "info")


@dataclass(frozen=True, slots=True)
class Option:
    """One option of `mcpdeps lint`: its spellings, the parameter it fills, and what it takes."""

    names: tuple[str, ...]
    dest: str
    kind: Kind
    choices: tuple[str, ...] = ()


OPTIONS: tuple[Option, ...] = (
    Option(("--format", "--output-format"), "output_format", "value", FORMATS),
    Option(("--config",), "config_file", "path"),
    Option(("--select",), "select", "list"),
    Option(("--ignore",), "ignore", "list"),
    Option(("--extend-select",), "extend_select", "list"),
    Option(("--exclude",), "exclude", "list"),
    Option(("--extend-exclude",), "extend_exclude", "list"),
    Option(("--fail-on",), "fail_on", "value", FAIL_ON),
    Option(("--exit-zero",), "exit_zero", "flag"),
    Option(("--fix",), "fix", "flag"),
    Option(("--diff",), "diff", "flag"),
    Option(("--unsafe-fixes",), "unsafe_fixes", "flag"),
    Option(("--output-file", "-o"), "output_file", "path"),
    Option(("--statistics",), "statistics", "flag"),
    Option(("--stdin-filename",), "stdin_filename", "value"),
    Option(("--no-cache",), "no_cache", "flag"),
    Option(("--cache-dir",), "cache_dir", "path"),
    Option(("--jobs", "-j"), "jobs", "int"),
    Option(("-v", "--verbose"), "verbose", "flag"),
)
"""Every option of the typer command `cli/lint/command.py::lint`, in its order."""

_BY_NAME = {name: option for option in OPTIONS for name in option.names}


@dataclass(slots=True)
class LintArgs:
    """The parameters of one `mcpdeps lint` run, as typer hands them to the command."""

    paths: list[Path] | None = None
    output_format: str = "full"
    config_file: Path | None = None
    select: list[str] | None = None
    ignore: list[str] | None = None
    extend_select: list[str] | None = None
    exclude: list[str] | None = None
    extend_exclude: list[str] | None = None
    fail_on: Literal["error", "warning", "info"] | None = None  # one of FAIL_ON
    exit_zero: bool = False
    fix: bool = False
    diff: bool = False
    unsafe_fixes: bool = False
    output_file: Path | None = None
    statistics: bool = False
    stdin_filename: str | None = None
    no_cache: bool = False
    cache_dir: Path | None = None
    jobs: int = 0
    verbose: bool = False


def _value(option: Option, text: str) -> object | None:
    """The typed value of `text` for `option`; None when typer would refuse it (or might)."""
    if option.choices:
        return text if text in option.choices else None
    if option.kind == "int":
        return int(text) if text.isascii() and text.isdigit() else None
    if option.kind == "path":
        return Path(text) if text else None
    return text


def parse(argv: Sequence[str]) -> LintArgs | None:
    """The run's parameters, or None when typer must read this command line (help, errors, rarities)."""
    args = LintArgs()
    paths: list[Path] = []
    rest = list(argv)
    while rest:
        token = rest.pop(0)
        if not token.startswith("-"):
            if not token:
                return None
            paths.append(Path(token))
            continue
        name, eq, inline = token.partition("=")
        option = _BY_NAME.get(name if name.startswith("--") else token)
        if option is None:
            return None  # --help, -h, --, -, -j4, -vo, an unknown or misspelt option: typer's
        if option.kind == "flag":
            if eq:
                return None
            setattr(args, option.dest, True)
            continue
        if eq:
            text = inline
        elif rest and not rest[0].startswith("-"):
            text = rest.pop(0)
        else:
            return None  # a missing value, or one that looks like an option: typer decides
        value = _value(option, text)
        if value is None:
            return None
        if option.kind == "list":
            current = getattr(args, option.dest) or []
            setattr(args, option.dest, [*current, value])
        else:
            setattr(args, option.dest, value)
    args.paths = paths or None
    return args
