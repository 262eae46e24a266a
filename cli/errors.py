"""One place that decides how failures leave the process.

Contract: exit 2 with a one-paragraph message on stderr for usage, configuration
and internal errors; never a bare traceback unless `-v`/`--verbose` was given.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence

from ..lint_rules.request_error import RequestError


class UserError(RequestError):
    """An error whose message is meant for the user as is (exit 2).

    A `RequestError`, the engine's refusal of a request: both leave the command line alike,
    and the agent turns either into a tool error.
    """

    def __init__(self, message: str, exit_code: int = 2) -> None:
        super().__init__(message)
        self.exit_code = exit_code


def _printable_message(message: str) -> str:
    """A message's lines, with the control characters a file name can carry escaped."""
    from .printable import printable

    return "\n".join(printable(line) for line in message.split("\n"))


def _verbose(argv: Sequence[str]) -> bool:
    return any(a in ("-v", "--verbose") or (a.startswith("-v") and set(a[1:]) == {"v"}) for a in argv)


def _traceback_if_verbose(argv: Sequence[str]) -> None:
    """The traceback of the failure being handled, with `-v` (`traceback` is imported only to
    print one: every start-up imports this module)."""
    if _verbose(argv):
        import traceback

        traceback.print_exc()


def run_guarded(app: Callable[..., object], argv: Sequence[str]) -> None:
    """Run the typer app on `argv`; map exceptions to the contract's exit codes.

    Typed as a callable so that this module, imported by every engine for `UserError`,
    does not import typer (the editor and MCP front ends use the engines without it).
    """
    guarded(lambda: app(args=list(argv), prog_name="mcpdeps", standalone_mode=True), argv)


def guarded(run: Callable[[], object], argv: Sequence[str]) -> None:
    """Call `run` (a command, by typer or by the fast start); map exceptions to exit codes."""
    try:
        run()
    except SystemExit:
        raise
    except KeyboardInterrupt:
        sys.stderr.write("mcpdeps: interrupted\n")
        raise SystemExit(130) from None
    except RequestError as exc:
        _traceback_if_verbose(argv)
        sys.stderr.write(f"mcpdeps: error: {_printable_message(str(exc))}\n")
        raise SystemExit(exc.exit_code if isinstance(exc, UserError) else 2) from None
    except Exception as exc:
        if interrupted(exc):
            sys.stderr.write("mcpdeps: interrupted\n")
            raise SystemExit(130) from None
        _traceback_if_verbose(argv)
        sys.stderr.write(
            f"mcpdeps: internal error: {type(exc).__name__}: {exc}\n"
            "This is a bug in mcpdeps; run again with -v for the traceback and report it.\n"
        )
        raise SystemExit(2) from None


def interrupted(exc: BaseException) -> bool:
    """Whether `exc` wraps a Ctrl+C: Python re-raises one that lands in a descriptor's
    `__set_name__` (a dataclass field of a module being imported, libcst's for `--fix`) as a
    `RuntimeError` caused by it, and that is still the user's interrupt, not a bug."""
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, KeyboardInterrupt):
            return True
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return False
