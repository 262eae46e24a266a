"""The `mcpdeps lint` command's run: its parameters in, the engine asked, the report and exit code out.

Both ways into `lint` end here: the typer command (`command.py`, for every command line)
and the fast start (`cli/main.py` with `argv.parse`, for the well-formed ones), so a run
judges, prints and exits alike whichever read its command line. The judging is the
engine's (`lint_rules.api`: settings, lint, fix plan); what is left here is the command
line's own: standard input, the report memo, the renderers and the exit code. It imports
no typer.
"""

from __future__ import annotations

import functools
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

if TYPE_CHECKING:
    from collections.abc import Callable

    from ...lint_rules import LintResult
    from .argv import LintArgs

FIXES_LISTED_BY = ("json", "sarif")
"""The formats whose documents list each diagnostic's fix (only they compute fixes)."""


def _read_stdin() -> tuple[str, str]:
    """Standard input decoded as if it were the file (BOM, PEP 263 cookie), whatever the locale.

    Also returns the codec that writes the text back byte for byte (`--fix` prints it). Bytes
    that are not valid in their encoding are kept (as surrogates) and reported by the parser.
    """
    import io
    import tokenize

    data = sys.stdin.buffer.read()
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return data.decode(encoding), encoding  # "utf-8-sig" drops a BOM here and writes it back
    except (SyntaxError, UnicodeDecodeError, LookupError):
        return data.decode("utf-8", "surrogateescape"), "utf-8"


def _split(values: list[str] | None) -> list[str]:
    return [v.strip() for item in values or [] for v in item.split(",") if v.strip()]


def _exit_code(result: LintResult, fail_on: str, exit_zero: bool) -> int:
    from ...resolver_core.diagnostics import SEVERITY_RANK

    threshold = SEVERITY_RANK[fail_on]
    failed = any(SEVERITY_RANK[d.severity] >= threshold for d in result.diagnostics)
    return 1 if failed and not exit_zero else 0


def run_lint(args: LintArgs, leave: Callable[[int], NoReturn] | None = None) -> int:
    """Check, report, and return the exit code (0 clean, 1 findings at `--fail-on`, 2 via UserError).

    `leave`: what ends the process with the code, called once the report is written and the
    cache stored, while this frame still holds the run's result (`cli.fast_start`). The result
    holds the whole build (its graph); let go, it is freed one object at a time, about 4% of a
    `-j 1` run's instructions on a 250-module tree, spent after the report."""
    code, _built = _run(args)
    if leave is not None:
        leave(code)
    return code


def _run(args: LintArgs) -> tuple[int, LintResult | None]:
    """The exit code, and the result the run built (none for a replayed report or `--diff`)."""
    cwd = Path.cwd()
    overrides: dict[Path, str] | None = None
    stdin_encoding = "utf-8"
    targets = [str(p) for p in args.paths] if args.paths else ["."]
    if args.stdin_filename is None:
        from ..inputs import require_existing

        require_existing(targets, cwd)
    else:
        targets = [args.stdin_filename]
        source, stdin_encoding = _read_stdin()
        overrides = {(cwd / args.stdin_filename).absolute(): source}
    cache = _cache_dir(args, cwd)
    memo, files = None, None
    if cache is not None:
        from . import report_memo

        memo = report_memo.open_memo(args, targets, cwd, cache)
        if memo is not None:
            found = report_memo.replay(memo, targets, cwd)
            if found.report is not None:
                from .render_report import write_text

                text, code = found.report
                write_text(text, args.output_file)
                return code, None
            files = found.files
    from ...lint_rules import api  # (a replayed report needs none of the engine)

    request = api.LintRequest(
        targets,
        cwd,
        config_file=args.config_file,
        select=_split(args.select),
        ignore=_split(args.ignore),
        extend_select=_split(args.extend_select),
        exclude=_split(args.exclude) or None,
        extend_exclude=_split(args.extend_exclude),
        fail_on=args.fail_on,
        texts=overrides,
    )
    settings = api.settings_for(request)
    if args.diff:
        from .render_fix import show_diff

        return show_diff(request, settings, unsafe=args.unsafe_fixes), None
    if args.fix:
        from .render_fix import apply_fixes

        result = apply_fixes(
            request,
            settings,
            stdin=args.stdin_filename,
            stdin_encoding=stdin_encoding,
            unsafe=args.unsafe_fixes,
        )
    else:
        from .render_progress import lint_progress
        from .render_report import load_renderer

        with lint_progress() as progress:
            result = api.lint(
                request,
                settings,
                cache_dir=cache,
                progress=progress,
                jobs=args.jobs or os.cpu_count() or 1,
                fixes=args.output_format in FIXES_LISTED_BY and not args.statistics,
                files=files,
                meanwhile=functools.partial(load_renderer, args.output_format),
            )
    from .render_report import write_report

    if result.skipped is not None:
        print(f"mcpdeps: info: {result.skipped}", file=sys.stderr)
    text = write_report(
        result,
        fmt=args.output_format,
        output_file=args.output_file,
        statistics=args.statistics,
        to_stderr=args.fix and args.stdin_filename is not None,
    )
    code = _exit_code(result, settings.fail_on, args.exit_zero)
    # Keyed again: the key was taken before the settings were read, and a configuration saved
    # in between would keep a report of the new settings under the old bytes (replayed on undo).
    if (
        memo is not None
        and result.seen is not None
        and report_memo.open_memo(args, targets, cwd, memo.cache_dir) == memo
    ):
        report_memo.keep(memo, text, code, result.seen, settings.exclude, [str(s) for s in settings.src])
    return code, result


def _cache_dir(args: LintArgs, cwd: Path) -> Path | None:
    """The lint cache's folder: `--cache-dir`, else `.mcpdeps_cache/` at the project root."""
    if args.no_cache:
        return None
    from ...resolver_core.cache import default_cache_dir

    return args.cache_dir or default_cache_dir(cwd)
