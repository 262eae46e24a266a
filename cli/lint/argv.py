"""`mcpdeps lint`'s parameters, each declared once, and its command line read without typer.

`LintArgs` is the declaration: its fields, in help order (the sections follow the first
field of each), are the typer command's parameters (`command.py`, `cli/typer_options.py`),
what the fast start reads (`parse`, `cli/fast_argv.py`) and what `run.run_lint`
receives. A new option is one field here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from ..fast_argv import read
from ..option_spec import Argument, Option, declared, option
from ..shared_options import DIFF, EXCLUDE, MISCELLANEOUS, VERBOSE

Format = Literal["full", "concise", "json", "sarif", "github"]
FailOn = Literal["error", "warning", "info"]

RULES, FILES, FIXES, OUTPUT = "Rule selection", "File selection", "Fixes", "Output"


@declared
class LintArgs:
    """The parameters of one `mcpdeps lint` run, as the command line gives them."""

    paths: list[Path] | None = option(
        Argument(None, "Files or folders to check (default: the current folder).")
    )
    select: list[str] | None = option(
        Option(
            ("--select",),
            None,
            "Rule codes, prefixes or names to run (comma-separated).",
            panel=RULES,
            metavar="RULES",
        )
    )
    ignore: list[str] | None = option(
        Option(("--ignore",), None, "Rule codes, prefixes or names to skip.", panel=RULES, metavar="RULES")
    )
    extend_select: list[str] | None = option(
        Option(("--extend-select",), None, "Rules to add to the selection.", panel=RULES, metavar="RULES")
    )
    fail_on: FailOn | None = option(
        Option(
            ("--fail-on",),
            None,
            "Lowest severity that makes the exit code 1.",
            panel=RULES,
            metavar="SEVERITY",
        )
    )
    exit_zero: bool = option(
        Option(("--exit-zero",), False, "Exit 0 even when diagnostics are found.", panel=RULES)
    )
    config_file: Path | None = option(
        Option(
            ("--config",),
            None,
            "Settings file (default: [tool.mcpdeps] in the nearest pyproject.toml).",
            panel=FILES,
            metavar="FILE",
        )
    )
    exclude: list[str] | None = option(
        dataclasses.replace(EXCLUDE, help="Glob patterns to skip (replaces the file's).", panel=FILES)
    )
    extend_exclude: list[str] | None = option(
        Option(("--extend-exclude",), None, "More glob patterns to skip.", panel=FILES, metavar="GLOBS")
    )
    stdin_filename: str | None = option(
        Option(
            ("--stdin-filename",),
            None,
            "Read the source from stdin and lint it as this path.",
            panel=FILES,
            metavar="PATH",
        )
    )
    fix: bool = option(Option(("--fix",), False, "Apply the safe fixes and rewrite the files.", panel=FIXES))
    diff: bool = option(
        dataclasses.replace(DIFF, help="Show the fixes as a unified diff; write nothing.", panel=FIXES)
    )
    unsafe_fixes: bool = option(
        Option(
            ("--unsafe-fixes",),
            False,
            "With --fix or --diff, also the fixes that change behaviour (MCPD112, MCPD201-MCPD204).",
            panel=FIXES,
        )
    )
    output_format: Format = option(
        Option(("--format", "--output-format"), "full", "Output format.", panel=OUTPUT)
    )
    output_file: Path | None = option(
        Option(("--output-file", "-o"), None, "Write the report to this file.", panel=OUTPUT, metavar="FILE")
    )
    statistics: bool = option(
        Option(("--statistics",), False, "Count diagnostics per rule instead.", panel=OUTPUT)
    )
    no_cache: bool = option(
        Option(("--no-cache",), False, "Do not read or write the result cache.", panel=MISCELLANEOUS)
    )
    cache_dir: Path | None = option(
        Option(
            ("--cache-dir",),
            None,
            "Cache folder (default: .mcpdeps_cache/ at the project root).",
            panel=MISCELLANEOUS,
            metavar="DIR",
        )
    )
    jobs: int = option(
        Option(
            ("--jobs", "-j"),
            0,
            "Worker processes for large runs (default 0: one per core).",
            panel=MISCELLANEOUS,
            metavar="N",
            minimum=0,
        )
    )
    verbose: bool = option(dataclasses.replace(VERBOSE, panel=MISCELLANEOUS))


def parse(argv: Sequence[str]) -> LintArgs | None:
    """The run's parameters, or None when typer must read this command line (help, errors, rarities)."""
    return read(argv, LintArgs)
