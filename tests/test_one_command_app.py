"""A command line that names its command is read by an app of that one command
(`cli/app.py: app_for`), and prints exactly what the whole app prints.

Both apps run here, in this process, on the same command lines: real runs, usage errors
of each command (missing arguments, unknown options, bad choices), unknown subcommands of
`new`, and the root's own errors. Exit code, standard output and standard error must be
the same bytes.
"""

from __future__ import annotations

import contextlib
import io
import os
from collections.abc import Iterator, Sequence

import pytest
import typer.main
from conftest import REPO
from mcpdeps.cli.app import COMMANDS, GROUPS, app, app_for
from mcpdeps.cli.errors import run_guarded
from mcpdeps.cli.render.help import prepare_help, wants_help

LINES = [
    ("graph", "--format", "json", "examples/bookshop/server.py"),
    ("graph", "examples/bookshop/server.py"),
    ("graph", "--format", "nope", "examples/bookshop/server.py"),
    ("graph", "--format", "mermaid", "examples/bookshop"),
    ("graph", "--bogus", "x.py"),
    ("graph", "--python", "python3", "examples/bookshop/server.py"),
    ("graph", "--version"),
    ("rule", "MCPD001"),
    ("rule", "NOPE"),
    ("rule",),
    ("lint", "--format", "yaml"),
    ("lint", "--jobs", "many", "examples/bookshop"),
    ("new", "tool"),
    ("new", "bogus"),
    ("new", "tool", "restock", "--in", "missing.py", "--arg", "qty:int"),
    ("new", "server"),
    ("serve", "--transport", "carrier-pigeon", "x.py"),
    ("serve",),
    ("call",),
    ("call", "examples/bookshop/server.py"),
    ("mcp", "--bogus"),
    ("lsp", "--bogus"),
    ("lsp", "extra"),
    ("migrate", "--bogus"),
    ("migrate", "missing.py"),
    ("migrate", "--help"),
    ("graph", "--help"),
    ("lint", "--help"),
    ("rule", "-h"),
    ("serve", "--help"),
    ("call", "examples/bookshop/server.py", "--help"),
    ("mcp", "--help"),
    ("lsp", "--help"),
    ("new",),
    ("new", "--help"),
    ("new", "tool", "--help"),
    ("new", "resolver", "-h"),
]


@contextlib.contextmanager
def _in_repo() -> Iterator[None]:
    before = os.getcwd()
    os.chdir(REPO)
    try:
        yield
    finally:
        os.chdir(before)


def _run(which: typer.Typer, argv: Sequence[str]) -> tuple[int, str, str]:
    """`run_app`'s two paths, with the app given: help (prepared for the terminal) or the run."""
    out, err = io.StringIO(), io.StringIO()
    code = 0
    with _in_repo(), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            if wants_help(argv):
                command = typer.main.get_command(which)
                prepare_help(command)
                run_guarded(command, list(argv))
            else:
                run_guarded(which, list(argv))
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("argv", LINES, ids=" ".join)
def test_one_command_prints_what_the_whole_app_prints(argv: tuple[str, ...]) -> None:
    assert _run(app_for(argv), argv) == _run(app, argv)


def test_every_command_and_group_is_covered() -> None:
    assert {line[0] for line in LINES} == set(COMMANDS) | set(GROUPS)


def test_a_named_command_builds_only_itself_and_the_rest_the_whole_app() -> None:
    for name in [*COMMANDS, *GROUPS]:
        assert set(typer.main.get_group(app_for([name, "x"])).commands) == {name}
    for argv in ([], ["--version"], ["frobnicate"], ["--help"], ["-h", "graph"]):
        assert app_for(argv) is app
